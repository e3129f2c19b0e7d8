package generate

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// kinThesaurus is a thesaurus of given relations: related, the relations
// through every sense (Related); common, those through the common senses
// (CommonRelated); base, base forms; senses, sense counts (1 when not
// given).
type kinThesaurus struct {
	related, common, base map[string][]string
	senses                map[string]int
}

func (kinThesaurus) Name() string                      { return "kin-test" }
func (k kinThesaurus) Related(w string) []string       { return k.related[w] }
func (k kinThesaurus) CommonRelated(w string) []string { return k.common[w] }
func (k kinThesaurus) BaseForms(w string) []string     { return k.base[w] }
func (k kinThesaurus) Senses(w string) int             { return max(k.senses[w], 1) }

// TestKin: a word stands for a question word when it relates back to it
// (or to a base form of it) through its own common senses; a relation one
// way only, another form of the word, a word of the question and a
// question word of more than maxKinSenses senses give none; a claim (it
// asks nothing) has none; before v35 and without a thesaurus there are
// none.
func TestKin(t *testing.T) {
	an := terms.New()
	th := kinThesaurus{
		related: map[string][]string{
			"guarantee": {"warranty", "assure", "repair"},
			"tracker":   {"track"},
			"pieces":    {"part", "spell"},
			"way":       {"means", "manner"},
		},
		common: map[string][]string{
			"warranty": {"guarantee"},
			"assure":   {"ensure"},    // not back to "guarantee": one way only
			"part":     {"piece"},     // back to the base form of "pieces"
			"spell":    {"time"},      // one way only
			"means":    {"way"},       // back, but "way" has too many senses
			"repair":   {"guarantee"}, // back, but "repair" is a word of the question
			"track":    {"tracker"},   // back, but another form of the word
		},
		base:   map[string][]string{"pieces": {"piece"}},
		senses: map[string]int{"way": maxKinSenses + 1},
	}
	q := "Can I get a repair under guarantee if it breaks into pieces on the way, and see it on the tracker?"
	g := NewExtractiveV35(an)
	g.UseThesaurus(th)
	content := g.content(q, g.classify(q))
	got := g.kin(q, content)
	want := map[string][]string{an.Terms("guarantee")[0]: an.Terms("warranty"), an.Terms("pieces")[0]: an.Terms("part")}
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("kin(%q) = %v, want %v", q, got, want)
	}
	// a claim asks nothing: no word stands for its words
	claim := "Guarantee claims come in pieces."
	if got := g.kin(claim, g.content(claim, g.classify(claim))); got != nil {
		t.Errorf("kin(%q) = %v, want none for a claim", claim, got)
	}
	if got := NewExtractiveV35(an).kin(q, content); got != nil {
		t.Errorf("v35 without a thesaurus: kin %v, want none", got)
	}
	v34 := NewExtractiveV34(an)
	v34.UseThesaurus(th)
	if got := v34.kin(q, content); got != nil {
		t.Errorf("v34 with a thesaurus: kin %v, want none", got)
	}
}

// u34 is fresh11 u34 (a design question) in the loop's page order: the
// accepted warranty page holds "need" and "X200"; the blade page says
// what needs doing with "part" where the question says "pieces".
var u34 = v25case{"my X200 isn't chopping nuts properly any more, it leaves them in big pieces. what needs doing?",
	[]string{"pol-warranty-2026", "pol-registration", "man-x200-specs", "man-x200-blades", "ntc-x200-recall"}, "pol-warranty-2026"}

// TestV35StandInCites: with a thesaurus relating "pieces" and "part",
// v35 cites the blade page and its part number (BLD-X200) beside the
// accepted page; v34 with the same thesaurus, and v35 without one, cite
// the warranty page alone.
func TestV35StandInCites(t *testing.T) {
	an := terms.New()
	th := kinThesaurus{
		related: map[string][]string{"pieces": {"part"}},
		common:  map[string][]string{"part": {"piece"}},
		base:    map[string][]string{"pieces": {"piece"}},
	}
	req := u34.request(t)
	v34 := NewExtractiveV34(an)
	v34.UseThesaurus(th)
	for name, g := range map[string]*Extractive{"v34 with a thesaurus": v34, "v35 without one": NewExtractiveV35(an)} {
		if text, docs := answerOf(t, g, req); !slices.Equal(docs, []string{"pol-warranty-2026"}) {
			t.Errorf("%s answers %q citing %v, want pol-warranty-2026 alone (the case no longer tests v35)", name, text, docs)
		}
	}
	g := NewExtractiveV35(an)
	g.UseThesaurus(th)
	text, docs := answerOf(t, g, req)
	if !slices.Contains(docs, "man-x200-blades") || !strings.Contains(text, "BLD-X200") {
		t.Errorf("v35 answers %q citing %v, want man-x200-blades with BLD-X200", text, docs)
	}
}

