package assess

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// onesLexicon is a lexicon whose vocabularies answer Holdings with the
// term sets the chunks hold but the value 1 for each, as the RediSearch
// backend does for the sets it only checks exist.
type onesLexicon struct{ *lexicon }

func (l onesLexicon) Visible(groups []string) Vocabulary {
	return onesVocab{l.lexicon.Visible(groups).(*lexVocab)}
}

type onesVocab struct{ *lexVocab }

func (v onesVocab) Holdings(ctx context.Context, ts []string, f wire.Filters) (map[uint64]int, error) {
	out, err := v.lexVocab.Holdings(ctx, ts, f)
	for m := range out {
		out[m] = 1
	}
	return out, err
}

// TestAssessReadsOnlyWhichSetsAreHeld: the assessor's visible-chunk check
// (reach) depends only on which term sets the chunks hold, not on how
// many chunks hold each: with every count replaced by 1 every assessment
// (decision, score, reason, rewrite) is the same, over generated
// questions and evidence. It fails if reach starts reading the counts.
func TestAssessReadsOnlyWhichSetsAreHeld(t *testing.T) {
	an := terms.New()
	// hollinLike and more chunks holding overlapping subsets of the same
	// words, so that many term sets are held by several chunks.
	r := rand.New(rand.NewPCG(5, 6))
	texts, words := reuseCorpus(r)
	lex := newLexicon(an, texts...)
	exact := NewBuiltin(an, lex)
	exact.Rewriter = NewRewriter(an, lex)
	ones := NewBuiltin(an, onesLexicon{lex})
	ones.Rewriter = NewRewriter(an, onesLexicon{lex})
	checked := 0
	for i := range 300 {
		req := generatedRequest(r, words, 6)
		question := req.Question
		a, err := exact.Assess(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ones.Assess(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprintf("%+v", a) != fmt.Sprintf("%+v", b) {
			t.Errorf("question %d %q: with counts %+v, with 1 for each set %+v", i, question, a.Assessment, b.Assessment)
		}
		if strings.Contains(a.Assessment.Reason, "no document you can see") {
			checked++
		}
	}
	if checked == 0 {
		t.Errorf("no question reached the visible-chunk check: the comparison tests nothing")
	}
	t.Logf("%d of 300 questions decided by the visible-chunk check", checked)
}

// generatedRequest is a public asker's question of 2 to most+1 of words
// (drawn from r), with up to two of hollinLike's chunks as evidence.
func generatedRequest(r *rand.Rand, words []string, most int) Request {
	var q []string
	for range 2 + r.IntN(most) {
		q = append(q, words[r.IntN(len(words))])
	}
	question := strings.Join(q, " ") + "?"
	var ev []Evidence
	for _, j := range r.Perm(len(hollinLike))[:r.IntN(3)] {
		ev = append(ev, hollinLike[j])
	}
	return Request{Question: question, Query: question, Groups: []string{"public"}, Evidence: ev}
}

// countingLexicon counts the Holdings calls of its vocabularies: on
// RediSearch each is a search per term.
type countingLexicon struct {
	*lexicon
	calls *int
}

func (l countingLexicon) Visible(groups []string) Vocabulary {
	return countingVocab{l.lexicon.Visible(groups).(*lexVocab), l.calls}
}

type countingVocab struct {
	*lexVocab
	calls *int
}

func (v countingVocab) Holdings(ctx context.Context, ts []string, f wire.Filters) (map[uint64]int, error) {
	*v.calls++
	return v.lexVocab.Holdings(ctx, ts, f)
}

// countingAssessor is the builtin assessor and rewriter over hollinLike's
// chunks, with the Holdings calls its lexicon answers counted.
func countingAssessor() (*Builtin, countingLexicon, *int) {
	an := terms.New()
	var texts []string
	for _, e := range hollinLike {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	calls := new(int)
	lex := countingLexicon{newLexicon(an, texts...), calls}
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	return b, lex, calls
}

// TestAsTypedPassJudgesOnly: when a spelling correction applies and the
// question as typed is judged first (Assess), that pass only judges: a
// refusal asks the backend which chunks hold the question's terms (reach)
// once, for the corrected reading, not once per reading; the answer is
// the same.
func TestAsTypedPassJudgesOnly(t *testing.T) {
	b, lex, calls := countingAssessor()
	b.Rewriter.UseV4() // v5's together counts once more: TestV5HoldingsOncePerReading
	q := "how often should I descael the K50 with vinegar"
	if spelled, _ := b.Rewriter.Spell(context.Background(), q, lex.Visible([]string{"public"}), nil, wire.Filters{}); spelled == q || b.queried(q, spelled, q) == spelled {
		t.Fatalf("the test needs a correction the first attempt's query does not carry (spelled %q)", spelled)
	}
	*calls = 0
	res, err := b.Assess(context.Background(), Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: hollinLike[:2]})
	if err != nil {
		t.Fatal(err)
	}
	if res.Assessment.Sufficient {
		t.Fatalf("accepted: %s (the test needs a refusal)", res.Assessment.Reason)
	}
	if *calls != 1 {
		t.Errorf("Holdings called %d times for one assessment, want 1 (reason %q)", *calls, res.Assessment.Reason)
	}
	if res.Assessment.Rewrite == "" {
		t.Errorf("no rewrite proposed: %q", res.Assessment.Reason)
	}
}

// failingLexicon's vocabularies fail every Holdings, as a RediSearch
// backend does when Redis stops answering.
type failingLexicon struct {
	*lexicon
	err error
}

func (l failingLexicon) Visible(groups []string) Vocabulary {
	return failingVocab{l.lexicon.Visible(groups).(*lexVocab), l.err}
}

type failingVocab struct {
	*lexVocab
	err error
}

func (v failingVocab) Holdings(context.Context, []string, wire.Filters) (map[uint64]int, error) {
	return nil, v.err
}

// TestHoldingsErrorFailsTheAssessment: when the visible-chunk check
// cannot be asked (the index's server fails), the assessment is that
// error, not a refusal judged without the check and not one that says
// no visible chunk holds the words. The same refusal with a working
// vocabulary reaches the check (so the failure is not skipped).
func TestHoldingsErrorFailsTheAssessment(t *testing.T) {
	an := terms.New()
	var texts []string
	for _, e := range hollinLike {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	q := "how often should I descale the K50 with vinegar"
	req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: hollinLike[:2]}
	calls := 0
	counted := countingLexicon{newLexicon(an, texts...), &calls}
	b := NewBuiltin(an, counted)
	b.Rewriter = NewRewriter(an, counted)
	res, err := b.Assess(context.Background(), req)
	if err != nil || res.Assessment.Sufficient || calls == 0 {
		t.Fatalf("the test needs a refusal that asks Holdings: err %v, sufficient %v, %d calls", err, res.Assessment.Sufficient, calls)
	}
	down := errors.New("redis: connection refused")
	failing := failingLexicon{newLexicon(an, texts...), down}
	b = NewBuiltin(an, failing)
	b.Rewriter = NewRewriter(an, failing)
	res, err = b.Assess(context.Background(), req)
	if !errors.Is(err, down) {
		t.Errorf("Assess with Holdings failing: %v (reason %q), want the error %v", err, res.Assessment.Reason, down)
	}
}
