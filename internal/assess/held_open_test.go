package assess

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// openLexicon is a lexicon whose vocabularies leave open, as RediSearch
// does (backend.Held), every set of their "common" terms that some chunk
// holds together with more of them: its keys are known only for the sets
// holding a "rare" term (read) and the sets no chunk holds with more of
// the common terms; whether a chunk holds exactly an open set is answered
// only when asked, and the sets asked are counted.
type openLexicon struct {
	*lexicon
	open, asked *int
}

func (l openLexicon) Visible(groups []string) Vocabulary {
	return openVocab{l.lexicon.Visible(groups).(*lexVocab), l}
}

type openVocab struct {
	*lexVocab
	l openLexicon
}

var _ OpenHoldingVocabulary = openVocab{}

// rareTerm says which terms the open vocabularies read rather than
// check: about a third of them, by their spelling.
func rareTerm(t string) bool { return len(t)%3 == 0 }

func (v openVocab) OpenHoldings(ctx context.Context, ts []string, f wire.Filters) (*backend.Held, error) {
	full, err := v.lexVocab.Holdings(ctx, ts, f)
	if err != nil {
		return nil, err
	}
	var rare uint64
	for i, t := range ts {
		if rareTerm(t) {
			rare |= 1 << i
		}
	}
	known := map[uint64]int{}
	together := map[uint64]bool{} // the sets of common terms some chunk holds (and more)
	for m, n := range full {
		if m&rare != 0 {
			known[m] = n
			continue
		}
		for s := m; s != 0; s = (s - 1) & m {
			together[s] = true
		}
	}
	if len(together) > 1<<14 {
		return backend.KnownHeld(full), nil
	}
	var open []uint64
	for s := range together {
		extended := false
		for i := range ts {
			if b := uint64(1) << i; s&b == 0 && rare&b == 0 && together[s|b] {
				extended = true
				break
			}
		}
		switch {
		case extended:
			open = append(open, s)
		case full[s] == 0:
			panic(fmt.Sprintf("set %b is held with no more of the common terms but is no key", s))
		default:
			known[s] = full[s]
		}
	}
	*v.l.open += len(open)
	return backend.OpenHeld(known, open, func(_ context.Context, sets []uint64) ([]bool, error) {
		*v.l.asked += len(sets)
		out := make([]bool, len(sets))
		for i, s := range sets {
			out[i] = full[s] > 0
		}
		return out, nil
	}), nil
}

