package assess

import (
	"context"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// matterCorpus: two specification pages, a recall notice on the same
// product's jar, a kettle page and a blade page (so that "blades" and
// "made" are words the documents use).
var matterCorpus = []Evidence{
	{ChunkID: "x200#0", Title: "X200 Blender specifications", Text: "The X200 blender has a 1,200 W motor, a 2-litre Tritan jar and three speeds. High speed reaches 22,000 RPM. Model number HL-X200-UK."},
	{ChunkID: "x300#0", Title: "X300 Pro Blender specifications", Text: "The X300 Pro blender has a 1,500 W motor, a vacuum blending mode and ten speeds. High speed reaches 30,000 RPM. Model number HL-X300-UK."},
	{ChunkID: "recall#0", Title: "Safety notice: X200 jar recall", Text: "X200 jars from batch B-2291 may crack when used with hot liquids. Stop using the jar and order a free replacement at hollin.example/recall."},
	{ChunkID: "k50#0", Title: "K50 Smart Kettle", Text: "The K50 smart kettle boils 1.7 litres in about four minutes. Descale it once a month with citric acid."},
	{ChunkID: "blades#0", Title: "X200 blade assembly", Text: "The X200 blades lift out for cleaning. Units made before March 2025 need a new coupling."},
}

// matterJudge judges q against the evidence of matterCorpus named by ids,
// in that order, with Matter as set.
func matterJudge(t *testing.T, matter bool, q string, ids ...string) Result {
	t.Helper()
	return judgeAmong(t, matterCorpus, []string{"Warranty terms", "Opening hours", "Pairing the K50 with the app", "Registering your appliance"},
		func(b *Builtin) { b.Matter = matter }, q, ids...)
}

// switchCase is a question judged on the evidence ids names, and the
// chunk accepted first with a switch off and on ("" when refused).
type switchCase struct {
	q       string
	ids     []string
	off, on string
}

// checkSwitch judges each case with the switch named name off, then on
// (judge), and fails when either accepts another chunk than the case's.
func checkSwitch(t *testing.T, name string, judge func(on bool, q string, ids ...string) Result, cases []switchCase) {
	t.Helper()
	accepted := func(r Result) string {
		if !r.Assessment.Sufficient || len(r.Accepted) == 0 {
			return ""
		}
		return r.Accepted[0]
	}
	for _, c := range cases {
		if got := accepted(judge(false, c.q, c.ids...)); got != c.off {
			t.Errorf("without %s, %q accepted on %q, want %q", name, c.q, got, c.off)
		}
		r := judge(true, c.q, c.ids...)
		if got := accepted(r); got != c.on {
			t.Errorf("with %s, %q accepted on %q, want %q: %s", name, c.q, got, c.on, r.Assessment.Reason)
		}
	}
}

// judgeAmong judges q, with the default assessor set changes, against
// the evidence of corpus named by ids, in that order; the lexicon holds
// corpus and the other visible pages' texts.
func judgeAmong(t *testing.T, corpus []Evidence, other []string, set func(b *Builtin), q string, ids ...string) Result {
	t.Helper()
	an := terms.New()
	var texts []string
	byID := map[string]Evidence{}
	for _, e := range corpus {
		texts = append(texts, e.Title+"\n"+e.Text)
		byID[e.ChunkID] = e
	}
	lex := newLexicon(an, append(texts, other...)...)
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	set(b)
	var ev []Evidence
	for _, id := range ids {
		ev = append(ev, byID[id])
	}
	res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestMatter: with Matter (builtin:coverage-v49), a question asking what a
// thing is made of is answered by the page naming its material ("a 2-litre
// Tritan jar"), not by another page on the same thing that names none; a
// speed question whose moving part, motion verb and top-of-range phrase
// the specification does not repeat is answered by its stated speed; a
// speed at the bottom of the range is still not. Without Matter, none is.
func TestMatter(t *testing.T) {
	checkSwitch(t, "Matter", func(on bool, q string, ids ...string) Result { return matterJudge(t, on, q, ids...) }, []switchCase{
		{"What's the X200's jug actually made of, glass or plastic?", []string{"recall#0", "x200#0"}, "", "x200#0"},
		{"what kind of plastic is the x200 jar made out of?", []string{"recall#0", "x200#0"}, "recall#0", "x200#0"},
		{"How fast do the blades spin on the Pro blender at full whack?", []string{"x300#0", "blades#0"}, "", "x300#0"},
		{"How fast does the X200 spin on its slowest speed?", []string{"x200#0", "blades#0"}, "", ""},
	})
	b := NewBuiltin(terms.New(), newLexicon(terms.New(), "x"))
	if !b.Matter || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("default Matter %v, model %q, want on and builtin:coverage-v68", b.Matter, b.Model())
	}
	if b.Parts, b.Ruled, b.Measured, b.Situated, b.ListedClause, b.Covered, b.Follow, b.Timed, b.Every, b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = false, false, false, false, false, false, false, false, false, 0, false, 0, false, false, false, false; b.Model() != V50Model || V50Model != "builtin:coverage-v50" {
		t.Errorf("without Parts, model %q, want %s", b.Model(), V50Model)
	}
	if b.Rates = false; b.Model() != V49Model || V49Model != "builtin:coverage-v49" {
		t.Errorf("without Rates and Parts, model %q, want %s", b.Model(), V49Model)
	}
	b.Matter, b.Rates = false, false
	if b.Model() != V48Model {
		t.Errorf("without Matter, model %q, want %s", b.Model(), V48Model)
	}
}
