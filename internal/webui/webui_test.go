package webui

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

func get(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec
}

func TestHandlerServesThePage(t *testing.T) {
	h := Handler(Config{TemporalUIURL: "http://127.0.0.1:8233/", Namespace: "default"})
	for _, p := range []string{"/", "/?q=how+long", "/ui/", "/ui/batch", "/ui/questions/6215b58e-c635-4de6-a9a5-91bde334c890", "/ui/batches/b-1"} {
		rec := get(t, h, p)
		if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") || !strings.Contains(rec.Body.String(), `<script src="/ui/static/app.js"`) {
			t.Errorf("GET %s = %d %s; want the page", p, rec.Code, rec.Header().Get("Content-Type"))
		}
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "connect-src 'self'") {
			t.Errorf("GET %s: Content-Security-Policy %q does not keep the page to its origin", p, csp)
		}
		if rec.Header().Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("GET %s: Referrer-Policy %q", p, rec.Header().Get("Referrer-Policy"))
		}
	}
	for p, ct := range map[string]string{"/ui/static/app.js": "text/javascript", "/ui/static/app.css": "text/css"} {
		if rec := get(t, h, p); rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), ct) {
			t.Errorf("GET %s = %d %s; want %s", p, rec.Code, rec.Header().Get("Content-Type"), ct)
		}
	}
	rec := get(t, h, "/ui/config.json")
	var cfg Config
	if err := json.Unmarshal(rec.Body.Bytes(), &cfg); err != nil || cfg.TemporalUIURL != "http://127.0.0.1:8233" || cfg.Namespace != "default" {
		t.Errorf("GET /ui/config.json = %d %s; want the UI URL without its trailing slash", rec.Code, rec.Body)
	}
	for _, p := range []string{"/ui/nope", "/ui/static/missing.js", "/ui/static/../webui.go", "/ui/static/index.html", "/ui/questions/a/b"} {
		if rec := get(t, h, p); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `"not_found"`) {
			t.Errorf("GET %s = %d %s; want a JSON 404", p, rec.Code, rec.Body)
		}
	}
}

// TestPageIsSelfContained: every file the page references is its own, and
// the API key goes only into the Authorization header.
func TestPageIsSelfContained(t *testing.T) {
	ref := regexp.MustCompile(`(?:src|href)="([^"]*)"`)
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(static, p)
		if err != nil {
			return err
		}
		for _, m := range ref.FindAllStringSubmatch(string(b), -1) {
			if u := m[1]; !strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "#") && u != "data:," {
				t.Errorf("%s refers to %q: the page must load nothing from elsewhere", p, u)
			}
		}
		if strings.Contains(string(b), "@import") || strings.Contains(string(b), "new EventSource") {
			t.Errorf("%s uses @import or EventSource (which cannot send the key in a header)", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	js, _ := fs.ReadFile(static, "static/app.js")
	uses := regexp.MustCompile(`getKey\(\)`).FindAllIndex(js, -1)
	if len(uses) == 0 {
		t.Fatal("app.js never reads the key")
	}
	// Every read of the key either tests it or puts it in the header.
	for _, u := range uses {
		line := string(js[max(0, u[0]-80):min(len(js), u[1]+60)])
		if !strings.Contains(line, `"Bearer " + k`) && !strings.Contains(line, "getKey() ?") && !strings.Contains(line, "setKey(getKey())") && !strings.Contains(line, "const k = getKey()") {
			t.Errorf("app.js reads the key here; check it stays out of URLs and logs:\n%s", line)
		}
	}
	if regexp.MustCompile(`console\.`).Match(js) {
		t.Error("app.js logs to the console")
	}
}

// TestDocumentLinks: a source's document URL becomes a link only when it
// is http: or https:; anything else (javascript:, data:, relative) is
// shown as text. It runs app.js's webURL in node.
func TestDocumentLinks(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("SKIPPED: node is not installed; install Node.js to run app.js's webURL")
	}
	js, _ := fs.ReadFile(static, "static/app.js")
	fn := regexp.MustCompile(`(?s)\n  function webURL\(u\) \{.*?\n  \}\n`).Find(js)
	if fn == nil {
		t.Fatal("app.js has no webURL(u): document links take src.url as it is")
	}
	if strings.Contains(string(js), "href: src.url") {
		t.Error("app.js links src.url without webURL")
	}
	cases := map[string]string{
		"https://docs.example/warranty":     "https://docs.example/warranty",
		"http://docs.example/a?b=c":         "http://docs.example/a?b=c",
		"javascript:alert(1)":               "",
		" JavaScript:alert(1)":              "",
		"data:text/html,<script>x</script>": "",
		"vbscript:x":                        "",
		"/relative/doc":                     "",
		"":                                  "",
	}
	var in []string
	for u := range cases {
		in = append(in, u)
	}
	prog := string(fn) + "\nconst urls = " + mustJSON(t, in) + ";\nprocess.stdout.write(JSON.stringify(urls.map(webURL)));\n"
	out, err := exec.Command(node, "-e", prog).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node printed %q: %v", out, err)
	}
	for i, u := range in {
		if got[i] != cases[u] {
			t.Errorf("webURL(%q) = %q; want %q", u, got[i], cases[u])
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestQueryLinkWaitsForAClick: /?q= fills the question box and waits; it
// does not ask (issue 21: a link on another site asked on opening, and so
// spent a signed-in tab's key and budget). It runs app.js's route() in
// node against a minimal fake of the page (its elements and fetch) and checks that nothing was posted.
func TestQueryLinkWaitsForAClick(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("SKIPPED: node is not installed; install Node.js to run app.js's route")
	}
	js, _ := fs.ReadFile(static, "static/app.js")
	fn := regexp.MustCompile(`(?s)\n  function route\(\) \{.*?\n  \}\n`).Find(js)
	if fn == nil {
		t.Fatal("app.js has no route()")
	}
	prog := `
const els = {};
const el = (id) => els[id] || (els[id] = { id, hidden: false, value: "", focused: false, focus() { this.focused = true; } });
const $ = el;
const document = { title: "", querySelectorAll: () => [] };
const location = { pathname: "/", search: "?q=how+long+is+the+warranty" };
let current = null, asked = [];
function hideError() {}
function openQuestion() {} function openBatch() {}
function ask(q) { asked.push(q); }
` + string(fn) + `
route();
process.stdout.write(JSON.stringify({ asked, value: el("question").value, focused: el("question").focused }));
`
	out, err := exec.Command(node, "-e", prog).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got struct {
		Asked   []string `json:"asked"`
		Value   string   `json:"value"`
		Focused bool     `json:"focused"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node printed %q: %v", out, err)
	}
	if len(got.Asked) != 0 {
		t.Errorf("/?q= asked %q on opening; it must fill the box and wait for a click", got.Asked)
	}
	if got.Value != "how long is the warranty" || !got.Focused {
		t.Errorf("/?q=: box %q (focused %v); want the question in the focused box", got.Value, got.Focused)
	}
}
