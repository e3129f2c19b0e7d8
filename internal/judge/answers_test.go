package judge

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/generate"
	"github.com/assay-rag/assay/internal/golden"
	"github.com/assay-rag/assay/internal/prompt"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

// chunkMap is an in-memory ChunkSource.
type chunkMap map[string]corpus.Chunk

func (m chunkMap) Chunks(_ context.Context, ids []string) ([]corpus.Chunk, error) {
	var out []corpus.Chunk
	for _, id := range ids {
		c, ok := m[id]
		if !ok {
			return nil, errs.Errorf("test", errs.NotFound, "no chunk %q", id)
		}
		out = append(out, c)
	}
	return out, nil
}

// A small corpus with each kind of document the diagnosis tells apart.
var answerDocs = []corpus.Document{
	{ID: "warranty", Text: "Blender motors are covered for 5 years. Blade wear is not covered.", Status: corpus.Current, Authority: 1, ACL: []string{"public"}},
	{ID: "warranty-old", Text: "Blender motors are covered for 2 years.", Status: corpus.Archived, Authority: 1, ACL: []string{"public"}},
	{ID: "ticket", Text: "Case 1. The agent said the motor cover was two years long.", Status: corpus.Current, Authority: 0.3, ACL: []string{"staff"}},
	{ID: "rates-b", Text: "Hollin pays Brook Street £42 per hour of warranty labour.", Status: corpus.Current, Authority: 0.8, ACL: []string{"partner:b", "staff"}},
	{ID: "rates-c", Text: "Hollin pays Calder Fix £39 per hour of warranty labour.", Status: corpus.Current, Authority: 0.8, ACL: []string{"partner:c", "staff"}},
	{ID: "scan", Text: "", Status: corpus.Current, Authority: 1, ACL: []string{"public"}},
	{ID: "unindexed", Text: "This page never reached the index.", Status: corpus.Current, Authority: 1, ACL: []string{"public"}},
}

func answerLibrary(t *testing.T) *Library {
	t.Helper()
	chunks := chunkMap{}
	for i := range answerDocs {
		d := &answerDocs[i]
		if d.ID != "unindexed" {
			chunks[corpus.ChunkID(d.ID, 0)] = corpus.NewChunk(d, 0, d.Text)
		}
	}
	l, err := NewLibrary(context.Background(), answerDocs, chunks)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func docHit(doc string) retrieval.Hit { return retrieval.Hit{ChunkID: doc + "#0", DocID: doc} }

func chunks(docs ...string) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d + "#0"
	}
	return out
}

// attempt is attempt n retrieving docs (in order), with a bm25 stage that
// saw bm25 and a final rerank stage whose order is the hits'.
func attempt(n int, accepted bool, bm25 []string, docs ...string) wire.Attempt {
	a := wire.Attempt{N: n, Query: "q", Accepted: accepted,
		Assessment: &assess.Assessment{Score: 0.3 + 0.2*float64(n), Sufficient: accepted},
		Stages: []retrieval.Stage{
			{Name: "bm25", Top: chunks(bm25...)},
			{Name: "embed"},
			{Name: "rerank", Top: chunks(docs...)},
		}}
	for _, d := range docs {
		a.Hits = append(a.Hits, docHit(d))
	}
	return a
}

// answered is an answered run whose accepted last attempt's hits became
// labels 1, 2, ... and whose answer cites the given labels.
func answered(text string, cite []string, atts ...wire.Attempt) wire.AnswerResult {
	last := atts[len(atts)-1]
	g := &wire.Generation{Model: "builtin:extractive-v6"}
	for i, h := range last.Hits {
		g.Sources = append(g.Sources, wire.LabelledChunk{Label: wire.Label(i), ChunkID: h.ChunkID})
	}
	res := wire.AnswerResult{StopReason: wire.Answered, Answer: text}
	for _, l := range cite {
		for _, s := range g.Sources {
			if s.Label == l {
				res.Citations = append(res.Citations, generate.Citation{Label: l, ChunkID: s.ChunkID, DocID: docOf(s.ChunkID)})
			}
		}
	}
	res.Trace = wire.Trace{Attempts: atts, Generation: g, TotalMS: 100,
		Routes: []wire.RouteRecord{{Attempt: 1, Decision: router.Decision{Task: router.Assess, Route: router.Builtin}}}}
	return res
}

