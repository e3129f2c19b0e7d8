package assess

import (
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// plainVocab hides a vocabulary's Spellings: a backend that cannot spell.
type plainVocab struct{ Vocabulary }

// TestSpellAsVisibleWord: with no thesaurus and no evidence holding the
// word, a correction is still a word — the one the principal's visible
// chunks spell the term with ("kettle"), never the index term ("kettl");
// only words of chunks the principal may see are used.
func TestSpellAsVisibleWord(t *testing.T) {
	an := terms.New()
	lex := newLexicon(an, "Descale the kettle every month.", "A kettle boils water.")
	lex.add(an, []string{"staff"}, "Kettling the kettles: staff notes.")
	r := NewRewriter(an, lex)
	vocab := lex.Visible([]string{"public"})
	got, fixed := r.Spell("descale the kettel", vocab, nil)
	if got != "descale the kettle" || strings.Join(fixed, ",") != "kettel→kettle" {
		t.Errorf("Spell = %q (%v), want %q: the visible texts' word, not the index term", got, fixed, "descale the kettle")
	}
	if ws := vocab.(SpellingVocabulary).Spellings("kettl"); strings.Join(ws, ",") != "kettle" {
		t.Errorf("Spellings(kettl) as public = %v, want only the public texts' [kettle]", ws)
	}
	// A vocabulary that cannot spell keeps the old fallback (the typed
	// word's ending on the term, else the term).
	if got, _ := r.Spell("descale the kettel", plainVocab{vocab}, nil); got != "descale the kettl" {
		t.Errorf("without Spellings, Spell = %q, want the fallback %q", got, "descale the kettl")
	}
}

// TestFeedbackWords: the feedback and best-hit strategies add the top
// hits' words as those hits spell them ("descale", "monthly"), not their
// index terms ("descal"), in the query and in the reason the trace shows.
func TestFeedbackWords(t *testing.T) {
	an := terms.New()
	texts := []string{
		"K50 kettle: descale it with citric acid; spares at parts.hollin.example.",
		"Descale the K50 kettle; citric acid works best. See parts.hollin.example",
		"The kettle's filter: descale it. Order at parts.hollin.example.",
		"X200 blender jar: citric acid stains", "X300 Pro pump: acid", "citric acid is sold in shops",
	}
	lex := newLexicon(an, texts...)
	r := NewRewriter(an, lex)
	var ev []Evidence
	for i, tx := range texts[:3] {
		ev = append(ev, Evidence{ChunkID: string(rune('a' + i)), Title: "K50", Text: tx})
	}
	req := Request{Question: "how do I clean the kettle", Query: "how do I clean the kettle", Groups: []string{"public"}, Evidence: ev, K: 5}
	vocab := lex.Visible(req.Groups)
	s := &Situation{Request: req, Vocab: vocab, Question: req.Question, Coverage: 0.5, Best: &ev[0]}
	for _, st := range []Strategy{feedback{}, bestHit{}} {
		p, ok := st.Propose(r, s)
		if !ok {
			t.Fatalf("%s proposed nothing", st.Name())
		}
		for _, w := range strings.Fields(strings.TrimPrefix(p.Query, req.Question)) {
			if ts := an.Terms(w); len(ts) == 1 && ts[0] != w && !strings.Contains(strings.ToLower(strings.Join(texts, " ")), w) {
				t.Errorf("%s query %q adds %q, an index term no text spells", st.Name(), p.Query, w)
			}
		}
		for _, stem := range []string{"descal", "parts.hollin.exampl"} {
			if strings.Contains(p.Query, stem+" ") || strings.HasSuffix(p.Query, stem) || strings.Contains(p.Why, stem+",") || strings.HasSuffix(p.Why, stem) {
				t.Errorf("%s: query %q, why %q: the index term %q, not a word", st.Name(), p.Query, p.Why, stem)
			}
		}
	}
	// A term the analyzer keeps whole is spelt whole, without the
	// punctuation around it.
	if ts := an.Terms("parts.hollin.example"); len(ts) == 1 {
		got := r.surfaceWords([]Evidence{{Text: "Order at parts.hollin.example."}})[ts[0]]
		if strings.Join(got, ",") != "parts.hollin.example" {
			t.Errorf("surfaceWords spells %q as %v, want [parts.hollin.example]", ts[0], got)
		}
	} else {
		t.Fatalf("the analyzer splits parts.hollin.example into %v; this test expects one term", ts)
	}
}

// spellCounter counts the Spellings calls made of a SpellingVocabulary.
type spellCounter struct {
	Vocabulary
	calls map[string]int
}

func (v spellCounter) Spellings(term string) []string {
	v.calls[term]++
	return v.Vocabulary.(SpellingVocabulary).Spellings(term)
}

// TestSpellLookupsBounded: Spell asks the vocabulary for a term's words
// once per term, and at most maxSpellingLookups times however many typos
// a question holds; the corrections past the bound are still words
// spelt another way, never missing.
func TestSpellLookupsBounded(t *testing.T) {
	an := terms.New()
	words := []string{"kettle", "filter", "blender", "warranty", "battery", "charger", "cable", "toaster", "heater", "speaker", "monitor", "printer"}
	typos := []string{"kettel", "filtre", "blendre", "warrenty", "batttery", "chargre", "cabel", "toastre", "heatre", "speakre", "monitre", "printre"}
	lex := newLexicon(an, "The "+strings.Join(words, ", the ")+".")
	r := NewRewriter(an, lex)
	v := spellCounter{lex.Visible([]string{"public"}), map[string]int{}}
	got, fixed := r.Spell("kettel kettel "+strings.Join(typos, " "), v, nil)
	total := 0
	for term, n := range v.calls {
		total += n
		if n > 1 {
			t.Errorf("Spellings(%q) asked %d times, want once", term, n)
		}
	}
	if total > maxSpellingLookups {
		t.Errorf("Spell made %d Spellings calls, want at most %d", total, maxSpellingLookups)
	}
	if len(fixed) < len(typos) {
		t.Errorf("Spell corrected %d of %d typos (%v): the bound must not drop corrections", len(fixed), len(typos)+1, fixed)
	}
	if !strings.HasPrefix(got, "kettle kettle ") {
		t.Errorf("Spell = %q, want the repeated typo corrected each time", got)
	}
}
