package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/workflow"
)

// ReleaseWorkflowName is the ReleaseWorkflow's type name.
const ReleaseWorkflowName = "ReleaseWorkflow"

// The ReleaseWorkflow's query and signals.
const (
	QueryReleaseStatus = "status"
	SignalApprove      = "approve" // go on past a wait for approval (or resume)
	SignalPause        = "pause"   // hold the current step until approve
	SignalAbort        = "abort"   // roll the candidate back now
)

// The release states the workflow moves through (package release's).
const (
	stateGating     = "gating"
	stateCanary     = "canary"
	statePromoted   = "promoted"
	stateRolledBack = "rolled_back"
	stateRejected   = "rejected"
)

var (
	gateOptions = workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Minute,
		HeartbeatTimeout:    time.Minute,
		RetryPolicy:         retryPolicy(3),
	}
	releaseStoreOptions = workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         retryPolicy(10),
	}
)

// ReleaseWorkflow takes a candidate release from gate to promotion or
// rollback: it asks the gate questions on the candidate and on stable
// and compares them with the declared thresholds (a candidate that fails
// is rejected and never takes traffic); then it gives the candidate each
// canary share in turn, holding each until the candidate has run
// StepRuns questions, and compares its runs with stable's over the same
// window; past the last step it promotes the candidate. Any threshold
// tripped rolls the candidate back at once, and the reason names the
// threshold and the numbers. Signals approve, pause and abort; the
// status query says where it is.
func ReleaseWorkflow(ctx workflow.Context, in ReleaseInput) (ReleaseProgress, error) {
	w := &releaseRun{in: in, p: ReleaseProgress{Release: in.Release, Stable: in.Stable, State: stateGating}}
	if err := workflow.SetQueryHandler(ctx, QueryReleaseStatus, func() (ReleaseProgress, error) { return w.p, nil }); err != nil {
		return w.p, err
	}
	w.approve = workflow.GetSignalChannel(ctx, SignalApprove)
	w.pause = workflow.GetSignalChannel(ctx, SignalPause)
	w.abort = workflow.GetSignalChannel(ctx, SignalAbort)
	w.run(ctx)
	return w.p, nil
}

type releaseRun struct {
	in                    ReleaseInput
	p                     ReleaseProgress
	approve, pause, abort workflow.ReceiveChannel
	aborted               bool
	canaryStart           time.Time
}

func (w *releaseRun) run(ctx workflow.Context) {
	w.attrs(ctx)
	if !w.setState(ctx, stateGating, 0, "") {
		return
	}
	if len(w.in.Questions) > 0 {
		cand, stable, err := w.gate(ctx)
		if err != nil {
			w.end(ctx, stateRejected, "gate: "+err.Error())
			return
		}
		w.p.Gate = []GateSummary{cand, stable}
		if ok, reason := GateVerdict(cand, stable, w.in.Thresholds); !ok {
			w.end(ctx, stateRejected, "gate: "+reason)
			return
		}
	}
	if w.in.Approve && !w.waitApproval(ctx, "approve the canary") {
		return
	}
	w.canaryStart = workflow.Now(ctx)
	for _, share := range w.in.Steps {
		if !w.step(ctx, share) {
			return
		}
	}
	if w.in.Approve && !w.waitApproval(ctx, "approve the promotion") {
		return
	}
	w.end(ctx, statePromoted, fmt.Sprintf("passed the gate and %d canary step(s)", len(w.in.Steps)))
}

// gate asks the questions on both releases at once.
func (w *releaseRun) gate(ctx workflow.Context) (cand, stable GateSummary, err error) {
	gctx := workflow.WithActivityOptions(ctx, gateOptions)
	fc := workflow.ExecuteActivity(gctx, ReleaseGateActivity, GateInput{Release: w.in.Release, Questions: w.in.Questions, Corpus: w.in.Corpus})
	fs := workflow.ExecuteActivity(gctx, ReleaseGateActivity, GateInput{Release: w.in.Stable, Questions: w.in.Questions, Corpus: w.in.Corpus})
	workflow.SetCurrentDetails(ctx, fmt.Sprintf("gate: %d questions on %s and %s", len(w.in.Questions), w.in.Release, w.in.Stable))
	if err = fc.Get(ctx, &cand); err != nil {
		return
	}
	err = fs.Get(ctx, &stable)
	return
}

