package workflows

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/assay-rag/assay/activities"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

// testWorkflowID is the workflow id of the test environment's runs.
const testWorkflowID = "default-test-workflow-id"

func testSigner(t *testing.T) *auth.Signer {
	t.Helper()
	s, err := auth.ParseSigningKeys("k1:a-secret-of-at-least-thirty-two-bytes-1")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestUnsignedPrincipalRefused: a worker with principal keys runs an
// AnswerWorkflow only when its principal was signed by a gateway for this
// run and question; otherwise the run stops unauthorized before any
// search (issue 21: `temporal workflow start` claiming groups [staff] read
// staff documents).
func TestUnsignedPrincipalRefused(t *testing.T) {
	s := testSigner(t)
	signed := func(in wire.AnswerInput) wire.AnswerInput {
		in.Signature = s.Sign(testWorkflowID, auth.QuestionDigest(in.Question), in.Principal)
		return in
	}
	staff := func(in wire.AnswerInput) wire.AnswerInput {
		in.Principal.Groups = append(in.Principal.Groups, "staff")
		return in
	}
	tests := []struct {
		name string
		in   wire.AnswerInput
		want wire.StopReason
	}{
		{"signed by the gateway", signed(testInput()), wire.Answered},
		{"unsigned, as the Temporal CLI starts it", staff(testInput()), wire.Unauthorized},
		{"signed, then groups widened", staff(signed(testInput())), wire.Unauthorized},
		{"signed for another question", func() wire.AnswerInput {
			in := signed(testInput())
			in.Question = "what is the vault code"
			return in
		}(), wire.Unauthorized},
		{"signed for another run", func() wire.AnswerInput {
			in := testInput()
			in.Signature = s.Sign("another-run", auth.QuestionDigest(in.Question), in.Principal)
			return in
		}(), wire.Unauthorized},
	}
	for _, rev := range []int{0, AnswerRevision} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("revision %d/%s", rev, tt.name), func(t *testing.T) {
				tt.in.Revision = rev
				runPrincipalCase(t, s, tt.in, tt.want)
			})
		}
	}
}

func runPrincipalCase(t *testing.T, s *auth.Signer, in wire.AnswerInput, want wire.StopReason) {
	t.Helper()
	e := newLoopEnv(t, router.DefaultPolicy("", ""))
	e.acts.Signer = s
	searched := 0
	e.OnActivity(e.acts.Search, mock.Anything, mock.Anything).Return(func(_ context.Context, _ wire.SearchInput) (wire.SearchOutput, error) {
		searched++
		return hits("pol-warranty-2026"), nil
	}).Maybe()
	e.OnActivity(e.acts.Assess, mock.Anything, mock.Anything).Return(verdict(1, true, ""), nil).Maybe()
	e.OnActivity(e.acts.Generate, mock.Anything, mock.Anything).Return(answer(), nil).Maybe()
	res := e.run(t, in)
	if res.StopReason != want {
		t.Fatalf("stop %s (%s), want %s", res.StopReason, res.Trace.StopDetail, want)
	}
	if want == wire.Unauthorized && (searched != 0 || res.Answer != "") {
		t.Errorf("an unauthorized run searched %d times, answered %q", searched, res.Answer)
	}
}

// TestRevisionChecksWithoutVersion: a run whose input says revision 1
// checks its principal without asking GetVersion, so it records no
// version marker (nor the TemporalChangeVersion upsert that comes with
// one); a run without a revision asks, and a history recorded before the
// check (GetVersion answers DefaultVersion) replays without it.
func TestRevisionChecksWithoutVersion(t *testing.T) {
	s := testSigner(t)
	unsigned := testInput()
	unsigned.Principal.Groups = append(unsigned.Principal.Groups, "staff")
	for _, tt := range []struct {
		rev  int
		want wire.StopReason
	}{
		{0, wire.Answered}, // an old history: the check did not exist
		{AnswerRevision, wire.Unauthorized},
	} {
		e := newLoopEnv(t, router.DefaultPolicy("", ""))
		e.acts.Signer = s
		asked := 0
		e.OnGetVersion(principalCheck, workflow.DefaultVersion, 1).Return(func(string, workflow.Version, workflow.Version) workflow.Version {
			asked++
			return workflow.DefaultVersion
		}).Maybe()
		e.OnActivity(e.acts.Search, mock.Anything, mock.Anything).Return(hits("pol-warranty-2026"), nil).Maybe()
		e.OnActivity(e.acts.Assess, mock.Anything, mock.Anything).Return(verdict(1, true, ""), nil).Maybe()
		e.OnActivity(e.acts.Generate, mock.Anything, mock.Anything).Return(answer(), nil).Maybe()
		in := unsigned
		in.Revision = tt.rev
		res := e.run(t, in)
		if res.StopReason != tt.want {
			t.Errorf("revision %d: stop %s (%s), want %s", tt.rev, res.StopReason, res.Trace.StopDetail, tt.want)
		}
		if wantAsked := map[bool]int{true: 1, false: 0}[tt.rev == 0]; asked != wantAsked {
			t.Errorf("revision %d: GetVersion asked %d times, want %d", tt.rev, asked, wantAsked)
		}
	}
}

