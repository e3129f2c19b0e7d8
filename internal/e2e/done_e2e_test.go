package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/wire"
)

// TestEndToEndIssueFiveThroughGateway checks the loop's promises through
// the dev stack's gateway, as a client sees them: a question the corpus
// cannot answer stops insufficient_context without generation, after one
// search and without offering a rewrite, also when the request's filters
// keep the answer out of reach; every trace names its route rules.
func TestEndToEndIssueFiveThroughGateway(t *testing.T) {
	s := startDev(t, t.TempDir())
	l := newLoopCase(t, s)
	c := s.client()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	one := 1
	tests := []struct {
		question    string
		maxAttempts *int
		filters     *api.Filters
		want        wire.StopReason
	}{
		{"what is the capital of Peru", nil, nil, wire.InsufficientContext},
		// One attempt allowed, but the assessor found nothing any search
		// could return: the stop says so, not that the budget ran out. (A
		// rewrite offered with no budget left, budget_exhausted, is
		// TestEndToEndRewrite's, with a model.)
		{"how do I descale the K50", &one, &api.Filters{Types: []string{"faq"}}, wire.InsufficientContext},
	}
	for _, tt := range tests {
		q, err := c.Ask(ctx, api.QuestionRequest{Question: tt.question, MaxAttempts: tt.maxAttempts, Filters: tt.filters}, 30*time.Second)
		if err != nil {
			t.Fatalf("Ask(%q): %v", tt.question, err)
		}
		if string(q.StopReason) != string(tt.want) || len(q.Citations) != 0 {
			t.Errorf("Ask(%q) = %s with %d citations, want %s with none", tt.question, q.StopReason, len(q.Citations), tt.want)
		}
		if n := l.scheduled(t, q.ID)["Generate"]; n != 0 {
			t.Errorf("%q: Generate scheduled %d times, want 0", tt.question, n)
		}
		tr, err := c.Trace(ctx, q.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Routes) == 0 {
			t.Errorf("%q: trace has no route decisions", tt.question)
		}
		for _, r := range tr.Routes {
			if !strings.HasPrefix(r.Decision.Rule, "builtin.") && !strings.HasPrefix(r.Decision.Rule, "rewrite.") {
				t.Errorf("%q: route rule %q, want builtin.* or rewrite.* on the embedded default", tt.question, r.Decision.Rule)
			}
		}
		if len(tr.Attempts) != 1 || tr.Attempts[0].Assessment == nil || tr.Attempts[0].Assessment.Rewrite != "" {
			t.Errorf("%q: want one attempt whose assessment offered no rewrite, got %+v", tt.question, tr.Attempts)
		}
	}
}
