package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/wire"
)

// principalCheck names the version gate of the principal check: runs
// recorded before it replay without it (GetVersion answers
// DefaultVersion for them), new runs check before anything else.
const principalCheck = "verify-principal"

// AnswerRevision is the revision of AnswerWorkflow's input a starter
// writes (wire.AnswerInput.Revision).
//
// Revision 1: the principal check needs no version marker. GetVersion
// records a marker and, with it, upserts the TemporalChangeVersion search
// attribute: two of a question's 14 history events, and one of its four
// visibility writes on the Temporal server, for a gate that only old
// histories need. A run whose input says revision ≥ 1 was started after
// the check existed, so it checks without asking GetVersion; a run
// without it (recorded before revisions, or started by a starter that
// does not set it) asks GetVersion as before, which for a new run
// answers 1: leaving the field out cannot skip the check. A marker
// recorded by an older worker for a revision-1 run replays too: the SDK
// skips version markers and their upserts when matching commands.
//
// Revision 2: a generator's refusal (errs.Refused: the model replied
// NOT_FOUND, or opened with a refusal and cited nothing) stops the run
// insufficient_context instead of generation_error; runs of an older
// revision ask GetVersion (declinesAsInsufficient).
const AnswerRevision = 2

// generatorDeclines names the version gate of revision 2's stop for a
// generator's refusal.
const generatorDeclines = "generator-declines"

// declinesAsInsufficient reports whether a generator's refusal ends the
// run insufficient_context (revision 2 on, or a new run of an older
// revision) rather than generation_error (histories recorded before). It
// is asked only when the generator refused, so other runs record no
// marker. Both stops complete the workflow with the same commands (a
// search-attribute upsert and the completion, whose values the SDK does
// not compare on replay); the gate keeps old histories' results as they
// were recorded all the same.
func declinesAsInsufficient(ctx workflow.Context, revision int) bool {
	return revision >= 2 || workflow.GetVersion(ctx, generatorDeclines, workflow.DefaultVersion, 1) == 1
}

// verifyPrincipal asks the worker (the VerifyPrincipal local activity,
// whose verdict is recorded in the history) whether the principal of the
// run was signed by a gateway for this run and digest. It returns the
// reason when it was not; ok is true for runs recorded before the check.
// revision is the run's input revision (AnswerRevision).
func verifyPrincipal(ctx workflow.Context, revision int, p wire.Principal, sig *wire.Signature, digest string) (reason string, ok bool, err error) {
	if revision < 1 && workflow.GetVersion(ctx, principalCheck, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return "", true, nil
	}
	info := workflow.GetInfo(ctx)
	in := wire.VerifyInput{Principal: p, Signature: sig, Run: info.WorkflowExecution.ID, Digest: digest}
	if parent := info.ParentWorkflowExecution; parent != nil {
		in.Parent = parent.ID
	}
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: 5 * time.Second,
		RetryPolicy:         retryPolicy(3),
		Summary:             "verify principal " + quoted(p.ID),
	})
	// Disconnected: a run cancelled at once still gets its verdict, and
	// then stops as cancelled where it would have (a batch marks its
	// questions cancelled).
	lctx, cancel := workflow.NewDisconnectedContext(lctx)
	defer cancel()
	var v wire.VerifyOutput
	if err := workflow.ExecuteLocalActivity(lctx, wire.VerifyActivity, in).Get(lctx, &v); err != nil {
		return "", false, err
	}
	return v.Reason, v.OK, nil
}

// SignBatch signs a batch's principal, and the principal of each of its
// questions that has its own, for the batch's id and questions: what its
// BatchWorkflow and their AnswerWorkflows check. A nil signer signs
// nothing.
func SignBatch(s *auth.Signer, in *BatchInput) {
	d := BatchDigest(in.Questions)
	in.Signature = s.Sign(in.BatchID, d, in.Principal)
	for i := range in.Questions {
		if p := in.Questions[i].Principal; p != nil {
			in.Questions[i].Signature = s.Sign(in.BatchID, d, *p)
		}
	}
}