func stopped(stop wire.StopReason, atts ...wire.Attempt) wire.AnswerResult {
	return wire.AnswerResult{StopReason: stop, Answer: "I could not find an answer.",
		Trace: wire.Trace{Attempts: atts, StopReason: stop, TotalMS: 50}}
}

func TestJudgeOutcomes(t *testing.T) {
	lib := answerLibrary(t)
	facts := eval.KeyFacts{"motor": {"5 years"}}
	motor := eval.Question{ID: "motor", Question: "how long is the motor covered", Relevant: []string{"warranty"}, Type: "stale", Groups: []string{"public"}}
	staffMotor := motor
	staffMotor.Groups = []string{"staff"}
	staffMotor.Relevant = []string{"ticket"}
	staffMotor.ID = "staff-motor"
	none := eval.Question{ID: "none", Question: "capital of Peru", Relevant: []string{}, Type: "no-answer", Groups: []string{"public"}}

	withDrop := answered("Motors are covered. [1]", []string{"1"}, attempt(1, true, nil, "warranty-old", "warranty"))
	withDrop.Trace.Generation.Dropped = []prompt.Dropped{{Label: "2", ChunkID: "warranty#0", Reason: "budget"}}

	tests := []struct {
		name   string
		q      eval.Question
		res    wire.AnswerResult
		want   Outcome
		detail string // a substring of the detail
	}{
		{"ok", motor, answered("Blender motors are covered for 5 years. [1]", []string{"1"}, attempt(1, true, nil, "warranty")), OK, ""},
		{"key fact missing", motor, answered("Blender motors are covered. [1]", []string{"1"}, attempt(1, true, nil, "warranty")), Generation, "5 years"},
		{"cites the archived terms", motor, answered("Blender motors are covered for 2 years. [1]", []string{"1"}, attempt(1, true, nil, "warranty-old", "warranty")), Generation, "cites warranty-old"},
		{"generation failed", motor, stopped(wire.GenerationError, attempt(1, true, nil, "warranty")), Generation, "generation_error"},
		{"never accepted", motor, stopped(wire.InsufficientContext, attempt(1, false, nil, "warranty")), Assembly, "accepted no attempt"},
		{"accepted another attempt", motor, answered("Motors: 2 years. [1]", []string{"1"},
			attempt(1, false, nil, "warranty"), attempt(2, true, nil, "warranty-old")), Assembly, "accepted attempt 2 had no relevant chunk"},
		{"dropped by the budget", motor, withDrop, Assembly, "prompt budget"},
		{"lost in rerank", motor, stopped(wire.InsufficientContext, attempt(1, false, []string{"warranty", "warranty-old"}, "warranty-old")), LostInRerank, "ranked 1 in stage bm25"},
		{"below the cut", motor, stopped(wire.InsufficientContext, attempt(1, false, []string{"warranty-old", "scan", "warranty"}, "warranty-old")), MissedTopK, "best rank 3"},
		{"never seen", motor, stopped(wire.InsufficientContext, attempt(1, false, []string{"warranty-old"}, "warranty-old")), MissedTopK, "no relevant chunk"},
		{"no search", motor, stopped(wire.Refused), MissedTopK, "no search ran"},
		{"not visible to the asker", eval.Question{ID: "t", Relevant: []string{"ticket"}, Groups: []string{"public"}}, stopped(wire.InsufficientContext), MissingContent, "groups public"},
		{"visible to staff", staffMotor, answered("The agent said the motor cover was two years long. [1]", []string{"1"}, attempt(1, true, nil, "ticket")), OK, ""},
		{"empty text", eval.Question{ID: "s", Relevant: []string{"scan"}, Groups: []string{"public"}}, stopped(wire.InsufficientContext), Extraction, "scan"},
		{"no indexed chunk", eval.Question{ID: "u", Relevant: []string{"unindexed"}, Groups: []string{"public"}}, stopped(wire.InsufficientContext), Extraction, "unindexed"},
		{"no answer, refused", none, stopped(wire.InsufficientContext, attempt(1, false, nil, "warranty")), OK, ""},
		{"no answer, answered", none, answered("Blender motors are covered for 5 years. [1]", []string{"1"}, attempt(1, true, nil, "warranty")), FalseAnswer, "citing warranty"},
	}
	j := Judge{Library: lib, Facts: facts, TopK: 1}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := j.Evaluate(tt.q, tt.res)
			if got.Outcome != tt.want || !strings.Contains(got.Detail, tt.detail) {
				t.Errorf("Evaluate(%s) = %s (%q), want %s with %q", tt.name, got.Outcome, got.Detail, tt.want, tt.detail)
			}
		})
	}
}

