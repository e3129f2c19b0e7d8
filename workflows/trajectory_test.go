package workflows

import (
	"math"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/router"
)

func TestTrajectory(t *testing.T) {
	res := AnswerResult{
		StopReason: Answered,
		Trace: Trace{
			Attempts: []Attempt{
				{N: 1, Assessment: &assess.Assessment{Score: 0.3}},
				{N: 2}, // failed before assessment
				{N: 3, Assessment: &assess.Assessment{Score: 0.8, Sufficient: true}},
			},
			Routes: []RouteRecord{
				{Decision: router.Decision{Rule: "task.small"}},
				{Decision: router.Decision{Rule: "escalate.schema_invalid"}},
			},
			Models:  []string{"small-m", "large-m"},
			Usage:   Usage{TokensIn: 900, TokensOut: 120, CostUSD: 0.002},
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
	empty := TrajectoryMetrics(AnswerResult{StopReason: InvalidRequest})
	if empty.Answered || empty.FirstScore != nil || empty.SearchCalls != 0 {
		t.Errorf("TrajectoryMetrics(invalid request) = %+v; want no scores and no searches", empty)
	}
}

// TestPercentile: nearest rank, on unsorted input.
func TestPercentile(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		out := make([]time.Duration, len(ns))
		for i, n := range ns {
			out[i] = time.Duration(n) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // 100..1, unsorted
	}
	tests := []struct {
		in   []time.Duration
		p    float64
		want time.Duration
	}{
		{nil, 50, 0},
		{ms(7), 99, 7 * time.Millisecond},
		{ms(4, 1, 3, 2), 50, 2 * time.Millisecond},
		{ms(4, 1, 3, 2), 99, 4 * time.Millisecond},
		{ms(hundred...), 50, 50 * time.Millisecond},
		{ms(hundred...), 99, 99 * time.Millisecond},
	}
	for _, tc := range tests {
		if got := Percentile(tc.in, tc.p); got != tc.want {
			t.Errorf("Percentile(%v, %v) = %v, want %v", tc.in, tc.p, got, tc.want)
		}
	}
}
