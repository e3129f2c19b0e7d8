package workflows

import (
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

var condenseOptions = workflow.ActivityOptions{
	StartToCloseTimeout: 60 * time.Second,
	HeartbeatTimeout:    30 * time.Second,
	RetryPolicy:         retryPolicy(3),
}

// condense turns a follow-up into the standalone question the run answers
// when the input carries the conversation before it (the chat endpoint):
// the Condense activity on the rewrite route (a chat model's condense
// prompt, falling back like every routed call, or the builtin carry-over),
// then the guard on the rewritten question. The trace keeps the message
// as asked in Question and the rewrite in Condensed. A failed rewrite is
// a warning, and the run answers the message as asked; a refused rewrite
// ends the run. Runs without history do nothing here, so their histories
// replay unchanged.
func (r *run) condense(ctx workflow.Context, lctx workflow.Context) (stop, bool) {
	if len(r.in.History) == 0 {
		return stop{}, false
	}
	r.progress = wire.Progress{Stage: "condense"}
	workflow.SetCurrentDetails(ctx, "condensing the conversation into a standalone question")
	var out wire.CondenseOutput
	err := r.routed(ctx, 0, router.Rewrite, func(d router.Decision) error {
		return r.exec(ctx, r.local(d), condenseOptions, wire.CondenseActivity, wire.CondenseInput{
			Question: r.in.Question, History: r.in.History, Route: d,
		}).Get(ctx, &out)
	})
	if err != nil {
		var canceled *temporal.CanceledError
		if errors.As(err, &canceled) || ctx.Err() != nil {
			return stop{wire.Cancelled, "cancelled during condense"}, true
		}
		r.trace.Warnings = appendNew(r.trace.Warnings, "condense failed ("+publicError(err)+"): the last message was answered as asked")
		return stop{}, false
	}
	r.addUsage(out.Usage)
	r.trace.Condensed = &wire.Condensed{Question: out.Question, Model: out.Usage.Model, Carried: out.Carried, Turns: len(r.in.History)}
	if out.Question == "" || out.Question == r.in.Question {
		return stop{}, false
	}
	var verdict wire.GuardOutput
	if err := workflow.ExecuteLocalActivity(lctx, wire.GuardActivity, wire.GuardInput{Question: out.Question}).Get(ctx, &verdict); err != nil {
		return r.failed(ctx, err, wire.InvalidRequest, "guard"), true
	}
	r.flag(verdict.Flags)
	if verdict.Refused {
		return stop{wire.Refused, verdict.Reason + ": " + verdict.Detail + " (in the condensed question)"}, true
	}
	r.in.Question = out.Question
	return stop{}, false
}
