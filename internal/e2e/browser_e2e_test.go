package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/llm/llmtest"
	"github.com/assay-rag/assay/internal/webui"
)

// The web page's end-to-end tests drive a real headless Chromium against
// `assay dev`. They need a browser: Debian's `chromium` package (what
// .ci/run installs), or ASSAY_CHROMIUM naming one.

// Keys of the browser tests.
const (
	uiKeyPublic  = "ui-public-key-0123456789"
	uiKeyStaff   = "ui-staff-key-0123456789"
	uiKeyLimited = "ui-limited-key-0123456789"
	uiKeyOps     = "ui-operator-key-0123456789"
)

// chromiumPath finds a browser or skips loudly.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("ASSAY_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("ASSAY_CHROMIUM=%s: %v", p, err)
		}
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("SKIPPED: browser tests need Chromium: apt-get install chromium, or set ASSAY_CHROMIUM to a Chrome/Chromium binary")
	return ""
}

// newBrowser starts a headless Chromium with a fresh profile and returns a
// tab's context, ended with the test.
func newBrowser(t *testing.T, width, height int) context.Context {
	t.Helper()
	path := chromiumPath(t)
	// Not t.TempDir: Chromium may still be writing its profile as the
	// test's cleanup removes the directory.
	profile, err := os.MkdirTemp("", "assay-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(profile),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.WindowSize(width, height),
		// chromedp waits 20 s for the browser's DevTools address by default;
		// beside the other e2e stacks on a 2-core machine Chromium once took
		// longer to start (round 29's last CI run).
		chromedp.WSURLReadTimeout(90 * time.Second),
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	// This chromedp's protocol types predate some of Chromium's newer
	// event fields; it logs each event it cannot decode, none of which the
	// tests use.
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithErrorf(func(string, ...any) {}))
	t.Cleanup(func() {
		cancel()
		acancel()
		for range 20 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	return ctx
}

// do runs browser actions with a timeout, failing the test on error and
// saving a screenshot of what the page showed.
func do(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 45*time.Second)
	defer cancel()
	if err := chromedp.Run(tctx, actions...); err != nil {
		var text string
		_ = chromedp.Run(ctx, chromedp.Text("body", &text, chromedp.ByQuery))
		t.Fatalf("%s: %v\npage text:\n%s", what, err, text)
	}
}

// screenshot writes the page to $ASSAY_SCREENSHOTS/name.png when set.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("ASSAY_SCREENSHOTS")
	if dir == "" {
		return
	}
	var png []byte
	do(t, ctx, "screenshot", chromedp.FullScreenshot(&png, 100))
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Error(err)
	}
}

