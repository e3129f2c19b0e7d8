package workflows

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

// stageKinds records, per activity type in call order, whether it ran as
// a local activity ("local") or an activity ("activity").
func stageKinds(e *loopEnv) *[]string {
	var got []string
	e.SetOnLocalActivityStartedListener(func(info *activity.Info, _ context.Context, _ []any) {
		if n := info.ActivityType.Name; n != "Guard" && n != "RoutingPolicy" && n != wire.VerifyActivity {
			got = append(got, info.ActivityType.Name+":local")
		}
	})
	e.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		got = append(got, info.ActivityType.Name+":activity")
	})
	return &got
}

// fixedLocal answers every RoutingPolicy call with l.
func fixedLocal(l wire.Local) func(context.Context) wire.Local {
	return func(context.Context) wire.Local { return l }
}

// With the builtin models and an in-process searcher every stage of a
// run is a local activity; the outcome is the same as with activities.
func TestLocalStages(t *testing.T) {
	for _, local := range []wire.Local{{}, {Search: true, Builtin: true}} {
		e := newLoopEnv(t, router.DefaultPolicy("", ""))
		e.acts.LocalNow = fixedLocal(local)
		kinds := stageKinds(e)
		e.OnActivity(e.acts.Search, mock.Anything, mock.Anything).Return(hits("pol-warranty-2026"), nil)
		e.OnActivity(e.acts.Assess, mock.Anything, mock.Anything).Return(verdict(1, true, ""), nil)
		e.OnActivity(e.acts.Generate, mock.Anything, mock.Anything).Return(answer(), nil)
		res := e.run(t, testInput())
		if res.StopReason != wire.Answered {
			t.Fatalf("local %+v: stop %s, want answered", local, res.StopReason)
		}
		kind := "activity"
		if local.Search {
			kind = "local"
		}
		want := []string{"Search:" + kind, "Assess:" + kind, "Generate:" + kind}
		if !slices.Equal(*kinds, want) {
			t.Errorf("local %+v: stages ran as %v, want %v", local, *kinds, want)
		}
	}
}

// A model behind an endpoint always runs as an activity, and a typed
// failure there escalates to the builtin route, which runs locally.
func TestLocalStagesOnlyBuiltinModels(t *testing.T) {
	e := newLoopEnv(t, router.DefaultPolicy("small-m", ""))
	e.acts.LocalNow = fixedLocal(wire.Local{Builtin: true})
	kinds := stageKinds(e)
	e.OnActivity(e.acts.Search, mock.Anything, mock.Anything).Return(hits("pol-warranty-2026"), nil)
	e.OnActivity(e.acts.Assess, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in wire.AssessInput) (wire.AssessOutput, error) {
			if !in.Route.IsBuiltin() {
				return wire.AssessOutput{}, temporal.NewApplicationErrorWithOptions("schema violation", errs.Schema.TemporalType(),
					temporal.ApplicationErrorOptions{NonRetryable: true})
			}
			return verdict(1, true, ""), nil
		})
	e.OnActivity(e.acts.Generate, mock.Anything, mock.Anything).Return(answer(), nil)
	res := e.run(t, testInput())
	if res.StopReason != wire.Answered {
		t.Fatalf("stop %s (%s), want answered", res.StopReason, res.Trace.StopDetail)
	}
	want := []string{"Search:activity", "Assess:activity", "Assess:local", "Generate:activity"}
	if !slices.Equal(*kinds, want) {
		t.Errorf("stages ran as %v, want %v", *kinds, want)
	}
}

