package judge

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/eval"

	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

// Outcome is where a run lost the answer, in the order a question flows
// through the pipeline (seed 003's funnel), or OK.
type Outcome string

// The outcomes. Diagnose checks them in this order and reports the first
// that applies.
const (
	// MissingContent: no relevant document is in the corpus visible to the
	// question's groups — nothing downstream could have found it.
	MissingContent Outcome = "missing_content"
	// Extraction: the visible relevant documents have no text, or no
	// indexed chunk with text.
	Extraction Outcome = "extraction"
	// MissedTopK: no relevant chunk reached any attempt's hits, and none
	// ranked within the top k of an earlier retrieval stage.
	MissedTopK Outcome = "missed_top_k"
	// LostInRerank: a relevant chunk ranked within the top k of an
	// earlier stage (retrieval.Stage.Top of bm25, vector, fuse, dedup...)
	// but a later stage pushed it out of the final hits.
	LostInRerank Outcome = "lost_in_rerank"
	// Assembly: a relevant chunk was in an attempt's hits but never
	// reached the model: assessment did not accept that attempt, or the
	// prompt budget dropped it.
	Assembly Outcome = "assembly"
	// Generation: a relevant chunk was sent to generation, but the run did
	// not answer, or the answer cites no relevant document or misses a key
	// fact.
	Generation Outcome = "generation"
	// FalseAnswer: a question the corpus cannot answer was answered, or
	// its answer cites a source.
	FalseAnswer Outcome = "false_answer"
	// RunFailed: the run itself failed (the child workflow, not a stop
	// reason); there is no trace to diagnose.
	RunFailed Outcome = "run_failed"
	// OK: an answerable question was answered citing a relevant document
	// with every key fact; a no-answer question ended without answering
	// and cited nothing.
	OK Outcome = "ok"
)

// Outcomes lists every outcome, in funnel order.
var Outcomes = []Outcome{MissingContent, Extraction, MissedTopK, LostInRerank, Assembly, Generation, FalseAnswer, RunFailed, OK}

// Leak is a forbidden document that showed up in a run, and where.
type Leak struct {
	DocID string `json:"doc_id"`
	// Where lists the places, in this order: hits, candidates (a
	// retrieval stage's top ids), sources (labelled for generation or
	// dropped by the budget), citations, answer (its id, or a sentence
	// found only in it, in the answer text), trace (anywhere else in the
	// trace's JSON).
	Where []string `json:"where"`
}

// RunEval is one run of one question (loop or one-pass) as the evaluation
// judges it.
type RunEval struct {
	StopReason wire.StopReason `json:"stop_reason"`
	Outcome    Outcome         `json:"outcome"`
	// Detail says why, naming documents, stages and ranks.
	Detail    string  `json:"detail,omitempty"`
	Answer    string  `json:"answer,omitempty"`
	Attempts  int     `json:"attempts"`
	LatencyMS float64 `json:"latency_ms"`
	wire.Usage
	// Route is the route class of the run's last model call (what the
	// AssayRoute search attribute holds), "none" when it made none.
	Route string `json:"route"`
	// Cited are the cited documents, in citation order, each once.
	Cited         []string `json:"cited"`
	CitedRelevant bool     `json:"cited_relevant"`
	// KeyFacts reports whether the answer holds every key fact; nil when
	// the question has none (no-answer questions, unlabelled ones).
	KeyFacts     *bool    `json:"key_facts"`
	MissingFacts []string `json:"missing_facts,omitempty"`
	// OnQuestion counts the answer's sentences (as citation.Split
	// splits the generator's answer format) that contain at least one of
	// the question's key facts (as KeyFacts matches them), over all its
	// sentences; nil unless the run answered a question with key facts.
	// A sentence answering in other words than a key fact counts as off
	// the question: the count is a lower bound.
	OnQuestion *Ratio `json:"on_question_sentences,omitempty"`
	// Citations counts the citations shown plus the markers the sanitizer
	// stripped; ValidCitations those that are valid (see Summary).
	Citations      int `json:"citations"`
	ValidCitations int `json:"valid_citations"`
	// StaleCitations are cited documents that are archived or withdrawn,
	// or that grounding flagged stale_source.
	StaleCitations []string `json:"stale_citations,omitempty"`
	// WeakCitations are cited documents below WeakAuthority, or that
	// grounding flagged lower_authority.
	WeakCitations []string `json:"weak_citations,omitempty"`
	// OtherEntity lists the question's entities (model numbers, codes,
	// names) that no cited document of an answered run mentions: the
	// answer is about something else (see Library.UnmentionedEntities).
	OtherEntity []string `json:"other_entity,omitempty"`
	// Stripped are the citation markers the sanitizer removed.
	Stripped []string `json:"stripped,omitempty"`
	Leaks    []Leak   `json:"leaks,omitempty"`
	Error    string   `json:"error,omitempty"`
	// Trajectory is TrajectoryMetrics of the run.
	Trajectory *Trajectory `json:"trajectory,omitempty"`
}