// TestV35WordNet: with WordNet (skipped without it), v35 cites the blade
// page for u34 ("pieces" and "part" relate both ways), and a stand-in
// alone does not make a typed sentence open: "How will I know my fixed
// blender is on its way back to me?" (fresh13 w49, a design question)
// still opens with "We email a tracking link ...", not with "A repair
// shows as Booked, ...", whose only word for the question is "repair"
// for "fixed".
func TestV35WordNet(t *testing.T) {
	wn, err := thesaurus.Open(thesaurus.DefaultDir)
	if err != nil {
		t.Skipf("no WordNet at %s: %v", thesaurus.DefaultDir, err)
	}
	g := NewExtractiveV35(terms.New())
	g.UseThesaurus(wn)
	if text, docs := answerOf(t, g, u34.request(t)); !slices.Contains(docs, "man-x200-blades") {
		t.Errorf("u34: v35 answers %q citing %v, want man-x200-blades", text, docs)
	}
	w49 := v25case{"How will I know my fixed blender is on its way back to me?",
		[]string{"faq-repair-tracking", "man-x200-specs", "faq-warranty-claim", "man-x300-specs", "man-x300-errors"}, "faq-repair-tracking"}
	if text, _ := answerOf(t, g, w49.request(t)); !strings.HasPrefix(text, "We email a tracking link") {
		t.Errorf("w49: v35 answers %q, want it to open with the tracking link", text)
	}
}

// TestV35NoStandInIsV34: when no page holds a word standing for a
// question word, v35 answers as v34 does, with the thesaurus or without:
// its scores are v34's (each content word's weight, and a title's word
// beside a word of the sentence).
func TestV35NoStandInIsV34(t *testing.T) {
	an := terms.New()
	// stand-ins no Hollin page holds
	th := kinThesaurus{
		related: map[string][]string{"pieces": {"fragment"}, "relocating": {"resettle"}, "jar": {"crock"}, "page": {"foliate"}},
		common:  map[string][]string{"fragment": {"piece"}, "resettle": {"relocate"}, "crock": {"jar"}, "foliate": {"page"}},
		base:    map[string][]string{"pieces": {"piece"}, "relocating": {"relocate"}},
	}
	g := NewExtractiveV35(an)
	g.UseThesaurus(th)
	for _, c := range []v25case{u34,
		{"Heard your repair place is relocating - where's it going?",
			[]string{"pol-repairs", "ntc-repair-centre-move", "faq-repair-tracking", "faq-warranty-claim", "faq-vat-invoice"}, "pol-repairs"},
		{"where on the blender jar is the batch number?",
			[]string{"ntc-x200-recall", "man-x200-specs", "man-x300-specs", "man-x200-errors", "pol-warranty-2026"}, "ntc-x200-recall"},
		{"where's the page to get a replacement jar for the recall",
			[]string{"ntc-x200-recall", "man-x200-blades", "man-x200-cleaning", "man-x200-specs", "man-x200-errors"}, "ntc-x200-recall"},
	} {
		req := c.request(t)
		want, _ := answerOf(t, NewExtractiveV34(an), req)
		if got, _ := answerOf(t, g, req); got != want {
			t.Errorf("%q: v35 answers %q, v34 %q", c.q, got, want)
		}
	}
}

// TestKinScore: a sentence holding a stand-in scores its question word
// (the blade page's "part" for "pieces"); every other sentence scores as
// score does, its page's title words included ("X200" of "X200 blade
// assembly" beside "blades").
func TestKinScore(t *testing.T) {
	an := terms.New()
	g := NewExtractiveV35(an)
	g.UseThesaurus(kinThesaurus{
		related: map[string][]string{"pieces": {"part"}},
		common:  map[string][]string{"part": {"piece"}},
		base:    map[string][]string{"pieces": {"piece"}},
	})
	// u34's pages; "blade" makes the blade page's title give "X200" to
	// its sentences on the blades
	c := u34
	c.q = "my X200 blade leaves big pieces, what needs doing?"
	req := c.request(t)
	var all []*sentence
	for si, src := range req.Sources {
		for pi, text := range citation.Sentences(src.Text) {
			all = append(all, &sentence{source: si, pos: pi, text: text})
		}
	}
	asked := g.classify(req.Question)
	g.score(req, all, g.content(req.Question, asked), asked)
	piece := an.Terms("pieces")[0]
	stood := 0
	for _, s := range all {
		switch {
		case s.kown[piece]:
			stood++
			if !strings.Contains(s.text, "part") || s.kscore <= s.score {
				t.Errorf("%q: kscore %.3f, score %.3f; want a stand-in raising it", s.text, s.kscore, s.score)
			}
		case math.Abs(s.kscore-s.score) > 1e-9:
			t.Errorf("%q: kscore %.3f, score %.3f; want equal", s.text, s.kscore, s.score)
		}
	}
	if stood != 1 {
		t.Errorf("%d sentences hold a stand-in for %q, want 1 (BLD-X200's)", stood, piece)
	}
}
