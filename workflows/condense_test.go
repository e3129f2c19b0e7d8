package workflows

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/mock"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

func followUp() wire.AnswerInput {
	in := testInput()
	in.Question = "and for the K50?"
	in.History = []wire.Turn{
		{Role: wire.RoleUser, Content: "What is the warranty on the X200?"},
		{Role: wire.RoleAssistant, Content: "Two years. [1]"},
	}
	return in
}

// TestCondenseFollowUp: a run with history searches, assesses and answers
// the condensed question, and the trace keeps both.
func TestCondenseFollowUp(t *testing.T) {
	e := newLoopEnv(t, router.DefaultPolicy("", ""))
	var condensed wire.CondenseInput
	e.OnActivity(e.acts.Condense, mock.Anything, mock.Anything).Return(func(_ context.Context, in wire.CondenseInput) (wire.CondenseOutput, error) {
		condensed = in
		return wire.CondenseOutput{Question: "What is the warranty on the K50?", Carried: []string{"What is the warranty on the X200?"},
			Usage: wire.Spent{Model: "builtin:carry-over-v1"}}, nil
	})
	var searched, assessed, generated string
	e.OnActivity(e.acts.Search, mock.Anything, mock.Anything).Return(func(_ context.Context, in wire.SearchInput) (wire.SearchOutput, error) {
		searched = in.Query
		return hits("k50-warranty"), nil
	})
	e.OnActivity(e.acts.Assess, mock.Anything, mock.Anything).Return(func(_ context.Context, in wire.AssessInput) (wire.AssessOutput, error) {
		assessed = in.Question
		return verdict(1, true, ""), nil
	})
	e.OnActivity(e.acts.Generate, mock.Anything, mock.Anything).Return(func(_ context.Context, in wire.GenerateInput) (wire.GenerateOutput, error) {
		generated = in.Question
		return answer(), nil
	})
	res := e.run(t, followUp())
	want := "What is the warranty on the K50?"
	if res.StopReason != wire.Answered || searched != want || assessed != want || generated != want {
		t.Fatalf("stop %s; searched %q, assessed %q, generated %q; want all %q", res.StopReason, searched, assessed, generated, want)
	}
	if len(condensed.History) != 2 || condensed.Question != "and for the K50?" || !condensed.Route.IsBuiltin() {
		t.Errorf("Condense input = %+v", condensed)
	}
	c := res.Trace.Condensed
	if res.Trace.Question != "and for the K50?" || c == nil || c.Question != want || c.Model != "builtin:carry-over-v1" || c.Turns != 2 {
		t.Errorf("trace question %q, condensed %+v", res.Trace.Question, c)
	}
}

// TestCondenseFailureAnswersAsAsked: a condenser that fails leaves a
// warning, and the run goes on with the message as asked.
func TestCondenseFailureAnswersAsAsked(t *testing.T) {
	e := newLoopEnv(t, router.DefaultPolicy("", ""))
	e.OnActivity(e.acts.Condense, mock.Anything, mock.Anything).Return(wire.CondenseOutput{}, nonRetryable(errs.Unsupported, "no condenser"))
	var searched string
	e.OnActivity(e.acts.Search, mock.Anything, mock.Anything).Return(func(_ context.Context, in wire.SearchInput) (wire.SearchOutput, error) {
		searched = in.Query
		return hits("k50-warranty"), nil
	})
	e.OnActivity(e.acts.Assess, mock.Anything, mock.Anything).Return(verdict(1, true, ""), nil)
	e.OnActivity(e.acts.Generate, mock.Anything, mock.Anything).Return(answer(), nil)
	res := e.run(t, followUp())
	if res.StopReason != wire.Answered || searched != "and for the K50?" || res.Trace.Condensed != nil ||
		!strings.Contains(strings.Join(res.Trace.Warnings, "\n"), "condense failed") {
		t.Fatalf("stop %s, searched %q, condensed %+v, warnings %v", res.StopReason, searched, res.Trace.Condensed, res.Trace.Warnings)
	}
}

// TestNoHistoryNoCondense: a question without history never calls
// Condense (so histories recorded before it replay unchanged).
func TestNoHistoryNoCondense(t *testing.T) {
	e := newLoopEnv(t, router.DefaultPolicy("", ""))
	e.OnActivity(e.acts.Search, mock.Anything, mock.Anything).Return(hits("pol-warranty-2026"), nil)
	e.OnActivity(e.acts.Assess, mock.Anything, mock.Anything).Return(verdict(1, true, ""), nil)
	e.OnActivity(e.acts.Generate, mock.Anything, mock.Anything).Return(answer(), nil)
	res := e.run(t, testInput())
	e.AssertActivityNumberOfCalls(t, wire.CondenseActivity, 0)
	if res.Trace.Condensed != nil {
		t.Errorf("condensed = %+v without history", res.Trace.Condensed)
	}
}

// TestGenerateHearsWhatWasAccepted: the generator is told which chunks the
// accepting assessment rested on (AssessOutput.Accepted), not what an
// earlier, refusing one named; an assessor that names none (and histories
// recorded before the field) sends none.
func TestGenerateHearsWhatWasAccepted(t *testing.T) {
	for _, tt := range []struct {
		name string
		said []string
	}{
		{"named", []string{"b#0"}},
		{"none named", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newLoopEnv(t, router.DefaultPolicy("", ""))
			e.OnActivity(e.acts.Search, mock.Anything, mock.Anything).Return(hits("a"), nil).Once()
			e.OnActivity(e.acts.Search, mock.Anything, mock.Anything).Return(hits("c", "b"), nil).Once()
			weak := verdict(0.4, false, "rewrite one")
			weak.Accepted = []string{"a#0"}
			good := verdict(0.9, true, "")
			good.Accepted = tt.said
			e.OnActivity(e.acts.Assess, mock.Anything, mock.Anything).Return(weak, nil).Once()
			e.OnActivity(e.acts.Assess, mock.Anything, mock.Anything).Return(good, nil).Once()
			var got wire.GenerateInput
			e.OnActivity(e.acts.Generate, mock.Anything, mock.Anything).Return(func(_ context.Context, in wire.GenerateInput) (wire.GenerateOutput, error) {
				got = in
				return answer(), nil
			})
			res := e.run(t, testInput())
			if res.StopReason != wire.Answered || !slices.Equal(got.Accepted, tt.said) || !slices.Equal(got.ChunkIDs, []string{"c#0", "b#0"}) {
				t.Errorf("stop %s; the generator got chunks %v accepted %v, want %v", res.StopReason, got.ChunkIDs, got.Accepted, tt.said)
			}
		})
	}
}
