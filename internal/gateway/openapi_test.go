package gateway

import (
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/assay-rag/assay/internal/webui"
	"github.com/assay-rag/assay/internal/wire"
)

// TestOpenAPIRoutes checks every registered route against the document and
// every documented operation against the routes.
func TestOpenAPIRoutes(t *testing.T) {
	doc := loadOpenAPI(t)
	h := newHarness(t, func(o *Options) { o.Page = webui.Handler(webui.Config{}) })
	ginParam := regexp.MustCompile(`[:*]([A-Za-z_]+)`)
	var routes, documented []string
	for _, r := range h.srv.engine.Routes() {
		routes = append(routes, r.Method+" "+ginParam.ReplaceAllString(r.Path, "{$1}"))
	}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented = append(documented, strings.ToUpper(method)+" "+path)
		}
	}
	slices.Sort(routes)
	slices.Sort(documented)
	if diff := cmp.Diff(documented, routes); diff != "" {
		t.Errorf("routes and openapi.json differ (-documented +registered):\n%s", diff)
	}
}

// TestOpenAPIStopReasons keeps the documented stop reasons equal to the
// workflow's.
func TestOpenAPIStopReasons(t *testing.T) {
	doc := loadOpenAPI(t)
	var documented []string
	for _, v := range doc.Components.Schemas["StopReason"].Value.Enum {
		documented = append(documented, v.(string))
	}
	var want []string
	for _, s := range wire.StopReasons {
		want = append(want, string(s))
	}
	slices.Sort(documented)
	slices.Sort(want)
	if diff := cmp.Diff(want, documented); diff != "" {
		t.Errorf("StopReason enum in openapi.json differs from wire.StopReasons (-workflows +doc):\n%s", diff)
	}
}

func TestServeOpenAPI(t *testing.T) {
	h := newHarness(t)
	r := h.call(http.MethodGet, "/openapi.json", "", "")
	if r.Status != 200 || r.Header.Get("Content-Type") != "application/json" || string(r.Body) != string(OpenAPI()) {
		t.Errorf("GET /openapi.json = %d %s", r.Status, r.Header.Get("Content-Type"))
	}
}

// TestDumpOpenAPI writes the served document to $ASSAY_OPENAPI_OUT, for
// tools that read it from a file (`make lint-openapi` runs Redocly's
// linter on it). Without the variable it does nothing.
func TestDumpOpenAPI(t *testing.T) {
	out := os.Getenv("ASSAY_OPENAPI_OUT")
	if out == "" {
		t.Skip("ASSAY_OPENAPI_OUT is not set")
	}
	if err := os.WriteFile(out, OpenAPI(), 0o644); err != nil {
		t.Fatal(err)
	}
}
