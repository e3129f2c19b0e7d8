package judge

import (
	"cmp"
	"slices"

	"github.com/assay-rag/assay/internal/percentile"
	"github.com/assay-rag/assay/internal/wire"
)

// AnswersSchema names the JSON form of AnswersReport. A change that
// renames or removes a field, or changes a field's meaning, gets a new
// version; adding a field does not.
const AnswersSchema = "assay.eval.answers/v1"

// The two systems every question runs through.
const (
	// LoopSystem is the bounded loop with the configured attempt budget.
	LoopSystem = "loop"
	// OnePassSystem is the one-pass baseline: the same run with
	// max_attempts 1 (search, assess, then generate or stop).
	OnePassSystem = "one_pass"
)

// QuestionEval is one labelled question and how each system did on it.
type QuestionEval struct {
	ID        string   `json:"id"`
	Question  string   `json:"question"`
	Type      string   `json:"type"`
	Groups    []string `json:"groups"`
	Relevant  []string `json:"relevant"`
	Forbidden []string `json:"forbidden,omitempty"`
	Loop      RunEval  `json:"loop"`
	OnePass   RunEval  `json:"one_pass"`
}

// Answerable reports whether the corpus holds an answer to the question.
func (q QuestionEval) Answerable() bool { return len(q.Relevant) > 0 }

// Ratio is N of Of, and Rate = N/Of (0 when Of is 0: nothing to measure).
type Ratio struct {
	N    int     `json:"n"`
	Of   int     `json:"of"`
	Rate float64 `json:"rate"`
}

func ratio(n, of int) Ratio {
	r := Ratio{N: n, Of: of}
	if of > 0 {
		r.Rate = float64(n) / float64(of)
	}
	return r
}

// Summary aggregates one system's runs over a set of questions.
//
// Definitions (the denominators are in each Ratio's Of):
//   - OK: questions whose outcome is OK, over all questions.
//   - RightSourceCited: answerable questions whose answer cites at least
//     one relevant document, over answerable questions.
//   - KeyFacts: answerable questions with key facts whose answered text
//     contains every fact (case-insensitive substring), over answerable
//     questions that have key facts.
//   - NoAnswerRefusal: no-answer questions that ended with any stop but
//     answered and cited nothing, over no-answer questions.
//   - CitationValidity: valid citations over citations, summed over runs.
//     Citations are those shown with the answer plus the markers the
//     sanitizer stripped (a marker naming a label never issued). A
//     citation is valid when its label was issued in the prompt (not
//     dropped by the budget), it resolves to the document of that label,
//     and the document is in the corpus and visible to the question's
//     groups — relevant documents count only when visible.
//   - StaleCitations / WeakCitations: answered runs citing at least one
//     stale (archived, withdrawn, or grounding's stale_source flag) / weak
//     (authority below WeakAuthority, or grounding's lower_authority flag)
//     source, over answered runs.
//   - CitedPrecision: cited documents labelled relevant to their question,
//     over all cited documents (each counted once per run), summed over
//     runs; a document cited for a no-answer question is not relevant.
//   - OnQuestion (JSON on_question_sentences, added within schema v1;
//     a report written before it reads 0 of 0): sentences of answers to
//     answerable questions with key facts that contain at least one of
//     their question's key facts (matched as KeyFacts is), over all those
//     answers' sentences (citation.Split, the answer format: each sentence
//     ends with its citation markers), summed over answered runs; refusals
//     and no-answer questions add nothing. It sees padding inside a
//     relevant document, which CitedPrecision cannot; a sentence answering
//     in other words than a key fact counts as off the question, so it is
//     a lower bound on the sentences about the question.
//   - OtherEntity: answered runs none of whose cited documents mentions
//     an entity the question names (a model number, code or name; see
//     Library.UnmentionedEntities), over answered runs.
//   - ForbiddenLeaks: forbidden documents found anywhere in a run, counted
//     once per question and document; it must be 0.
//   - Latency percentiles are nearest-rank over the runs' own durations
//     (Trace.TotalMS); tokens and cost are sums.
type Summary struct {
	Questions        int                     `json:"questions"`
	Answerable       int                     `json:"answerable"`
	NoAnswer         int                     `json:"no_answer"`
	OK               Ratio                   `json:"ok"`
	RightSourceCited Ratio                   `json:"right_source_cited"`
	KeyFacts         Ratio                   `json:"key_facts"`
	NoAnswerRefusal  Ratio                   `json:"no_answer_refusal"`
	CitationValidity Ratio                   `json:"citation_validity"`
	StaleCitations   Ratio                   `json:"stale_citations"`
	WeakCitations    Ratio                   `json:"weak_citations"`
	OtherEntity      Ratio                   `json:"other_entity"`
	CitedPrecision   Ratio                   `json:"cited_precision"`
	OnQuestion       Ratio                   `json:"on_question_sentences"`
	ForbiddenLeaks   int                     `json:"forbidden_leaks"`
	RunsFailed       int                     `json:"runs_failed"`
	Outcomes         map[Outcome]int         `json:"outcomes"`
	StopReasons      map[wire.StopReason]int `json:"stop_reasons"`
	LatencyP50MS     float64                 `json:"latency_p50_ms"`
	LatencyP95MS     float64                 `json:"latency_p95_ms"`
	LatencyP99MS     float64                 `json:"latency_p99_ms"`
	wire.Usage
	Trajectory TrajectorySummary `json:"trajectory"`
}

