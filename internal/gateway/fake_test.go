package gateway

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/generate"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/workflows"
)

// fakeEngine is a test double of the Temporal engine: an in-memory set of
// runs. Questions end at once with answerFor's result unless hold is set;
// held questions run until release or Cancel. Batches run their questions
// through the same answers at once. It is not a workflow engine: the
// end-to-end tests in internal/e2e run the real one.
type fakeEngine struct {
	mu      sync.Mutex
	runs    map[string]*fakeRun
	hold    bool
	started int // runs created
	counted int // calls of Running
	// countGate, when set, holds every call of Running until it is
	// closed.
	countGate chan struct{}
	// startDelay, when set, makes Start take this long (or until its
	// context ends).
	startDelay time.Duration
	// unavailable, when set, fails every call as Temporal being down.
	unavailable bool
	// panicOnStart makes Start panic, to test the gateway's recovery.
	panicOnStart bool
	// beforeGenerate, when set, holds the generate stage of every
	// event stream until it is closed.
	beforeGenerate chan struct{}
}

type fakeRun struct {
	run      Run
	in       wire.AnswerInput
	batch    workflows.BatchInput
	res      wire.AnswerResult
	bres     workflows.BatchResult
	progress wire.Progress
	done     chan struct{}
}

func newFakeEngine() *fakeEngine { return &fakeEngine{runs: map[string]*fakeRun{}} }

var errDown = errs.Errorf("fake", errs.Unavailable, "temporal is down")

// answerFor is how fake questions end: a question containing "peru" finds
// nothing; others are answered citing one document the principal's
// groups decide.
func answerFor(in wire.AnswerInput) wire.AnswerResult {
	res := wire.AnswerResult{RequestID: in.RequestID, Trace: wire.Trace{
		RequestID: in.RequestID, PrincipalID: in.Principal.ID, Question: in.Question,
		Attempts: []wire.Attempt{{N: 1, Query: in.Question, Accepted: true}},
		Usage:    wire.Usage{TokensIn: 10, TokensOut: 5},
		TotalMS:  12,
	}}
	if strings.Contains(strings.ToLower(in.Question), "peru") {
		res.StopReason = wire.InsufficientContext
		res.Trace.StopReason = res.StopReason
		return res
	}
	doc := "pol-warranty-2026"
	for _, g := range in.Principal.Groups {
		if g == "partners" {
			doc = "sb-112"
		}
	}
	res.StopReason = wire.Answered
	res.Trace.StopReason = res.StopReason
	res.Answer = "From " + doc + ". [1]"
	res.Model = "builtin:extractive-v1"
	res.Citations = []generate.Citation{{Label: "1", ChunkID: doc + "#0", DocID: doc, Title: "Title of " + doc, URL: "https://example.test/" + doc}}
	res.Trace.Generation = &wire.Generation{Model: res.Model, Sources: []wire.LabelledChunk{
		{Label: "1", ChunkID: doc + "#0"}, {Label: "2", ChunkID: "faq-warranty-claim#0"}}}
	return res
}

func (f *fakeEngine) get(id string) (*fakeRun, error) {
	if f.unavailable {
		return nil, errDown
	}
	r := f.runs[id]
	if r == nil {
		return nil, errs.Errorf("fake", errs.NotFound, "no run %s", id)
	}
	return r, nil
}

func (f *fakeEngine) Describe(_ context.Context, id string) (Run, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, err := f.get(id)
	if err != nil {
		return Run{}, err
	}
	return r.run, nil
}

