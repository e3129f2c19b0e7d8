// Package webui is assay's web page for people: ask a question and watch
// the loop work, read the cited passages and the trace, run a batch. It is
// plain HTML, CSS and JavaScript embedded in the binary (no build step, no
// CDN), and the page calls only the public /v1 API with the caller's key,
// so it shows nothing an API client could not fetch.
//
// The gateway mounts Handler at GET / and GET /ui/*.
package webui

import (
	"embed"
	"encoding/json"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strings"
)

//go:embed static
var static embed.FS

// Config is what the page needs to know beyond the API.
type Config struct {
	// TemporalUIURL is the Temporal Web UI's base address
	// (http://127.0.0.1:8233); empty hides the links to it.
	TemporalUIURL string `json:"temporal_ui_url,omitempty"`
	// Namespace is the Temporal namespace the runs live in.
	Namespace string `json:"namespace"`
}

// views are the page's own addresses; each serves index.html and the
// script shows the view.
var views = regexp.MustCompile(`^/ui/(batch|releases|questions/[A-Za-z0-9._:-]{1,200}|batches/[A-Za-z0-9._:-]{1,200})$`)

// securityHeaders keep the page to its own origin: no inline script, no
// third-party anything, no framing, and no Referer that could carry a
// question to another site.
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
		"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
	"Referrer-Policy":        "no-referrer",
	"X-Content-Type-Options": "nosniff",
	"X-Frame-Options":        "DENY",
	"Cache-Control":          "no-cache",
}

// Handler serves the page: / and the views under /ui/ are index.html,
// /ui/static/ the embedded files, /ui/config.json cfg.
func Handler(cfg Config) http.Handler {
	files, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	index, err := fs.ReadFile(files, "index.html")
	if err != nil {
		panic(err)
	}
	cfg.TemporalUIURL = strings.TrimRight(cfg.TemporalUIURL, "/")
	conf, err := json.Marshal(cfg)
	if err != nil {
		panic(err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range securityHeaders {
			w.Header().Set(k, v)
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			notFound(w, r)
			return
		}
		p := r.URL.Path
		switch {
		case p == "/" || p == "/ui/" || p == "/ui" || views.MatchString(p):
			serve(w, "text/html; charset=utf-8", index)
		case p == "/ui/config.json":
			serve(w, "application/json", conf)
		case strings.HasPrefix(p, "/ui/static/"):
			name := strings.TrimPrefix(path.Clean(p), "/ui/static/")
			b, err := fs.ReadFile(files, name)
			if err != nil || name == "index.html" {
				notFound(w, r)
				return
			}
			ct := mime.TypeByExtension(path.Ext(name))
			if ct == "" {
				ct = "application/octet-stream"
			}
			serve(w, ct, b)
		default:
			notFound(w, r)
		}
	})
}

func serve(w http.ResponseWriter, contentType string, b []byte) {
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(http.StatusOK)
	w.Write(b) //nolint:errcheck // the client went away
}

// notFound answers in the API's error shape.
func notFound(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	b, _ := json.Marshal(map[string]any{"error": map[string]string{
		"code": "not_found", "message": "no page " + r.URL.Path,
	}})
	w.Write(b) //nolint:errcheck // the client went away
}
