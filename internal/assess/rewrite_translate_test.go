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
		mutual, v4 bool
		model, why string
	}{
		{true, true, "builtin:strategies-v4", "in the words your documents use: bought→purchase, tracker→track, relocation→move"},
		{true, false, "builtin:strategies-v3", "in the words your documents use: bought→purchase, tracker→track, relocation→move"},
		{false, false, "builtin:strategies-v2", "in the words your documents use: bought→purchase, older→used, tracker→track, relocation→move, set→put"},
	} {
		r := NewRewriter(an, lex)
		r.UseV4() // the switches below name v4, v3 and v2
		r.Thesaurus, r.Mutual, r.Common, r.Plain = th, c.mutual, c.v4, c.v4
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

// commonThesaurus is a senseThesaurus that also relates words through
// their common senses only (a CommonRelater, as WordNet is).
type commonThesaurus struct {
	senseThesaurus
	common fakeThesaurus
}

func (c commonThesaurus) CommonRelated(w string) []string { return c.common.Related(w) }

var _ CommonRelater = (*thesaurus.WordNet)(nil)

// TestTranslateCommon: builtin:strategies-v4's translate puts a question
// word only into a substitute that relates back to it through the
// substitute's common senses: "total" is not put into "number", which
// relates to it only through a rare sense ("the bills number in the
// thousands"), while "cost" still becomes "price"; v3 (Common off) puts
// both. The model ids say which ran.
func TestTranslateCommon(t *testing.T) {
	an := terms.New()
	lex := newLexicon(an, "The batch number is printed on the base.", "Internal cost prices: jar £6.10.")
	th := commonThesaurus{
		senseThesaurus: senseThesaurus{fakeThesaurus: fakeThesaurus{
			"total":  {"number"},
			"number": {"figure", "total"},
			"cost":   {"price"},
			"price":  {"cost", "monetary value"},
		}},
		common: fakeThesaurus{"number": {"figure"}, "price": {"cost", "monetary value"}},
	}
	q := "what has the recall cost us in total so far"
	syn := func(w string) synonym { return synonym{Word: w, Term: an.Terms(w)[0]} }
	s := &Situation{
		Request: Request{Question: q, Query: q, K: 5, Groups: []string{"public"}},
		Vocab:   lex.Visible([]string{"public"}), Question: q,
		Synonyms: map[string][]synonym{an.Terms("total")[0]: {syn("number")}, an.Terms("cost")[0]: {syn("price")}},
	}
	for _, c := range []struct {
		common     bool
		model, why string
	}{
		{true, "builtin:strategies-v4-noplain", "in the words your documents use: cost→price"},
		{false, "builtin:strategies-v3", "in the words your documents use: cost→price, total→number"},
	} {
		r := NewRewriter(an, lex)
		r.UseV4() // the switches below name v4 and v3
		r.Thesaurus, r.Common, r.Plain = th, c.common, false
		if r.Model() != c.model {
			t.Errorf("Common %v: model %q, want %q", c.common, r.Model(), c.model)
		}
		p, ok := translate{}.Propose(context.Background(), r, s)
		if !ok || p.Why != c.why {
			t.Errorf("Common %v: translate %+v (%v), want why %q", c.common, p, ok, c.why)
		}
	}
	// Only a rare-sense relative: nothing to translate.
	r := NewRewriter(an, lex)
	r.Thesaurus = th
	only := &Situation{Request: s.Request, Vocab: s.Vocab, Question: q, Synonyms: map[string][]synonym{an.Terms("total")[0]: {syn("number")}}}
	if p, ok := (translate{}).Propose(context.Background(), r, only); ok {
		t.Errorf("a rare-sense relative only: translate proposed %+v, want nothing", p)
	}
}

// TestMissingTermsPlain: builtin:strategies-v4's missing-terms writes the
// words the best hit lacks as translate does, without the quotes around
// them and the possessive ending ("customer's" → "customer", "'descaler'"
// → "descaler"); v3 (Plain off) kept both.
func TestMissingTermsPlain(t *testing.T) {
	an := terms.New()
	lex := newLexicon(an, "The X200 descaler is sold to each customer.", "X200 blade assembly.")
	q := "does the X200 customer's 'descaler' come free?"
	s := &Situation{
		Request: Request{Question: q, Query: q, K: 5, Groups: []string{"public"}},
		Vocab:   lex.Visible([]string{"public"}), Question: q,
		Best:     &Evidence{ChunkID: "b", Title: "X200 blade assembly", Text: "X200 blade assembly."},
		Entities: []Entity{{Text: "X200"}},
		Missing:  []string{an.Terms("customer")[0], an.Terms("descaler")[0]},
	}
	for _, c := range []struct {
		plain bool
		want  string
	}{{true, "X200 customer descaler"}, {false, "X200 customer's 'descaler'"}} {
		r := NewRewriter(an, lex)
		r.Plain = c.plain
		p, ok := missingTerms{}.Propose(context.Background(), r, s)
		if !ok || p.Query != c.want {
			t.Errorf("Plain %v: missing-terms %+v (%v), want query %q", c.plain, p, ok, c.want)
		}
	}
}