// Answered reports whether the run answered.
func (r RunEval) Answered() bool { return r.StopReason == wire.Answered }

// Judge evaluates the runs of questions against a corpus.
type Judge struct {
	Library *Library
	Facts   eval.KeyFacts
	// TopK is how many hits each search passed on; a relevant chunk ranked
	// within it by an earlier stage was lost by a later one.
	TopK int
}

// Failed is the evaluation of a run that did not complete.
func Failed(err string) RunEval {
	return RunEval{Outcome: RunFailed, Detail: err, Error: err, Route: "none", Cited: []string{}}
}

// Evaluate diagnoses one completed run of q.
func (j Judge) Evaluate(q eval.Question, res wire.AnswerResult) RunEval {
	t := res.Trace
	tr := TrajectoryMetrics(res)
	ev := RunEval{
		StopReason: res.StopReason, Answer: res.Answer, Attempts: len(t.Attempts),
		LatencyMS: t.TotalMS, Usage: t.Usage,
		Route: runRoute(t), Cited: []string{}, Trajectory: &tr,
	}
	for _, c := range res.Citations {
		if !slices.Contains(ev.Cited, c.DocID) {
			ev.Cited = append(ev.Cited, c.DocID)
		}
		if slices.Contains(q.Relevant, c.DocID) {
			ev.CitedRelevant = true
		}
	}
	if _, ok := j.Facts[q.ID]; ok && len(q.Relevant) > 0 {
		ev.MissingFacts = j.Facts.Missing(q.ID, answerText(res))
		has := len(ev.MissingFacts) == 0
		ev.KeyFacts = &has
		ev.OnQuestion = j.onQuestion(q.ID, answerText(res))
	}
	j.citations(q, res, &ev)
	if ev.Answered() {
		ev.OtherEntity = j.Library.UnmentionedEntities(q.Question, q.Groups, ev.Cited)
	}
	ev.Leaks = j.leaks(q, res)
	ev.Outcome, ev.Detail = j.diagnose(q, res, ev)
	return ev
}

// answerText is the answer a user would read; only answered runs have
// one that can hold facts (the not-found text never does, by design).
func answerText(res wire.AnswerResult) string {
	if res.StopReason != wire.Answered {
		return ""
	}
	return res.Answer
}

// onQuestion counts answer's sentences that hold a key fact of question
// id, over all its sentences; nil when there is no answer to count (a
// refusal's text is not an answer, see answerText).
func (j Judge) onQuestion(id, answer string) *Ratio {
	sents := citation.Split(answer)
	if len(sents) == 0 {
		return nil
	}
	n := 0
	for _, s := range sents {
		if j.Facts.HoldsAny(id, s.Text) {
			n++
		}
	}
	r := ratio(n, len(sents))
	return &r
}

// runRoute is the route class of the last assess or generate decision:
// the value AnswerWorkflow puts in the AssayRoute search attribute.
func runRoute(t wire.Trace) string {
	for i := len(t.Routes) - 1; i >= 0; i-- {
		if d := t.Routes[i].Decision; d.Task != router.Rewrite {
			return string(d.Route)
		}
	}
	return "none"
}

