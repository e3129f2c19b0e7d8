package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

func strategyNames(ss []Strategy) string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Name())
	}
	return strings.Join(out, ",")
}

// TestV5Model: the default rewriter is builtin:strategies-v5 with its
// strategies; UseV4 restores v4's strategies and id, and a switch off
// names the version it was taken from.
func TestV5Model(t *testing.T) {
	an := terms.New()
	lex := newLexicon(an, "X200 blender warranty")
	r := NewRewriter(an, lex)
	if r.Model() != router.BuiltinRewriteModel || RewriteModel != "builtin:strategies-v5" {
		t.Errorf("default model %q (RewriteModel %q), want builtin:strategies-v5", r.Model(), RewriteModel)
	}
	if got, want := strategyNames(r.Strategies), "spelling,translate,together,missing-terms,wider-k"; got != want {
		t.Errorf("v5 strategies %s, want %s", got, want)
	}
	r.Plain = false
	if r.Model() != "builtin:strategies-v5-noplain" {
		t.Errorf("v5 without Plain: %q", r.Model())
	}
	r.UseV4()
	r.Plain = true
	if r.Model() != router.BuiltinRewriteModelV4 {
		t.Errorf("after UseV4: %q, want %q", r.Model(), router.BuiltinRewriteModelV4)
	}
	if got, want := strategyNames(r.Strategies), "spelling,translate,missing-terms,feedback,best-hit-terms,drop-unknown,wider-k"; got != want {
		t.Errorf("v4 strategies %s, want %s", got, want)
	}
}

// togetherCorpus: the X300 Pro's specifications, its error codes, and a
// descaling page no first search for the question below would rank first
// (it holds the question's rarer words together).
var togetherCorpus = []Evidence{
	hollinLike[1], hollinLike[3],
	{ChunkID: "man-x300-care#0", Title: "X300 Pro care", Text: "Descale the X300 Pro vacuum pump every month with citric acid."},
}

func togetherSituation(t *testing.T, r *Rewriter, lex *lexicon, q string, ev []Evidence, groups ...string) *Situation {
	t.Helper()
	vocab := lex.Visible(groups)
	return &Situation{
		Request:  Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: groups},
		Vocab:    vocab,
		Question: q,
		Entities: Entities(r.an, q, vocab),
	}
}

// TestTogether: together proposes the question's words a visible chunk
// holds together when it holds more of the question than every retrieved
// chunk and was not retrieved; nothing once it was, nothing when the
// retrieved chunks hold as much, and nothing from a chunk the asker may
// not see (its words change nothing).
func TestTogether(t *testing.T) {
	an := terms.New()
	lex := &lexicon{}
	for _, e := range togetherCorpus {
		lex.add(an, []string{"public"}, e.Title+"\n"+e.Text)
	}
	r := NewRewriter(an, lex)
	q := "how often should I descale the pump on my X300 Pro"
	s := togetherSituation(t, r, lex, q, togetherCorpus[:2], "public")
	p, ok := together{}.Propose(context.Background(), r, s)
	if !ok || p.Query != "X300 Pro descale pump" {
		t.Fatalf("together = %+v (%v), want the query \"X300 Pro descale pump\"", p, ok)
	}
	if !strings.Contains(p.Why, "descale, pump") {
		t.Errorf("why %q does not name the words", p.Why)
	}
	// Retrieved: nothing holds more of the question.
	s = togetherSituation(t, r, lex, q, togetherCorpus, "public")
	if p, ok := (together{}).Propose(context.Background(), r, s); ok {
		t.Errorf("with the care page retrieved: %+v, want none", p)
	}
	// The same page for staff only: a public asker's search cannot find
	// it, and it must not be proposed for.
	hidden := &lexicon{}
	for i, e := range togetherCorpus {
		acl := []string{"public"}
		if i == 2 {
			acl = []string{"staff"}
		}
		hidden.add(an, acl, e.Title+"\n"+e.Text)
	}
	rh := NewRewriter(an, hidden)
	s = togetherSituation(t, rh, hidden, q, togetherCorpus[:2], "public")
	if p, ok := (together{}).Propose(context.Background(), rh, s); ok {
		t.Errorf("the care page hidden from the asker: %+v, want none", p)
	}
	s = togetherSituation(t, rh, hidden, q, togetherCorpus[:2], "public", "staff")
	if _, ok := (together{}).Propose(context.Background(), rh, s); !ok {
		t.Errorf("the care page visible to staff: no proposal")
	}
}

