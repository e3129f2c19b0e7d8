package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestTimelineBrowser: the Temporal Web UI of `assay dev` shows what
// TestTimeline reads through the API: each activity's summary on the
// timeline and in the event history (local activities included), the
// static details (principal id, budget) and the current details (the
// loop's progress), which the UI renders from Markdown in frames.
func TestTimelineBrowser(t *testing.T) {
	ctx := newBrowser(t, 1400, 1800)
	_, uiPort, id := timelineStack(t)
	page := fmt.Sprintf("http://127.0.0.1:%d/namespaces/default/workflows/%s", uiPort, id)

	var history string
	if !openUIPage(ctx, page, `document.body.innerText.includes("generate from 5 sources") && document.body.innerText.includes('motor warranty years" k=5')`) {
		t.Errorf("the Web UI at %s never showed the run's timeline", page)
	}
	do(t, ctx, "read the run's history in the Temporal Web UI",
		chromedp.Text("body", &history, chromedp.ByQuery),
	)
	screenshot(t, ctx, "temporal-timeline")
	for _, want := range []string{
		"Assess • assess attempt 1 (small-m)", // the timeline's bars
		"Generate • generate from 5 sources (small-m)",
		`search "` + timelineQuestion + `" k=5`, // the event history's local activity rows
		`verify principal "anonymous"`,
	} {
		if !strings.Contains(history, want) {
			t.Errorf("the history page lacks %q", want)
		}
	}

	var meta string
	var frames []string
	do(t, ctx, "open User Metadata",
		chromedp.Click(`//a[contains(., "User Metadata")]`, chromedp.BySearch),
		chromedp.WaitVisible(`//*[contains(text(), "Events with Metadata")]`, chromedp.BySearch),
		chromedp.WaitVisible(`iframe`, chromedp.ByQuery),
		chromedp.Text("body", &meta, chromedp.ByQuery),
		chromedp.Poll(`Array.from(document.querySelectorAll("iframe")).every(f => f.contentDocument && f.contentDocument.body && f.contentDocument.body.innerText.trim() !== "")`, nil),
		// Markdown is rendered in frames (/render?content=...): read their text.
		chromedp.Evaluate(`Array.from(document.querySelectorAll("iframe")).map(f => f.contentDocument ? f.contentDocument.body.innerText : "")`, &frames),
	)
	screenshot(t, ctx, "temporal-user-metadata")
	for _, want := range []string{"assess attempt 2 (small-m)", `search "X300 Pro motor warranty years" k=5`, "routing policy", "guard"} {
		if !strings.Contains(meta, want) {
			t.Errorf("User Metadata's events lack %q", want)
		}
	}
	markdown := strings.Join(frames, "\n")
	for _, want := range []string{"principal", "anonymous", "3 attempts", "answered", "5 hits", "assess 0.90 accepted", "generate 1 citations"} {
		if !strings.Contains(markdown, want) {
			t.Errorf("the rendered details lack %q:\n%s", want, markdown)
		}
	}
	if strings.Contains(markdown, "public") {
		t.Errorf("the details name the principal's groups:\n%s", markdown)
	}
}