// citations fills citation validity, stale and weak citations and the
// stripped markers. A citation is valid when its label was issued to the
// model (it names a source of the prompt, not one the budget dropped) and
// its document exists in the corpus and is visible to the question's
// groups; a stripped marker is an invalid citation.
func (j Judge) citations(q eval.Question, res wire.AnswerResult, ev *RunEval) {
	g := res.Trace.Generation
	issued := map[string]string{} // label → doc
	labelDoc := map[string]string{}
	if g != nil {
		dropped := map[string]bool{}
		for _, d := range g.Dropped {
			dropped[d.Label] = true
		}
		for _, s := range g.Sources {
			doc := docOf(s.ChunkID)
			labelDoc[s.Label] = doc
			if !dropped[s.Label] {
				issued[s.Label] = doc
			}
		}
		for _, s := range g.Stripped {
			ev.Stripped = append(ev.Stripped, s.Marker)
		}
		for _, f := range g.Grounding {
			doc := labelDoc[f.Label]
			switch {
			case doc == "" || !slices.Contains(ev.Cited, doc):
			case f.Kind == citation.StaleSource && !slices.Contains(ev.StaleCitations, doc):
				ev.StaleCitations = append(ev.StaleCitations, doc)
			case f.Kind == citation.LowerAuthority && !slices.Contains(ev.WeakCitations, doc):
				ev.WeakCitations = append(ev.WeakCitations, doc)
			}
		}
	}
	for _, doc := range ev.Cited {
		if j.Library.Stale(doc) && !slices.Contains(ev.StaleCitations, doc) {
			ev.StaleCitations = append(ev.StaleCitations, doc)
		}
		if j.Library.Weak(doc) && !slices.Contains(ev.WeakCitations, doc) {
			ev.WeakCitations = append(ev.WeakCitations, doc)
		}
	}
	ev.Citations = len(res.Citations) + len(ev.Stripped)
	for _, c := range res.Citations {
		doc, ok := issued[c.Label]
		if ok && doc == c.DocID && j.Library.Visible(c.DocID, q.Groups) {
			ev.ValidCitations++
		}
	}
}

// docOf is the document of a chunk id ("doc#3" → "doc").
func docOf(chunkID string) string {
	doc, _, err := corpus.SplitChunkID(chunkID)
	if err != nil {
		return chunkID
	}
	return doc
}

// leaks finds q's forbidden documents anywhere in the run.
func (j Judge) leaks(q eval.Question, res wire.AnswerResult) []Leak {
	if len(q.Forbidden) == 0 {
		return nil
	}
	t := res.Trace
	traceJSON, _ := json.Marshal(t) // a trace is plain data; it always marshals
	answer := strings.ToLower(res.Answer)
	question := strings.ToLower(q.Question)
	var out []Leak
	for _, id := range q.Forbidden {
		var where []string
		add := func(place string, found bool) {
			if found && !slices.Contains(where, place) {
				where = append(where, place)
			}
		}
		for _, a := range t.Attempts {
			for _, h := range a.Hits {
				add("hits", h.DocID == id)
			}
			for _, s := range a.Stages {
				for _, c := range s.Top {
					add("candidates", docOf(c) == id)
				}
			}
		}
		if g := t.Generation; g != nil {
			for _, s := range g.Sources {
				add("sources", docOf(s.ChunkID) == id)
			}
			for _, d := range g.Dropped {
				add("sources", docOf(d.ChunkID) == id)
			}
			for _, c := range g.Cited {
				add("citations", c.DocID == id)
			}
		}
		for _, c := range res.Citations {
			add("citations", c.DocID == id)
		}
		// An id the asker wrote in the question is theirs: a refusal that
		// repeats the query, or a trace that records it, discloses nothing.
		asked := mentions(question, strings.ToLower(id))
		add("answer", !asked && mentions(answer, strings.ToLower(id)))
		for _, s := range j.Library.sentencesOnlyIn(id, q.Groups) {
			add("answer", strings.Contains(answer, s))
		}
		add("trace", len(where) == 0 && !asked && mentions(string(traceJSON), id))
		if len(where) > 0 {
			out = append(out, Leak{DocID: id, Where: where})
		}
	}
	return out
}

