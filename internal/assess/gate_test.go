package assess

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// gateLexicon is a lexicon whose vocabularies count Builtin.Gate's
// checks (Together) and those that find no chunk (apart), and, with
// blind, answer Holdings "cannot tell" (nil) as RediSearch does for a
// term list with too many combinations held.
type gateLexicon struct {
	*lexicon
	blind        bool
	asked, apart *int
}

func (l gateLexicon) Visible(groups []string) Vocabulary {
	return gateVocab{l.lexicon.Visible(groups).(*lexVocab), l}
}

type gateVocab struct {
	*lexVocab
	l gateLexicon
}

func (v gateVocab) Holdings(ctx context.Context, ts []string, f wire.Filters) (map[uint64]int, error) {
	if v.l.blind {
		return nil, nil
	}
	return v.lexVocab.Holdings(ctx, ts, f)
}

func (v gateVocab) Together(ctx context.Context, all, anyOf []string, f wire.Filters) (bool, error) {
	some, err := v.lexVocab.Together(ctx, all, anyOf, f)
	*v.l.asked++
	if !some {
		*v.l.apart++
	}
	return some, err
}

// gateThesaurus relates words of reuseCorpus to others it holds, so that
// a thesaurus word may stand for the most specific term.
var gateThesaurus = fakeThesaurus{"motor": {"pump"}, "warranty": {"covered"}, "repair": {"courier"},
	"kettle": {"blender"}, "seal": {"lid"}, "speeds": {"mode"}, "boils": {"descale"}, "failed": {"loose"}}

// gateAssessor is the builtin assessor and rewriter over l, with
// gateThesaurus, Gate set to gate.
func gateAssessor(an *terms.Analyzer, l Lexicon, gate bool) *Builtin {
	b := NewBuiltin(an, l)
	b.Rewriter = NewRewriter(an, l)
	b.UseThesaurus(gateThesaurus)
	b.Gate = gate
	return b
}

// decided is an assessment as the loop reads it: the decision, score,
// reason and rewrite, what it accepted and the rewrites it proposed (not
// the model id, which names the switch).
func decided(r Result) string {
	return fmt.Sprintf("%+v %v %+v", r.Assessment, r.Accepted, r.Proposals)
}