// step holds the candidate at share percent until it has run StepRuns
// questions (or StepTimeout passed with at least one), then compares the
// window with stable's. It reports whether to go on.
func (w *releaseRun) step(ctx workflow.Context, share int) bool {
	if !w.setState(ctx, stateCanary, share, "") {
		return false
	}
	since := workflow.Now(ctx)
	wctx := workflow.WithActivityOptions(ctx, releaseStoreOptions)
	for {
		w.p.Waiting = fmt.Sprintf("%d runs on %s at %d%%", w.in.StepRuns, w.in.Release, share)
		workflow.SetCurrentDetails(ctx, fmt.Sprintf("canary at **%d%%**: waiting for %d runs", share, w.in.StepRuns))
		if !w.sleep(ctx, w.in.Poll) {
			return false
		}
		costAt := w.in.StepRuns
		if w.in.StepTimeout > 0 && workflow.Now(ctx).Sub(since) >= w.in.StepTimeout {
			costAt = 1
		}
		var out WindowOutput
		if err := workflow.ExecuteActivity(wctx, ReleaseWindowActivity, WindowInput{Candidate: w.in.Release, Stable: w.in.Stable, Since: since, StableSince: w.canaryStart, CostAt: costAt}).Get(ctx, &out); err != nil {
			workflow.GetLogger(ctx).Warn("canary window not read; trying again", "error", err)
			continue
		}
		timedOut := w.in.StepTimeout > 0 && workflow.Now(ctx).Sub(since) >= w.in.StepTimeout
		if out.Candidate.Runs < w.in.StepRuns && !(timedOut && out.Candidate.Runs > 0) {
			continue
		}
		ok, reason := WindowVerdict(out, w.in.Thresholds)
		w.p.Steps = append(w.p.Steps, ReleaseStep{Share: share, Window: out, Passed: ok})
		w.p.Waiting = ""
		if !ok {
			w.end(ctx, stateRolledBack, fmt.Sprintf("canary at %d%%: %s", share, reason))
			return false
		}
		return true
	}
}

// sleep waits d, taking signals as they come; false when aborted. While
// paused it waits for approve (or abort) before returning.
func (w *releaseRun) sleep(ctx workflow.Context, d time.Duration) bool {
	if d <= 0 {
		d = 2 * time.Second
	}
	timer := workflow.NewTimer(ctx, d)
	fired := false
	for !fired || w.p.Paused {
		sel := workflow.NewSelector(ctx)
		if !fired {
			sel.AddFuture(timer, func(workflow.Future) { fired = true })
		}
		w.signals(ctx, sel)
		sel.Select(ctx)
		if w.aborted {
			w.end(ctx, stateRolledBack, "aborted by the operator")
			return false
		}
	}
	return true
}

// waitApproval holds until the approve signal; false when aborted.
func (w *releaseRun) waitApproval(ctx workflow.Context, what string) bool {
	w.p.Waiting = what
	workflow.SetCurrentDetails(ctx, "waiting: "+what)
	w.p.Paused = true
	for w.p.Paused {
		sel := workflow.NewSelector(ctx)
		w.signals(ctx, sel)
		sel.Select(ctx)
		if w.aborted {
			w.end(ctx, stateRolledBack, "aborted by the operator")
			return false
		}
	}
	w.p.Waiting = ""
	return true
}

func (w *releaseRun) signals(ctx workflow.Context, sel workflow.Selector) {
	sel.AddReceive(w.approve, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, nil); w.p.Paused = false })
	sel.AddReceive(w.pause, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, nil); w.p.Paused = true })
	sel.AddReceive(w.abort, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, nil); w.aborted = true })
}

// setState records the candidate's state and share in the store (and so
// on every gateway within a second); false when that failed for good.
func (w *releaseRun) setState(ctx workflow.Context, state string, share int, reason string) bool {
	sctx := workflow.WithActivityOptions(ctx, releaseStoreOptions)
	in := ReleaseStateInput{Release: w.in.Release, State: state, Share: share, Reason: reason, Workflow: workflow.GetInfo(ctx).WorkflowExecution.ID}
	if err := workflow.ExecuteActivity(sctx, ReleaseStateActivity, in).Get(ctx, nil); err != nil {
		w.p.State, w.p.Reason = "failed", fmt.Sprintf("set %s at %d%%: %v", state, share, err)
		return false
	}
	w.p.State, w.p.Share, w.p.Reason = state, share, reason
	w.attrs(ctx)
	return true
}