func TestJudgeCitations(t *testing.T) {
	j := Judge{Library: answerLibrary(t), Facts: eval.KeyFacts{"motor": {"5 years", "blade wear"}}, TopK: 5}
	q := eval.Question{ID: "motor", Relevant: []string{"warranty"}, Groups: []string{"public", "staff"}}
	res := answered("Motors: 5 years [1], or 2 years [2]; see the case [3]. [9]", []string{"1", "2", "3"},
		attempt(1, true, nil, "warranty", "warranty-old", "ticket"))
	res.Trace.Generation.Stripped = []citation.Strip{{Marker: "[9]", Unknown: []string{"9"}}}
	res.Trace.Generation.Grounding = []citation.Flag{{Kind: citation.StaleSource, Label: "2"}}
	got := j.Evaluate(q, res)
	want := RunEval{
		StopReason: wire.Answered, Outcome: Generation, Answer: res.Answer, Attempts: 1, LatencyMS: 100, Route: "builtin",
		Cited: []string{"warranty", "warranty-old", "ticket"}, CitedRelevant: true,
		KeyFacts: new(bool), MissingFacts: []string{"blade wear"}, OnQuestion: rptr(ratio(1, 1)),
		Citations: 4, ValidCitations: 3,
		StaleCitations: []string{"warranty-old"}, WeakCitations: []string{"ticket"}, Stripped: []string{"[9]"},
	}
	got.Detail, got.Trajectory = "", nil
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Evaluate mismatch (-want +got):\n%s", diff)
	}
	// Asked as public, the staff ticket is not a valid citation.
	q.Groups = []string{"public"}
	if got := j.Evaluate(q, res); got.ValidCitations != 2 {
		t.Errorf("public asker: %d valid citations, want 2 (the staff ticket is not visible)", got.ValidCitations)
	}
}

