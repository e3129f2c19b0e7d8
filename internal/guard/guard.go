// Package guard holds the input guardrails: pure functions with no I/O.
//
// Question refuses a question that must not enter the loop (empty,
// over-long, not UTF-8, carrying control characters) with a reason.
// Scan looks for instructions hidden in a question or a retrieved
// document ("ignore previous instructions...") and reports them as flags
// for the trace. A flag never changes what happens next: policy lives in
// the system prompt, which data cannot edit, and refusing every question
// that quotes such a phrase would refuse honest users too. The flag makes
// the attempt visible to operators.
package guard

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
)

// DefaultMaxRunes bounds a question's length in characters.
const DefaultMaxRunes = 2000

// Reason says why a question was refused.
type Reason string

// The refusal reasons.
const (
	Empty       Reason = "empty"
	TooLong     Reason = "too_long"
	InvalidUTF8 Reason = "invalid_utf8"
	ControlChar Reason = "control_character"
)

// Refusal is a refused question.
type Refusal struct {
	Reason Reason
	Detail string
}

func (r *Refusal) Error() string { return fmt.Sprintf("%s: %s", r.Reason, r.Detail) }

// Limits bound a question.
type Limits struct {
	// MaxRunes is the longest question in characters; 0 means
	// DefaultMaxRunes.
	MaxRunes int
}

// Question checks a question before anything else sees it. A refused
// question is an *errs.Error of kind Refused on field "question" wrapping
// a *Refusal. An accepted question still comes back with the injection
// flags Scan finds in it.
func Question(q string, lim Limits) ([]Flag, error) {
	const op = "guard.Question"
	refuse := func(r Reason, detail string) error {
		return &errs.Error{Op: op, Kind: errs.Refused, Field: "question", Err: &Refusal{r, detail}}
	}
	max := lim.MaxRunes
	if max <= 0 {
		max = DefaultMaxRunes
	}
	if !utf8.ValidString(q) {
		return nil, refuse(InvalidUTF8, "the question is not valid UTF-8 text")
	}
	if strings.TrimSpace(q) == "" {
		return nil, refuse(Empty, "the question is empty")
	}
	if n := utf8.RuneCountInString(q); n > max {
		return nil, refuse(TooLong, fmt.Sprintf("the question has %d characters, the limit is %d", n, max))
	}
	for i, r := range q {
		if forbidden(r) {
			return nil, refuse(ControlChar, fmt.Sprintf("the question holds control character %U at byte %d", r, i))
		}
	}
	return Scan("question", q), nil
}

// Verdict is the one judgement of a question, for the Guard activity and
// the gateway alike: refused with a reason, or accepted with the injection
// flags found in it. A refusal is a verdict, not an error; an error means
// the check itself failed.
func Verdict(q string) (wire.GuardOutput, error) {
	flags, err := Question(q, Limits{})
	var refusal *Refusal
	if errors.As(err, &refusal) {
		return wire.GuardOutput{Refused: true, Reason: string(refusal.Reason), Detail: refusal.Detail}, nil
	}
	if err != nil {
		return wire.GuardOutput{}, err
	}
	return wire.GuardOutput{Flags: flags}, nil
}

// forbidden reports control characters a question has no use for: C0 and
// C1 controls other than tab and line breaks, and the bidirectional
// overrides and isolates that can make text read differently from how it
// is processed ("Trojan Source").
func forbidden(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false
	case unicode.IsControl(r):
		return true
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
