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
		"K50 kettle: descale it monthly with citric acid.",
		"Descale the K50 kettle monthly; citric acid works best.",
		"The kettle's filter: descale monthly.",
		"X200 blender jar",
	}
	lex := newLexicon(an, texts...)
	r := NewRewriter(an, lex)
	var ev []Evidence
	for i, tx := range texts[:3] {
		ev = append(ev, Evidence{ChunkID: string(rune('a' + i)), Title: "Kettle care", Text: tx})
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
		if strings.Contains(p.Query, "descal ") || strings.HasSuffix(p.Query, "descal") || strings.Contains(p.Why, "descal,") || strings.HasSuffix(p.Why, "descal") {
			t.Errorf("%s: query %q, why %q: the stem %q, not the word %q", st.Name(), p.Query, p.Why, "descal", "descale")
		}
	}
}