// A Search that waits on Redis runs locally too (worker.local_redis_search).
// When Redis is down each attempt fails at once as unavailable, or, when
// it stops answering, times out after localSearchTimeout, shorter than the
// workflow task timeout; the worker retries both as the activity's
// retry policy says (3 attempts) and the run then stops search_error,
// naming only the error's kind. It neither hangs nor reaches Assess.
func TestLocalSearchRedisDown(t *testing.T) {
	for _, tc := range []struct {
		name   string
		search func(context.Context, wire.SearchInput) (wire.SearchOutput, error)
		detail string
	}{
		{"refused", func(context.Context, wire.SearchInput) (wire.SearchOutput, error) {
			return wire.SearchOutput{}, temporal.NewApplicationError("Search: dial tcp 127.0.0.1:6390: connection refused", errs.Unavailable.TemporalType())
		}, "search failed: unavailable"},
		{"hung", func(ctx context.Context, _ wire.SearchInput) (wire.SearchOutput, error) {
			<-ctx.Done() // Redis never answers
			return wire.SearchOutput{}, ctx.Err()
		}, "search failed: timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newLoopEnv(t, router.DefaultPolicy("", ""))
			e.SetTestTimeout(time.Minute) // a hung attempt waits out its real timeout
			e.acts.LocalNow = fixedLocal(wire.Local{Search: true, Builtin: true})
			kinds := stageKinds(e)
			var budgets []time.Duration
			e.OnActivity(e.acts.Search, mock.Anything, mock.Anything).Return(
				func(ctx context.Context, in wire.SearchInput) (wire.SearchOutput, error) {
					if d, ok := ctx.Deadline(); ok {
						budgets = append(budgets, time.Until(d))
					}
					return tc.search(ctx, in)
				})
			res := e.run(t, testInput())
			if res.StopReason != wire.SearchError || res.Trace.StopDetail != tc.detail {
				t.Fatalf("stop %s (%q), want %s (%q)", res.StopReason, res.Trace.StopDetail, wire.SearchError, tc.detail)
			}
			want := []string{"Search:local", "Search:local", "Search:local"}
			if !slices.Equal(*kinds, want) {
				t.Errorf("stages ran as %v, want %v (three local attempts, no assessment)", *kinds, want)
			}
			for i, b := range budgets {
				if b <= 0 || b > localSearchTimeout {
					t.Errorf("attempt %d had %s to run, want at most %s (below the workflow task timeout)", i+1, b, localSearchTimeout)
				}
			}
			if len(budgets) != 3 {
				t.Errorf("%d attempts had a deadline, want 3", len(budgets))
			}
		})
	}
}

// Only a local Search has its attempt cut to localSearchTimeout: the
// builtin assessor and generator, local too, keep their stage's
// start-to-close timeout (bounded by the run's deadline), as they did
// before Search could run locally, so a long assessment or answer on a
// loaded machine is not abandoned and retried.
func TestLocalAttemptTimeouts(t *testing.T) {
	e := newLoopEnv(t, router.DefaultPolicy("", ""))
	e.acts.LocalNow = fixedLocal(wire.Local{Search: true, Builtin: true})
	budget := map[string]time.Duration{}
	deadline := func(stage string, ctx context.Context) {
		if d, ok := ctx.Deadline(); ok {
			budget[stage] = time.Until(d)
		}
	}
	e.OnActivity(e.acts.Search, mock.Anything, mock.Anything).Return(
		func(ctx context.Context, _ wire.SearchInput) (wire.SearchOutput, error) {
			deadline("Search", ctx)
			return hits("pol-warranty-2026"), nil
		})
	e.OnActivity(e.acts.Assess, mock.Anything, mock.Anything).Return(
		func(ctx context.Context, _ wire.AssessInput) (wire.AssessOutput, error) {
			deadline("Assess", ctx)
			return verdict(1, true, ""), nil
		})
	e.OnActivity(e.acts.Generate, mock.Anything, mock.Anything).Return(
		func(ctx context.Context, _ wire.GenerateInput) (wire.GenerateOutput, error) {
			deadline("Generate", ctx)
			return answer(), nil
		})
	in := testInput()
	if res := e.run(t, in); res.StopReason != wire.Answered {
		t.Fatalf("stop %s, want answered", res.StopReason)
	}
	if b, ok := budget["Search"]; !ok || b <= 0 || b > localSearchTimeout {
		t.Errorf("local Search: an attempt had %s to run (deadline set: %v), want at most %s", b, ok, localSearchTimeout)
	}
	// The run's deadline (a minute) is shorter than either stage's own
	// timeout, so it bounds their attempts: far above the Search cap.
	for _, stage := range []string{"Assess", "Generate"} {
		if b, ok := budget[stage]; !ok || b <= 2*localSearchTimeout || b > in.Budget.Deadline {
			t.Errorf("local builtin %s: an attempt had %s to run (deadline set: %v), want its stage timeout bounded by the run's %s deadline, not %s",
				stage, b, ok, in.Budget.Deadline, localSearchTimeout)
		}
	}
}
