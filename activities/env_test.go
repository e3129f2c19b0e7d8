package activities

import (
	"log/slog"
	"testing"

	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
)

// execute runs one activity method of a (fn, a method value of a) in the
// SDK's test activity environment, with an activity context as a worker
// gives it, and decodes its result.
func execute[O any](t *testing.T, a *Activities, fn, in any) (O, error) {
	t.Helper()
	var ts testsuite.WorkflowTestSuite
	ts.SetLogger(tlog.NewStructuredLogger(slog.New(slog.DiscardHandler)))
	env := ts.NewTestActivityEnvironment()
	env.RegisterActivity(a)
	var out O
	v, err := env.ExecuteActivity(fn, in)
	if err == nil {
		err = v.Get(&out)
	}
	return out, err
}