func TestJudgeLeaks(t *testing.T) {
	j := Judge{Library: answerLibrary(t), TopK: 5}
	q := eval.Question{ID: "rates", Relevant: []string{"rates-b"}, Forbidden: []string{"rates-c", "ticket"}, Groups: []string{"partner:b"}}
	clean := answered("Hollin pays Brook Street £42 per hour of warranty labour. [1]", []string{"1"}, attempt(1, true, []string{"rates-b"}, "rates-b"))
	if got := j.Evaluate(q, clean); len(got.Leaks) != 0 || got.Outcome != OK {
		t.Errorf("clean run: leaks %v, outcome %s; want none, ok", got.Leaks, got.Outcome)
	}

	retrieved := answered("Hollin pays Calder Fix £39 per hour of warranty labour. [2]", []string{"2"},
		attempt(1, true, []string{"rates-c", "rates-b"}, "rates-b", "rates-c"))
	inAnswer := answered("Hollin pays Calder Fix £39 per hour of warranty labour.", nil, attempt(1, true, nil, "rates-b"))
	inTrace := answered("£42 an hour. [1]", []string{"1"}, attempt(1, true, nil, "rates-b"))
	inTrace.Trace.Warnings = []string{"stale source: ticket preferred"}
	tests := []struct {
		name string
		res  wire.AnswerResult
		want []Leak
	}{
		{"retrieved and cited", retrieved, []Leak{{DocID: "rates-c", Where: []string{"hits", "candidates", "sources", "citations", "answer"}}}},
		{"only its text in the answer", inAnswer, []Leak{{DocID: "rates-c", Where: []string{"answer"}}}},
		{"named in a warning", inTrace, []Leak{{DocID: "ticket", Where: []string{"trace"}}}},
	}
	for _, tt := range tests {
		got := j.Evaluate(q, tt.res)
		if diff := cmp.Diff(tt.want, got.Leaks); diff != "" {
			t.Errorf("%s: leaks (-want +got):\n%s", tt.name, diff)
		}
	}
	// An id the asker wrote is theirs: a refusal that repeats the query
	// names it, and the trace records the query, without a leak; another
	// forbidden id in the same answer, or the named document among the
	// hits, still is one.
	named := q
	named.Question = "What does TICKET say about the rate?"
	echo := answered("I could not find an answer. I searched for: \"What does ticket say about the rate?\"", nil, attempt(1, false, nil))
	if got := j.Evaluate(named, echo); len(got.Leaks) != 0 {
		t.Errorf("the asker's own id counted as a leak: %v", got.Leaks)
	}
	// The trace records the query the asker wrote (each attempt's Query):
	// the id in it is theirs too. The same id in a trace whose question
	// did not name it is a leak ("named in a warning" above).
	recorded := attempt(1, false, nil)
	recorded.Query = "what does ticket say about the rate"
	if got := j.Evaluate(named, answered("I could not find an answer.", nil, recorded)); len(got.Leaks) != 0 {
		t.Errorf("the asker's own id in the trace's query counted as a leak: %v", got.Leaks)
	}
	if diff := cmp.Diff([]Leak{{DocID: "ticket", Where: []string{"trace"}}}, j.Evaluate(q, answered("I could not find an answer.", nil, recorded)).Leaks); diff != "" {
		t.Errorf("the id in the trace, not in the question: leaks (-want +got):\n%s", diff)
	}
	echoOther := answered("I searched for: ticket. See rates-c.", nil, attempt(1, false, nil))
	if diff := cmp.Diff([]Leak{{DocID: "rates-c", Where: []string{"answer"}}}, j.Evaluate(named, echoOther).Leaks); diff != "" {
		t.Errorf("another forbidden id beside the asker's: leaks (-want +got):\n%s", diff)
	}
	hit := answered("I searched for: ticket.", nil, attempt(1, false, []string{"ticket"}, "ticket"))
	if diff := cmp.Diff([]Leak{{DocID: "ticket", Where: []string{"hits", "candidates", "sources"}}}, j.Evaluate(named, hit).Leaks); diff != "" {
		t.Errorf("the asker's id among the hits: leaks (-want +got):\n%s", diff)
	}
	// rates-b's sentence shares nothing with rates-c's; a sentence shared
	// with a visible document is not a leak.
	shared := eval.Question{ID: "w", Relevant: []string{"warranty"}, Forbidden: []string{"warranty-old"}, Groups: []string{"public"}}
	lib, err := NewLibrary(context.Background(), append(slices.Clone(answerDocs),
		corpus.Document{ID: "copy", Text: "Blender motors are covered for 2 years.", ACL: []string{"public"}, Status: corpus.Current, Authority: 1}), nil)
	if err != nil {
		t.Fatal(err)
	}
	j.Library = lib
	res := answered("Blender motors are covered for 2 years. [1]", []string{"1"}, attempt(1, true, nil, "copy"))
	if got := j.Evaluate(shared, res); len(got.Leaks) != 0 {
		t.Errorf("a sentence a visible document also holds counted as a leak: %v", got.Leaks)
	}
}

func TestMentions(t *testing.T) {
	tests := []struct {
		text, id string
		want     bool
	}{
		{`"doc_id":"tkt-30412"`, "tkt-30412", true},
		{`"chunk_id":"tkt-30412#0"`, "tkt-30412", true},
		{`tkt-304120`, "tkt-30412", false},
		{`xtkt-30412`, "tkt-30412", false},
		{`see tkt-30412.`, "tkt-30412", true},
	}
	for _, tt := range tests {
		if got := mentions(tt.text, tt.id); got != tt.want {
			t.Errorf("mentions(%q, %q) = %v, want %v", tt.text, tt.id, got, tt.want)
		}
	}
}

func TestReadKeyFacts(t *testing.T) {
	kf, err := eval.ReadKeyFacts(strings.NewReader("{\"id\":\"q1\",\"facts\":[\"5 years\"]}\n\n{\"id\":\"q2\",\"facts\":[\"a\",\"B\"]}\n"), "kf.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := kf.Missing("q2", "has A only"); !cmp.Equal(got, []string{"B"}) {
		t.Errorf("Missing = %v, want [B]", got)
	}
	if got := kf.Missing("q1", "covered for 5 YEARS"); got != nil {
		t.Errorf("Missing is case-sensitive: %v", got)
	}
	// HoldsAny matches as Missing does: one fact is enough.
	if !kf.HoldsAny("q2", "b only") || !kf.HoldsAny("q1", "5 YEARS") || kf.HoldsAny("q1", "five years") || kf.HoldsAny("q9", "5 years") {
		t.Errorf("HoldsAny: want one of q2's facts enough, case ignored, nothing in a text without the facts, nothing for an id without facts")
	}
	bad := []struct{ in, want string }{
		{`{"id":"q1"}`, "kf.jsonl:1: field facts"},
		{`{"id":"","facts":["x"]}`, "field id"},
		{`{"id":"q1","facts":["x"],"fact":"y"}`, "fact"},
		{"{\"id\":\"q1\",\"facts\":[\"x\"]}\n{\"id\":\"q1\",\"facts\":[\"y\"]}", "kf.jsonl:2: field id: duplicate"},
		{`{"id":"q1","facts":["x"," "]}`, "facts[1]"},
		{`{"id":"q1","facts":`, "kf.jsonl:1"},
	}
	for _, b := range bad {
		if _, err := eval.ReadKeyFacts(strings.NewReader(b.in), "kf.jsonl"); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("ReadKeyFacts(%q) error = %v, want one containing %q", b.in, err, b.want)
		}
	}
}

