package judge

import (
	"math"
	"testing"

	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

func TestTrajectory(t *testing.T) {
	res := wire.AnswerResult{
		StopReason: wire.Answered,
		Trace: wire.Trace{
			Attempts: []wire.Attempt{
				{N: 1, Assessment: &wire.Assessment{Score: 0.3}},
				{N: 2}, // failed before assessment
				{N: 3, Assessment: &wire.Assessment{Score: 0.8, Sufficient: true}},
			},
			Routes: []wire.RouteRecord{
				{Decision: router.Decision{Rule: "task.small"}},
				{Decision: router.Decision{Rule: "escalate.schema_invalid"}},
			},
			Models:  []string{"small-m", "large-m"},
			Usage:   wire.Usage{TokensIn: 900, TokensOut: 120, CostUSD: 0.002},
			TotalMS: 1234,
		},
	}
	m := TrajectoryMetrics(res)
	if !m.Answered || m.SearchCalls != 3 || m.TokensIn != 900 || m.TokensOut != 120 || m.TotalMS != 1234 {
		t.Errorf("TrajectoryMetrics = %+v", m)
	}
	if *m.FirstScore != 0.3 || *m.FinalScore != 0.8 || math.Abs(*m.Improvement-0.5) > 1e-9 || *m.BestScore != 0.8 {
		t.Errorf("scores first %v final %v improvement %v best %v; want 0.3, 0.8, 0.5, 0.8", *m.FirstScore, *m.FinalScore, *m.Improvement, *m.BestScore)
	}
	if len(m.Rules) != 2 || m.Rules[1] != "escalate.schema_invalid" {
		t.Errorf("rules = %v", m.Rules)
	}
	empty := TrajectoryMetrics(wire.AnswerResult{StopReason: wire.InvalidRequest})
	if empty.Answered || empty.FirstScore != nil || empty.SearchCalls != 0 {
		t.Errorf("TrajectoryMetrics(invalid request) = %+v; want no scores and no searches", empty)
	}
}

// TestTrajectorySteps: the report shows each attempt's query, the
// proposal's reason that made it, its documents and its assessment.
func TestTrajectorySteps(t *testing.T) {
	res := wire.AnswerResult{
		StopReason: wire.Answered,
		Trace: wire.Trace{
			Attempts: []wire.Attempt{
				{N: 1, Query: "q", Hits: []wire.Hit{{DocID: "a"}, {DocID: "b"}, {DocID: "a"}},
					Assessment: &wire.Assessment{Score: 0.3, Reason: "weak"},
					Proposals:  []wire.Proposal{{Strategy: "translate", Query: "q2", Why: "x→y"}, {Strategy: "wider-k", Query: "q", K: 10, Why: "10 hits"}}},
				{N: 2, Query: "q", K: 10, Strategy: "wider-k", RepeatedResults: true, Hits: []wire.Hit{{DocID: "a"}}},
				{N: 3, Query: "q2", Strategy: "translate", Hits: []wire.Hit{{DocID: "c"}}, Accepted: true,
					Assessment: &wire.Assessment{Score: 0.8, Sufficient: true}},
			},
		},
	}
	m := TrajectoryMetrics(res)
	if len(m.Steps) != 3 {
		t.Fatalf("steps = %+v; want 3", m.Steps)
	}
	s0, s1, s2 := m.Steps[0], m.Steps[1], m.Steps[2]
	if s0.Query != "q" || s0.Strategy != "" || s0.Why != "" || len(s0.Docs) != 2 || s0.Docs[0] != "a" || s0.Docs[1] != "b" || *s0.Score != 0.3 || s0.Reason != "weak" || s0.Accepted {
		t.Errorf("step 1 = %+v", s0)
	}
	if s1.Why != "10 hits" || s1.K != 10 || !s1.Repeated || s1.Score != nil {
		t.Errorf("step 2 = %+v", s1)
	}
	if s2.Why != "x→y" || !s2.Accepted || !s2.Sufficient || *s2.Score != 0.8 || len(s2.Docs) != 1 || s2.Docs[0] != "c" {
		t.Errorf("step 3 = %+v", s2)
	}
}
