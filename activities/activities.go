// Package activities holds the steps of the answer loop that touch the
// outside world: Search, Assess and Generate. Each is a method on
// Activities, which holds their dependencies; the workflow calls them by
// method value and never sees chunk texts: inputs and outputs carry ids,
// scores and the final answer only, and the activities load texts by id.
package activities

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/generate"
	"github.com/assay-rag/assay/internal/guard"
	"github.com/assay-rag/assay/internal/release"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/tokens"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

// Searcher ranks chunks for a principal.
type Searcher interface {
	Search(ctx context.Context, req retrieval.Request) (retrieval.Result, error)
}

// ChunkReader loads chunks by id.
type ChunkReader interface {
	Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error)
}

// Models resolves the model a route decision names to an implementation.
type Models struct {
	BuiltinAssessor  assess.Assessor
	BuiltinGenerator generate.Generator
	// Assessor and Generator build the implementation for a decision that
	// routes to a model at the configured endpoint (the decision carries
	// the model and its token budget); nil when no endpoint is configured.
	Assessor  func(d router.Decision) (assess.Assessor, error)
	Generator func(d router.Decision) (generate.Generator, error)
}

func (m Models) assessor(d router.Decision) (assess.Assessor, error) {
	switch {
	case d.IsBuiltin() || d.Model == "":
		return m.BuiltinAssessor, nil
	case m.Assessor == nil:
		return nil, errs.Errorf("activities.Assess", errs.Unsupported, "route %s names model %q but no model endpoint is configured", d.Rule, d.Model)
	}
	return m.Assessor(d)
}

func (m Models) generator(d router.Decision) (generate.Generator, error) {
	switch {
	case d.IsBuiltin() || d.Model == "":
		return m.BuiltinGenerator, nil
	case m.Generator == nil:
		return nil, errs.Errorf("activities.Generate", errs.Unsupported, "route %s names model %q but no model endpoint is configured", d.Rule, d.Model)
	}
	return m.Generator(d)
}

// Activities are the loop's side-effecting steps and their dependencies.
type Activities struct {
	Searcher Searcher
	Chunks   ChunkReader
	Models   Models
	// Checker sanitizes, validates and grounds every answer, whatever
	// generated it. Built once: it holds the analyzer.
	Checker *generate.Checker
	// Routing is the worker's routing policy; workflows fetch it once per
	// run through the RoutingPolicy activity, so it is in their history.
	Routing router.Policy
	// LocalNow says which stages the worker runs in its own process and
	// lets runs execute as local activities; its answer travels with
	// Routing. It is asked at every RoutingPolicy call, that is at every
	// run's start, not once: whether Search may run locally depends on the
	// index version served then, which a rebuild can replace by one whose
	// queries an endpoint embeds. Nil: no stage runs locally.
	LocalNow func(context.Context) wire.Local
	// Tokens, when set, receives the answer as a model streams it, for
	// the gateway's event streams; nil asks models for whole replies.
	Tokens TokenPublisher
	// Signer checks that a run's principal was signed by a gateway
	// (auth.principal_keys); nil accepts every principal.
	Signer *auth.Signer
}

// Validate reports what a worker running a would miss: every dependency
// but Tokens (and the model routes, which a routing policy without an
// endpoint does not use) must be set, and the routing policy must be
// valid. It is a function, not a method: the SDK registers every exported
// method of *Activities as an activity.
func Validate(a *Activities) error {
	switch {
	case a.Searcher == nil:
		return errors.New("activities: no Searcher")
	case a.Chunks == nil:
		return errors.New("activities: no ChunkReader")
	case a.Models.BuiltinAssessor == nil || a.Models.BuiltinGenerator == nil:
		return errors.New("activities: the builtin assessor and generator are required (every route falls back on them)")
	case a.Checker == nil:
		return errors.New("activities: no Checker")
	}
	if err := a.Routing.Validate(); err != nil {
		return fmt.Errorf("activities: routing policy: %w", err)
	}
	return nil
}

// TokenPublisher takes the pieces of a run's streamed answer (package
// tokens: an in-process hub or Redis). Publish must not block: a model
// call waits on it.
type TokenPublisher interface {
	Publish(run string, p tokens.Piece) error
}

// Guard runs the input guardrails on a question. A refusal is a verdict,
// not an error: the workflow turns it into the refused stop.
func (a *Activities) Guard(_ context.Context, in wire.GuardInput) (wire.GuardOutput, error) {
	v, err := guard.Verdict(in.Question)
	if err != nil {
		return wire.GuardOutput{}, temporalError("Guard", err)
	}
	return v, nil
}