// TestV5Gates: v5 proposes missing-terms and wider-k only while a visible
// chunk holding as much of the question as the best retrieved one is
// still unjudged; v4 proposes them regardless.
func TestV5Gates(t *testing.T) {
	an := terms.New()
	lex := &lexicon{}
	for _, e := range togetherCorpus {
		lex.add(an, []string{"public"}, e.Title+"\n"+e.Text)
	}
	q := "how often should I descale the pump on my X300 Pro"
	for _, c := range []struct {
		v4        bool
		ev        []Evidence
		wantWider bool
	}{
		{false, togetherCorpus[:2], true}, // the care page unjudged
		{false, togetherCorpus, false},    // every chunk judged
		{true, togetherCorpus, true},      // v4
	} {
		r := NewRewriter(an, lex)
		if c.v4 {
			r.UseV4()
		}
		s := togetherSituation(t, r, lex, q, c.ev, "public")
		s.Best, s.Coverage, s.Missing = &c.ev[0], 0.5, []string{an.Terms("descale")[0]}
		_, wider := wider{}.Propose(context.Background(), r, s)
		_, missing := missingTerms{}.Propose(context.Background(), r, s)
		if wider != c.wantWider || missing != c.wantWider {
			t.Errorf("v4 %v, %d retrieved: wider-k %v, missing-terms %v, want %v", c.v4, len(c.ev), wider, missing, c.wantWider)
		}
	}
}

// TestV5NoRepeats: v5 proposes no query tried before (v4 puts it last, and
// the loop stops repeated_query on it): with every strategy's query tried,
// it proposes nothing, and the assessment's verdict ends the run.
func TestV5NoRepeats(t *testing.T) {
	b, _ := newTestAssessor()
	q := "vacum pump"
	b.Rewriter.Strategies = []Strategy{spelling{}}
	if got, _ := b.Rewriter.Rewrite(context.Background(), Request{Question: q, Query: q, Previous: []string{"Vacuum  PUMP"}, Groups: []string{"public"}}, 0); got != "" {
		t.Errorf("Rewrite = %q; with every strategy spent, want none", got)
	}
	b.Rewriter.UseV4()
	b.Rewriter.Strategies = []Strategy{spelling{}}
	if got, _ := b.Rewriter.Rewrite(context.Background(), Request{Question: q, Query: q, Previous: []string{"Vacuum  PUMP"}, Groups: []string{"public"}}, 0); got != "vacuum pump" {
		t.Errorf("v4: Rewrite = %q; want the repeat", got)
	}
}

