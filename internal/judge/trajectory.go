package judge

import (
	"slices"

	"github.com/assay-rag/assay/internal/wire"
)

// Trajectory summarises how a run got to its result: how many
// searches it took, whether assessment scores improved, what it cost. The
// evaluation aggregates these over a question set, and compares the loop
// with its one-pass baseline on the same cases.
type Trajectory struct {
	StopReason  wire.StopReason `json:"stop_reason"`
	Answered    bool            `json:"answered"`
	SearchCalls int             `json:"search_calls"`
	// FirstScore and FinalScore are the first and last assessment scores;
	// nil when no attempt was assessed. Improvement is their difference.
	FirstScore  *float64 `json:"first_score"`
	FinalScore  *float64 `json:"final_score"`
	Improvement *float64 `json:"improvement"`
	BestScore   *float64 `json:"best_score"`
	TotalMS     float64  `json:"total_ms"`
	Models      []string `json:"models"`
	// Rules are the rule ids of the route decisions, in order.
	Rules []string `json:"rules"`
	wire.Usage
	Errors []string `json:"errors"`
	// Strategies are the rewrites the run tried, in order.
	Strategies []StrategyStep `json:"strategies,omitempty"`
	// Steps are the run's attempts, in order: what each searched, what it
	// retrieved and how it was judged, so a report shows which attempt and
	// which rewrite led to the result.
	Steps []AttemptStep `json:"steps,omitempty"`
}

// AttemptStep is one attempt of a run as the evaluation report shows it.
type AttemptStep struct {
	Query string `json:"query"`
	// Strategy is the rewrite that made Query, empty for the question.
	Strategy string `json:"strategy,omitempty"`
	// Why is the proposal's reason (its substitutions, the words it adds).
	Why string `json:"why,omitempty"`
	K   int    `json:"k,omitempty"`
	// Docs are the documents of the attempt's hits, in rank order, each once.
	Docs     []string `json:"docs"`
	Repeated bool     `json:"repeated,omitempty"`
	// Score and Sufficient are the attempt's assessment; nil when it was
	// not assessed.
	Score      *float64 `json:"score,omitempty"`
	Sufficient bool     `json:"sufficient,omitempty"`
	Accepted   bool     `json:"accepted,omitempty"`
	Reason     string   `json:"reason,omitempty"`
}

// StrategyStep is one rewrite a run tried, named by its strategy (the
// vocabulary of the assess package's Strategy* names, for the builtin
// rewriter and a model alike).
type StrategyStep struct {
	Strategy string `json:"strategy"`
	// Skipped: its search returned the results of an earlier attempt, so
	// it was not assessed.
	Skipped bool `json:"skipped,omitempty"`
	// Helped: its attempt scored above every earlier attempt.
	Helped bool `json:"helped"`
	// Accepted: its attempt's evidence was accepted.
	Accepted bool `json:"accepted"`
}

// TrajectoryMetrics computes the trajectory metrics of a result from its trace.
func TrajectoryMetrics(res wire.AnswerResult) Trajectory {
	t := res.Trace
	m := Trajectory{
		StopReason:  res.StopReason,
		Answered:    res.StopReason == wire.Answered,
		SearchCalls: len(t.Attempts),
		TotalMS:     t.TotalMS,
		Models:      append([]string{}, t.Models...),
		Usage:       t.Usage,
		Errors:      append([]string{}, t.Errors...),
		Rules:       []string{},
	}
	for _, r := range t.Routes {
		m.Rules = append(m.Rules, r.Decision.Rule)
	}
	var scored []float64
	for i, a := range t.Attempts {
		m.Steps = append(m.Steps, attemptStep(t.Attempts[:i], a))
		if i > 0 {
			step := StrategyStep{Strategy: a.Strategy, Skipped: a.RepeatedResults, Accepted: a.Accepted}
			if step.Strategy == "" {
				step.Strategy = "unnamed"
			}
			if a.Assessment != nil && len(scored) > 0 && a.Assessment.Score > slices.Max(scored) {
				step.Helped = true
			}
			m.Strategies = append(m.Strategies, step)
		}
		if a.Assessment != nil {
			scored = append(scored, a.Assessment.Score)
		}
	}
	if len(scored) > 0 {
		first, final := scored[0], scored[len(scored)-1]
		best := first
		for _, s := range scored {
			best = max(best, s)
		}
		imp := final - first
		m.FirstScore, m.FinalScore, m.Improvement, m.BestScore = &first, &final, &imp, &best
	}
	return m
}

// attemptStep is a's step; earlier are the attempts before it, whose
// proposals say why a's query was tried.
func attemptStep(earlier []wire.Attempt, a wire.Attempt) AttemptStep {
	st := AttemptStep{Query: a.Query, Strategy: a.Strategy, K: a.K, Docs: []string{}, Repeated: a.RepeatedResults, Accepted: a.Accepted}
	for _, h := range a.Hits {
		if !slices.Contains(st.Docs, h.DocID) {
			st.Docs = append(st.Docs, h.DocID)
		}
	}
	if a.Assessment != nil {
		score := a.Assessment.Score
		st.Score, st.Sufficient, st.Reason = &score, a.Assessment.Sufficient, a.Assessment.Reason
	}
	if a.Strategy != "" {
	found:
		for j := len(earlier) - 1; j >= 0; j-- {
			for _, p := range earlier[j].Proposals {
				if p.Strategy == a.Strategy && wire.QueryKey(p.Query, p.K) == wire.QueryKey(a.Query, a.K) {
					st.Why = p.Why
					break found
				}
			}
		}
	}
	return st
}
