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
