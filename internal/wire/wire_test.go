package wire

import (
	"strings"
	"testing"
	"time"
)

func TestUsageAdd(t *testing.T) {
	var u Usage
	u.Add(Usage{TokensIn: 100, TokensOut: 20, CostUSD: 0.01})
	u.Add(Usage{TokensIn: 5, CostUSD: 0.02})
	if u.TokensIn != 105 || u.TokensOut != 20 || u.Tokens() != 125 || u.CostUSD < 0.0299 || u.CostUSD > 0.0301 {
		t.Errorf("after two adds: %+v", u)
	}
	if u.IsZero() || !(Usage{}).IsZero() {
		t.Error("IsZero is wrong")
	}
}

func TestRangeCheck(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "want 1..50, got 0"}, {1, ""}, {50, ""}, {51, "want 1..50, got 51"}} {
		err := TopKRange.Check(tt.n)
		if got := errString(err); got != tt.want {
			t.Errorf("TopKRange.Check(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestAnswerInputValidate(t *testing.T) {
	ok := AnswerInput{
		Principal: Principal{ID: "p", Groups: []string{PublicGroup}},
		Budget:    Budget{MaxAttempts: DefaultMaxAttempts, Deadline: DefaultDeadline},
		Threshold: DefaultThreshold, TopK: DefaultTopK,
	}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid input: %v", err)
	}
	for _, tt := range []struct {
		edit  func(*AnswerInput)
		field string
	}{
		{func(in *AnswerInput) { in.Principal.Groups = nil }, "principal"},
		{func(in *AnswerInput) { in.Budget.MaxAttempts = 0 }, "budget.max_attempts: want 1..10"},
		{func(in *AnswerInput) { in.Budget.MaxAttempts = AttemptsRange.Max + 1 }, "budget.max_attempts"},
		{func(in *AnswerInput) { in.Budget.Deadline = -time.Second }, "budget.deadline"},
		{func(in *AnswerInput) { in.Threshold = 1.5 }, "threshold"},
		{func(in *AnswerInput) { in.TopK = TopKRange.Max + 1 }, "top_k: want 1..50, got 51"},
	} {
		in := ok
		tt.edit(&in)
		if err := in.Validate(); err == nil || !strings.HasPrefix(err.Error(), tt.field) {
			t.Errorf("Validate() = %v, want an error starting %q", err, tt.field)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