// TrajectorySummary aggregates TrajectoryMetrics over runs.
// Score means cover the runs with at least one assessed attempt (Scored).
type TrajectorySummary struct {
	SearchCalls     int     `json:"search_calls"`
	MeanSearchCalls float64 `json:"mean_search_calls"`
	// Rewritten counts runs that searched more than once.
	Rewritten       int     `json:"rewritten"`
	Scored          int     `json:"scored"`
	MeanFirstScore  float64 `json:"mean_first_score"`
	MeanFinalScore  float64 `json:"mean_final_score"`
	MeanImprovement float64 `json:"mean_improvement"`
	// Improved counts runs whose final assessment score beat their first.
	Improved int `json:"improved"`
	// Strategies counts, per rewrite strategy, the rewrites tried, skipped
	// (their results repeated), that helped (scored above every earlier
	// attempt of the run) and whose evidence was accepted.
	Strategies map[string]StrategyCounts `json:"strategies,omitempty"`
}

// StrategyCounts is what one rewrite strategy did over a question set.
type StrategyCounts struct {
	Tried    int `json:"tried"`
	Skipped  int `json:"skipped"`
	Helped   int `json:"helped"`
	Accepted int `json:"accepted"`
}

// Summarize aggregates the runs sys picks from qs.
func Summarize(qs []QuestionEval, sys func(QuestionEval) RunEval) Summary {
	s := Summary{Outcomes: map[Outcome]int{}, StopReasons: map[wire.StopReason]int{}}
	var ok, cited, facts, withFacts, refused, valid, citations, stale, weak, other, answered int
	var citedDocs, citedRelevantDocs, onQuestion, sentences int
	var lat []float64
	var first, final, imp float64
	for _, q := range qs {
		r := sys(q)
		s.Questions++
		s.Outcomes[r.Outcome]++
		if r.Outcome == OK {
			ok++
		}
		s.ForbiddenLeaks += len(r.Leaks)
		if r.Outcome == RunFailed {
			s.RunsFailed++
		} else {
			s.StopReasons[r.StopReason]++
			lat = append(lat, r.LatencyMS)
		}
		if q.Answerable() {
			s.Answerable++
			if r.CitedRelevant {
				cited++
			}
			if o := r.OnQuestion; o != nil {
				onQuestion += o.N
				sentences += o.Of
			}
			if r.KeyFacts != nil {
				withFacts++
				if *r.KeyFacts {
					facts++
				}
			}
		} else {
			s.NoAnswer++
			if r.Outcome != RunFailed && !r.Answered() && len(r.Cited) == 0 {
				refused++
			}
		}
		citations += r.Citations
		valid += r.ValidCitations
		citedDocs += len(r.Cited)
		for _, d := range r.Cited {
			if slices.Contains(q.Relevant, d) {
				citedRelevantDocs++
			}
		}
		if r.Answered() {
			answered++
			if len(r.StaleCitations) > 0 {
				stale++
			}
			if len(r.WeakCitations) > 0 {
				weak++
			}
			if len(r.OtherEntity) > 0 {
				other++
			}
		}
		s.Usage.Add(r.Usage)
		if t := r.Trajectory; t != nil {
			s.Trajectory.SearchCalls += t.SearchCalls
			if t.SearchCalls > 1 {
				s.Trajectory.Rewritten++
			}
			if t.FirstScore != nil {
				s.Trajectory.Scored++
				first += *t.FirstScore
				final += *t.FinalScore
				imp += *t.Improvement
				if *t.Improvement > 0 {
					s.Trajectory.Improved++
				}
			}
			for _, st := range t.Strategies {
				if s.Trajectory.Strategies == nil {
					s.Trajectory.Strategies = map[string]StrategyCounts{}
				}
				c := s.Trajectory.Strategies[st.Strategy]
				c.Tried++
				if st.Skipped {
					c.Skipped++
				}
				if st.Helped {
					c.Helped++
				}
				if st.Accepted {
					c.Accepted++
				}
				s.Trajectory.Strategies[st.Strategy] = c
			}
		}
	}
	s.OK = ratio(ok, s.Questions)
	s.RightSourceCited = ratio(cited, s.Answerable)
	s.KeyFacts = ratio(facts, withFacts)
	s.NoAnswerRefusal = ratio(refused, s.NoAnswer)
	s.CitationValidity = ratio(valid, citations)
	s.StaleCitations = ratio(stale, answered)
	s.WeakCitations = ratio(weak, answered)
	s.OtherEntity = ratio(other, answered)
	s.CitedPrecision = ratio(citedRelevantDocs, citedDocs)
	s.OnQuestion = ratio(onQuestion, sentences)
	slices.Sort(lat)
	s.LatencyP50MS = percentile.NearestRank(lat, 50)
	s.LatencyP95MS = percentile.NearestRank(lat, 95)
	s.LatencyP99MS = percentile.NearestRank(lat, 99)
	if s.Questions > 0 {
		s.Trajectory.MeanSearchCalls = float64(s.Trajectory.SearchCalls) / float64(s.Questions)
	}
	if n := float64(s.Trajectory.Scored); n > 0 {
		s.Trajectory.MeanFirstScore, s.Trajectory.MeanFinalScore, s.Trajectory.MeanImprovement = first/n, final/n, imp/n
	}
	return s
}

