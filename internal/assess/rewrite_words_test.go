package assess

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
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
	got, fixed := r.Spell(context.Background(), "descale the kettel", vocab, nil, wire.Filters{})
	if got != "descale the kettle" || strings.Join(fixed, ",") != "kettel→kettle" {
		t.Errorf("Spell = %q (%v), want %q: the visible texts' word, not the index term", got, fixed, "descale the kettle")
	}
	if ws := vocab.(SpellingVocabulary).Spellings(context.Background(), "kettl", wire.Filters{}); strings.Join(ws, ",") != "kettle" {
		t.Errorf("Spellings(kettl) as public = %v, want only the public texts' [kettle]", ws)
	}
	// A vocabulary that cannot spell keeps the old fallback (the typed
	// word's ending on the term, else the term).
	if got, _ := r.Spell(context.Background(), "descale the kettel", plainVocab{vocab}, nil, wire.Filters{}); got != "descale the kettl" {
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
		p, ok := st.Propose(context.Background(), r, s)
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

var _ SpellingVocabulary = spellCounter{}

func (v spellCounter) Spellings(ctx context.Context, term string, f wire.Filters) []string {
	v.calls[term]++
	return v.Vocabulary.(SpellingVocabulary).Spellings(ctx, term, f)
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
	got, fixed := r.Spell(context.Background(), "kettel kettel "+strings.Join(typos, " "), v, nil, wire.Filters{})
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

// spellCall is what a Spellings call was asked under: the run named by
// the context (runKey) and the filters.
type spellCall struct {
	run any
	f   wire.Filters
}

type runKey struct{}

// spellRecorder records the Spellings calls made of a SpellingVocabulary.
type spellRecorder struct {
	Vocabulary
	calls *[]spellCall
}

func (v spellRecorder) Spellings(ctx context.Context, term string, f wire.Filters) []string {
	*v.calls = append(*v.calls, spellCall{ctx.Value(runKey{}), f})
	return v.Vocabulary.(SpellingVocabulary).Spellings(ctx, term, f)
}

// recordingLexicon hands out spellRecorders.
type recordingLexicon struct {
	*lexicon
	calls *[]spellCall
}

func (l recordingLexicon) Visible(groups []string) Vocabulary {
	return spellRecorder{l.lexicon.Visible(groups), l.calls}
}

// TestSpellingsAskedUnderTheRun: the assessor and its spelling strategy
// ask the visible chunks' spellings under the run's context (its deadline
// and cancellation) and with the run's filters, the chunks a search could
// return.
func TestSpellingsAskedUnderTheRun(t *testing.T) {
	an := terms.New()
	var calls []spellCall
	lex := recordingLexicon{newLexicon(an, "Descale the kettle monthly.", "The filter needs a rinse."), &calls}
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	q := "how often should I descale the kettel?"
	f := wire.Filters{Products: []string{"K50"}}
	ctx := context.WithValue(context.Background(), runKey{}, "run-1")
	res, err := b.Assess(ctx, Request{Question: q, Query: q, Groups: []string{"public"}, Filters: f})
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) < 2 {
		t.Fatalf("%d Spellings calls (proposals %v), want the question's and the spelling strategy's", len(calls), res.Proposals)
	}
	for i, c := range calls {
		if c.run != "run-1" || !slices.Equal(c.f.Products, f.Products) {
			t.Errorf("Spellings call %d asked under run %v with filters %+v, want run-1 with %+v", i, c.run, c.f, f)
		}
	}
}