// VerifyPrincipal checks a run's principal against its signature: made
// by a gateway with one of the worker's keys, for this run (or, for a
// batch's question, for its parent batch) and what it asks. Its verdict
// is data, not an error: a refusal is the run's unauthorized stop.
func (a *Activities) VerifyPrincipal(_ context.Context, in wire.VerifyInput) (wire.VerifyOutput, error) {
	if a.Signer == nil {
		return wire.VerifyOutput{OK: true}, nil
	}
	if err := a.Signer.Verify(in.Signature, in.Principal); err != nil {
		return wire.VerifyOutput{Reason: errs.Reason(err)}, nil
	}
	sig := in.Signature
	switch {
	case sig.Run == in.Run && sig.Digest == in.Digest:
	case sig.Run == in.Run:
		return wire.VerifyOutput{Reason: "the principal was signed for another question of this run id"}, nil
	case in.Parent != "" && sig.Run == in.Parent && strings.HasPrefix(in.Run, in.Parent+"-q"):
		// A batch's question: its batch checked the digest of every question.
	default:
		return wire.VerifyOutput{Reason: fmt.Sprintf("the principal was signed for run %q, not this one", sig.Run)}, nil
	}
	return wire.VerifyOutput{OK: true}, nil
}

// RoutingPolicy returns the worker's routing policy and local stages
// (LocalNow's answer now; none without it).
func (a *Activities) RoutingPolicy(ctx context.Context) (wire.WorkerPolicy, error) {
	var local wire.Local
	if a.LocalNow != nil {
		local = a.LocalNow(ctx)
	}
	return wire.WorkerPolicy{Policy: a.Routing, Local: local}, nil
}

// Search runs retrieval for one attempt.
func (a *Activities) Search(ctx context.Context, in wire.SearchInput) (wire.SearchOutput, error) {
	ctx = release.WithName(ctx, in.Release)
	res, err := a.Searcher.Search(ctx, retrieval.Request{
		Query: in.Query, Groups: in.Groups, Filters: in.Filters, K: in.K,
	})
	if err != nil {
		return wire.SearchOutput{}, temporalError("Search", err)
	}
	return wire.SearchOutput{Query: in.Query, Hits: res.Hits, Stages: res.Stages, Warnings: res.Warnings}, nil
}

// Assess judges one attempt's evidence.
func (a *Activities) Assess(ctx context.Context, in wire.AssessInput) (wire.AssessOutput, error) {
	ctx = release.WithName(ctx, in.Release)
	if activity.IsActivity(ctx) {
		// The assessor's visible-chunk check asks the same at every
		// attempt of a question: its answer is kept for this question's
		// later attempts (internal/backend/live).
		we := activity.GetInfo(ctx).WorkflowExecution
		ctx = backend.WithQuestion(ctx, we.ID+"/"+we.RunID)
	}
	chunks, err := a.visibleChunks(ctx, in.ChunkIDs, in.Groups)
	if err != nil {
		return wire.AssessOutput{}, temporalError("Assess", err)
	}
	req := assess.Request{Question: in.Question, Query: in.Query, Previous: in.Previous, PreviousK: in.PreviousK, PreviousChunks: in.PreviousChunks, Groups: in.Groups, Filters: in.Filters, K: in.K, Tried: in.Strategies}
	var flags []wire.InjectionFlag
	for i, c := range chunks {
		ev := assess.Evidence{ChunkID: c.ID, Title: c.Title, Text: c.Text}
		if i < len(in.Scores) {
			ev.Score = in.Scores[i]
		}
		req.Evidence = append(req.Evidence, ev)
		flags = append(flags, guard.Scan("document "+c.ID, c.Title+"\n"+c.Text)...)
	}
	assessor, err := a.Models.assessor(in.Route)
	if err != nil {
		return wire.AssessOutput{}, temporalError("Assess", err)
	}
	var res assess.Result
	err = heartbeatWhile(ctx, func() error {
		var err error
		res, err = assessor.Assess(ctx, req)
		return err
	})
	// A failed call may still have cost tokens (a reply that failed its
	// schema twice, or an invalid reply whose repair call failed); they
	// travel in the error so budgets count them.
	spent := res.Usage
	if err != nil {
		return wire.AssessOutput{}, billedError("Assess", err, spent)
	}
	if err := res.Assessment.Check(); err != nil {
		return wire.AssessOutput{}, temporalError("Assess", err, spent)
	}
	return wire.AssessOutput{Assessment: res.Assessment, Usage: res.Usage, Proposals: res.ProposalList(), Flags: flags, Accepted: res.Accepted}, nil
}

