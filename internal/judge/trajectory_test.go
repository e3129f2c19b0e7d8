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