func (f *fakeEngine) Running(_ context.Context, principal string, kind Kind) (int, error) {
	f.mu.Lock()
	f.counted++
	gate := f.countGate
	f.mu.Unlock()
	if gate != nil {
		<-gate
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.unavailable {
		return 0, errDown
	}
	n := 0
	for _, r := range f.runs {
		if r.run.Principal == principal && r.run.Kind == kind && r.run.Status == api.Running {
			n++
		}
	}
	return n, nil
}

func (f *fakeEngine) Cancel(_ context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, err := f.get(id)
	if err != nil {
		return err
	}
	if r.run.Status == api.Running {
		r.res = wire.AnswerResult{RequestID: id, StopReason: wire.Cancelled, Trace: wire.Trace{StopReason: wire.Cancelled}}
		f.finish(r)
	}
	return nil
}

func (f *fakeEngine) finish(r *fakeRun) {
	r.run.Status = api.Completed
	r.progress = wire.Progress{Stage: "done", Attempt: 1, Stop: r.res.StopReason}
	close(r.done)
}

// release ends every held question with its answer.
func (f *fakeEngine) release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.runs {
		if r.run.Status == api.Running && r.run.Kind == KindQuestion {
			r.res = answerFor(r.in)
			f.finish(r)
		}
	}
}