// Comparison is the loop and the one-pass baseline over the same
// questions: all of them, one question type, or one route.
type Comparison struct {
	// Key is "all", the question type, or the route class.
	Key     string  `json:"key"`
	Loop    Summary `json:"loop"`
	OnePass Summary `json:"one_pass"`
}

// AnswerSettings are the run settings a report was made with.
type AnswerSettings struct {
	LoopMaxAttempts    int     `json:"loop_max_attempts"`
	OnePassMaxAttempts int     `json:"one_pass_max_attempts"`
	TopK               int     `json:"top_k"`
	Threshold          float64 `json:"threshold"`
}

// AnswersReport is the answer evaluation of a labelled question file:
// per question, where each system lost the answer; aggregates overall, by
// question type and by route, loop and one-pass side by side. Its JSON
// form (schema AnswersSchema) is what `assay eval answers --json` writes
// and what the baseline comparison reads.
type AnswersReport struct {
	Schema        string         `json:"schema"`
	QuestionsFile string         `json:"questions_file"`
	KeyFactsFile  string         `json:"key_facts_file,omitempty"`
	Corpus        string         `json:"corpus"`
	Documents     int            `json:"documents"`
	Settings      AnswerSettings `json:"settings"`
	Overall       Comparison     `json:"overall"`
	ByType        []Comparison   `json:"by_type"`
	// ByRoute groups each system's runs by that run's route, so the two
	// sides of one row may cover different questions.
	ByRoute   []Comparison   `json:"by_route"`
	Questions []QuestionEval `json:"questions"`
}

func loopRun(q QuestionEval) RunEval    { return q.Loop }
func onePassRun(q QuestionEval) RunEval { return q.OnePass }

// Aggregate fills the report's schema and comparisons from its questions.
func (r *AnswersReport) Aggregate() {
	r.Schema = AnswersSchema
	r.Overall = Comparison{Key: "all", Loop: Summarize(r.Questions, loopRun), OnePass: Summarize(r.Questions, onePassRun)}

	r.ByType = r.ByType[:0]
	for _, typ := range sortedUnique(r.Questions, func(q QuestionEval) []string { return []string{q.Type} }) {
		sub := filterQuestions(r.Questions, func(q QuestionEval) bool { return q.Type == typ })
		r.ByType = append(r.ByType, Comparison{Key: typ, Loop: Summarize(sub, loopRun), OnePass: Summarize(sub, onePassRun)})
	}
	r.ByRoute = r.ByRoute[:0]
	for _, route := range sortedUnique(r.Questions, func(q QuestionEval) []string { return []string{q.Loop.Route, q.OnePass.Route} }) {
		loop := filterQuestions(r.Questions, func(q QuestionEval) bool { return q.Loop.Route == route })
		one := filterQuestions(r.Questions, func(q QuestionEval) bool { return q.OnePass.Route == route })
		r.ByRoute = append(r.ByRoute, Comparison{Key: route, Loop: Summarize(loop, loopRun), OnePass: Summarize(one, onePassRun)})
	}
}

func sortedUnique(qs []QuestionEval, keys func(QuestionEval) []string) []string {
	var out []string
	for _, q := range qs {
		for _, k := range keys(q) {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	slices.SortFunc(out, cmp.Compare)
	return out
}

func filterQuestions(qs []QuestionEval, keep func(QuestionEval) bool) []QuestionEval {
	var out []QuestionEval
	for _, q := range qs {
		if keep(q) {
			out = append(out, q)
		}
	}
	return out
}