// end moves the candidate to its final state: promoted, or out of
// traffic (rolled back, rejected) with the reason.
func (w *releaseRun) end(ctx workflow.Context, state, reason string) {
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	share := 0
	if state == statePromoted {
		share = 100
	}
	w.p.Waiting, w.p.Paused = "", false
	if w.setState(dctx, state, share, reason) {
		workflow.SetCurrentDetails(dctx, fmt.Sprintf("**%s**: %s", state, reason))
	}
}

func (w *releaseRun) attrs(ctx workflow.Context) {
	if err := workflow.UpsertTypedSearchAttributes(ctx, ReleaseKey.ValueSet(w.in.Release), StatusKey.ValueSet(w.p.State)); err != nil {
		workflow.GetLogger(ctx).Warn("search attributes not updated", "error", err)
	}
}

// GateVerdict compares the candidate's gate results with stable's.
func GateVerdict(c, s GateSummary, t ReleaseThresholds) (bool, string) {
	switch {
	case c.Leaks > t.MaxLeaks:
		return false, fmt.Sprintf("leaks %d > max_leaks %d", c.Leaks, t.MaxLeaks)
	case c.RightSourceCited < s.RightSourceCited-t.RightSourceDrop:
		return false, fmt.Sprintf("right_source_cited %.2f < stable %.2f - right_source_drop %.2f", c.RightSourceCited, s.RightSourceCited, t.RightSourceDrop)
	case c.Refusal < s.Refusal-t.RefusalDrop:
		return false, fmt.Sprintf("no_answer_refusal %.2f < stable %.2f - refusal_drop %.2f", c.Refusal, s.Refusal, t.RefusalDrop)
	case c.CitationValidity < s.CitationValidity-t.CitationValidityDrop:
		return false, fmt.Sprintf("citation_validity %.2f < stable %.2f - citation_validity_drop %.2f", c.CitationValidity, s.CitationValidity, t.CitationValidityDrop)
	case t.P95Ratio > 0 && c.P95MS > s.P95MS*t.P95Ratio+t.P95SlackMS:
		return false, fmt.Sprintf("p95 %.0f ms > stable %.0f ms x p95_ratio %.2f + %.0f ms", c.P95MS, s.P95MS, t.P95Ratio, t.P95SlackMS)
	case c.RunsFailed > s.RunsFailed:
		return false, fmt.Sprintf("runs_failed %d > stable %d", c.RunsFailed, s.RunsFailed)
	}
	return true, ""
}

// WindowVerdict compares the candidate's canary window with stable's.
func WindowVerdict(w WindowOutput, t ReleaseThresholds) (bool, string) {
	c, s := w.Candidate, w.Stable
	rise := func(name string, cn, sn int, limit float64) (bool, string) {
		if c.Rate(cn) > s.Rate(sn)+limit {
			return false, fmt.Sprintf("%s rate %.2f (%d of %d) > stable %.2f (%d of %d) + %.2f", name, c.Rate(cn), cn, c.Runs, s.Rate(sn), sn, s.Runs, limit)
		}
		return true, ""
	}
	for _, check := range []func() (bool, string){
		func() (bool, string) { return rise("error", c.Errors, s.Errors, t.ErrorRise) },
		func() (bool, string) { return rise("refused", c.Refused, s.Refused, t.RefusedRise) },
		func() (bool, string) {
			return rise("insufficient_context", c.Insufficient, s.Insufficient, t.InsufficientRise)
		},
	} {
		if ok, reason := check(); !ok {
			return false, reason
		}
	}
	if t.P95Ratio > 0 && s.Runs > 0 && c.P95MS > s.P95MS*t.P95Ratio+t.P95SlackMS {
		return false, fmt.Sprintf("p95 %.0f ms > stable %.0f ms x p95_ratio %.2f + %.0f ms", c.P95MS, s.P95MS, t.P95Ratio, t.P95SlackMS)
	}
	if t.CostRatio > 0 && s.CostRuns > 0 && c.CostRuns > 0 && c.CostPerRun() > s.CostPerRun()*t.CostRatio+1e-9 {
		return false, fmt.Sprintf("cost per question $%.5f > stable $%.5f x cost_ratio %.2f", c.CostPerRun(), s.CostPerRun(), t.CostRatio)
	}
	return true, ""
}
