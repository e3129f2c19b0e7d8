package assess

import (
	"context"
	"errors"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// brokenLexicon's vocabularies stop answering after `after` counts, as a
// RediSearch vocabulary whose Redis fails mid-question does: every later
// DocFreq and Len is 0, and Err is the failure (FailingVocabulary).
type brokenLexicon struct {
	*lexicon
	after int
	calls *int
	err   error
}

func (l brokenLexicon) Visible(groups []string) Vocabulary {
	return brokenVocab{l.lexicon.Visible(groups).(*lexVocab), l}
}

type brokenVocab struct {
	*lexVocab
	l brokenLexicon
}

var _ FailingVocabulary = brokenVocab{}

func (v brokenVocab) down() bool {
	*v.l.calls++
	return *v.l.calls > v.l.after
}

func (v brokenVocab) DocFreq(t string) int {
	if v.down() {
		return 0
	}
	return v.lexVocab.DocFreq(t)
}

func (v brokenVocab) Len() int {
	if v.down() {
		return 0
	}
	return v.lexVocab.Len()
}

func (v brokenVocab) Err() error {
	if *v.l.calls > v.l.after {
		return v.l.err
	}
	return nil
}

// TestVocabularyErrorFailsTheAssessment: when the vocabulary's server
// fails at any point of an assessment, so that some counts read 0 that
// are not 0, the assessment is the failure (the Assess activity retries),
// never a verdict judged on those zeros; with a vocabulary that never
// fails, the verdict is as with the plain lexicon. A refusal and an
// acceptance, failing from the first count to the last.
func TestVocabularyErrorFailsTheAssessment(t *testing.T) {
	an := terms.New()
	var texts []string
	for _, e := range hollinLike {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	lex := newLexicon(an, texts...)
	down := errors.New("redis: connection refused")
	for _, q := range []string{
		"how often should I descale the K50 with vinegar", // a refusal (TestHoldingsErrorFailsTheAssessment)
		hollinLike[0].Title,
	} {
		req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: hollinLike[:2]}
		plain := NewBuiltin(an, lex)
		plain.Rewriter = NewRewriter(an, lex)
		want, err := plain.Assess(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		whole := brokenLexicon{lex, 1 << 30, &calls, down}
		b := NewBuiltin(an, whole)
		b.Rewriter = NewRewriter(an, whole)
		got, err := b.Assess(context.Background(), req)
		if err != nil || got.Assessment.Sufficient != want.Assessment.Sufficient || got.Assessment.Reason != want.Assessment.Reason {
			t.Fatalf("%q, a vocabulary that never fails: %+v, %v; want %+v", q, got.Assessment, err, want.Assessment)
		}
		total := calls
		if total < 4 {
			t.Fatalf("%q reads %d counts: too few to fail in the middle", q, total)
		}
		for _, after := range []int{0, 1, total / 2, total - 1} {
			calls = 0
			broken := brokenLexicon{lex, after, &calls, down}
			b := NewBuiltin(an, broken)
			b.Rewriter = NewRewriter(an, broken)
			res, err := b.Assess(context.Background(), req)
			if !errors.Is(err, down) {
				t.Errorf("%q, the server failing after %d of %d counts: %v (sufficient %v, reason %q), want the error %v",
					q, after, total, err, res.Assessment.Sufficient, res.Assessment.Reason, down)
			}
		}
		t.Logf("%q: sufficient %v, %d counts", q, want.Assessment.Sufficient, total)
	}
}