// useKey enters key through the page's key form, as a person would.
func useKey(t *testing.T, ctx context.Context, base, key string) {
	t.Helper()
	do(t, ctx, "enter the API key",
		chromedp.Navigate(base+"/ui/batch"),
		chromedp.WaitVisible("#key-button", chromedp.ByID),
		chromedp.Click("#key-button", chromedp.ByID),
		chromedp.WaitVisible("#key-input", chromedp.ByID),
		chromedp.SendKeys("#key-input", key, chromedp.ByID),
		chromedp.Click(`#key-form button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitNotVisible("#key-panel", chromedp.ByID),
	)
}

// askOnPage opens /?q=question, clicks Ask and waits for the result.
func askOnPage(t *testing.T, ctx context.Context, base, question string) {
	t.Helper()
	do(t, ctx, "ask "+question,
		chromedp.Navigate(base+"/?q="+strings.ReplaceAll(question, " ", "+")),
		chromedp.Click("#ask-button", chromedp.ByID), // /?q= fills the box; asking takes a click
		chromedp.WaitVisible("#result", chromedp.ByID),
		chromedp.WaitVisible("#trace-body section", chromedp.ByQuery),
	)
}

// pageHTML is everything the page holds, shown or hidden.
func pageHTML(t *testing.T, ctx context.Context) string {
	t.Helper()
	var html string
	do(t, ctx, "read the page", chromedp.OuterHTML("html", &html, chromedp.ByQuery))
	return html
}

func uiConfig(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "assay.yaml")
	body := fmt.Sprintf(`http:
  temporal_ui_url: http://127.0.0.1:8233
auth:
  keys:
    - name: ui-reader
      sha256: %s
      groups: [public]
    - name: ui-staff
      sha256: %s
      groups: [public, partners, staff]
    - name: ui-limited
      sha256: %s
      groups: [public]
      rate_per_minute: 1
    - name: ui-operator
      sha256: %s
      groups: [public, operators]
batch:
  concurrency: 1
  continue_after: 1000
`, auth.Hash(uiKeyPublic), auth.Hash(uiKeyStaff), auth.Hash(uiKeyLimited), auth.Hash(uiKeyOps))
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBrowser drives the web page in headless Chromium against assay dev
// with API keys: the answer and its cited passage, the not-found
// explanation, the trace, access control as the page shows it, API errors
// in words, a batch with its cancel confirmation, and a 360 px screen.
func TestBrowser(t *testing.T) {
	chromiumPath(t) // skip before starting a stack
	dir := t.TempDir()
	s := startDev(t, filepath.Join(dir, "data"), "--config", uiConfig(t, dir))
	if !strings.Contains(s.stdout.String(), "web page     "+s.URL+"/") {
		t.Errorf("assay dev's start-up lines do not give the page's address first:\n%s", s.stdout.String())
	}
	ctx := newBrowser(t, 1280, 1000)
	useKey(t, ctx, s.URL, uiKeyPublic)

	t.Run("answer with a cited passage", func(t *testing.T) { browserAnswer(t, ctx, s) })
	t.Run("not found", func(t *testing.T) { browserNotFound(t, ctx, s) })
	t.Run("restricted documents stay hidden", func(t *testing.T) { browserRestricted(t, ctx, s) })
	t.Run("batch", func(t *testing.T) { browserBatch(t, ctx, s, dir) })
	t.Run("errors in words", func(t *testing.T) { browserErrors(t, s) })
	t.Run("narrow screen", func(t *testing.T) { browserNarrow(t, s) })
	t.Run("releases", func(t *testing.T) { browserReleases(t, s) })

	// The key lived in the tab's session storage and went out only in
	// headers: no log line of the stack holds it.
	var stored string
	do(t, ctx, "read session storage", chromedp.Evaluate(`sessionStorage.getItem("assay.apiKey")`, &stored))
	if stored != uiKeyPublic {
		t.Errorf("session storage holds %q, want the key entered", stored)
	}
	if !strings.Contains(s.stderr.String(), "/v1/questions") {
		t.Fatal("assay dev's access log is not in its stderr; the check below would prove nothing")
	}
	for _, k := range []string{uiKeyPublic, uiKeyStaff, uiKeyLimited, uiKeyOps} {
		if strings.Contains(s.stderr.String(), k) || strings.Contains(s.stdout.String(), k) {
			t.Errorf("assay dev's output holds the API key %q", k)
		}
	}
}

func browserAnswer(t *testing.T, ctx context.Context, s *devStack) {
	askOnPage(t, ctx, s.URL, "how many years is the X300 Pro motor covered for")
	var stop, answer, cites, loc, links, facts string
	do(t, ctx, "read the result",
		chromedp.Text("#stop", &stop, chromedp.ByID),
		chromedp.Text("#answer", &answer, chromedp.ByID),
		chromedp.Text("#citations", &cites, chromedp.ByID),
		chromedp.Text("#links", &links, chromedp.ByID),
		chromedp.Text("#facts", &facts, chromedp.ByID),
		chromedp.Location(&loc),
	)
	if !strings.Contains(stop, "Answered") || !strings.Contains(answer, "5 years") {
		t.Errorf("stop %q, answer %q; want Answered and the 5-year warranty", stop, answer)
	}
	if !strings.Contains(cites, "Warranty terms (2026)") {
		t.Errorf("citations %q; want Warranty terms (2026)", cites)
	}
	if !strings.Contains(loc, "/ui/questions/") || strings.Contains(loc, uiKeyPublic) {
		t.Errorf("address after asking = %q; want the run's page, without the key", loc)
	}
	if !strings.Contains(links, "Temporal Web UI") || !strings.Contains(facts, "attempts") || !strings.Contains(facts, "tokens") || !strings.Contains(facts, "release") || !strings.Contains(facts, "initial") {
		t.Errorf("links %q, facts %q; want the Temporal link, attempts, tokens and release initial", links, facts)
	}
	var href string
	do(t, ctx, "read the Temporal link", chromedp.AttributeValue("#temporal-link", "href", &href, nil, chromedp.ByID))
	if id := loc[strings.LastIndex(loc, "/")+1:]; href != "http://127.0.0.1:8233/namespaces/default/workflows/"+id {
		t.Errorf("Temporal Web UI link = %q; want the run %s under http.temporal_ui_url", href, id)
	}
	// The answer's marker for the warranty document opens its passage.
	var label string
	do(t, ctx, "find the warranty citation", chromedp.Evaluate(`(() => {
		const li = [...document.querySelectorAll("#citations li")].find((l) => l.textContent.includes("Warranty terms (2026)"));
		return li ? li.id.replace("cite-", "") : "";
	})()`, &label))
	if label == "" {
		t.Fatal("no citation list item for Warranty terms (2026)")
	}
	var title, meta, passage, active string
	do(t, ctx, "click the answer's citation marker",
		chromedp.Click(`#answer a.cite[data-label="`+label+`"]`, chromedp.ByQuery),
		chromedp.WaitVisible("#passage-text p", chromedp.ByQuery),
		chromedp.Text("#passage-title", &title, chromedp.ByID),
		chromedp.Text("#passage-meta", &meta, chromedp.ByID),
		chromedp.Text("#passage-text", &passage, chromedp.ByID),
		chromedp.Evaluate(`document.activeElement.id`, &active),
	)
	if !strings.Contains(title, "Warranty terms (2026)") || !strings.Contains(meta, "current") || !strings.Contains(passage, "5 years") {
		t.Errorf("passage: title %q, meta %q, text %q; want the warranty passage, current, with 5 years", title, meta, passage)
	}
	if active != "passage" {
		t.Errorf("focus after opening a passage is on %q, want the passage", active)
	}
	var back string
	do(t, ctx, "close the passage with Escape",
		chromedp.KeyEvent(kb.Escape),
		chromedp.WaitNotVisible("#passage", chromedp.ByID),
		chromedp.Evaluate(`document.activeElement.dataset.label || ""`, &back),
	)
	if back != label {
		t.Errorf("after Escape focus is on %q; want back on citation marker %s", back, label)
	}
	// The trace: the attempt, its stages and the route decisions.
	var trace string
	do(t, ctx, "open the trace",
		chromedp.Click("#trace summary", chromedp.ByQuery),
		chromedp.Text("#trace-body", &trace, chromedp.ByID),
	)
	for _, want := range []string{"Attempt 1", "Query:", "Assessment: score", "rule", "kept #1", "bm25", "Stop reason"} {
		if !strings.Contains(trace, want) {
			t.Errorf("trace lacks %q:\n%s", want, trace)
		}
	}
	checkContrast(t, ctx, "the answer page")
	screenshot(t, ctx, "answer")
}

// contrastJS lists the visible elements whose own text has a WCAG contrast
// ratio under 4.5:1 against the first opaque background behind it.
const contrastJS = `(() => {
	const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
	const lum = ([r, g, b]) => {
		const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
		return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
	};
	const bg = (el) => {
		for (let e = el; e; e = e.parentElement) {
			const c = rgb(getComputedStyle(e).backgroundColor);
			if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) return c.slice(0, 3);
		}
		return [255, 255, 255];
	};
	const bad = [];
	for (const el of document.querySelectorAll("body *")) {
		const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
		if (!own || !el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
		const a = lum(rgb(getComputedStyle(el).color)), b = lum(bg(el));
		const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
		if (ratio < 4.5) bad.push(el.tagName + "." + el.className + " " + ratio.toFixed(2) + ": " + el.textContent.trim().slice(0, 40));
	}
	return bad;
})()`

// checkContrast fails the test for text under 4.5:1 contrast.
func checkContrast(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	var bad []string
	do(t, ctx, "measure contrast", chromedp.Evaluate(contrastJS, &bad))
	for _, b := range bad {
		t.Errorf("%s: low contrast text %s", what, b)
	}
}

func browserNotFound(t *testing.T, ctx context.Context, s *devStack) {
	// Asked from the keyboard: type, Enter.
	do(t, ctx, "ask from the keyboard",
		chromedp.Navigate(s.URL+"/"),
		chromedp.WaitVisible("#question", chromedp.ByID),
		chromedp.SendKeys("#question", "what is the capital of Peru\r", chromedp.ByID),
		chromedp.WaitVisible("#result", chromedp.ByID),
	)
	var stop, answer, cites string
	do(t, ctx, "read the result",
		chromedp.Text("#stop", &stop, chromedp.ByID),
		chromedp.Text("#answer", &answer, chromedp.ByID),
		chromedp.Text("#citations", &cites, chromedp.ByID),
	)
	if !strings.Contains(stop, "Not found in the documents") || !strings.Contains(stop, "insufficient_context") || !strings.Contains(stop, "Try naming the product") {
		t.Errorf("stop box %q; want the not-found explanation with what to try", stop)
	}
	if !strings.Contains(answer, "could not find an answer") || !strings.Contains(cites, "Nothing cited") {
		t.Errorf("answer %q, citations %q; want the not-found text and nothing cited", answer, cites)
	}
	checkContrast(t, ctx, "the not-found page")
	screenshot(t, ctx, "not-found")
}

// browserRestricted asks as staff for a staff-only bulletin, then checks
// that the public key's page shows none of the documents it may not see:
// not when asking the same question, not when opening the staff run.
func browserRestricted(t *testing.T, ctx context.Context, s *devStack) {
	const q = "X300 Pro pump replacement bulletin"
	code, _, body := httpCall(t, http.MethodPost, s.URL+"/v1/questions?wait=30s", uiKeyStaff, "application/json", `{"question":"`+q+`"}`)
	var staff struct {
		ID        string `json:"id"`
		Citations []struct {
			DocID string `json:"doc_id"`
		} `json:"citations"`
	}
	if err := json.Unmarshal(body, &staff); err != nil || code != http.StatusOK {
		t.Fatalf("staff ask = %d %s", code, body)
	}
	if !slices.ContainsFunc(staff.Citations, func(c struct {
		DocID string `json:"doc_id"`
	}) bool {
		return c.DocID == "sb-112"
	}) {
		t.Fatalf("the staff key's answer does not cite sb-112 (%s): the test needs a question it does", body)
	}

	ids, sentences := forbidden(t, []string{"public"})
	titles := forbiddenTitles(t, []string{"public"})
	check := func(what, html string) {
		t.Helper()
		for _, s := range slices.Concat(ids, titles, sentences) {
			if strings.Contains(html, s) {
				t.Errorf("%s: the public key's page holds %q", what, s)
			}
		}
	}
	askOnPage(t, ctx, s.URL, q)
	do(t, ctx, "open the trace", chromedp.Click("#trace summary", chromedp.ByQuery))
	check("asking "+q, pageHTML(t, ctx))

	var alert string
	do(t, ctx, "open the staff run",
		chromedp.Navigate(s.URL+"/ui/questions/"+staff.ID),
		// Whatever the page shows, an alert or a result, is checked below.
		chromedp.Poll(`!document.getElementById("alert").hidden || !document.getElementById("result").hidden`, nil, chromedp.WithPollingTimeout(20*time.Second)),
		chromedp.Text("#alert", &alert, chromedp.ByID),
	)
	if !strings.Contains(alert, "Not found (404)") {
		t.Errorf("the public key opening the staff run sees %q; want Not found (404)", alert)
	}
	check("opening the staff run", pageHTML(t, ctx))
}

// forbiddenTitles are the titles of the documents groups may not see.
func forbiddenTitles(t *testing.T, groups []string) []string {
	t.Helper()
	docs, err := corpus.LoadJSONL("../../testdata/hollin/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range docs {
		if !corpus.Visible(d.ACL, groups) {
			out = append(out, d.Title)
		}
	}
	return out
}

func browserBatch(t *testing.T, ctx context.Context, s *devStack, dir string) {
	// A small batch runs to the end.
	small := filepath.Join(dir, "small.jsonl")
	writeLines(t, small, []string{
		`{"id":"warranty","question":"how many years is the X300 Pro motor covered for"}`,
		`{"id":"peru","question":"what is the capital of Peru"}`,
		`{"id":"e4","question":"E4"}`,
	})
	var status string
	uploadBatch(t, ctx, s.URL, small)
	do(t, ctx, "run a batch",
		chromedp.Poll(`document.getElementById("batch-status").textContent.startsWith("completed")`, nil, chromedp.WithPollingTimeout(40*time.Second)),
		chromedp.Poll(`document.querySelectorAll("#batch-items tbody tr").length === 3`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Text("#batch-status", &status, chromedp.ByID),
	)
	var reasons, agg string
	var value, maxV float64
	do(t, ctx, "read the aggregate",
		chromedp.Text("#batch-reasons", &reasons, chromedp.ByID),
		chromedp.Text("#batch-aggregate", &agg, chromedp.ByID),
		chromedp.Evaluate(`document.getElementById("batch-progress").value`, &value),
		chromedp.Evaluate(`document.getElementById("batch-progress").max`, &maxV),
	)
	if !strings.Contains(status, "3 of 3") || value != 3 || maxV != 3 {
		t.Errorf("status %q, progress %v/%v; want 3 of 3", status, value, maxV)
	}
	if !strings.Contains(reasons, "answered") || !strings.Contains(reasons, "insufficient_context") || !strings.Contains(agg, "latency p95") {
		t.Errorf("aggregate %q / %q; want stop reasons and latency percentiles", reasons, agg)
	}
	checkContrast(t, ctx, "the batch page")
	screenshot(t, ctx, "batch")

	// Download the results.
	dl := t.TempDir()
	do(t, ctx, "download the results",
		browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(dl),
		chromedp.Click("#batch-download", chromedp.ByID),
	)
	var got []byte
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if m, _ := filepath.Glob(filepath.Join(dl, "batch-*.results.jsonl")); len(m) == 1 {
			if got, _ = os.ReadFile(m[0]); len(got) > 0 {
				break
			}
		}
	}
	if lines := strings.Split(strings.TrimSpace(string(got)), "\n"); len(lines) != 3 || !strings.Contains(string(got), `"id":"warranty"`) {
		t.Errorf("downloaded results = %q; want 3 JSON lines", got)
	}

	// Open one question's result from the batch.
	var answer string
	do(t, ctx, "open a question of the batch",
		chromedp.Click(`//table[@id="batch-items"]//a[text()="warranty"]`, chromedp.BySearch),
		chromedp.WaitVisible("#result", chromedp.ByID),
		chromedp.Text("#answer", &answer, chromedp.ByID),
	)
	if !strings.Contains(answer, "5 years") {
		t.Errorf("the batch's warranty question shows %q", answer)
	}

	// A long batch (one question at a time) is cancelled, after saying no
	// once. It is as long as a batch may be: with builtin models a question
	// takes milliseconds, and 60 of them ended before the first click.
	var lines []string
	for i := range 1000 {
		lines = append(lines, fmt.Sprintf(`{"id":"q%d","question":"how do I descale the kettle %d"}`, i, i))
	}
	long := filepath.Join(dir, "long.jsonl")
	writeLines(t, long, lines)
	//
	// While it runs, the page rebuilds its tables every few seconds. The
	// steps below find elements and check state with script in the page
	// and press keys on the focused button, rather than through chromedp's
	// node tracking and pointer clicks: a CI run timed out with the dialog
	// open after "No" was clicked while the table was being rebuilt. A
	// keyboard user does the same: the dialog focuses "No", and Enter on it
	// keeps the batch.
	var confirm, focused string
	uploadBatch(t, ctx, s.URL, long)
	poll := func(cond string) chromedp.Action {
		return chromedp.Poll(cond, nil, chromedp.WithPollingTimeout(20*time.Second))
	}
	press := func(id string) chromedp.Action {
		return chromedp.Tasks{
			poll(`!document.getElementById("` + id + `").hidden && document.getElementById("` + id + `").offsetParent !== null`),
			chromedp.Evaluate(`document.getElementById("`+id+`").focus()`, nil),
			chromedp.KeyEvent(kb.Enter),
		}
	}
	do(t, ctx, "refuse to cancel it",
		press("batch-cancel"),
		poll(`!document.getElementById("batch-confirm").hidden`),
		chromedp.Evaluate(`document.getElementById("batch-confirm").textContent`, &confirm),
		chromedp.Evaluate(`document.activeElement.id`, &focused),
		chromedp.KeyEvent(kb.Enter),
		poll(`document.getElementById("batch-confirm").hidden && document.activeElement.id === "batch-cancel"`),
	)
	if !strings.Contains(confirm, "Cancel this batch?") {
		t.Errorf("confirmation says %q", confirm)
	}
	if focused != "batch-confirm-no" {
		t.Errorf("the confirmation opened with focus on %q; want the safe answer, batch-confirm-no", focused)
	}
	do(t, ctx, "cancel it",
		chromedp.Sleep(300*time.Millisecond),
		poll(`document.getElementById("batch-status").textContent.startsWith("running")`),
		press("batch-cancel"),
		press("batch-confirm-yes"),
		chromedp.Poll(`document.getElementById("batch-status").textContent.startsWith("cancelled")`, nil, chromedp.WithPollingTimeout(40*time.Second)),
		chromedp.Evaluate(`document.getElementById("batch-status").textContent`, &status),
	)
	if !regexp.MustCompile(`[1-9][0-9]* cancelled`).MatchString(status) {
		t.Errorf("cancelled batch status %q: no question was cancelled", status)
	}
}

// uploadBatch starts a batch from file on the batch page.
func uploadBatch(t *testing.T, ctx context.Context, base, file string) {
	t.Helper()
	do(t, ctx, "upload "+filepath.Base(file),
		chromedp.Navigate(base+"/ui/batch"),
		chromedp.WaitVisible("#batch-file", chromedp.ByID),
		chromedp.SetUploadFiles("#batch-file", []string{file}, chromedp.ByID),
		chromedp.Click("#batch-start", chromedp.ByID),
		chromedp.WaitVisible("#batch", chromedp.ByID),
	)
}

func writeLines(t *testing.T, path string, lines []string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// browserErrors checks the page names API errors in words: a wrong key
// (401) against the real gateway, a spent rate limit (429 with
// Retry-After) and an unavailable service (503) against a fake API that
// answers only with those errors.
func browserErrors(t *testing.T, s *devStack) {
	ctx := newBrowser(t, 1000, 800)
	useKey(t, ctx, s.URL, "not-a-key-of-this-gateway")
	var alert string
	var keyOpen bool
	do(t, ctx, "ask with a wrong key",
		chromedp.Navigate(s.URL+"/?q=E4"),
		chromedp.Click("#ask-button", chromedp.ByID), // /?q= fills the box; asking takes a click
		chromedp.WaitVisible("#alert", chromedp.ByID),
		chromedp.Text("#alert", &alert, chromedp.ByID),
		chromedp.Evaluate(`!document.getElementById("key-panel").hidden`, &keyOpen),
	)
	if !strings.Contains(alert, "needs a valid API key (401)") || !keyOpen {
		t.Errorf("wrong key: alert %q, key form open %v; want the 401 in words and the key form", alert, keyOpen)
	}

	useKey(t, ctx, s.URL, uiKeyLimited)
	// The key's one request a minute goes here; the page's ask is the second.
	if code, _, body := httpCall(t, http.MethodGet, s.URL+"/v1/questions/none", uiKeyLimited, "", ""); code != http.StatusNotFound {
		t.Fatalf("limited key's first request = %d %s", code, body)
	}
	do(t, ctx, "ask past the rate limit",
		chromedp.Navigate(s.URL+"/?q=E12"),
		chromedp.Click("#ask-button", chromedp.ByID), // /?q= fills the box; asking takes a click
		chromedp.WaitVisible("#alert", chromedp.ByID),
		chromedp.Text("#alert", &alert, chromedp.ByID),
	)
	if !strings.Contains(alert, "Too many requests (429)") || !strings.Contains(alert, "Try again in") || strings.Contains(alert, "a few seconds") {
		t.Errorf("rate limited: alert %q; want the 429 with Retry-After's seconds", alert)
	}

	// A gateway whose back end is down answers every /v1 call 503.
	down := fakeAPI(webui.Handler(webui.Config{Namespace: "default"}), "/v1/", http.StatusServiceUnavailable,
		`{"error":{"code":"unavailable","message":"temporal is down","request_id":"fake"}}`)
	defer down.Close()
	do(t, ctx, "ask while the service is down",
		chromedp.Navigate(down.URL+"/?q=E4"),
		chromedp.Click("#ask-button", chromedp.ByID), // /?q= fills the box; asking takes a click
		chromedp.WaitVisible("#alert", chromedp.ByID),
		chromedp.Text("#alert", &alert, chromedp.ByID),
	)
	if !strings.Contains(alert, "The service is unavailable (503)") || !strings.Contains(alert, "temporal is down") {
		t.Errorf("503: alert %q; want it in words with the gateway's message", alert)
	}
	screenshot(t, ctx, "error-503")
}

// browserReleases: the Releases view is operator data. A public key gets
// the 403 in words and nothing of the releases; an operator's key sees
// release initial stable and promoted. The live comparison of a canary
// is checked against a stand-in API serving a fixed /v1/releases (a real
// canary is what TestEndToEndReleases drives; here only the page's
// rendering of it is under test).
func browserReleases(t *testing.T, s *devStack) {
	ctx := newBrowser(t, 1280, 1000)
	useKey(t, ctx, s.URL, uiKeyPublic)
	var status, alert, html string
	do(t, ctx, "open the releases as a public key",
		chromedp.Navigate(s.URL+"/ui/releases"),
		chromedp.WaitVisible("#alert", chromedp.ByID),
		chromedp.Text("#alert", &alert, chromedp.ByID),
		chromedp.Text("#releases-status", &status, chromedp.ByID),
		chromedp.OuterHTML("#view-releases", &html, chromedp.ByID),
	)
	if !strings.Contains(status, "operator data") || !strings.Contains(alert, "releases_group") || strings.Contains(html, "initial") {
		t.Errorf("releases as a public key: status %q, alert %q; want the 403 in words and no release shown:\n%s", status, alert, html)
	}
	useKey(t, ctx, s.URL, uiKeyOps)
	var active, hist string
	do(t, ctx, "open the releases as an operator",
		chromedp.Navigate(s.URL+"/ui/releases"),
		chromedp.WaitVisible("#releases-history tbody td strong", chromedp.ByQuery),
		chromedp.Text("#releases-active", &active, chromedp.ByID),
		chromedp.Text("#releases-history", &hist, chromedp.ByID),
		chromedp.Text("#releases-status", &status, chromedp.ByID),
	)
	if !strings.Contains(active, "initial") || !strings.Contains(hist, "initial (stable)") || !strings.Contains(hist, "promoted") ||
		!strings.Contains(status, "Every new run is on initial") {
		t.Errorf("releases as an operator: status %q, active %q, history %q; want initial stable and promoted", status, active, hist)
	}
	checkContrast(t, ctx, "the releases page")

	canary := fakeAPI(webui.Handler(webui.Config{Namespace: "default"}), "/v1/releases", http.StatusOK, releasesJSON)
	defer canary.Close()
	var steps, gate, state string
	do(t, ctx, "open a canary's live comparison",
		chromedp.Navigate(canary.URL+"/ui/releases"),
		chromedp.WaitVisible("#releases-steps tbody tr", chromedp.ByQuery),
		chromedp.Text("#releases-steps", &steps, chromedp.ByID),
		chromedp.Text("#releases-gate", &gate, chromedp.ByID),
		chromedp.Text("#releases-progress-state", &state, chromedp.ByID),
		chromedp.Text("#releases-status", &status, chromedp.ByID),
	)
	for _, want := range []string{"50%", "candidate fixed", "stable initial", "9 (100%)", "0 (0%)", "rolled back"} {
		if !strings.Contains(steps, want) {
			t.Errorf("canary table lacks %q:\n%s", want, steps)
		}
	}
	if !strings.Contains(gate, "83%") || !strings.Contains(state, "insufficient_context rate 1.00") || !strings.Contains(status, "fixed takes 50%") {
		t.Errorf("gate %q, state %q, status %q; want the gate's rates, the rollback's reason and the share", gate, state, status)
	}
	checkContrast(t, ctx, "the canary comparison")
	screenshot(t, ctx, "releases")
	do(t, ctx, "measure at 360 px",
		chromedp.EmulateViewport(360, 740, chromedp.EmulateMobile),
		chromedp.Navigate(canary.URL+"/ui/releases"),
		chromedp.WaitVisible("#releases-steps tbody tr", chromedp.ByQuery),
	)
	var scrollW, clientW int
	do(t, ctx, "read the widths",
		chromedp.Evaluate(`document.documentElement.scrollWidth`, &scrollW),
		chromedp.Evaluate(`document.documentElement.clientWidth`, &clientW),
	)
	if scrollW > clientW {
		t.Errorf("at %d px wide the releases page is %d px: it scrolls sideways", clientW, scrollW)
	}
}

// releasesJSON is a fixed GET /v1/releases: candidate fixed at 50%, its
// gate, and a canary step it failed.
const releasesJSON = `{"stable":"initial","candidate":"fixed","share":50,"releases":[
 {"name":"fixed","state":"canary","share":50,"digest":"d2","index":"v2","created_at":"2026-12-01T10:00:00Z","note":"no warranty pages"},
 {"name":"initial","state":"promoted","share":100,"digest":"d1","index":"v1","created_at":"2026-11-30T10:00:00Z"}],
 "progress":{"release":"fixed","stable":"initial","state":"rolled_back","share":0,
  "reason":"canary at 50%: insufficient_context rate 1.00 (9 of 9) > stable 0.00 (0 of 10) + 0.10",
  "gate":[{"release":"fixed","questions":6,"right_source_cited":0.83,"no_answer_refusal":1,"citation_validity":1,"p95_ms":120},
          {"release":"initial","questions":6,"right_source_cited":0.83,"no_answer_refusal":1,"citation_validity":1,"p95_ms":110}],
  "steps":[{"share":50,"passed":false,"window":{"candidate":{"runs":9,"insufficient_context":9,"p95_ms":40},"stable":{"runs":10,"p95_ms":35}}}]}}`

// fakeAPI is a test double of the gateway: it serves the page, and answers
// every request whose path starts with prefix with status and the fixed
// JSON body, whatever was asked.
func fakeAPI(page http.Handler, prefix string, status int, body string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, prefix) {
			page.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
}

// browserNarrow checks the answer view fits a 360 px wide phone.
func browserNarrow(t *testing.T, s *devStack) {
	ctx := newBrowser(t, 360, 740)
	// Headless Chromium's window is at least 500 px wide; the viewport
	// is what the page sees.
	do(t, ctx, "emulate a phone", chromedp.EmulateViewport(360, 740, chromedp.EmulateMobile))
	useKey(t, ctx, s.URL, uiKeyPublic)
	askOnPage(t, ctx, s.URL, "how many years is the X300 Pro motor covered for")
	var scrollW, clientW int
	do(t, ctx, "open the trace and measure",
		chromedp.Click("#trace summary", chromedp.ByQuery),
		chromedp.Evaluate(`document.documentElement.scrollWidth`, &scrollW),
		chromedp.Evaluate(`document.documentElement.clientWidth`, &clientW),
	)
	if clientW > 400 || scrollW > clientW {
		t.Errorf("at %d px wide the answer page is %d px: it scrolls sideways", clientW, scrollW)
	}
	screenshot(t, ctx, "narrow")
	do(t, ctx, "open the batch page and measure",
		chromedp.Navigate(s.URL+"/ui/batch"),
		chromedp.WaitVisible("#batch-file", chromedp.ByID),
		chromedp.Evaluate(`document.documentElement.scrollWidth`, &scrollW),
	)
	if scrollW > clientW {
		t.Errorf("at %d px wide the batch page is %d px: it scrolls sideways", clientW, scrollW)
	}
}

// TestBrowserDraft: with a streaming model, the page shows the model's
// pieces as a draft while it writes, and the checked answer replaces it
// (the pieces end in a marker the check strips).
func TestBrowserDraft(t *testing.T) {
	chromiumPath(t)
	srv := llmtest.New(t)
	s := startDevWithModel(t, srv)
	pieces := []string{"Blender motors ", "on the X200 and X300 Pro ", "are covered ", "for 5 years [1]", "[7]."}
	srv.Enqueue(llmtest.Slow(time.Second, assessment(0.9, true, "")), llmtest.Stream(pieces, 500, 20))

	ctx := newBrowser(t, 1280, 1000)
	// Record every text the draft shows: the pieces may all arrive
	// within one read, before the page paints.
	var drafts []string
	var answer string
	var draftHidden bool
	do(t, ctx, "ask with a streaming model",
		chromedp.Navigate(s.URL+"/"),
		chromedp.WaitVisible("#question", chromedp.ByID),
		chromedp.Evaluate(`window.drafts = [];
			new MutationObserver((recs) => { for (const r of recs) for (const n of r.addedNodes) window.drafts.push(n.textContent); })
				.observe(document.getElementById("draft-text"), { childList: true, characterData: true, subtree: true }); true`, nil),
		chromedp.SendKeys("#question", "how many years is the X300 Pro motor covered for", chromedp.ByID),
		chromedp.Click("#ask-button", chromedp.ByID),
		chromedp.WaitVisible("#result", chromedp.ByID),
		chromedp.Evaluate(`window.drafts`, &drafts),
		chromedp.Text("#answer", &answer, chromedp.ByID),
		chromedp.Evaluate(`document.getElementById("draft").hidden`, &draftHidden),
	)
	raw := strings.Join(pieces, "")
	if len(drafts) == 0 || !slices.Contains(drafts, raw) {
		t.Errorf("the draft showed %q; want the pieces building up to %q", drafts, raw)
	}
	if !strings.Contains(answer, "5 years") || strings.Contains(answer, "[7]") || !draftHidden {
		t.Errorf("answer %q, draft hidden %v; want the checked answer (no [7]) in place of the draft", answer, draftHidden)
	}
}
