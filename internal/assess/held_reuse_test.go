package assess

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// listingLexicon records the term list of every Holdings call of its
// vocabularies.
type listingLexicon struct {
	*lexicon
	lists *[][]string
}

func (l listingLexicon) Visible(groups []string) Vocabulary {
	return listingVocab{l.lexicon.Visible(groups).(*lexVocab), l.lists}
}

type listingVocab struct {
	*lexVocab
	lists *[][]string
}

func (v listingVocab) Holdings(ctx context.Context, ts []string, f wire.Filters) (map[uint64]int, error) {
	*v.lists = append(*v.lists, slices.Clone(ts))
	return v.lexVocab.Holdings(ctx, ts, f)
}

// reuseCorpus is hollinLike's chunks and 60 more holding overlapping
// subsets of their words (drawn from r), and those words.
func reuseCorpus(r *rand.Rand) (texts, words []string) {
	for _, e := range hollinLike {
		texts = append(texts, e.Title+"\n"+e.Text)
		words = append(words, strings.Fields(strings.ToLower(e.Title+" "+e.Text))...)
	}
	for range 60 {
		var w []string
		for range 2 + r.IntN(10) {
			w = append(w, words[r.IntN(len(words))])
		}
		texts = append(texts, strings.Join(w, " "))
	}
	return texts, words
}

// TestProjectIsHoldings: a Holdings answer projected onto a subset of its
// terms (heldAnswer.project) is exactly Holdings asked for that subset,
// keys and counts, on random term lists over overlapping chunks; a list
// with a term the answer lacks projects to nil.
func TestProjectIsHoldings(t *testing.T) {
	an := terms.New()
	texts, words := reuseCorpus(rand.New(rand.NewPCG(5, 6)))
	v := newLexicon(an, texts...).Visible([]string{"public"}).(*lexVocab)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 8))
	var all []string
	for _, w := range words {
		if ts := an.Terms(w); len(ts) == 1 && !slices.Contains(all, ts[0]) {
			all = append(all, ts[0])
		}
	}
	nonEmpty := 0
	for range 500 {
		perm := r.Perm(len(all))
		wide := make([]string, 0, 12)
		for _, i := range perm[:2+r.IntN(11)] {
			wide = append(wide, all[i])
		}
		held, err := v.Holdings(ctx, wide, wire.Filters{})
		if err != nil {
			t.Fatal(err)
		}
		a := newHeldAnswer(wide, backend.KnownHeld(held))
		var sub []string
		for _, i := range r.Perm(len(wide))[:1+r.IntN(len(wide))] {
			sub = append(sub, wide[i])
		}
		want, _ := v.Holdings(ctx, sub, wire.Filters{})
		if got := a.project(sub); !maps.Equal(got.held, want) || len(got.open) > 0 {
			t.Fatalf("project(%v) of Holdings(%v) = %v (open %v), Holdings(%v) = %v", sub, wide, got.held, got.open, sub, want)
		}
		if len(want) > 0 {
			nonEmpty++
		}
		if got := a.project(append(slices.Clone(sub), "nosuchterm")); got != nil {
			t.Fatalf("a list with a term the answer lacks projects to %v, want nil", got)
		}
	}
	if nonEmpty < 100 {
		t.Fatalf("only %d of 500 lists held by some chunk: the comparison tests little", nonEmpty)
	}
	if (*heldAnswer)(nil).project([]string{"a"}) != nil {
		t.Fatal("a nil answer projects to something")
	}
}

// TestV5RewriterReusesReach: within one assessment the rewriter's
// visible-chunk count (holding, for together, missing-terms and
// wider-k) asks Holdings only when the assessor's own check (reach) did
// not already count every term it needs: no call's terms are all among
// an earlier call's of the same assessment. On RediSearch each call is
// up to hundreds of existence checks (round 20: 290 FT.AGGREGATE a
// question at 500,000 chunks). Over generated questions, some of which
// reach the rewriter's count; it fails when holding asks again.
func TestV5RewriterReusesReach(t *testing.T) {
	an := terms.New()
	texts, words := reuseCorpus(rand.New(rand.NewPCG(5, 6)))
	var lists [][]string
	lex := listingLexicon{newLexicon(an, texts...), &lists}
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	r := rand.New(rand.NewPCG(9, 10))
	proposed, asked := 0, 0
	for range 400 {
		var q []string
		for range 2 + r.IntN(6) {
			q = append(q, words[r.IntN(len(words))])
		}
		question := strings.Join(q, " ") + "?"
		var ev []Evidence
		for _, j := range r.Perm(len(hollinLike))[:1+r.IntN(2)] {
			ev = append(ev, hollinLike[j])
		}
		req := Request{Question: question, Query: question, Groups: []string{"public"}, Evidence: ev}
		lists = lists[:0]
		res, err := b.Assess(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		asked += len(lists)
		for i, l := range lists {
			for _, e := range lists[:i] {
				if !slices.ContainsFunc(l, func(t string) bool { return !slices.Contains(e, t) }) {
					t.Errorf("%q: Holdings asked for %v after %v, which holds every term", question, l, e)
				}
			}
		}
		if len(lists) > 0 && res.Assessment.Rewrite != "" {
			proposed++
		}
	}
	if asked == 0 {
		t.Fatal("no assessment asked Holdings: the test tests nothing")
	}
	if proposed == 0 {
		t.Fatal("no assessment that asked Holdings proposed a rewrite: the rewriter's count was never reached")
	}
	t.Logf("%d Holdings calls over 400 assessments; %d asked and proposed a rewrite", asked, proposed)
}
