package activities

import (
	"errors"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

// TestCondense: the builtin route carries the previous question over; a
// model route needs an assessor that can condense.
func TestCondense(t *testing.T) {
	a := assessActivities(&scriptedAssessor{})
	in := wire.CondenseInput{Question: "and for the K50?", History: []wire.Turn{
		{Role: wire.RoleUser, Content: "What is the warranty on the X200?"}, {Role: wire.RoleAssistant, Content: "Two years."},
	}, Route: router.Route(router.DefaultPolicy("", ""), router.Request{Task: router.Rewrite})}
	out, err := execute[wire.CondenseOutput](t, a, a.Condense, in)
	if err != nil || out.Question != "What is the warranty on the K50?" || out.Usage.Model != assess.CarryOverModel {
		t.Fatalf("builtin Condense = %+v, %v", out, err)
	}

	in.Route = router.Decision{Rule: "only.small", Model: "small-m"}
	if _, err := execute[wire.CondenseOutput](t, a, a.Condense, in); errs.KindFromTemporalType(appType(err)) != errs.Unsupported {
		t.Errorf("Condense with an assessor that cannot condense = %v, want unsupported", err)
	}

	in.History = append(in.History, wire.Turn{Role: "tool", Content: "x"})
	if _, err := execute[wire.CondenseOutput](t, a, a.Condense, in); errs.KindFromTemporalType(appType(err)) != errs.Invalid {
		t.Errorf("Condense with a tool turn = %v, want invalid", err)
	}
}

// appType is the Temporal application error type of err, "" for none.
func appType(err error) string {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return app.Type()
	}
	return ""
}
