package wire

import (
	"errors"
	"fmt"
	"time"
)

// Range is the inclusive range of whole numbers a setting or a request
// field may take.
type Range struct{ Min, Max int }

// Check says, when n is outside r, what was wanted and what came.
func (r Range) Check(n int) error {
	if n < r.Min || n > r.Max {
		return fmt.Errorf("want %d..%d, got %d", r.Min, r.Max, n)
	}
	return nil
}

// The limits, declared once: configuration, the gateway, the evaluation
// and the workflows check against these.
var (
	// TopKRange bounds the hits each search passes to assessment.
	TopKRange = Range{1, 50}
	// AttemptsRange bounds a run's search → assess attempts.
	AttemptsRange = Range{1, 10}
	// ConcurrencyRange bounds the questions of one batch running at once.
	ConcurrencyRange = Range{1, 64}
	// BatchQuestionsRange bounds the questions one batch may hold.
	BatchQuestionsRange = Range{1, 10000}
)

// The defaults, declared once: configuration starts from them, and the
// gateway and the workflows fall back on them when given nothing.
const (
	DefaultMaxAttempts   = 3
	DefaultMaxTokens     = 20000
	DefaultMaxCostUSD    = 0.05
	DefaultDeadline      = 2 * time.Minute
	DefaultThreshold     = 0.5
	DefaultTopK          = 5
	DefaultConcurrency   = 4
	DefaultContinueAfter = 500 // questions one batch run starts before continuing as new
	DefaultMaxQuestions  = 1000
	DefaultMaxBodyBytes  = 1 << 20 // the gateway's request bodies
	DefaultMaxWait       = 60 * time.Second
)

// Validate checks the shape of a run's input; errors name the field. The
// question's content is the guard's to judge (a refused question is
// refused, not invalid).
func (in AnswerInput) Validate() error {
	if in.Principal.ID == "" || len(in.Principal.Groups) == 0 {
		return errors.New("principal: needs an id and at least one group")
	}
	if err := AttemptsRange.Check(in.Budget.MaxAttempts); err != nil {
		return errors.New("budget.max_attempts: " + err.Error())
	}
	switch {
	case in.Budget.Deadline <= 0:
		return errors.New("budget.deadline: must be positive")
	case in.Threshold < 0 || in.Threshold > 1:
		return errors.New("threshold: want 0..1")
	}
	if err := TopKRange.Check(in.TopK); err != nil {
		return errors.New("top_k: " + err.Error())
	}
	return CheckHistory(in.History)
}
