package workflows

import (
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/wire"
)

func TestTimelineLines(t *testing.T) {
	sum := searchSummary("x200\nwarranty", 5)
	if sum != `search "x200 warranty" k=5` {
		t.Errorf("searchSummary = %s", sum)
	}
	if got := searchLine(sum, 5, false); got != `search "x200 warranty" k=5 → 5 hits` {
		t.Errorf("searchLine = %s", got)
	}
	acc := wire.Attempt{Accepted: true, Assessment: &wire.Assessment{Score: 0.82}}
	if got := assessLine(acc); got != "assess 0.82 accepted" {
		t.Errorf("assessLine(accepted) = %s", got)
	}
	rej := wire.Attempt{Assessment: &wire.Assessment{Score: 0.4}, Proposals: []wire.Proposal{{Query: "x200 warranty period", Strategy: "expand"}}}
	if got := assessLine(rej); got != `assess 0.40 rejected → propose "x200 warranty period" (expand)` {
		t.Errorf("assessLine(rejected) = %s", got)
	}
	a := wire.Answer{Model: "builtin:extractive-v6", Citations: make([]wire.Citation, 2), FinishReason: "stop"}
	if got := generateLine(a); got != "generate 2 citations (builtin:extractive-v6), stop" {
		t.Errorf("generateLine = %s", got)
	}
	if got := quoted("see [here](http://x) <b>!</b>"); got != `"see \[here\](http://x) \<b\>\!\</b\>"` {
		t.Errorf("quoted left Markdown links or HTML: %s", got)
	}
	long := strings.Repeat("a", 200)
	if q := quoted(long); len([]rune(q)) != maxQuoted+3 {
		t.Errorf("quoted(200 runes) has %d runes, want %d", len([]rune(q)), maxQuoted+3)
	}
}

// The static details name the principal by id and never its groups.
func TestStaticDetails(t *testing.T) {
	in := wire.AnswerInput{
		Principal: wire.Principal{ID: "support-bot", Groups: []string{"secret-group"}},
		Budget:    wire.Budget{MaxAttempts: 3, MaxTokens: 4000, MaxCostUSD: 0.05, Deadline: 60 * time.Second},
		Threshold: 0.6, TopK: 5,
	}
	got := StaticDetails(in)
	for _, want := range []string{"`support-bot`", "3 attempts", "deadline 1m0s", "4000 tokens", "$0.0500", "**threshold** 0.60", "**top k** 5"} {
		if !strings.Contains(got, want) {
			t.Errorf("StaticDetails = %q, want it to contain %q", got, want)
		}
	}
	if strings.Contains(got, "secret-group") {
		t.Errorf("StaticDetails = %q names the principal's groups", got)
	}
	if so := StartOptions("id", "q", in); so.StaticDetails != got {
		t.Errorf("StartOptions.StaticDetails = %q, want %q", so.StaticDetails, got)
	}
}