// TestUnsignedBatchRefused: a batch's principal is checked like a
// question's (for the batch id and its questions' digest); a signed batch
// hands its signature to each question's run.
func TestUnsignedBatchRefused(t *testing.T) {
	s := testSigner(t)
	run := func(in BatchInput) (*fakeAnswers, error) {
		f := &fakeAnswers{}
		env := newBatchEnv(t, f)
		env.RegisterActivity(&activities.Activities{Signer: s})
		env.ExecuteWorkflow(BatchWorkflow, in)
		return f, env.GetWorkflowError()
	}
	in := batchInput(questions("a", "b"), 2, 0)
	in.BatchID = testWorkflowID
	f, err := run(in)
	var app *temporal.ApplicationError
	if !asApp(err, &app) || app.Type() != errs.Unauthorized.TemporalType() || len(f.calls) != 0 {
		t.Errorf("an unsigned batch: err %v, %d questions run; want unauthorized and none", err, len(f.calls))
	}

	SignBatch(s, &in)
	tampered := in
	tampered.Questions = questions("a", "what is the vault code")
	if f, err := run(tampered); err == nil || len(f.calls) != 0 {
		t.Errorf("a signed batch with other questions: err %v, %d run", err, len(f.calls))
	}
	f, err = run(in)
	if err != nil || len(f.calls) != 2 {
		t.Fatalf("a signed batch: err %v, %d questions run", err, len(f.calls))
	}
	for _, c := range f.calls {
		if c.Signature == nil || *c.Signature != *in.Signature {
			t.Errorf("question %s runs with signature %+v, want the batch's", c.RequestID, c.Signature)
		}
	}
}

func asApp(err error, app **temporal.ApplicationError) bool {
	for err != nil {
		if a, ok := err.(*temporal.ApplicationError); ok {
			*app = a
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

// TestVerifyPrincipalOfABatchQuestion: a batch's question carries the
// batch's signature; the worker takes it only when the run's parent is
// that batch and the run is one of its questions.
func TestVerifyPrincipalOfABatchQuestion(t *testing.T) {
	s := testSigner(t)
	a := &activities.Activities{Signer: s}
	p := wire.Principal{ID: "reader", Groups: []string{"public"}}
	sig := s.Sign("batch-1", "digest-of-the-batch", p)
	for _, tt := range []struct {
		name        string
		run, parent string
		ok          bool
	}{
		{"a question of its batch", "batch-1-q3", "batch-1", true},
		{"no parent", "batch-1-q3", "", false},
		{"another parent", "batch-1-q3", "batch-2", false},
		{"not a question id of the batch", "other", "batch-1", false},
	} {
		v, err := a.VerifyPrincipal(t.Context(), wire.VerifyInput{Principal: p, Signature: sig, Run: tt.run, Parent: tt.parent, Digest: auth.QuestionDigest("q")})
		if err != nil || v.OK != tt.ok {
			t.Errorf("%s: %+v, %v; want ok=%v", tt.name, v, err, tt.ok)
		}
	}
}

// TestBatchDigestUnchanged: BatchDigest, rewritten without fmt for
// workflow code, gives the digests batches already carry in their memos.
func TestBatchDigestUnchanged(t *testing.T) {
	qs := []BatchQuestion{{ID: "c1", Question: "how long is the warranty"}, {ID: "", Question: "é ünïcode"}, {ID: "12", Question: ""}}
	h := sha256.New()
	for _, q := range qs {
		fmt.Fprintf(h, "%d:%s%d:%s", len(q.ID), q.ID, len(q.Question), q.Question)
	}
	if got, want := BatchDigest(qs), hex.EncodeToString(h.Sum(nil)); got != want {
		t.Errorf("BatchDigest = %s, want %s", got, want)
	}
}

// TestGeneratorDeclineRevisions: a generator's refusal stops a run
// insufficient_context from revision 2 on without asking GetVersion; a
// run of an older revision asks, so a new one stops the same way and a
// history recorded before the change (GetVersion answers
// DefaultVersion) replays with generation_error, as it was recorded. A
// run whose generator answers never asks.
func TestGeneratorDeclineRevisions(t *testing.T) {
	for _, tt := range []struct {
		name     string
		rev      int
		old      bool // GetVersion answers DefaultVersion: a recorded history
		declines bool
		want     wire.StopReason
		asked    int
	}{
		{"revision 2", AnswerRevision, false, true, wire.InsufficientContext, 0},
		{"new run of revision 1", 1, false, true, wire.InsufficientContext, 1},
		{"history of revision 1", 1, true, true, wire.GenerationError, 1},
		{"history of revision 0", 0, true, true, wire.GenerationError, 1},
		{"answered", 1, false, false, wire.Answered, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newLoopEnv(t, router.DefaultPolicy("", ""))
			asked := 0
			e.OnGetVersion(generatorDeclines, workflow.DefaultVersion, 1).Return(func(string, workflow.Version, workflow.Version) workflow.Version {
				asked++
				if tt.old {
					return workflow.DefaultVersion
				}
				return 1
			}).Maybe()
			e.OnActivity(e.acts.Search, mock.Anything, mock.Anything).Return(hits("pol-warranty-2026"), nil)
			e.OnActivity(e.acts.Assess, mock.Anything, mock.Anything).Return(verdict(0.9, true, ""), nil)
			if tt.declines {
				e.OnActivity(e.acts.Generate, mock.Anything, mock.Anything).Return(wire.GenerateOutput{}, nonRetryable(errs.Refused, "the sources do not answer the question"))
			} else {
				e.OnActivity(e.acts.Generate, mock.Anything, mock.Anything).Return(answer(), nil)
			}
			in := testInput()
			in.Revision = tt.rev
			res := e.run(t, in)
			if res.StopReason != tt.want {
				t.Errorf("stop %s (%s), want %s", res.StopReason, res.Trace.StopDetail, tt.want)
			}
			if asked != tt.asked {
				t.Errorf("GetVersion asked %d times, want %d", asked, tt.asked)
			}
		})
	}
}
