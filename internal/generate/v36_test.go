package generate

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// phraseThesaurus is kinThesaurus reading a verb and its particle as one
// verb (Phraser): phrasal maps "verb particle" as written to the verb
// WordNet would list ("cuts off" → "cut off").
type phraseThesaurus struct {
	kinThesaurus
	phrasal map[string]string
}

func (p phraseThesaurus) Phrasal(verb, particle string) string {
	return p.phrasal[verb+" "+particle]
}

// cutOff relates "cut off" and "switch off" both ways (WordNet does not:
// see TestV36WordNet), "cut off" to "interrupt" and "break up" one way
// only.
var cutOff = phraseThesaurus{
	kinThesaurus: kinThesaurus{
		related: map[string][]string{"cut_off": {"break up", "cut off", "interrupt", "switch off"}, "cuts": {"gash"}},
		common: map[string][]string{"switch_off": {"cut off"}, "interrupt": {"break"}, "break_up": {"disperse"}, "gash": {"cut"},
			"cut_off": {"cut off"}}, // WordNet's Related("cut_off") has "cut off" itself
		base: map[string][]string{"cut_off": {"cut off"}, "cuts": {"cut"}},
	},
	phrasal: map[string]string{"cuts off": "cut off", "cut off": "cut off", "switch off": "switch off", "break up": "break up"},
}

// g33 is fresh3 g33 (a design question) in the loop's page order: the
// accepted kettle manual holds "K50" and "boil"; the bulletin sb-114 says
// the kettle may "switch off" where the question says "cuts off".
var g33 = v25case{"customers say their K50 cuts off before the water has come to the boil - what should we do about it?",
	[]string{"man-k50-kettle", "sb-114", "faq-vat-invoice", "man-x200-cleaning", "faq-hard-water"}, "man-k50-kettle"}

// TestKinPhrasal: v36 reads "cuts off" as the verb "cut off": its
// relative "switch off", a verb and its particle relating back, stands
// for "cut" as the phrase; "interrupt" (one way) and the phrase itself
// do not, nor the relatives of "cuts" read alone ("gash"). v35 reads
// "cuts" alone; v36 without a Phraser is v35.
func TestKinPhrasal(t *testing.T) {
	an := terms.New()
	g := NewExtractiveV36(an)
	g.UseThesaurus(cutOff)
	content := g.content(g33.q, g.classify(g33.q))
	cut := an.Terms("cuts")[0]
	if got := g.kin(g33.q, content)[cut]; !slices.Equal(got, []string{"switch off"}) {
		t.Errorf("v36 kin[%s] = %v, want [switch off]", cut, got)
	}
	v35 := NewExtractiveV35(an)
	v35.UseThesaurus(cutOff)
	want := map[string][]string{cut: an.Terms("gash")}
	if got := v35.kin(g33.q, content); !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("v35 kin = %v, want %v", got, want)
	}
	plain := NewExtractiveV36(an)
	plain.UseThesaurus(cutOff.kinThesaurus)
	if got := plain.kin(g33.q, content); !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("v36 without a Phraser: kin = %v, want v35's %v", got, want)
	}
}

// TestV36PhraseStandIn: with a thesaurus relating "cut off" and "switch
// off", the sentence of sb-114 writing "switch off" holds "cut" for v36
// (kinScore) and sb-114 mentions it (kinMentions, the accepted page's
// bearing), where v35 reads it as holding "boil" and "K50" only. The
// answer does not change: the loop's accepted page (the kettle manual)
// still opens, as round 37's v92 did, and the bulletin's instruction
// ("Update them to firmware 2.3 ...") holds no word of the question, so a
// stand-in cannot make it open (v35's typed-sentence rule).
func TestV36PhraseStandIn(t *testing.T) {
	an := terms.New()
	req := g33.request(t)
	v35 := NewExtractiveV35(an)
	v35.UseThesaurus(cutOff)
	g := NewExtractiveV36(an)
	g.UseThesaurus(cutOff)
	content := g.content(req.Question, g.classify(req.Question))
	kin := g.kin(req.Question, content)
	cut := an.Terms("cuts")[0]
	s := &sentence{text: "K50 kettles on firmware 2.1 may switch off before boiling.", own: map[string]bool{}}
	s35 := &sentence{text: s.text, own: map[string]bool{}}
	g.kinScore(kin, []*sentence{s}, content, []map[string]bool{{}})
	v35.kinScore(v35.kin(req.Question, content), []*sentence{s35}, content, []map[string]bool{{}})
	if !s.kown[cut] || s35.kown[cut] {
		t.Errorf("kinScore: %q holds %q through \"switch off\": v36 %v, v35 %v; want v36 alone", s.text, cut, s.kown[cut], s35.kown[cut])
	}
	m, gained := kinMentions(kin, content, g.mentions(req.Sources), g.sourcePhrases(req.Sources, kin))
	if !gained || !m[1][cut] || m[0][cut] {
		t.Errorf("kinMentions: gained %v, sb-114 holds %q: %v, the manual: %v; want sb-114 alone", gained, cut, m[1][cut], m[0][cut])
	}
	for _, gen := range []*Extractive{v35, g} {
		if text, docs := answerOf(t, gen, req); !slices.Equal(docs, []string{"man-k50-kettle"}) {
			t.Errorf("v%d with the accepted manual answers %q citing %v, want man-k50-kettle", gen.Version, text, docs)
		}
	}
}

// TestV36WordNet: WordNet (skipped without it) lists "cut off", "click
// off" and "cut out" as verbs, and v36 reads them in fresh3 g33, fresh5
// k26 and fresh12 v96 (design questions), but relates none of them back
// and forth with sb-114's "switch off": "cut off" stands as "disrupt" and
// "interrupt" (its first two senses), "click off" ("perform rapidly") and
// "cut out" ("delete", "form by cutting") have no relative relating back.
// The phrasal reading reaches none of the class (round 38).
func TestV36WordNet(t *testing.T) {
	wn, err := thesaurus.Open(thesaurus.DefaultDir)
	if err != nil {
		t.Skipf("no WordNet at %s: %v", thesaurus.DefaultDir, err)
	}
	an := terms.New()
	g := NewExtractiveV36(an)
	g.UseThesaurus(wn)
	for q, want := range map[string][]string{
		g33.q: an.Terms("disrupt interrupt"),
		"A customer says their K50 keeps clicking off before the water's actually boiled. What should we do about it?": nil,
		"We've had a K50 in that keeps cutting out before the water's boiled. How do we sort it?":                      nil,
	} {
		verb := strings.Fields(map[bool]string{true: "cut", false: "click"}[!strings.Contains(q, "click")])[0]
		if got := g.kin(q, g.content(q, g.classify(q)))[an.Terms(verb)[0]]; !slices.Equal(got, want) {
			t.Errorf("kin(%q)[%s] = %v, want %v", q, verb, got, want)
		}
	}
}