// mentions reports whether text names id as a whole token (ids are made
// of letters, digits, '-', '_' and '.'; "doc#2" mentions "doc").
func mentions(text, id string) bool {
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_.-])` + regexp.QuoteMeta(id) + `($|[^A-Za-z0-9_-])`)
	return re.MatchString(text)
}

// diagnose finds where the run lost the answer (seed 003's funnel).
func (j Judge) diagnose(q eval.Question, res wire.AnswerResult, ev RunEval) (Outcome, string) {
	if len(q.Relevant) == 0 {
		if res.StopReason != wire.Answered && len(ev.Cited) == 0 {
			return OK, "no answer, nothing cited"
		}
		return FalseAnswer, fmt.Sprintf("the corpus cannot answer it, yet the run ended %s citing %s", res.StopReason, listOr(ev.Cited, "nothing"))
	}
	var visible []string
	for _, id := range q.Relevant {
		if j.Library.Visible(id, q.Groups) {
			visible = append(visible, id)
		}
	}
	if len(visible) == 0 {
		return MissingContent, fmt.Sprintf("none of %s is in the corpus visible to groups %s", strings.Join(q.Relevant, ", "), strings.Join(q.Groups, ","))
	}
	var rel []string
	for _, id := range visible {
		if j.Library.Extracted(id) {
			rel = append(rel, id)
		}
	}
	if len(rel) == 0 {
		return Extraction, fmt.Sprintf("%s: no text in the corpus or no indexed chunk with text", strings.Join(visible, ", "))
	}
	isRel := func(chunkOrDoc string) bool { return slices.Contains(rel, docOf(chunkOrDoc)) }

	t := res.Trace
	retrievedIn, rank, assessed := 0, 0, ""
	for _, a := range t.Attempts {
		if i := slices.IndexFunc(a.Hits, func(h retrieval.Hit) bool { return isRel(h.DocID) }); i >= 0 {
			retrievedIn, rank = a.N, i+1
			if as := a.Assessment; as != nil {
				assessed = fmt.Sprintf("; assessed %.2f, sufficient %v", as.Score, as.Sufficient)
			}
			break
		}
	}
	if retrievedIn == 0 {
		return j.whereMissed(t, isRel)
	}

	var sent []string
	dropped := map[string]bool{}
	if g := t.Generation; g != nil {
		for _, d := range g.Dropped {
			dropped[d.ChunkID] = true
		}
	}
	accepted := 0
	for _, a := range t.Attempts {
		if !a.Accepted {
			continue
		}
		accepted = a.N
		for _, h := range a.Hits {
			if isRel(h.DocID) && !dropped[h.ChunkID] {
				sent = append(sent, h.ChunkID)
			}
		}
	}
	switch {
	case accepted == 0:
		return Assembly, fmt.Sprintf("retrieved at rank %d in attempt %d%s, but assessment accepted no attempt (stop %s)", rank, retrievedIn, assessed, res.StopReason)
	case len(sent) == 0 && len(dropped) > 0 && slices.ContainsFunc(t.Attempts[accepted-1].Hits, func(h retrieval.Hit) bool { return isRel(h.DocID) }):
		return Assembly, fmt.Sprintf("attempt %d's relevant chunks were dropped by the prompt budget", accepted)
	case len(sent) == 0:
		return Assembly, fmt.Sprintf("retrieved in attempt %d, but the accepted attempt %d had no relevant chunk", retrievedIn, accepted)
	}
	switch {
	case res.StopReason != wire.Answered:
		return Generation, fmt.Sprintf("sent %s to generation, which ended %s", strings.Join(sent, ", "), res.StopReason)
	case !ev.CitedRelevant:
		return Generation, fmt.Sprintf("sent %s, but the answer cites %s", strings.Join(sent, ", "), listOr(ev.Cited, "nothing"))
	case len(ev.MissingFacts) > 0:
		return Generation, fmt.Sprintf("the answer misses the key facts %q", ev.MissingFacts)
	}
	return OK, ""
}

// whereMissed tells missed top-k from lost in rerank when no relevant
// chunk reached the hits: a relevant chunk within the top k of an earlier
// stage was pushed out by a later one; anything else was ranked too low.
func (j Judge) whereMissed(t wire.Trace, isRel func(string) bool) (Outcome, string) {
	if len(t.Attempts) == 0 {
		return MissedTopK, fmt.Sprintf("no search ran (stop %s)", t.StopReason)
	}
	k := max(j.TopK, 1)
	best, bestStage, bestAttempt := 0, "", 0
	for _, a := range t.Attempts {
		last := lastRanked(a.Stages)
		for si, s := range a.Stages {
			for r, c := range s.Top {
				if !isRel(c) {
					continue
				}
				if si < last && r < k {
					return LostInRerank, fmt.Sprintf("%s ranked %d in stage %s of attempt %d, then dropped out of the top %d", docOf(c), r+1, s.Name, a.N, k)
				}
				if best == 0 || r+1 < best {
					best, bestStage, bestAttempt = r+1, s.Name, a.N
				}
				break
			}
		}
	}
	if best > 0 {
		return MissedTopK, fmt.Sprintf("best rank %d (stage %s, attempt %d), below the top %d", best, bestStage, bestAttempt, k)
	}
	return MissedTopK, fmt.Sprintf("no relevant chunk in any stage's top %d over %d attempt(s)", retrieval.TraceTop, len(t.Attempts))
}

// lastRanked is the index of the last stage that ranks candidates (has
// top ids): its order is the hits' order.
func lastRanked(stages []retrieval.Stage) int {
	for i := len(stages) - 1; i >= 0; i-- {
		if len(stages[i].Top) > 0 {
			return i
		}
	}
	return -1
}

func listOr(ids []string, none string) string {
	if len(ids) == 0 {
		return none
	}
	return strings.Join(ids, ", ")
}