// assessBoth is req assessed by first, then by second when given (the
// zero Result when not).
func assessBoth(t *testing.T, req Request, first *Builtin, second ...*Builtin) (Result, Result) {
	t.Helper()
	var out [2]Result
	for i, b := range append([]*Builtin{first}, second...) {
		res, err := b.Assess(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = res
	}
	return out[0], out[1]
}

// TestGateChangesNoExactAnswer: where Holdings is exact (bleve), the gate
// (builtin:coverage-v41) decides nothing the count would not: every
// assessment of generated questions naming codes, over overlapping
// chunks and with a thesaurus, is the same with Gate on as off, while
// the gate finds for some of them that no chunk holds the entities with
// the most specific term (it fails if it never does: the comparison
// would test nothing).
func TestGateChangesNoExactAnswer(t *testing.T) {
	an := terms.New()
	r := rand.New(rand.NewPCG(38, 41))
	texts, words := reuseCorpus(r)
	lex := newLexicon(an, texts...)
	asked, apart := 0, 0
	on := gateAssessor(an, gateLexicon{lexicon: lex, asked: &asked, apart: &apart}, true)
	off := gateAssessor(an, lex, false)
	for i := range 600 {
		req := generatedRequest(r, words, 6)
		a, b := assessBoth(t, req, on, off)
		if decided(a) != decided(b) {
			t.Errorf("question %d %q: with the gate %s, with the count %s", i, req.Question, decided(a), decided(b))
		}
	}
	if apart == 0 {
		t.Errorf("the gate asked %d times and never found the entities apart: the comparison tests nothing", asked)
	}
	t.Logf("gate asked %d times, %d found no chunk holding them together", asked, apart)
}

// TestGateDecidesAsTheCount: where Holdings cannot tell (nil, RediSearch
// with too many combinations), the gate decides as the exact count does
// whenever it finds no chunk holding the entities with the most specific
// term, and otherwise leaves the assessment as it was (cannot tell: a
// chunk that would suffice may exist). It fails if the gate never
// decides, or never decides otherwise than "cannot tell" would.
func TestGateDecidesAsTheCount(t *testing.T) {
	an := terms.New()
	r := rand.New(rand.NewPCG(38, 42))
	texts, words := reuseCorpus(r)
	lex := newLexicon(an, texts...)
	asked, apart, unused := 0, 0, 0
	blind := gateAssessor(an, gateLexicon{lexicon: lex, blind: true, asked: &asked, apart: &apart}, true)
	blindBefore := gateAssessor(an, gateLexicon{lexicon: lex, blind: true, asked: &unused, apart: &unused}, false)
	exact := gateAssessor(an, lex, false)
	decidedApart, changed := 0, 0
	for i := range 600 {
		req := generatedRequest(r, words, 6)
		before := apart
		a, _ := assessBoth(t, req, blind)
		want := exact
		if apart == before {
			want = blindBefore
		}
		b, _ := assessBoth(t, req, want)
		if decided(a) != decided(b) {
			t.Errorf("question %d %q (gate decided: %v): %s, want %s", i, req.Question, apart > before, decided(a), decided(b))
		}
		if apart > before {
			decidedApart++
			if c, _ := assessBoth(t, req, blindBefore); decided(c) != decided(a) {
				changed++
			}
		}
	}
	if decidedApart == 0 || changed == 0 {
		t.Errorf("the gate decided %d questions, %d otherwise than without it: the test reaches nothing", decidedApart, changed)
	}
	t.Logf("gate asked %d times; decided %d questions, %d of them otherwise than \"cannot tell\"", asked, decidedApart, changed)
}

// TestGateLeavesOutWhatJudgeLeavesOut: the most specific term of a set
// reach judges is not always the question's: judge leaves out a verb of
// the asking a chunk lacks ("press", when the chunk names the X300 and
// the dial and the question asks for a value), and the next term is the
// set's key. The gate asks for every term that could be a set's key, not
// the question's alone: here the count finds a set holding the X300 with
// "dial" that passes, and the gate must not decide "apart" (it fails if
// keyTerms stops at the heaviest term, or passes over no verb).
func TestGateLeavesOutWhatJudgeLeavesOut(t *testing.T) {
	an := terms.New()
	texts := []string{
		"X300 temperature dial\nHold the X300 temperature dial down for 5 seconds to reset it.",
		"Pressing matters\nPress releases go out weekly.",
		"K50 kettle\nThe K50 boils 1.7 litres in about four minutes.",
		"Warranty\nEvery appliance has a 2-year warranty.",
		"Blender jug\nThe jug holds 2 litres.",
		"Couriers\nWe email a tracking link when the courier collects your appliance.",
	}
	lex := newLexicon(an, texts...)
	asked, apart := 0, 0
	on := gateAssessor(an, gateLexicon{lexicon: lex, asked: &asked, apart: &apart}, true)
	off := gateAssessor(an, lex, false)
	ev := []Evidence{{ChunkID: "jug#0", Title: "Blender jug", Text: "The jug holds 2 litres."}}
	reached := 0
	for _, q := range []string{
		"How long do I press the temperature dial on the X300?",
		"How many seconds do I press the dial on my X300 for?",
		"How long should I press the X300's dial?",
	} {
		req := Request{Question: q, Query: q, Evidence: ev, Groups: []string{"public"}}
		before := asked
		a, b := assessBoth(t, req, on, off)
		if asked > before {
			reached++
		}
		if decided(a) != decided(b) {
			t.Errorf("%q: with the gate %s, with the count %s", q, decided(a), decided(b))
		}
	}
	if reached == 0 {
		t.Errorf("no question reached the gate")
	}
	t.Logf("%d questions reached the gate, %d found apart", reached, apart)
}

// TestGateLeavesOutSceneVerbs: judge also leaves out a verb of the
// statement before the asking (a scene verb: "spilled") that a set
// lacks, so with "spill" the heaviest known term (the dial is named on
// many pages, "spill" on one) the key of a set holding the X300 with
// "dial" is "x300": the count finds it passing and proposes a rewrite,
// and the gate must not decide "apart" on "spill" alone (it fails if
// keyTerms stops at a scene verb; TestGateLeavesOutWhatJudgeLeavesOut
// passes over a verb of the asking only).
func TestGateLeavesOutSceneVerbs(t *testing.T) {
	an := terms.New()
	texts := []string{
		"X300 temperature dial\nHold the X300 temperature dial down for 5 seconds to reset it.",
		"Spills\nWipe spilled juice from the base at once.",
		"X300 jug\nThe X300 jug takes 2 litres.",
		"X300 lid\nThe X300 lid locks.",
		"X300 speeds\nThe X300 has ten speeds.",
		"X300 motor\nThe X300 motor is 1500 W.",
		"K50 dial\nTurn the K50 dial to 80 degrees.",
		"Toaster dial\nThe toaster's dial sets the browning.",
		"Oven dial\nThe oven dial has six settings.",
		"Fan dial\nThe fan dial has three speeds.",
		"Radio dial\nThe radio dial tunes it.",
		"Blender jug\nThe jug holds 2 litres.",
	}
	lex := newLexicon(an, texts...)
	asked, apart := 0, 0
	on := gateAssessor(an, gateLexicon{lexicon: lex, asked: &asked, apart: &apart}, true)
	off := gateAssessor(an, lex, false)
	ev := []Evidence{{ChunkID: "jug#0", Title: "Blender jug", Text: "The jug holds 2 litres."}}
	for _, q := range []string{
		"I spilled cola on my X300. How long is the dial?",
		"We spilled cola on our X300. How long does the dial take?",
	} {
		req := Request{Question: q, Query: q, Evidence: ev, Groups: []string{"public"}}
		before := asked
		a, b := assessBoth(t, req, on, off)
		if asked == before {
			t.Errorf("%q did not reach the gate", q)
		}
		if decided(a) != decided(b) {
			t.Errorf("%q: with the gate %s, with the count %s", q, decided(a), decided(b))
		}
		if b.Assessment.Rewrite == "" {
			t.Errorf("%q: the count proposes no rewrite (%s): the case does not test the gate", q, b.Assessment.Reason)
		}
	}
}
