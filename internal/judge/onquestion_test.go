package judge

import (
	"testing"

	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/wire"
)

// TestJudgeOnQuestion: the answer's sentences holding a key fact, over
// all its sentences, counted only for answered answerable questions with
// key facts.
func TestJudgeOnQuestion(t *testing.T) {
	lib := answerLibrary(t)
	facts := eval.KeyFacts{"motor": {"5 years", "blender motors"}, "none": {"Lima"}}
	motor := eval.Question{ID: "motor", Question: "how long is the motor covered", Relevant: []string{"warranty"}, Groups: []string{"public"}}
	unlabelled := eval.Question{ID: "unlabelled", Question: "how long is the motor covered", Relevant: []string{"warranty"}, Groups: []string{"public"}}
	// Key facts for a no-answer question are not the answer's: the
	// question has none to hold.
	none := eval.Question{ID: "none", Question: "capital of Peru", Relevant: []string{}, Groups: []string{"public"}}
	warranty := attempt(1, true, nil, "warranty")

	tests := []struct {
		name string
		q    eval.Question
		res  wire.AnswerResult
		want *Ratio // nil: the run adds nothing
	}{
		// The generator's format: each sentence ends with its marker, after
		// the full stop.
		{"one key-fact sentence, two padding", motor, answered(
			"The motor is covered for 5 YEARS. [1] Blade wear is not covered. [1] Register the product online. [1]",
			[]string{"1"}, warranty), rptr(ratio(1, 3))},
		// Either fact makes a sentence on the question; one holding both
		// counts once.
		{"every sentence holds a fact", motor, answered(
			"Blender motors are covered for 5 years. [1] Blender motors are sealed. [1]",
			[]string{"1"}, warranty), rptr(ratio(2, 2))},
		// An answer in other words than the key fact's is off the
		// question by this count: it is a lower bound.
		{"the fact in other words", motor, answered(
			"The motor is covered for five years. [1]", []string{"1"}, warranty), rptr(ratio(0, 1))},
		{"refusal", motor, stopped(wire.InsufficientContext, warranty), nil},
		{"generation failed", motor, stopped(wire.GenerationError, warranty), nil},
		{"no-answer question answered", none, answered(
			"Lima is not in the corpus. [1]", []string{"1"}, warranty), nil},
		{"no-answer question refused", none, stopped(wire.InsufficientContext, warranty), nil},
		{"question without key facts", unlabelled, answered(
			"Blender motors are covered for 5 years. [1]", []string{"1"}, warranty), nil},
	}
	j := Judge{Library: lib, Facts: facts, TopK: 1}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := j.Evaluate(tt.q, tt.res).OnQuestion
			switch {
			case tt.want == nil && got != nil:
				t.Errorf("on-question sentences = %+v, want none counted", *got)
			case tt.want != nil && (got == nil || *got != *tt.want):
				t.Errorf("on-question sentences = %v, want %+v", got, *tt.want)
			}
		})
	}
}

// TestOnQuestionSplitsAsTheAnswerFormat: sentences are the answer
// format's (citation.Split): markers after a full stop close the sentence
// before them, and "£3.95", "e.g. the jar" and "[1, 2]" do not split one.
// A full-stop split, or citation.Sentences without the markers' rule,
// counts more sentences than the generator wrote.
func TestOnQuestionSplitsAsTheAnswerFormat(t *testing.T) {
	answer := "Blender motors cost £3.95 to post, e.g. the jar. [1] " +
		"Send the jar in its box. [1, 2] Returns take 5 years. [2]"
	if n := len(citation.Split(answer)); n != 3 {
		t.Fatalf("citation.Split finds %d sentences, want the 3 written", n)
	}
	j := Judge{Library: answerLibrary(t), Facts: eval.KeyFacts{"motor": {"£3.95"}}, TopK: 1}
	q := eval.Question{ID: "motor", Relevant: []string{"warranty"}, Groups: []string{"public"}}
	got := j.Evaluate(q, answered(answer, []string{"1"}, attempt(1, true, nil, "warranty"))).OnQuestion
	if got == nil || *got != ratio(1, 3) {
		t.Errorf("on-question sentences = %v, want 1 of 3", got)
	}
}

// TestSummarizeOnQuestion sums the runs' counts; runs without one add
// nothing to either side.
func TestSummarizeOnQuestion(t *testing.T) {
	qs := []QuestionEval{
		{ID: "a", Relevant: []string{"d"}, Loop: RunEval{StopReason: wire.Answered, OnQuestion: rptr(ratio(1, 3))},
			OnePass: RunEval{StopReason: wire.InsufficientContext}},
		{ID: "b", Relevant: []string{"d"}, Loop: RunEval{StopReason: wire.Answered, OnQuestion: rptr(ratio(2, 2))},
			OnePass: RunEval{StopReason: wire.Answered, OnQuestion: rptr(ratio(0, 4))}},
		{ID: "c", Relevant: []string{}, Loop: RunEval{StopReason: wire.Answered}, OnePass: Failed("boom")},
	}
	if got := Summarize(qs, loopRun).OnQuestion; got != ratio(3, 5) {
		t.Errorf("loop on-question sentences = %+v, want 3 of 5", got)
	}
	if got := Summarize(qs, onePassRun).OnQuestion; got != ratio(0, 4) {
		t.Errorf("one-pass on-question sentences = %+v, want 0 of 4", got)
	}
}

func rptr(r Ratio) *Ratio { return &r }