// TestV5TranslatesOnce: v5's translate proposes nothing when a query the
// run searched carried every substitute it would put (the assessor has
// read the question in those words); a new substitute is proposed.
func TestV5TranslatesOnce(t *testing.T) {
	an := terms.New()
	lex := newLexicon(an, "Keep your proof of purchase.", "The warranty covers the motor.")
	th := senseThesaurus{
		fakeThesaurus: fakeThesaurus{"bought": {"purchase"}, "purchase": {"buy"}, "guarantee": {"warranty"}, "warranty": {"guarantee"}},
		bases:         map[string][]string{"bought": {"bought", "buy"}},
	}
	q := "I bought it last year, does the guarantee still hold"
	syn := func(w string) synonym { return synonym{Word: w, Term: an.Terms(w)[0]} }
	situation := func(previous ...string) *Situation {
		return &Situation{
			Request: Request{Question: q, Query: q, Previous: previous, K: 5, Groups: []string{"public"}},
			Vocab:   lex.Visible([]string{"public"}), Question: q,
			Synonyms: map[string][]synonym{an.Terms("bought")[0]: {syn("purchase")}, an.Terms("guarantee")[0]: {syn("warranty")}},
		}
	}
	for _, c := range []struct {
		v4       bool
		previous []string
		want     bool
	}{
		{false, nil, true},
		{false, []string{"I purchase it last year, does the warranty still hold"}, false},
		{false, []string{"I purchase it last year, does the guarantee still hold"}, true}, // warranty is new
		{true, []string{"I purchase it last year, does the warranty still hold"}, true},
	} {
		r := NewRewriter(an, lex)
		r.Thesaurus = th
		if c.v4 {
			r.UseV4()
		}
		p, ok := translate{}.Propose(context.Background(), r, situation(c.previous...))
		if ok != c.want {
			t.Errorf("v4 %v, previous %q: translate %+v (%v), want %v", c.v4, c.previous, p, ok, c.want)
		}
	}
}

// TestV5HoldingsOncePerReading: with v5 one assessment asks the backend
// which chunks hold the question's terms twice at most — once for the
// assessor's visible-chunk check, once for the rewriter's — and the as-typed
// pass (judge only) asks nothing (TestAsTypedPassJudgesOnly counts v4's one).
func TestV5HoldingsOncePerReading(t *testing.T) {
	b, _, calls := countingAssessor()
	q := "how often should I descael the K50 with vinegar"
	res, err := b.Assess(context.Background(), Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: hollinLike[:2]})
	if err != nil {
		t.Fatal(err)
	}
	if res.Assessment.Sufficient || res.Assessment.Rewrite == "" {
		t.Fatalf("the test needs a refusal with a rewrite: %+v", res.Assessment)
	}
	if *calls < 1 || *calls > 2 {
		t.Errorf("Holdings called %d times for one assessment, want 1 or 2", *calls)
	}
}

// TestV5SpellsLongStemsOnly: without a thesaurus, v5 measures the
// spelling rules on the stem the distance is taken between: a stem of
// four letters changes by a transposition, not a substitution, into a
// term as long, and loses no letter ("tubing", "tube", is not "tub";
// rv20's probe), and two edits need a stem of six — so English words whose stems are near a corpus word
// ("packed" → "back", "swapping" → "seal") stay as typed, while typos
// are still corrected. v4 corrected them.
func TestV5SpellsLongStemsOnly(t *testing.T) {
	an := terms.New()
	lex := newLexicon(an, "Push the jar back until it clicks.", "Check the date on the receipt.", "Replace the lid seal.",
		"Allow an hour.", "Rinse the tub.", "The display shows E4.", "Boiling takes four minutes in the kettle.", "Warranty terms.", "The motor is covered.")
	vocab := lex.Visible([]string{"public"})
	r := NewRewriter(an, lex)
	for _, c := range []struct{ typed, v5, v4 string }{
		{"packed", "packed", "back"},
		{"rated", "rated", "date"},
		{"sells", "sells", "seal"},
		{"house", "house", "hour"},
		{"swapping", "swapping", "seal"},
		{"shipping", "shipping", "shows"},
		{"tubing", "tubing", "tub"},
		{"bioling", "boiling", "boiling"},
		{"kettel", "kettle", "kettle"},
		{"warrenty", "warranty", "warranty"},
		{"mintues", "minutes", "minutes"},
		{"motr", "motor", "motor"},
	} {
		for _, v := range []struct {
			v4   bool
			want string
		}{{false, c.v5}, {true, c.v4}} {
			r := r
			if v.v4 {
				r = NewRewriter(an, lex)
				r.UseV4()
			}
			got, _ := r.Spell(context.Background(), c.typed, vocab, nil, wire.Filters{})
			if got != v.want {
				t.Errorf("v4 %v: Spell(%q) = %q, want %q", v.v4, c.typed, got, v.want)
			}
		}
	}
}
