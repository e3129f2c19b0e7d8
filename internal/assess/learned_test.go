package assess

import (
	"context"
	"github.com/assay-rag/assay/internal/terms"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestCandidates checks the features Candidates reads of each chunk: one
// vector per retrieved chunk, FeatureNames long, finite, the same on a
// second call and whatever order the chunks arrive in (the assessor's own
// order), and the verdict Assess's: computing them changes nothing.
func TestCandidates(t *testing.T) {
	b, _ := newTestAssessor()
	b.Learned, b.Veto = false, false // Candidates is the rules' verdict
	ctx := context.Background()
	for _, q := range []string{
		"how many years is the X300 Pro motor covered for",
		"what does E12 mean on the X300 Pro",
		"how do I descale the X300 Pro",
		"vacuum blender warranty",
	} {
		req := Request{Question: q, Query: q, Evidence: hollinLike, Groups: []string{"public"}}
		want, err := b.Assess(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		res, cands, err := b.Candidates(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res, want) {
			t.Errorf("%q: Candidates' verdict %+v, Assess's %+v", q, res, want)
		}
		if len(cands) != len(hollinLike) {
			t.Fatalf("%q: %d candidates for %d chunks", q, len(cands), len(hollinLike))
		}
		for _, c := range cands {
			if len(c.Features) != len(FeatureNames()) {
				t.Fatalf("%q: %s has %d features, want %d", q, c.ChunkID, len(c.Features), len(FeatureNames()))
			}
			for i, x := range c.Features {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Errorf("%q: %s: %s is %v", q, c.ChunkID, FeatureNames()[i], x)
				}
			}
		}
		_, again, _ := b.Candidates(ctx, req)
		rev := req
		rev.Evidence = slices.Clone(hollinLike)
		slices.Reverse(rev.Evidence)
		_, reordered, _ := b.Candidates(ctx, rev)
		if !reflect.DeepEqual(again, cands) || !reflect.DeepEqual(reordered, cands) {
			t.Errorf("%q: features differ between calls or orders:\n%v\n%v\n%v", q, cands, again, reordered)
		}
	}
}

// TestLearned: builtin:coverage-v62 (Builtin.Learned) accepts, when the
// rules refuse, the chunk the model of learned_table.go scores at
// learnedAdd or above. The receipt page alone answers "what slip shows the
// date, shop, model and colour of the kettle I bought" but says
// "purchase", not "bought": the rules refuse it (its most specific term is
// missing), the model scores it about 0.70 and accepts it. Fails with
// the switch off (refused) or the threshold above the score. A question
// none of whose words the page holds stays refused; the table has one
// weight per feature; the default is v62 with Learned on.
func TestLearned(t *testing.T) {
	if len(learnedWeights) != len(featureNames) {
		t.Fatalf("%d learned weights for %d features", len(learnedWeights), len(featureNames))
	}
	if learnedAdd < 0.5 || learnedAdd > 1 {
		t.Fatalf("learnedAdd %v: an acceptance below the loop's 0.5 would never be taken", learnedAdd)
	}
	q := "what slip shows the date, shop, model and colour of the kettle I bought"
	receipt := Evidence{ChunkID: "receipt#0", Title: "Proof of purchase", Text: "The receipt shows the date of purchase, the shop, the kettle model and its colour."}
	an := terms.New()
	lex := newLexicon(an, "Sale tags\nKettles bought in the shop sale show a red tag with the sale date.", receipt.Title+"\n"+receipt.Text,
		"X300 Pro blender receipt", "K50 kettle", "repair date", "the lights show", "shop opening hours", "colour chart", "model numbers")
	judge := func(learned bool, q string) Result {
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.OwnOrder = false
		b.Learned = learned
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: []Evidence{receipt}, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if r := judge(false, q); r.Assessment.Sufficient {
		t.Fatalf("the rules accept the receipt page (%+v): the case no longer tests Learned", r.Assessment)
	}
	r := judge(true, q)
	if !r.Assessment.Sufficient || !slices.Equal(r.Accepted, []string{"receipt#0"}) || r.Assessment.Score < learnedAdd ||
		!strings.Contains(r.Assessment.Reason, "a model fitted on the development sets") || r.Usage.Model != BuiltinModel+"-noownorder" || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("Learned: %+v %v (model %s), want accepted on receipt#0 at learnedAdd or above by builtin:coverage-v68", r.Assessment, r.Accepted, r.Usage.Model)
	}
	if r := judge(true, "when does the blender motor stop"); r.Assessment.Sufficient {
		t.Errorf("Learned on a page about something else: %+v, want refused", r.Assessment)
	}
	b := NewBuiltin(an, lex)
	if !b.Learned || b.Model() != BuiltinModel {
		t.Errorf("default Learned %v, model %q, want on and %s", b.Learned, b.Model(), BuiltinModel)
	}
	if b.Veto, b.Status = false, false; b.Model() != V63Model {
		t.Errorf("Veto off: model %q, want %s", b.Model(), V63Model)
	}
	if b.LearnedCover = false; b.Model() != V62Model {
		t.Errorf("LearnedCover off: model %q, want %s", b.Model(), V62Model)
	}
	if b.Learned = false; b.Model() != V61Model {
		t.Errorf("Learned off: model %q, want %s", b.Model(), V61Model)
	}
	// A score that is not a number is never an acceptance.
	x := make([]float64, len(featureNames))
	x[0] = math.NaN()
	if p := learnedScore(x); !math.IsNaN(p) {
		t.Errorf("learnedScore of NaN features = %v", p)
	}
}

// TestLearnedGate (round 47, a47-gate): the learned add never overrides a
// refusal the visible-chunk check judged hopeless, nor takes a chunk that
// does not name every entity of the question. "how do I speed up the
// spout" of the K50 kettle, asked of the K50 kettle page: the rules
// refuse (no document mentions "K50" and "speed" together: the check's
// first finding), the model scores the page at learnedAdd or above, and
// the add is not made. The same features with the refusal not judged so
// (Candidate.Hopeless 0, or known hopeless before the check) are added;
// with the page's entity share below 1, or its coverage below half the
// question's weight, they are not. Fails with any gate removed.
func TestLearnedGate(t *testing.T) {
	th := fakeThesaurus{}
	q := "My K50 kettle boils in about four minutes with citric acid; how do I speed up the spout?"
	var cands []Candidate
	var req Request
	res := actJudgeWith(t, func(b *Builtin) {
		b.Learned = true
		pool := append(append(slices.Clone(actCorpus), hollinLike...), moreK50...)
		i := slices.IndexFunc(pool, func(e Evidence) bool { return e.ChunkID == "man-k50-kettle#0" })
		req = Request{Question: q, Query: q, K: 5, Evidence: pool[i : i+1], Groups: []string{"public"}}
		var err error
		if _, cands, err = b.Candidates(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}, th, q, "man-k50-kettle#0")
	if len(cands) != 1 || cands[0].Hopeless != HopelessTogether {
		t.Fatalf("candidates %+v: want the K50 page, judged hopeless (no document mentions K50 and speed together)", cands)
	}
	ra, rany := slices.Index(featureNames, "rules_accept"), slices.Index(featureNames, "rules_accept_any")
	x := slices.Clone(cands[0].Features)
	x[ra], x[rany] = 0, 0
	if p := learnedScore(x); p < learnedAdd {
		t.Fatalf("the model scores the K50 page %.3f, below learnedAdd %.3f: the case no longer tests the gate", p, learnedAdd)
	}
	if res.Assessment.Sufficient || !strings.Contains(res.Assessment.Reason, "together") {
		t.Errorf("%q: %+v %v, want refused by the rules (the add gated)", q, res.Assessment, res.Accepted)
	}
	b := NewBuiltin(terms.New(), newLexicon(terms.New()))
	refused := Result{Assessment: Assessment{Reason: "refused"}}
	for _, tt := range []struct {
		hopeless        int
		share, coverage float64
		want            bool
	}{
		{HopelessTogether, 1, 0.63, false}, {HopelessKey, 1, 0.63, false}, {HopelessCover, 1, 0.63, false},
		{0, 1, 0.63, true}, {HopelessBefore, 1, 0.63, true}, {0, 0.5, 0.63, false},
		{0, 1, 0.5, true}, {0, 1, 0.45, false},
	} {
		c := Candidate{ChunkID: cands[0].ChunkID, Features: slices.Clone(x), Hopeless: tt.hopeless}
		c.Features[slices.Index(featureNames, "entity_share")] = tt.share
		c.Features[slices.Index(featureNames, "coverage")] = tt.coverage
		if learnedScore(c.Features) < learnedAdd {
			t.Fatalf("hopeless %d, entity share %v, coverage %v: scored below learnedAdd: the case no longer tests the gate", tt.hopeless, tt.share, tt.coverage)
		}
		in := refused
		in.cands = func(string) []Candidate { return []Candidate{c} }
		if got := b.learnedAccept(req, in); got.Assessment.Sufficient != tt.want {
			t.Errorf("hopeless %d, entity share %v, coverage %v: accepted %v, want %v", tt.hopeless, tt.share, tt.coverage, got.Assessment.Sufficient, tt.want)
		}
	}
	// builtin:coverage-v63 (LearnedCover): on a yes/no question, the
	// check's "covers enough" finding lets the add through at
	// learnedAddCoverYesNo; its other findings, a question of another
	// kind, or a lower score still gate it.
	yn, bias := slices.Index(featureNames, "yesno"), slices.Index(featureNames, "coverage")
	for _, tt := range []struct {
		hopeless     int
		yesno        float64
		cover, wantP float64 // the chunk's coverage; the score it must reach (or stay below, when negative)
		learnedCover bool
		want         bool
	}{
		{HopelessCover, 1, 0.63, learnedAddCoverYesNo, true, true},
		{HopelessCover, 1, 0.63, learnedAddCoverYesNo, false, false},
		{HopelessCover, 0, 0.63, learnedAddCoverYesNo, true, false},
		{HopelessTogether, 1, 0.63, learnedAddCoverYesNo, true, false},
		{HopelessKey, 1, 0.63, learnedAddCoverYesNo, true, false},
		{HopelessCover, 1, 0.45, learnedAddCoverYesNo, true, false},
	} {
		c := Candidate{ChunkID: cands[0].ChunkID, Features: slices.Clone(x), Hopeless: tt.hopeless}
		c.Features[yn], c.Features[bias] = tt.yesno, tt.cover
		if p := learnedScore(c.Features); p < tt.wantP {
			t.Fatalf("hopeless %d, yes/no %v: scored %.3f, below %.3f: the case no longer tests the gate", tt.hopeless, tt.yesno, p, tt.wantP)
		}
		in := refused
		in.cands = func(string) []Candidate { return []Candidate{c} }
		b.LearnedCover = tt.learnedCover
		if got := b.learnedAccept(req, in); got.Assessment.Sufficient != tt.want {
			t.Errorf("LearnedCover %v, hopeless %d, yes/no %v, coverage %v: accepted %v, want %v", tt.learnedCover, tt.hopeless, tt.yesno, tt.cover, got.Assessment.Sufficient, tt.want)
		}
	}
	// Below learnedAddCoverYesNo (but at learnedAdd), the "cover" finding still gates.
	b.LearnedCover = true
	c := Candidate{ChunkID: cands[0].ChunkID, Features: slices.Clone(x), Hopeless: HopelessCover}
	c.Features[yn] = 1
	for k := range featureNames {
		if k == yn || k == bias || k == slices.Index(featureNames, "entity_share") {
			continue
		}
		c.Features = slices.Clone(x)
		c.Features[yn] = 1
		for v := 0.0; v <= 1; v += 0.05 {
			c.Features[k] = v
			p := learnedScore(c.Features)
			if p >= learnedAddCoverYesNo || p < learnedAdd {
				continue
			}
			in := refused
			in.cands = func(string) []Candidate { return []Candidate{c} }
			if got := b.learnedAccept(req, in); got.Assessment.Sufficient {
				t.Errorf("yes/no, cover finding, score %.3f below learnedAddCoverYesNo: accepted, want refused", p)
			}
			c.Hopeless = 0 // and the same chunk is added when the refusal is not hopeless
			in.cands = func(string) []Candidate { return []Candidate{c} }
			if got := b.learnedAccept(req, in); !got.Assessment.Sufficient {
				t.Errorf("yes/no, not hopeless, score %.3f at learnedAdd: refused, want accepted", p)
			}
			return
		}
	}
	t.Error("no coverage gives a score between learnedAdd and learnedAddCoverYesNo: the case no longer tests the threshold")
}