// Generate writes the answer from accepted evidence.
func (a *Activities) Generate(ctx context.Context, in wire.GenerateInput) (wire.GenerateOutput, error) {
	ctx = release.WithName(ctx, in.Release)
	if len(in.ChunkIDs) == 0 {
		return wire.GenerateOutput{}, temporalError("Generate", errs.FieldError("activities.Generate", "chunk_ids", "no evidence: generation needs at least one source"))
	}
	chunks, err := a.visibleChunks(ctx, in.ChunkIDs, in.Groups)
	if err != nil {
		return wire.GenerateOutput{}, temporalError("Generate", err)
	}
	req := generate.Request{Question: in.Question}
	for i, c := range chunks {
		req.Sources = append(req.Sources, generate.Source{Label: wire.Label(i), Chunk: c})
	}
	for _, id := range in.Accepted {
		if slices.Contains(in.ChunkIDs, id) {
			req.Accepted = append(req.Accepted, id)
		}
	}
	gen, err := a.Models.generator(in.Route)
	if err != nil {
		return wire.GenerateOutput{}, temporalError("Generate", err)
	}
	var done func()
	if a.Tokens != nil && !in.Route.IsBuiltin() && in.Route.Model != "" {
		req.OnToken, done = a.tokenStream(ctx)
	}
	var ans generate.Answer
	err = heartbeatWhile(ctx, func() error {
		var err error
		ans, err = gen.Generate(ctx, req)
		return err
	})
	if done != nil {
		// Markers are checked below, on the whole answer; the stream
		// only says it ended. The checked answer is the run's result.
		done()
	}
	// A rejected or failed answer still cost its tokens.
	spent := ans.Spent()
	if err != nil {
		return wire.GenerateOutput{}, temporalError("Generate", err, spent)
	}
	// Sanitize, validate and ground whatever generated the answer; a
	// validator's rejection is a final (non-retryable) typed error.
	if ans, err = a.Checker.Check(req, ans); err != nil {
		return wire.GenerateOutput{}, temporalError("Generate", err, spent)
	}
	return wire.GenerateOutput{Answer: ans}, nil
}

// tokenStream returns the OnToken of one Generate attempt, which publishes
// each piece on the run's token stream, and the func that ends the stream
// with a done marker. The stream is named after the activity and its
// attempt, so a retry or a fallback model starts a new one. Publishing
// never fails the model call: a piece that cannot be published is lost,
// and the first such error is logged.
func (a *Activities) tokenStream(ctx context.Context) (onToken func(string) error, done func()) {
	info := activity.GetInfo(ctx)
	run := info.WorkflowExecution.ID
	base := tokens.Piece{Stream: fmt.Sprintf("%s/%d", info.ActivityID, info.Attempt), Attempt: int(info.Attempt)}
	var seq int64 // the model client calls OnToken from one goroutine
	logged := false
	publish := func(p tokens.Piece) {
		seq++
		p.Seq = seq
		if err := a.Tokens.Publish(run, p); err != nil && !logged {
			logged = true
			activity.GetLogger(ctx).Warn("answer tokens are not published", "run", run, "stream", p.Stream, "error", err)
		}
	}
	onToken = func(text string) error {
		p := base
		p.Text = text
		publish(p)
		return nil
	}
	done = func() {
		p := base
		p.Done = true
		publish(p)
	}
	return onToken, done
}

// visibleChunks loads chunks and fails if any is outside groups.
func (a *Activities) visibleChunks(ctx context.Context, ids, groups []string) ([]corpus.Chunk, error) {
	chunks, err := a.Chunks.Chunks(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, c := range chunks {
		if !c.VisibleTo(groups) {
			return nil, errs.Errorf("activities.load", errs.Forbidden, "chunk %s is not visible to the principal", c.ID)
		}
	}
	return chunks, nil
}

// heartbeatInterval is how often long model calls report liveness; the
// workflow's heartbeat timeouts are a few times longer.
const heartbeatInterval = 5 * time.Second

// heartbeatWhile runs fn, heartbeating while it runs, so a worker that
// dies mid-call is noticed at the heartbeat timeout rather than at the
// start-to-close timeout. ctx must be an activity context (tests use the
// SDK's test activity environment).
func heartbeatWhile(ctx context.Context, fn func() error) error {
	done := make(chan struct{})
	defer close(done)
	go func() {
		t := time.NewTicker(heartbeatInterval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return fn()
}

// temporalError maps a domain error to a Temporal application error whose
// type is the error's kind; kinds that cannot succeed on retry are marked
// non-retryable. A non-zero Spent goes along as the error's details.
func temporalError(activity string, err error, spent ...wire.Spent) error {
	return applicationError(activity, err, false, spent...)
}

// billedError is temporalError for a model call that failed after the
// endpoint billed tokens reported in spent (an invalid reply whose
// repair call then failed): such a failure is final whatever its kind,
// because a server retry would hand the workflow only the last attempt's
// failure and these tokens would go uncounted. The workflow counts them
// and decides, as for any failure.
func billedError(activity string, err error, spent wire.Spent) error {
	return applicationError(activity, err, !spent.Usage.IsZero(), spent)
}

func applicationError(activity string, err error, final bool, spent ...wire.Spent) error {
	var appErr *temporal.ApplicationError
	if errors.As(err, &appErr) {
		return err
	}
	kind := errs.KindOf(err)
	if kind == errs.Other && errors.Is(err, context.DeadlineExceeded) {
		// A deadline passed unclassified (a client that returns its
		// context's error, as go-redis does when Redis stops answering).
		kind = errs.Timeout
	}
	if kind == errs.Other {
		kind = errs.Internal
	}
	opts := temporal.ApplicationErrorOptions{NonRetryable: final || !kind.Retryable()}
	if len(spent) > 0 && !spent[0].Usage.IsZero() {
		opts.Details = []any{spent[0]}
	}
	return temporal.NewApplicationErrorWithOptions(activity+": "+err.Error(), kind.TemporalType(), opts)
}