// TestHollinKeyFacts reads the tracked key facts: every line parses.
func TestHollinKeyFacts(t *testing.T) {
	kf, err := eval.LoadKeyFacts(filepath.Join("..", "..", "testdata", "hollin", "key_facts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(kf) < 23 {
		t.Errorf("%d key-fact entries, want at least the 23 answerable Hollin questions", len(kf))
	}
}

func bptr(b bool) *bool { return &b }

func f64(v float64) *float64 { return &v }

// fixedReport is a report value small enough to check by hand and varied
// enough to exercise every table and chart: it is the golden files' input.
func fixedReport() AnswersReport {
	traj := func(calls int, first, final float64) *Trajectory {
		imp := final - first
		return &Trajectory{SearchCalls: calls, FirstScore: f64(first), FinalScore: f64(final), Improvement: &imp}
	}
	r := AnswersReport{
		QuestionsFile: "testdata/eval/hollin.jsonl", KeyFactsFile: "testdata/hollin/key_facts.jsonl",
		Corpus: "testdata/hollin/corpus.jsonl", Documents: 33,
		Settings: AnswerSettings{LoopMaxAttempts: 3, OnePassMaxAttempts: 1, TopK: 5, Threshold: 0.5},
		Questions: []QuestionEval{
			{ID: "q02", Question: "how many years is the X300 Pro motor covered for", Type: "stale", Groups: []string{"public"}, Relevant: []string{"pol-warranty-2026"}, Forbidden: []string{"tkt-30501"},
				Loop: RunEval{StopReason: wire.Answered, Outcome: OK, Attempts: 1, LatencyMS: 310, Route: "builtin", Cited: []string{"pol-warranty-2026"}, CitedRelevant: true, KeyFacts: bptr(true), OnQuestion: rptr(ratio(1, 1)),
					Citations: 2, ValidCitations: 2, Answer: "Blender motors on the X200 and X300 Pro are covered for 5 years. [1]", Trajectory: traj(1, 0.8, 0.8)},
				OnePass: RunEval{StopReason: wire.Answered, Outcome: OK, Attempts: 1, LatencyMS: 290, Route: "builtin", Cited: []string{"pol-warranty-2026"}, CitedRelevant: true, KeyFacts: bptr(true), OnQuestion: rptr(ratio(1, 1)),
					Citations: 2, ValidCitations: 2, Trajectory: traj(1, 0.8, 0.8)}},
			{ID: "q07", Question: "can I use my kettle on holiday in America", Type: "paraphrase", Groups: []string{"public"}, Relevant: []string{"faq-abroad"},
				Loop: RunEval{StopReason: wire.Answered, Outcome: OK, Attempts: 2, LatencyMS: 820, Route: "builtin", Cited: []string{"faq-abroad"}, CitedRelevant: true, KeyFacts: bptr(true), OnQuestion: rptr(ratio(1, 2)),
					Citations: 1, ValidCitations: 1, Trajectory: traj(2, 0.3, 0.7)},
				OnePass: RunEval{StopReason: wire.InsufficientContext, Outcome: MissedTopK, Detail: "best rank 7 (stage bm25, attempt 1), below the top 5", Attempts: 1, LatencyMS: 150, Route: "builtin", Cited: []string{},
					KeyFacts: bptr(false), MissingFacts: []string{"230 V"}, Trajectory: traj(1, 0.3, 0.3)}},
			{ID: "p01", Question: "what does Hollin pay us per hour of warranty labour", Type: "restricted", Groups: []string{"partners", "partner:brook-street"}, Relevant: []string{"ptn-brook-rates"}, Forbidden: []string{"ptn-calder-rates", "int-parts-cost"},
				Loop: RunEval{StopReason: wire.Answered, Outcome: Generation, Detail: `the answer misses the key facts ["£42"]`, Attempts: 1, LatencyMS: 400, Route: "builtin", Cited: []string{"ptn-handbook", "tkt-30501"}, KeyFacts: bptr(false), MissingFacts: []string{"£42"}, OnQuestion: rptr(ratio(0, 2)),
					Citations: 3, ValidCitations: 2, WeakCitations: []string{"tkt-30501"}, StaleCitations: []string{"pol-warranty-2024"}, Stripped: []string{"[7]"},
					Leaks: []Leak{{DocID: "ptn-calder-rates", Where: []string{"hits", "answer"}}}, Trajectory: traj(1, 0.6, 0.6)},
				OnePass: Failed("child workflow failed: boom")},
			{ID: "q34", Question: "what is the capital of Peru", Type: "no-answer", Groups: []string{"public"}, Relevant: []string{},
				Loop: RunEval{StopReason: wire.InsufficientContext, Outcome: OK, Detail: "no answer, nothing cited", Attempts: 1, LatencyMS: 120, Route: "builtin", Cited: []string{}, Trajectory: traj(1, 0.1, 0.1)},
				OnePass: RunEval{StopReason: wire.Answered, Outcome: FalseAnswer, Detail: "the corpus cannot answer it, yet the run ended answered citing faq-abroad", Attempts: 1, LatencyMS: 200, Route: "small", Cited: []string{"faq-abroad"},
					Citations: 1, ValidCitations: 1, Usage: wire.Usage{TokensIn: 900, TokensOut: 40, CostUSD: 0.0012}, Trajectory: traj(1, 0.55, 0.55)}},
		},
	}
	r.Aggregate()
	return r
}

func TestSummarize(t *testing.T) {
	r := fixedReport()
	l, p := r.Overall.Loop, r.Overall.OnePass
	checks := []struct {
		name      string
		got, want Ratio
	}{
		{"loop ok", l.OK, ratio(3, 4)},
		{"loop right source", l.RightSourceCited, ratio(2, 3)},
		{"loop key facts", l.KeyFacts, ratio(2, 3)},
		{"loop refusal", l.NoAnswerRefusal, ratio(1, 1)},
		{"loop citation validity", l.CitationValidity, ratio(5, 6)},
		{"loop stale", l.StaleCitations, ratio(1, 3)},
		{"loop weak", l.WeakCitations, ratio(1, 3)},
		{"one-pass ok", p.OK, ratio(1, 4)},
		{"one-pass right source", p.RightSourceCited, ratio(1, 3)},
		{"one-pass key facts", p.KeyFacts, ratio(1, 2)},
		{"one-pass refusal", p.NoAnswerRefusal, ratio(0, 1)},
		// q02 and q07 cite their relevant page, p01 two others.
		{"loop cited precision", l.CitedPrecision, ratio(2, 4)},
		// q02's page, and faq-abroad cited for the no-answer q34.
		{"one-pass cited precision", p.CitedPrecision, ratio(1, 2)},
		// q02's 1 of 1, q07's 1 of 2, p01's 0 of 2; one pass q02's alone
		// (q07 refused, p01 failed).
		{"loop on-question sentences", l.OnQuestion, ratio(2, 5)},
		{"one-pass on-question sentences", p.OnQuestion, ratio(1, 1)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %+v, want %+v", c.name, c.got, c.want)
		}
	}
	if l.ForbiddenLeaks != 1 || p.ForbiddenLeaks != 0 || p.RunsFailed != 1 {
		t.Errorf("leaks %d/%d, one-pass failed %d; want 1/0 and 1", l.ForbiddenLeaks, p.ForbiddenLeaks, p.RunsFailed)
	}
	// Nearest rank over 120, 310, 400, 820: p50 the 2nd, p95 and p99 the 4th.
	if l.LatencyP50MS != 310 || l.LatencyP95MS != 820 || l.LatencyP99MS != 820 {
		t.Errorf("loop latency p50/p95/p99 = %v/%v/%v, want 310/820/820", l.LatencyP50MS, l.LatencyP95MS, l.LatencyP99MS)
	}
	tr := l.Trajectory
	if tr.SearchCalls != 5 || tr.Rewritten != 1 || tr.Improved != 1 || tr.Scored != 4 {
		t.Errorf("loop trajectory = %+v, want 5 calls, 1 rewritten, 1 improved, 4 scored", tr)
	}
	if d := tr.MeanImprovement - 0.1; d > 1e-9 || d < -1e-9 {
		t.Errorf("mean improvement = %v, want 0.1 (0.4 over 4 runs)", tr.MeanImprovement)
	}
	if len(r.ByType) != 4 || r.ByType[0].Key != "no-answer" {
		t.Errorf("by type = %d groups starting %q; want 4, sorted", len(r.ByType), r.ByType[0].Key)
	}
	var routes []string
	for _, c := range r.ByRoute {
		routes = append(routes, c.Key)
	}
	if !cmp.Equal(routes, []string{"builtin", "none", "small"}) {
		t.Errorf("routes = %v, want builtin, none (the failed run), small", routes)
	}
	if got := r.ByRoute[2]; got.Loop.Questions != 0 || got.OnePass.Questions != 1 {
		t.Errorf("route small: loop %d, one-pass %d questions; want 0 and 1", got.Loop.Questions, got.OnePass.Questions)
	}
}

func TestAnswersReportGolden(t *testing.T) {
	r := fixedReport()
	for _, tc := range []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"answers_report.golden.md", func(b *bytes.Buffer) error { return r.WriteMarkdown(b) }},
		{"answers_report.golden.html", func(b *bytes.Buffer) error { return r.WriteHTML(b) }},
		{"answers_report.golden.json", func(b *bytes.Buffer) error { return r.WriteJSON(b) }},
	} {
		var buf bytes.Buffer
		if err := tc.write(&buf); err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		golden.Check(t, filepath.Join("testdata", tc.file), buf.Bytes())
	}
}