func (f *fakeEngine) Start(ctx context.Context, id string, in wire.AnswerInput) (string, error) {
	if f.panicOnStart {
		panic("fake engine: panicOnStart")
	}
	if f.startDelay > 0 { // a slow Temporal frontend
		select {
		case <-time.After(f.startDelay):
		case <-ctx.Done():
			return "", errs.E("fake", errs.Unavailable, ctx.Err())
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.unavailable {
		return "", errDown
	}
	if f.runs[id] != nil {
		return "", nil
	}
	f.started++
	tpl, _ := workflows.StartOptions(id, "", in).Memo["template"].(string) // as Temporal's Describe reads it
	r := &fakeRun{run: Run{ID: id, Kind: KindQuestion, Status: api.Running, Principal: in.Principal.ID, Question: in.Question, Template: tpl, Release: in.Release},
		in: in, done: make(chan struct{}), progress: wire.Progress{Stage: "assess", Attempt: 1}}
	f.runs[id] = r
	if !f.hold {
		r.res = answerFor(in)
		f.finish(r)
	}
	return "", nil
}

func (f *fakeEngine) Result(ctx context.Context, id, _ string) (wire.AnswerResult, api.Status, error) {
	f.mu.Lock()
	r, err := f.get(id)
	f.mu.Unlock()
	if err != nil {
		return wire.AnswerResult{}, "", err
	}
	select {
	case <-r.done:
	case <-ctx.Done():
		return wire.AnswerResult{}, "", errs.E("fake.Result", errs.Unavailable, ctx.Err())
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return r.res, r.run.Status, nil
}

func (f *fakeEngine) Progress(_ context.Context, id string) (wire.Progress, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, err := f.get(id)
	if err != nil {
		return wire.Progress{}, err
	}
	return r.progress, nil
}

func (f *fakeEngine) Trace(_ context.Context, id string) (wire.Trace, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, err := f.get(id)
	if err != nil {
		return wire.Trace{}, err
	}
	return wire.Trace{RequestID: id, PrincipalID: r.in.Principal.ID, Question: r.in.Question,
		Attempts: []wire.Attempt{{N: 1, Query: r.in.Question}}}, nil
}

// Events plays a fixed two-attempt stream: the ids and stages the
// Temporal engine derives from a history. The stages come at once, the
// closing event when the question ends (at once unless it is held).
func (f *fakeEngine) Events(ctx context.Context, id string, after int64, emit func(Event) error) error {
	f.mu.Lock()
	_, err := f.get(id)
	f.mu.Unlock()
	if err != nil {
		return err
	}
	stages := []Event{
		{ID: 5, Stage: &api.StageEvent{Stage: "search", Attempt: 1, Query: "q1"}},
		{ID: 11, Stage: &api.StageEvent{Stage: "assess", Attempt: 1}},
		{ID: 16, Stage: &api.StageEvent{Stage: "rewrite", Attempt: 1, Query: "q2"}},
		{ID: 17, Stage: &api.StageEvent{Stage: "search", Attempt: 2, Query: "q2"}},
		{ID: 23, Stage: &api.StageEvent{Stage: "assess", Attempt: 2}},
		{ID: 29, Stage: &api.StageEvent{Stage: "generate", Attempt: 2}},
	}
	for _, e := range stages {
		if e.ID <= after {
			continue
		}
		if e.Stage.Stage == "generate" && f.beforeGenerate != nil {
			select {
			case <-f.beforeGenerate:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if err := emit(e); err != nil {
			return err
		}
	}
	res, st, err := f.Result(ctx, id, "")
	if err != nil {
		return err
	}
	if after >= 35 {
		return nil
	}
	return emit(Event{ID: 35, Closed: true, Status: st, Result: &res})
}

func (f *fakeEngine) StartBatch(_ context.Context, id string, in workflows.BatchInput) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.unavailable {
		return errDown
	}
	if f.runs[id] != nil {
		return nil
	}
	f.started++
	items := make([]workflows.BatchItem, len(in.Questions))
	for i, q := range in.Questions {
		cin := in.Template
		cin.RequestID, cin.Question, cin.Principal = workflows.ChildID(id, i), q.Question, in.Principal
		res := answerFor(cin)
		child := &fakeRun{run: Run{ID: cin.RequestID, Kind: KindQuestion, Status: api.Completed, Principal: in.Principal.ID, Question: q.Question},
			in: cin, res: res, done: make(chan struct{})}
		close(child.done)
		f.runs[cin.RequestID] = child
		items[i] = workflows.BatchItem{ID: q.ID, QuestionID: cin.RequestID, Status: wire.ItemDone,
			StopReason: res.StopReason, LatencyMS: float64(i), Usage: wire.Usage{TokensIn: 10, TokensOut: 5}}
	}
	memo := workflows.BatchStartOptions(id, "", in).Memo // as Temporal's Describe reads it
	digest, _ := memo["digest"].(string)
	tpl, _ := memo["template"].(string)
	r := &fakeRun{run: Run{ID: id, Kind: KindBatch, Status: api.Running, Principal: in.Principal.ID, Digest: digest, Template: tpl, Release: in.Template.Release}, batch: in, done: make(chan struct{})}
	r.bres = workflows.BatchResult{Status: workflows.BatchStatus{ID: id, State: workflows.BatchRunning, Runs: 1, Aggregate: workflows.Aggregate(items)}, Items: items}
	if !f.hold {
		r.bres.Status.State = workflows.BatchCompleted
		r.run.Status = api.Completed
		close(r.done)
	}
	f.runs[id] = r
	return nil
}

func (f *fakeEngine) batch(id string) (*fakeRun, error) {
	r, err := f.get(id)
	if err == nil && r.run.Kind != KindBatch {
		err = fmt.Errorf("%s is not a batch", id)
	}
	return r, err
}

func (f *fakeEngine) BatchStatus(_ context.Context, id string) (workflows.BatchStatus, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, err := f.batch(id)
	if err != nil {
		return workflows.BatchStatus{}, err
	}
	return r.bres.Status, nil
}

func (f *fakeEngine) BatchItems(_ context.Context, id string, offset, limit int) ([]workflows.BatchItem, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, err := f.batch(id)
	if err != nil {
		return nil, err
	}
	items := r.bres.Items
	if offset >= len(items) {
		return nil, nil
	}
	return items[offset:min(offset+limit, len(items))], nil
}

func (f *fakeEngine) BatchResult(ctx context.Context, id string) (workflows.BatchResult, api.Status, error) {
	f.mu.Lock()
	r, err := f.batch(id)
	f.mu.Unlock()
	if err != nil {
		return workflows.BatchResult{}, "", err
	}
	select {
	case <-r.done:
	case <-ctx.Done():
		return workflows.BatchResult{}, "", ctx.Err()
	}
	return r.bres, api.Completed, nil
}
