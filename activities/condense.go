package activities

import (
	"context"
	"sync"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// carryOver is the builtin condenser, built on first use.
var carryOver = sync.OnceValue(func() assess.Condenser { return assess.NewCarryOver(terms.New()) })

// Condense turns the last message of a conversation into a standalone
// question, with the model the route names: a chat model through the
// condense prompt (the route's LLM assessor), or on the builtin route the
// deterministic carry-over of the previous question's entities. It runs
// only for runs with a history (the chat endpoint).
func (a *Activities) Condense(ctx context.Context, in wire.CondenseInput) (wire.CondenseOutput, error) {
	const op = "activities.Condense"
	if err := wire.CheckHistory(in.History); err != nil {
		return wire.CondenseOutput{}, temporalError("Condense", errs.E(op, errs.Invalid, err))
	}
	c := carryOver()
	if !in.Route.IsBuiltin() && in.Route.Model != "" {
		assessor, err := a.Models.assessor(in.Route)
		if err != nil {
			return wire.CondenseOutput{}, temporalError("Condense", err)
		}
		var ok bool
		if c, ok = assessor.(assess.Condenser); !ok {
			return wire.CondenseOutput{}, temporalError("Condense", errs.Errorf(op, errs.Unsupported, "the assessor of route %s (%T) cannot condense a conversation", in.Route.Rule, assessor))
		}
	}
	var res assess.CondenseResult
	err := heartbeatWhile(ctx, func() error {
		var err error
		res, err = c.Condense(ctx, assess.CondenseRequest{Question: in.Question, History: in.History})
		return err
	})
	if err != nil {
		return wire.CondenseOutput{}, temporalError("Condense", err, res.Usage)
	}
	return wire.CondenseOutput{Question: res.Question, Carried: res.Carried, Usage: res.Usage}, nil
}