// TestAnswersHTMLSelfContained: the HTML loads nothing and runs nothing,
// escapes what questions contain, and has the four charts.
func TestAnswersHTMLSelfContained(t *testing.T) {
	r := fixedReport()
	r.Questions[0].Question = `<script>alert("x")</script>`
	r.Aggregate()
	var buf bytes.Buffer
	if err := r.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, bad := range []string{"<script", "src=", "href=", "@import", "url("} {
		if strings.Contains(out, bad) {
			t.Errorf("HTML report contains %q: it must be self-contained and script-free", bad)
		}
	}
	if n := strings.Count(out, "<svg "); n != 4 {
		t.Errorf("%d inline SVG charts, want 4", n)
	}
}

func TestCompareBaseline(t *testing.T) {
	base := fixedReport()
	tests := []struct {
		name   string
		change func(*AnswersReport)
		want   []string // system/metric of each regression
	}{
		{"same", func(*AnswersReport) {}, nil},
		{"within tolerance", func(r *AnswersReport) { r.Overall.Loop.RightSourceCited.Rate -= 0.05 }, nil},
		{"right source fell", func(r *AnswersReport) { r.Overall.Loop.RightSourceCited.Rate -= 0.06 }, []string{"loop/right_source_cited"}},
		{"key facts fell", func(r *AnswersReport) { r.Overall.OnePass.KeyFacts.Rate = 0 }, []string{"one_pass/key_facts"}},
		{"refusal fell", func(r *AnswersReport) { r.Overall.Loop.NoAnswerRefusal.Rate = 0.5 }, []string{"loop/no_answer_refusal"}},
		{"better is fine", func(r *AnswersReport) { r.Overall.OnePass.RightSourceCited.Rate = 1 }, nil},
	}
	// The fixed report leaks once in the loop: start from a clean base.
	base.Overall.Loop.ForbiddenLeaks = 0
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cur := base
			tt.change(&cur)
			regs, err := CompareBaseline(base, cur, DefaultTolerance)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range regs {
				got = append(got, r.System+"/"+r.Metric)
			}
			if !cmp.Equal(got, tt.want) {
				t.Errorf("regressions = %v, want %v", got, tt.want)
			}
		})
	}
	leaky := base
	leaky.Overall.OnePass.ForbiddenLeaks = 1
	if regs, _ := CompareBaseline(leaky, leaky, 1); len(regs) != 1 || regs[0].Metric != "forbidden_leaks" {
		t.Errorf("a leak, even in the baseline and with tolerance 1: %v; want a forbidden_leaks regression", regs)
	}
	fewer := base
	fewer.Questions = fewer.Questions[1:]
	if _, err := CompareBaseline(base, fewer, DefaultTolerance); err == nil {
		t.Error("different question sets compared without error")
	}
}

