package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
	"github.com/assay-rag/assay/router"
)

// WordNet is a BaseFormer: the translate strategy checks its relations.
var _ BaseFormer = (*thesaurus.WordNet)(nil)

// senseThesaurus is a fakeThesaurus that also knows base forms and sense
// counts (a BaseFormer, as WordNet is).
type senseThesaurus struct {
	fakeThesaurus
	bases  map[string][]string
	senses map[string]int
}

func (s senseThesaurus) BaseForms(w string) []string { return s.bases[strings.ToLower(w)] }
func (s senseThesaurus) Senses(w string) int {
	if n, ok := s.senses[strings.ToLower(w)]; ok {
		return n
	}
	return 1
}

// TestTranslateMutual: builtin:strategies-v3's translate puts a question
// word only into relatives it can stand on — another form of the word, or
// a word the thesaurus relates back to it (or to a base form of it) when
// the question word has few senses, however many the relative has — and
// builtin:strategies-v2 (Mutual off) into any.
func TestTranslateMutual(t *testing.T) {
	an := terms.New()
	lex := newLexicon(an, "Keep your proof of purchase.", "Replace the blade with daily use; it can be used again.",
		"Never put the motor base in water.", "Track your repair online.", "The repair centre will move.", "The motor coupling kit is free.")
	th := senseThesaurus{
		fakeThesaurus: fakeThesaurus{
			"bought":     {"purchase", "buyer"},
			"purchase":   {"buy", "purchaser"},
			"older":      {"used", "old"},
			"used":       {"use", "secondhand"},
			"set":        {"put", "place"},
			"put":        {"set", "place"},
			"tracker":    {"track"},
			"track":      {"path", "racetrack"},
			"relocation": {"move"},
			"move":       {"relocation", "go"},
		},
		bases:  map[string][]string{"bought": {"bought", "buy"}, "older": {"older", "old"}, "set": {"set"}, "put": {"put"}, "tracker": {"tracker"}},
		senses: map[string]int{"set": 45, "put": 10, "move": 40},
	}
	q := "when I bought the older tracker after the relocation, did the set cost much"
	syn := func(w string) synonym { return synonym{Word: w, Term: an.Terms(w)[0]} }
	s := &Situation{
		Request: Request{Question: q, Query: q, K: 5, Groups: []string{"public"}},
		Vocab:   lex.Visible([]string{"public"}), Question: q,
		Synonyms: map[string][]synonym{
			an.Terms("bought")[0]:     {syn("purchase")},
			an.Terms("older")[0]:      {syn("used")},
			an.Terms("set")[0]:        {syn("put")},
			an.Terms("tracker")[0]:    {syn("track")},
			an.Terms("relocation")[0]: {syn("move")},
		},
	}
	for _, c := range []struct {
		mutual     bool
		model, why string
	}{
		{true, "builtin:strategies-v3", "in the words your documents use: bought→purchase, tracker→track, relocation→move"},
		{false, "builtin:strategies-v2", "in the words your documents use: bought→purchase, older→used, tracker→track, relocation→move, set→put"},
	} {
		r := NewRewriter(an, lex)
		r.Thesaurus, r.Mutual = th, c.mutual
		if r.Model() != c.model {
			t.Errorf("Mutual %v: model %q, want %q", c.mutual, r.Model(), c.model)
		}
		p, ok := translate{}.Propose(context.Background(), r, s)
		if !ok || p.Why != c.why || !p.Rejudge {
			t.Errorf("Mutual %v: translate %+v (%v), want why %q, rejudged", c.mutual, p, ok, c.why)
		}
	}
	if RewriteModel != router.BuiltinRewriteModel || NewRewriter(an, lex).Model() != router.BuiltinRewriteModel {
		t.Errorf("the default rewriter is %q, the router routes to %q", NewRewriter(an, lex).Model(), router.BuiltinRewriteModel)
	}
	// Every relation one way only, or through a word of many senses:
	// nothing to translate.
	r := NewRewriter(an, lex)
	r.Thesaurus = th
	only := &Situation{Request: s.Request, Vocab: s.Vocab, Question: q, Synonyms: map[string][]synonym{
		an.Terms("older")[0]: {syn("used")}, an.Terms("set")[0]: {syn("put")},
	}}
	if p, ok := (translate{}).Propose(context.Background(), r, only); ok {
		t.Errorf("one-way and many-sense relatives only: translate proposed %+v, want nothing", p)
	}
	// Without a thesaurus to check against, nothing is trusted.
	r.Thesaurus = nil
	if p, ok := (translate{}).Propose(context.Background(), r, s); ok {
		t.Errorf("no thesaurus: translate proposed %+v, want nothing", p)
	}
}

// TestTranslatePossessive: builtin:strategies-v3 looks a question word up
// in the thesaurus without its possessive ending or the quotes around it
// ("relocation's", "'bought'"), as it does the bare word, and the rewrite
// keeps the bare word; and every proposal names the rewriter that made it
// (Proposal.Model, which the trace's rewrite route reports).
func TestTranslatePossessive(t *testing.T) {
	an := terms.New()
	lex := newLexicon(an, "Keep your proof of purchase.", "The repair centre will move.")
	th := senseThesaurus{
		fakeThesaurus: fakeThesaurus{
			"bought":     {"purchase", "buyer"},
			"purchase":   {"buy", "purchaser"},
			"relocation": {"move"},
			"move":       {"relocation", "go"},
		},
		bases:  map[string][]string{"bought": {"bought", "buy"}},
		senses: map[string]int{"move": 40},
	}
	syn := func(w string) synonym { return synonym{Word: w, Term: an.Terms(w)[0]} }
	for _, q := range []string{
		"what did the relocation's notice say about what I bought",
		"what did the \"relocation\" notice say about what I 'bought'?",
		"what did the relocation’s notice say about what I bought",
	} {
		s := &Situation{
			Request: Request{Question: q, Query: q, K: 5, Groups: []string{"public"}},
			Vocab:   lex.Visible([]string{"public"}), Question: q,
			Synonyms: map[string][]synonym{
				an.Terms("bought")[0]:     {syn("purchase")},
				an.Terms("relocation")[0]: {syn("move")},
			},
		}
		for _, mutual := range []bool{true, false} {
			r := NewRewriter(an, lex)
			r.Thesaurus, r.Mutual = th, mutual
			p, ok := translate{}.Propose(context.Background(), r, s)
			if want := "in the words your documents use: relocation→move, bought→purchase"; !ok || p.Why != want {
				t.Errorf("%q, Mutual %v: translate %+v (%v), want why %q", q, mutual, p, ok, want)
			}
			ps := r.Propose(context.Background(), s)
			if len(ps) == 0 {
				t.Errorf("%q, Mutual %v: no proposals", q, mutual)
			}
			for _, p := range ps {
				if p.Model != r.Model() {
					t.Errorf("%q, Mutual %v: %s proposal names %q, want %q", q, mutual, p.Strategy, p.Model, r.Model())
				}
			}
		}
	}
}