// TestOpenSetsChangeNoAssessment: the assessor (reach) and the rewriter
// (holding: together, missing-terms and wider-k) reading an answer with
// open sets (backend.Held) assess exactly as they do reading the whole
// answer — decision, score, reason, rewrite proposals — over generated
// questions and evidence, while asking only some of the open sets. It
// fails when a set they skip would have changed what they say (the rules
// they skip by: TestHeldAnswerReadsAsTheWhole, TestBestFirstIsTheFold).
func TestOpenSetsChangeNoAssessment(t *testing.T) {
	for _, seed := range []uint64{5, 11} {
		an := terms.New()
		r := rand.New(rand.NewPCG(seed, 6))
		texts, words := reuseCorpus(r)
		lex := newLexicon(an, texts...)
		exact := NewBuiltin(an, lex)
		exact.Rewriter = NewRewriter(an, lex)
		var opened, asked int
		ol := openLexicon{lexicon: lex, open: &opened, asked: &asked}
		lazy := NewBuiltin(an, ol)
		lazy.Rewriter = NewRewriter(an, ol)
		checked := 0
		for i := range 400 {
			req := generatedRequest(r, words, 7)
			a, err := exact.Assess(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			b, err := lazy.Assess(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprintf("%+v", a) != fmt.Sprintf("%+v", b) {
				t.Errorf("seed %d question %d %q:\nwhole answer %+v %+v\nopen sets    %+v %+v", seed, i, req.Question, a.Assessment, a.Proposals, b.Assessment, b.Proposals)
			}
			if strings.Contains(a.Assessment.Reason, "no document you can see") || len(a.Proposals) > 0 {
				checked++
			}
		}
		t.Logf("seed %d: %d of 400 assessments decided or proposed from the visible chunks; %d open sets, %d asked", seed, checked, opened, asked)
		if checked < 50 || opened < 100 {
			t.Errorf("seed %d: %d assessments read the visible chunks, %d open sets: the comparison tests little", seed, checked, opened)
		}
		if asked*2 > opened {
			t.Errorf("seed %d: %d of %d open sets asked: the readings skip too few", seed, asked, opened)
		}
	}
}

// randomHeld is a Holdings answer over n terms (its keys: random sets)
// with some of its keys and some sets that are no key left open, and the
// open sets asked counted.
func randomHeld(r *rand.Rand, n int, asked *int) (full map[uint64]int, a *heldAnswer) {
	full = map[uint64]int{}
	known := map[uint64]int{}
	var open []uint64
	for range 1 + r.IntN(12) {
		m := 1 + r.Uint64N(1<<n-1)
		switch r.IntN(3) {
		case 0:
			full[m] = 1
			known[m] = 1
		case 1:
			full[m] = 1
			open = append(open, m)
		default:
			if full[m] == 0 {
				open = append(open, m) // open, no key
			}
		}
	}
	for m := range known {
		open = slices.DeleteFunc(open, func(s uint64) bool { return s == m })
	}
	open = slices.Compact(slices.Sorted(slices.Values(open)))
	h := backend.OpenHeld(known, open, func(_ context.Context, sets []uint64) ([]bool, error) {
		*asked += len(sets)
		out := make([]bool, len(sets))
		for i, s := range sets {
			out[i] = full[s] > 0
		}
		return out, nil
	})
	return full, newHeldAnswer(nil, h)
}

// TestHeldAnswerReadsAsTheWhole: first and some, over any order of any
// sets, answer what they answer over the whole answer, and ask an open
// set only when it decides: first, only sets before the first known key
// of the order; some, none when a known key is among the sets. Fails
// when first asks the known keys before the open ones (a later known key
// would win over an earlier open one), or when some skips the open sets.
func TestHeldAnswerReadsAsTheWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ctx := context.Background()
	decided := 0
	for range 3000 {
		asked := 0
		full, a := randomHeld(r, 5, &asked)
		var order []uint64
		for _, m := range r.Perm(1 << 5)[:r.IntN(1<<5)] {
			if m != 0 {
				order = append(order, uint64(m))
			}
		}
		var want uint64
		wantOK := false
		for _, m := range order {
			if full[m] > 0 {
				want, wantOK = m, true
				break
			}
		}
		got, ok, err := a.first(ctx, order)
		if err != nil || got != want || ok != wantOK {
			t.Fatalf("first(%v) over known %v open %v: %v %v %v, want %v %v", order, a.held, a.open, got, ok, err, want, wantOK)
		}
		for _, m := range order {
			if _, known := a.held[m]; known {
				break
			}
			if len(a.open[m]) > 0 {
				asked--
			}
		}
		if asked > 0 {
			t.Fatalf("first(%v) over known %v open %v asked %d open sets past the first known key", order, a.held, a.open, asked)
		}
		asked = 0
		some, err := a.some(ctx, order)
		if err != nil || some != wantOK {
			t.Fatalf("some(%v) over known %v open %v: %v %v, want %v", order, a.held, a.open, some, err, wantOK)
		}
		if slices.ContainsFunc(order, func(m uint64) bool { _, known := a.held[m]; return known }) && asked > 0 {
			t.Fatalf("some(%v) over known %v asked %d open sets", order, a.held, asked)
		}
		if wantOK && len(a.open) > 0 {
			decided++
		}
	}
	if decided < 500 {
		t.Fatalf("only %d orders with open sets and a key: the comparison tests little", decided)
	}
}

// TestBestFirstIsTheFold: over any judged sets, ties in fit and score
// included, the first held set of bestFirst (among those better than a
// chunk holding nothing) is the one reach's pass over the held sets in
// ascending order keeps (a set replaces the one kept only when better).
// Fails when bestFirst breaks ties by anything but the sets' order.
func TestBestFirstIsTheFold(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	scores := []float64{0, 0.25, 0.5, 0.5, 1}
	for range 3000 {
		var cands []cand
		for m := uint64(1); m < 1<<4; m++ {
			if r.IntN(2) == 0 {
				cands = append(cands, cand{m, &judged{fit: r.IntN(4) == 0, score: scores[r.IntN(len(scores))], coverage: r.Float64()}})
			}
		}
		held := map[uint64]bool{}
		for _, c := range cands {
			held[c.m] = r.IntN(2) == 0
		}
		empty := &judged{}
		fold := empty
		for _, c := range cands {
			if held[c.m] && c.j.better(fold) {
				fold = c.j
			}
		}
		got := empty
		for _, c := range bestFirst(cands) {
			if c.j.better(empty) && held[c.m] {
				got = c.j
				break
			}
		}
		if got != fold {
			t.Fatalf("bestFirst keeps %+v, the pass %+v", got, fold)
		}
	}
}