// TestJudgeOtherEntity: an answer none of whose sources mentions an entity
// the question names is counted as about something else; a background name
// ("Hollin", on most pages) is not an entity, and a refusal is not judged.
func TestJudgeOtherEntity(t *testing.T) {
	j := Judge{Library: answerLibrary(t), TopK: 5}
	q := eval.Question{ID: "b", Question: "what does Hollin pay Brook Street for an hour", Relevant: []string{"rates-b"}, Type: "partner", Groups: []string{"public", "staff"}}
	tests := []struct {
		name string
		res  wire.AnswerResult
		want []string
	}{
		{"the asked partner's rates", answered("£42 per hour. [1]", []string{"1"}, attempt(1, true, nil, "rates-b")), nil},
		{"another partner's rates", answered("£39 per hour. [1]", []string{"1"}, attempt(1, true, nil, "rates-c")), []string{"Brook Street"}},
		{"both cited", answered("£42 [1], £39 [2].", []string{"1", "2"}, attempt(1, true, nil, "rates-c", "rates-b")), nil},
		{"refused", stopped(wire.InsufficientContext, attempt(1, false, nil, "rates-c")), nil},
	}
	var runs []QuestionEval
	for _, tt := range tests {
		got := j.Evaluate(q, tt.res)
		if !slices.Equal(got.OtherEntity, tt.want) {
			t.Errorf("%s: OtherEntity = %q, want %q", tt.name, got.OtherEntity, tt.want)
		}
		runs = append(runs, QuestionEval{ID: q.ID, Question: q.Question, Relevant: q.Relevant, Loop: got})
	}
	s := Summarize(runs, func(q QuestionEval) RunEval { return q.Loop })
	if s.OtherEntity.N != 1 || s.OtherEntity.Of != 3 {
		t.Errorf("summary OtherEntity = %+v, want 1 of 3 answered", s.OtherEntity)
	}
}

// TestUnmentionedEntitiesWhole: a cited document naming part of an entity
// ("X300" for "X300 Pro", "Brook" or "Brook ... Street" for "Brook Street
// Repairs") does not mention it (assess.Entity.CoveredBy, shared).
func TestUnmentionedEntitiesWhole(t *testing.T) {
	docs := []corpus.Document{
		{ID: "x300", Title: "X300 specifications", Text: "The X300 has five speeds. A pro tip: clean it daily.", ACL: []string{"public"}},
		{ID: "x300pro", Title: "X300 Pro specifications", Text: "The X300 Pro has ten speeds.", ACL: []string{"public"}},
		{ID: "brook", Text: "Brook Lane Repairs works on Street Road.", ACL: []string{"public"}},
		{ID: "brook-street", Text: "Hollin pays Brook Street Repairs £42 per hour.", ACL: []string{"public"}},
	}
	for _, w := range []string{"kettle", "jar", "lid", "motor", "toaster", "warranty"} { // so that no name is background
		docs = append(docs, corpus.Document{ID: w, Text: "The " + w + ".", ACL: []string{"public"}})
	}
	chunks := chunkMap{}
	for i := range docs {
		chunks[corpus.ChunkID(docs[i].ID, 0)] = corpus.NewChunk(&docs[i], 0, docs[i].Text)
	}
	l, err := NewLibrary(context.Background(), docs, chunks)
	if err != nil {
		t.Fatal(err)
	}
	pub := []string{"public"}
	for _, tt := range []struct {
		question string
		cited    []string
		want     []string
	}{
		{"how many speeds does the X300 Pro have", []string{"x300"}, []string{"X300 Pro"}},
		{"how many speeds does the X300 Pro have", []string{"x300pro"}, nil},
		{"how many speeds does the X300 have", []string{"x300pro"}, nil}, // "X300 Pro" names the X300 whole
		{"what does the company pay Brook Street Repairs per hour", []string{"brook"}, []string{"Brook Street Repairs"}},
		{"what does the company pay Brook Street Repairs per hour", []string{"brook", "brook-street"}, nil},
	} {
		if got := l.UnmentionedEntities(tt.question, pub, tt.cited); !slices.Equal(got, tt.want) {
			t.Errorf("UnmentionedEntities(%q, %q) = %q, want %q", tt.question, tt.cited, got, tt.want)
		}
	}
}
