package assess

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// lexicon is an in-memory Lexicon over a handful of chunk texts, analyzed
// the way the index analyzes them, each visible to its ACL groups.
type lexicon struct {
	docs []lexDoc
	an   *terms.Analyzer
}

type lexDoc struct {
	acl   []string
	terms map[string]bool
	text  string
}

func newLexicon(an *terms.Analyzer, texts ...string) *lexicon {
	l := &lexicon{}
	for _, t := range texts {
		l.add(an, []string{"public"}, t)
	}
	return l
}

func (l *lexicon) add(an *terms.Analyzer, acl []string, text string) {
	l.docs = append(l.docs, lexDoc{acl: acl, terms: an.Set(text), text: text})
	l.an = an
}

func (l *lexicon) Visible(groups []string) Vocabulary {
	v := &lexVocab{df: map[string]int{}, an: l.an}
	for _, d := range l.docs {
		if corpus.Visible(d.acl, groups) {
			v.n++
			v.sets = append(v.sets, d.terms)
			v.texts = append(v.texts, d.text)
			for t := range d.terms {
				v.df[t]++
			}
		}
	}
	return v
}

func (l *lexicon) EachTerm(fn func(string, int)) {
	for t, df := range l.Visible([]string{"public", "staff", "partners", "finance"}).(*lexVocab).df {
		fn(t, df)
	}
}

var (
	_ SpellingVocabulary = (*lexVocab)(nil)
	_ HoldingVocabulary  = (*lexVocab)(nil)
	_ TogetherVocabulary = (*lexVocab)(nil)
	_ NamingVocabulary   = (*lexVocab)(nil)
)

type lexVocab struct {
	df    map[string]int
	n     int
	sets  []map[string]bool
	texts []string
	an    *terms.Analyzer
}

// Spellings makes lexVocab a SpellingVocabulary: the words of the
// visible texts that analyze to term, in order of first use (the test
// texts have no metadata: the filters pass them all).
func (v *lexVocab) Spellings(_ context.Context, term string, _ wire.Filters) []string {
	var out []string
	for _, text := range v.texts {
		for _, w := range SurfaceWords(text) {
			if ts := v.an.Terms(w); len(ts) == 1 && ts[0] == term && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// Naming makes lexVocab a NamingVocabulary: the title and text of each
// of the first five visible texts holding term.
func (v *lexVocab) Naming(_ context.Context, term string, _ wire.Filters) ([]string, error) {
	var out []string
	for i, set := range v.sets {
		if set[term] && len(out) < 10 {
			title, text, _ := strings.Cut(v.texts[i], "\n")
			out = append(out, title, text)
		}
	}
	return out, nil
}

func (v *lexVocab) DocFreq(t string) int { return v.df[t] }
func (v *lexVocab) Len() int             { return v.n }

// Holdings makes lexVocab a HoldingVocabulary.
func (v *lexVocab) Holdings(_ context.Context, ts []string, _ wire.Filters) (map[uint64]int, error) {
	out := map[uint64]int{}
	for _, set := range v.sets {
		var m uint64
		for i, t := range ts {
			if set[t] {
				m |= 1 << i
			}
		}
		if m != 0 {
			out[m]++
		}
	}
	return out, nil
}

// Together makes lexVocab a TogetherVocabulary (Builtin.Gate's check):
// whether a visible text holds every term of all and one of anyOf.
func (v *lexVocab) Together(_ context.Context, all, anyOf []string, _ wire.Filters) (bool, error) {
	for _, set := range v.sets {
		if !slices.ContainsFunc(all, func(t string) bool { return !set[t] }) && slices.ContainsFunc(anyOf, func(t string) bool { return set[t] }) {
			return true, nil
		}
	}
	return false, nil
}

var hollinLike = []Evidence{
	{ChunkID: "pol-warranty-2026#0", Title: "Warranty terms (2026)", Text: "Every Hollin appliance has a 2-year warranty from the date of purchase. Blender motors on the X200 and X300 Pro are covered for 5 years."},
	{ChunkID: "man-x300-specs#0", Title: "X300 Pro Blender specifications", Text: "The X300 Pro blender has a 1,500 W motor, a vacuum blending mode and ten speeds."},
	{ChunkID: "man-k50-kettle#0", Title: "K50 Smart Kettle", Text: "The K50 smart kettle boils 1.7 litres in about four minutes. Descale it once a month with citric acid."},
	{ChunkID: "man-x300-errors#0", Title: "X300 Pro error codes", Text: "E4 means the vacuum lid seal is loose. E12 means the vacuum pump has failed: contact Hollin support."},
	{ChunkID: "faq-repair#0", Title: "Tracking a repair", Text: "We email a tracking link when the courier collects your appliance."},
}

func newTestAssessor() (*Builtin, *lexicon) { return assessorOver(hollinLike) }

// assessorOver is the builtin assessor, with a rewriter, over a corpus of
// the chunks ev, all public.
func assessorOver(ev []Evidence) (*Builtin, *lexicon) {
	an := terms.New()
	lex := lexiconOf(an, ev)
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	return b, lex
}

func TestBuiltinAssess(t *testing.T) {
	b, _ := newTestAssessor()
	b.Rewriter.UseV4() // the rewrites below are v4's (v5: rewrite_v5_test.go)
	tests := []struct {
		name       string
		question   string
		evidence   []Evidence
		sufficient bool
		minScore   float64
		maxScore   float64
		rewrite    string // substring; "-" means no rewrite
	}{
		{"answered by one chunk", "how many years is the X300 Pro motor covered for", hollinLike[:2], true, 0.99, 1, "-"},
		{"no question word in corpus", "what is the capital of Peru", nil, false, 0, 0, "-"},
		{"covers most but not the specific term, never together", "how do I descale the X300 Pro", hollinLike[1:2], false, 0.3, 0.8, "-"},
		{"covers most but not the specific term", "how do I descale the K50", hollinLike[1:2], false, 0, 0.1, "K50 descale"},
		{"another entity of the same kind", "how many speeds does the X400 have", hollinLike[1:2], false, 0, 0, "-"},
		{"entity covered by a weaker chunk only", "what does E12 mean on the X300 Pro", []Evidence{hollinLike[1], hollinLike[3]}, true, 0.99, 1, "-"},
		{"no evidence, misspelt", "how many yeers is the X300 Pro motr covered for", nil, false, 0, 0, "motor"},
		{"partial evidence gets feedback terms", "vacuum blender warranty", []Evidence{hollinLike[1], hollinLike[3]}, false, 0.3, 0.95, "vacuum blender warranty "},
		{"partial evidence, no chunk would suffice", "vacuum blender descale", []Evidence{hollinLike[1], hollinLike[3]}, false, 0.3, 0.95, "-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := b.Assess(context.Background(), Request{Question: tt.question, Query: tt.question, Evidence: tt.evidence, Groups: []string{"public"}})
			if err != nil {
				t.Fatal(err)
			}
			a := res.Assessment
			if err := a.Check(); err != nil {
				t.Errorf("assessment fails its own check: %v", err)
			}
			if a.Sufficient != tt.sufficient || a.Score < tt.minScore || a.Score > tt.maxScore {
				t.Errorf("Assess(%q) = %+v; want sufficient=%v, score in [%v, %v]", tt.question, a, tt.sufficient, tt.minScore, tt.maxScore)
			}
			if tt.rewrite == "-" && a.Rewrite != "" || tt.rewrite != "-" && !strings.Contains(a.Rewrite, tt.rewrite) {
				t.Errorf("Assess(%q).Rewrite = %q, want %q", tt.question, a.Rewrite, tt.rewrite)
			}
			if a.Reason == "" || res.Usage.Model != BuiltinModel {
				t.Errorf("Assess(%q): reason %q, model %q", tt.question, a.Reason, res.Usage.Model)
			}
		})
	}
}

func TestRewriterSpelling(t *testing.T) {
	b, _ := newTestAssessor()
	b.Rewriter.Strategies = []Strategy{spelling{}}
	tests := []struct {
		query, want string
	}{
		{"kettel descale", "kettle descale"},                   // dropped letter in a long word, spelt as the visible texts spell it
		{"vacum pump", "vacuum pump"},                          // inserted letter
		{"waranty for the blendr", "warranty for the blender"}, // words, not stems ("warranti")
		{"can I put it in the sink", ""},                       // "sink" → "link" is one substitution in a four-letter word: refused
		{"capital of Peru", ""},                                // "peru" must not shrink to "per"
		{"does the X900 have GPS", ""},                         // codes with digits are never corrected
		{"blender motor", ""},                                  // nothing unknown
	}
	for _, tt := range tests {
		got, _ := b.Rewriter.Rewrite(context.Background(), Request{Question: tt.query, Query: tt.query, Groups: []string{"public"}}, 0)
		if got != tt.want {
			t.Errorf("Rewrite(%q) = %q, want %q", tt.query, got, tt.want)
		}
	}
}

// TestSpellKeepsFrame: the words that frame a question are English, not
// the corpus's, and are never corrected into a corpus word; its content
// words still are.
func TestSpellKeepsFrame(t *testing.T) {
	an := terms.New()
	lex := newLexicon(an, "Send a deletion request by email.", "Descale the kettle every month.")
	r := NewRewriter(an, lex)
	vocab := lex.Visible([]string{"public"})
	for _, tt := range []struct{ text, want string }{
		{"how frequently should I descale the kettel", "how frequently should I descale the kettle"},
		{"can you tell me how frequently to descale", "can you tell me how frequently to descale"},
		{"a deletion requst", "a deletion request"}, // a content word is
	} {
		if got, _ := r.Spell(context.Background(), tt.text, vocab, nil, wire.Filters{}); got != tt.want {
			t.Errorf("Spell(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestSpellWords: a correction is a word the visible texts use, not an
// index term (a stem), and an English word is never corrected into a
// corpus word, whatever the visible corpus lacks.
func TestSpellWords(t *testing.T) {
	an := terms.New()
	lex := newLexicon(an, "Descale the kettle every month: it takes 20 minutes.", "The error code E4 means the filter is blocked.",
		"The bridge mode of the X300 Pro.")
	r := NewRewriter(an, lex)
	vocab := lex.Visible([]string{"public"})
	seen := []Evidence{{ChunkID: "c1", Title: "Descaling", Text: "Descale the kettle every month: it takes 20 minutes."}}
	for _, tt := range []struct {
		text string
		seen []Evidence
		want string
	}{
		{"how many mintues does descaling take", nil, "how many minutes does descaling take"}, // the typed ending on the term, not "minut"
		{"how many mintues does descaling take", seen, "how many minutes does descaling take"},
		{"descale the kettel", seen, "descale the kettle"},                // the word the evidence uses, not "kettl"
		{"what comes with the filter", nil, "what comes with the filter"}, // "comes" is English, not a misspelt "code"
		{"a fridge mode", nil, "a bridge mode"},                           // without a thesaurus "fridge" is unknown
	} {
		got, fixed := r.Spell(context.Background(), tt.text, vocab, tt.seen, wire.Filters{})
		if got != tt.want {
			t.Errorf("Spell(%q) = %q (%v), want %q", tt.text, got, fixed, tt.want)
		}
	}
	for _, tt := range [][3]string{{"mintues", "minut", "minutes"}, {"waranty", "warranti", "warranty"}, {"relocation", "replac", ""}} {
		if got := r.ending(tt[0], tt[1]); got != tt[2] {
			t.Errorf("ending(%q, %q) = %q, want %q (an inflection only)", tt[0], tt[1], got, tt[2])
		}
	}
	r.Thesaurus = fakeThesaurus{"fridge": {"refrigerator"}, "kettle": {"boiler"}}
	if got, _ := r.Spell(context.Background(), "a fridge mode", vocab, nil, wire.Filters{}); got != "a fridge mode" {
		t.Errorf("with a thesaurus that knows it, Spell(%q) = %q, want it left alone", "a fridge mode", got)
	}
	if got, _ := r.Spell(context.Background(), "descale the kettel", vocab, nil, wire.Filters{}); got != "descale the kettle" {
		t.Errorf("with a thesaurus, no evidence, Spell(%q) = %q, want the term spelt as a word it knows", "descale the kettel", got)
	}
}

// TestSpellKeepsPunctuation: the punctuation around a corrected word stays
// around the correction ("kettel?" becomes "kettle?", not "kettle"), and
// the trace names the typed word without it.
func TestSpellKeepsPunctuation(t *testing.T) {
	an := terms.New()
	lex := newLexicon(an, "Descale the kettle every month: it takes 20 minutes.")
	r := NewRewriter(an, lex)
	vocab := lex.Visible([]string{"public"})
	seen := []Evidence{{ChunkID: "c1", Title: "Descaling", Text: "Descale the kettle every month: it takes 20 minutes."}}
	for _, tt := range []struct{ text, want, trace string }{
		{"how do I descale the kettel?", "how do I descale the kettle?", "kettel→kettle"},
		{"descale the (kettel), please", "descale the (kettle), please", "kettel→kettle"},
		{"Kettel: how often?", "kettle: how often?", "Kettel→kettle"},
	} {
		got, fixed := r.Spell(context.Background(), tt.text, vocab, seen, wire.Filters{})
		if got != tt.want || len(fixed) != 1 || fixed[0] != tt.trace {
			t.Errorf("Spell(%q) = %q %q, want %q [%s]", tt.text, got, fixed, tt.want, tt.trace)
		}
	}
}

func TestRewriterNeverRepeats(t *testing.T) {
	b, _ := newTestAssessor()
	q := "vacum pump"
	b.Rewriter.UseV4() // v4 proposes a repeat last (v5 none: TestV5NoRepeats)
	b.Rewriter.Strategies = []Strategy{spelling{}, wider{}}
	got, why := b.Rewriter.Rewrite(context.Background(), Request{Question: q, Query: q, K: 5, Previous: []string{"Vacuum  PUMP"}, Groups: []string{"public"}}, 0)
	if !strings.HasPrefix(why, StrategyWider) {
		t.Errorf("Rewrite proposed %q (%s) first, a query tried before, while wider-k applies", got, why)
	}
	b.Rewriter.Strategies = []Strategy{spelling{}}
	if got, _ := b.Rewriter.Rewrite(context.Background(), Request{Question: q, Query: q, Previous: []string{"Vacuum  PUMP"}, Groups: []string{"public"}}, 0); got != "vacuum pump" {
		t.Errorf("Rewrite = %q; with every strategy spent, want the repeat (the loop stops on it)", got)
	}
}

func TestRewriterFeedback(t *testing.T) {
	b, _ := newTestAssessor()
	b.Rewriter.UseV4() // v4 proposes a repeat last (v5 none: TestV5NoRepeats)
	b.Rewriter.Strategies = []Strategy{feedback{}}
	req := Request{Question: "vacuum blender", Query: "vacuum blender", Evidence: []Evidence{hollinLike[1], hollinLike[3]}, Groups: []string{"public"}}
	got, _ := b.Rewriter.Rewrite(context.Background(), req, 0.5)
	if !strings.HasPrefix(got, "vacuum blender ") {
		t.Fatalf("feedback rewrite = %q, want the question plus shared terms", got)
	}
	req.Previous = []string{got}
	if again, _ := b.Rewriter.Rewrite(context.Background(), req, 0.5); again != got {
		t.Errorf("the same feedback again: Rewrite = %q, want the repeat %q (every strategy spent)", again, got)
	}
	req.Previous = nil
	if got, _ := b.Rewriter.Rewrite(context.Background(), req, 0.1); got != "" {
		t.Errorf("coverage 0.1: Rewrite = %q, want none (the top chunks are about something else)", got)
	}
}

// TestProposals: every strategy that applies proposes once, in order,
// without repeats, and strategies the run already used go last.
func TestProposals(t *testing.T) {
	b, lex := newTestAssessor()
	// v4's strategies and order (v5: rewrite_v5_test.go)
	b.Rewriter.UseV4()
	lex.add(terms.New(), []string{"public"}, "Descaling the X300 Pro: once a year") // a chunk search could still find
	q := "how do I descale the X300 Pro"
	req := Request{Question: q, Query: q, K: 5, Evidence: hollinLike[1:2], Groups: []string{"public"}}
	res, err := b.Assess(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range res.Proposals {
		names = append(names, p.Strategy)
	}
	if got, want := strings.Join(names, ","), "missing-terms,best-hit-terms,wider-k"; got != want {
		t.Fatalf("strategies = %s, want %s (proposals %+v)", got, want, res.Proposals)
	}
	if res.Assessment.Rewrite != res.Proposals[0].Query || res.Proposals[2].K != 10 {
		t.Errorf("rewrite %q, proposals %+v: want the first proposal as the rewrite, wider-k at k 10", res.Assessment.Rewrite, res.Proposals)
	}

	req.Tried = []string{StrategyMissingTerms}
	req.Previous = []string{res.Proposals[1].Query}
	res2, _ := b.Assess(context.Background(), req)
	if len(res2.Proposals) != 3 || res2.Proposals[0].Strategy != StrategyWider || res2.Proposals[1].Strategy != StrategyMissingTerms || res2.Proposals[2].Strategy != StrategyBestHit {
		t.Errorf("after missing-terms and the best-hit query: proposals %+v, want wider-k, missing-terms (used), then best-hit-terms (tried)", res2.Proposals)
	}

	// The wider-k query was tried: Previous holds it as searched, its k
	// beside it, so it goes after the used strategies; the question at the
	// default k does not make it tried.
	req.Tried, req.Previous, req.PreviousK = []string{StrategyMissingTerms, StrategyBestHit}, []string{q}, []int{10}
	res4, _ := b.Assess(context.Background(), req)
	if n := len(res4.Proposals); n != 3 || res4.Proposals[n-1].Strategy != StrategyWider {
		t.Errorf("after the wider-k query: proposals %+v, want wider-k last", res4.Proposals)
	}
	req.PreviousK = nil
	res5, _ := b.Assess(context.Background(), req)
	if len(res5.Proposals) != 3 || res5.Proposals[0].Strategy != StrategyWider {
		t.Errorf("after the question at the default k: proposals %+v, want wider-k first (fresh)", res5.Proposals)
	}

	// Nothing to look for: an entity no visible document mentions.
	res3, _ := b.Assess(context.Background(), Request{Question: "does the X900 have a warranty", Query: "does the X900 have a warranty", K: 5, Evidence: hollinLike[:1], Groups: []string{"public"}})
	if len(res3.Proposals) != 0 || !strings.Contains(res3.Assessment.Reason, `"X900"`) {
		t.Errorf("X900: proposals %+v, reason %q; want none, and the reason naming X900", res3.Proposals, res3.Assessment.Reason)
	}
}

func TestEntities(t *testing.T) {
	an := terms.New()
	lex := newLexicon(an, "Hollin X200 blender", "Hollin kettle", "Hollin K50 kettle", "Brook Street Repairs", "jar", "lid", "motor", "warranty")
	vocab := lex.Visible([]string{"public"})
	tests := []struct {
		question string
		want     string // entity texts joined by "|"
	}{
		{"what does E7 mean on my X200", "E7|X200"},
		{"how do I pair the X300 Pro with the Hollin Home app", "X300 Pro|Hollin Home"},
		{"what does Hollin pay Brook Street Repairs per hour", "Brook Street Repairs"}, // Hollin alone is background
		{"Tritan", ""},                         // a question's first word is not a name by its capital
		{"case 30455", "30455"},                // four digits or more: an identifier
		{"is it covered for 2 years", ""},      // a quantity
		{"the PMP-X300 pump cost", "PMP-X300"}, // a part code
		{"can I get a VAT invoice", "VAT"},     // capitals
		{"is a cracked X200 jar covered, and what of batch B-2291", "X200|B-2291"},
		{"Is the X200 covered? And the K50?", "X200|K50"},
		{"How Long Does Delivery Take For The X200", "X200"}, // title case: capitals say nothing
		{"WHAT DOES E4 MEAN", "E4"},
		{"is the pump Z40-driven in the X200", "Z40|X200"},                   // a lower-case ending is not part of the name
		{"does the filter stop hard-water damage on a PMP-X300", "PMP-X300"}, // nor a hyphenated word's
		{"how big is the X200's jar", "X200"},                                // nor a possessive
		{"what is Brook Street Repairs' labour rate", "Brook Street Repairs"},
		{"is the K50’s lid covered", "K50"},
	}
	for _, q := range []string{"how big is the X200's jar", "is the K50’s lid covered"} {
		for _, e := range Entities(an, q, vocab) {
			if len(e.Terms) != 1 {
				t.Errorf("Entities(%q): %q has terms %q, want one", q, e.Text, e.Terms)
			}
		}
	}
	for _, tt := range tests {
		var got []string
		for _, e := range Entities(an, tt.question, vocab) {
			got = append(got, e.Text)
		}
		if g := strings.Join(got, "|"); g != tt.want {
			t.Errorf("Entities(%q) = %q, want %q", tt.question, g, tt.want)
		}
	}
}

// TestParaphraseTolerance: one word the visible corpus never uses does not
// sink a chunk that covers every other word and entity; two of three do.
func TestParaphraseTolerance(t *testing.T) {
	b, _ := newTestAssessor()
	ev := []Evidence{hollinLike[1]}
	for _, tt := range []struct {
		q    string
		want bool
	}{
		{"how many speeds does the X300 Pro blender reach spinning", true},
		{"X300 Pro turbo whirr", false},
	} {
		res, _ := b.Assess(context.Background(), Request{Question: tt.q, Query: tt.q, Evidence: ev, Groups: []string{"public"}})
		if res.Assessment.Sufficient != tt.want {
			t.Errorf("Assess(%q) = %+v, want sufficient %v", tt.q, res.Assessment, tt.want)
		}
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		max  int
		want int
	}{
		{"motor", "motor", 1, 0},
		{"motr", "motor", 1, 1},
		{"mtoor", "motor", 1, 1}, // transposition
		{"kettle", "kettl", 1, 1},
		{"abc", "xyz", 1, 2}, // gives up at max+1
		{"warranti", "waranti", 2, 1},
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b, tt.max); got != tt.want {
			t.Errorf("distance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.max, got, tt.want)
		}
	}
}

// TestBuiltinNeverRevealsHiddenWords: the spelling corrector and the
// assessor's verdicts use only words of documents the principal may see.
func TestBuiltinNeverRevealsHiddenWords(t *testing.T) {
	an := terms.New()
	lex := newLexicon(an, "Hollin pays partners by the hour.")
	lex.add(an, []string{"partner:calder-fix", "staff"}, "Hollin pays Calder Fix 39 pounds per hour of warranty labour.")
	lex.add(an, []string{"staff"}, "Case 30412. Customer Ellie Shaw reports her X200 stopped.")
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	public := []string{"public"}

	q := "how much does Caldre Fix get paid per hour"
	if got, why := b.Rewriter.Rewrite(context.Background(), Request{Question: q, Query: q, Groups: public}, 0); strings.Contains(strings.ToLower(got+why), "calder") {
		t.Errorf("public rewrite = %q (%s): reveals a word only a partner's document holds", got, why)
	}
	if got, _ := b.Rewriter.Rewrite(context.Background(), Request{Question: q, Query: q, Groups: []string{"partner:calder-fix"}}, 0); !strings.Contains(got, "calder") {
		t.Errorf("partner rewrite = %q, want Caldre corrected to calder for a principal who can see it", got)
	}

	// Whether a hidden word exists must not change the public verdict.
	hidden, _ := b.Assess(context.Background(), Request{Question: "did ellie qzxv call", Query: "did ellie qzxv call", Groups: public})
	absent, _ := b.Assess(context.Background(), Request{Question: "did zzqx qzxv call", Query: "did zzqx qzxv call", Groups: public})
	if hidden.Assessment != absent.Assessment {
		t.Errorf("a word in a staff-only ticket changes the public assessment:\n%+v\n%+v", hidden.Assessment, absent.Assessment)
	}
}

// TestWrongPartner: one partner asking about another partner's rates gets
// its own agreement as evidence, which is not sufficient, and the reason
// names the missing partner in the question's words only.
func TestWrongPartner(t *testing.T) {
	an := terms.New()
	lex := newLexicon(an, "Hollin appliances. Hollin support. Hollin repairs.")
	lex.add(an, []string{"partner:calder-fix"}, "Calder Fix: partner agreement\nHollin pays Calder Fix 39 pounds per hour and 20 pounds per home visit.")
	lex.add(an, []string{"partner:brook-street"}, "Brook Street Repairs: partner agreement\nHollin pays Brook Street Repairs 42 pounds per hour.")
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	calder := Evidence{ChunkID: "ptn-calder-rates#0", Title: "Calder Fix: partner agreement", Text: "Hollin pays Calder Fix 39 pounds per hour and 20 pounds per home visit."}
	q := "what does Hollin pay Brook Street Repairs for a home visit"
	res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: []Evidence{calder}, Groups: []string{"partner:calder-fix"}})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Assessment
	if a.Sufficient || !strings.Contains(a.Reason, `"Brook Street Repairs"`) || len(res.Proposals) != 0 {
		t.Errorf("Assess = %+v, proposals %v; want insufficient, naming Brook Street Repairs, no rewrite", a, res.Proposals)
	}
	// The same question about its own agreement is answered.
	q = "what does Hollin pay Calder Fix for a home visit"
	res, _ = b.Assess(context.Background(), Request{Question: q, Query: q, Evidence: []Evidence{calder}, Groups: []string{"partner:calder-fix"}})
	if !res.Assessment.Sufficient {
		t.Errorf("own partner: %+v, want sufficient", res.Assessment)
	}
}

// TestModelRewriteIsAProposal: an assessor that only fills Rewrite (a
// model) plugs into the same slot as the builtin strategies.
func TestModelRewriteIsAProposal(t *testing.T) {
	res := Result{Assessment: Assessment{Rewrite: "x300 pro descaling"}}
	if got := res.ProposalList(); len(got) != 1 || got[0].Strategy != StrategyModel || got[0].Query != "x300 pro descaling" {
		t.Errorf("ProposalList() = %+v, want one %q proposal", got, StrategyModel)
	}
	if got := (Result{}).ProposalList(); len(got) != 0 {
		t.Errorf("no rewrite: ProposalList() = %+v, want none", got)
	}
}

// fakeThesaurus relates words by a fixed table.
type fakeThesaurus map[string][]string

func (fakeThesaurus) Name() string                { return "fake-1" }
func (f fakeThesaurus) Related(w string) []string { return f[strings.ToLower(w)] }

// TestTranslate: the first attempt is judged on the question's own words,
// thesaurus or not (one pass never rewrites); the translate strategy puts a
// word no visible chunk has into a related word they use, and a rewritten
// attempt counts that word for the question's. Words a rewrite dropped or
// added without the thesaurus relating them count for nothing, and
// entities always need the question's own.
func TestTranslate(t *testing.T) {
	an := terms.New()
	ev := []Evidence{{ChunkID: "faq#0", Title: "Proof of purchase", Text: "A receipt shows the date of purchase."}}
	lex := newLexicon(an, ev[0].Title+"\n"+ev[0].Text, "X300 Pro blender receipt", "K50 kettle", "repair date")
	lex.add(an, []string{"staff"}, "Parts we acquire from suppliers") // "acquire": not a word the public may be shown
	b := NewBuiltin(an, lex)
	b.Kin, b.Hyp, b.Alike, b.Valued, b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false // v22: the first attempt reads the words as written (v23 credits "purchase": TestKin)
	newerIf(b, false)
	b.Gate = false
	b.Rewriter = NewRewriter(an, lex)
	q := "what slip shows the date I bought it"
	assess := func(query string) Result {
		t.Helper()
		res, err := b.Assess(context.Background(), Request{Question: q, Query: query, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	without := assess(q)
	b.UseThesaurus(fakeThesaurus{"bought": {"purchase", "purchasable", "acquire"}, "purchase": {"bought"}, "x400": {"x300"}})
	first := assess(q)
	if first.Assessment.Sufficient || first.Assessment.Score != without.Assessment.Score || first.Usage.Model != V22Model+"+fake-1" || without.Usage.Model != V22Model {
		t.Fatalf("first attempt: without %+v (%s), with %+v (%s): want the same literal verdict, insufficient, and the thesaurus in the model id",
			without.Assessment, without.Usage.Model, first.Assessment, first.Usage.Model)
	}
	if len(first.Proposals) == 0 || first.Proposals[0].Strategy != StrategyTranslate || first.Proposals[0].Query != "what slip shows the date I purchase it" {
		t.Fatalf("proposals %+v: want translate first, bought → purchase (the shortest word of the term)", first.Proposals)
	}
	second := assess(first.Proposals[0].Query)
	if !second.Assessment.Sufficient || second.Assessment.Score <= first.Assessment.Score {
		t.Errorf("after translate: %+v, want sufficient and a higher score than %v", second.Assessment, first.Assessment.Score)
	}
	for _, query := range []string{"what slip shows the date I it", "what slip shows the date I bought it receipt"} {
		if res := assess(query); res.Assessment.Score != first.Assessment.Score {
			t.Errorf("query %q: score %v, want %v: a dropped word or an unrelated added one proves nothing", query, res.Assessment.Score, first.Assessment.Score)
		}
	}
	q = "does the X400 blender have a receipt"
	if res := assess("does the X300 blender have a receipt"); res.Assessment.Sufficient {
		t.Errorf("X400 translated into X300: %+v, want insufficient (entities are the question's)", res.Assessment)
	}
}

// TestNothingTogether: when no visible chunk holds the question's entities
// and its most specific word together, no search can find evidence that
// suffices: no rewrite, and the reason says so in the question's words.
func TestNothingTogether(t *testing.T) {
	b, lex := newTestAssessor()
	q := "how do I descale the X300 Pro"
	res, _ := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: hollinLike[1:2], Groups: []string{"public"}})
	if len(res.Proposals) != 0 || !strings.Contains(res.Assessment.Reason, `mentions "X300 Pro" and "descale" together`) {
		t.Errorf("nothing together: proposals %+v, reason %q; want none and the reason", res.Proposals, res.Assessment.Reason)
	}
	lex.add(terms.New(), []string{"staff"}, "Descaling the X300 Pro") // hidden from the public
	res, _ = b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: hollinLike[1:2], Groups: []string{"public"}})
	if len(res.Proposals) != 0 {
		t.Errorf("a staff chunk made a public rewrite worth trying: %+v", res.Proposals)
	}
	res, _ = b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: hollinLike[1:2], Groups: []string{"public", "staff"}})
	if len(res.Proposals) == 0 {
		t.Errorf("staff: no rewrite, but a chunk they may see holds both")
	}
}

// TestNoFutileRewrite: when the best chunk already covers every entity and
// every word the visible corpus has, or no visible chunk holds enough of
// the question's words to suffice, no search could change the verdict, so
// no rewrite is proposed.
func TestNoFutileRewrite(t *testing.T) {
	b, _ := newTestAssessor()
	q := "can the vacuum blender zorble the frimp"
	res, _ := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: hollinLike[1:2], Groups: []string{"public"}})
	if res.Assessment.Sufficient || len(res.Proposals) != 0 {
		t.Errorf("Assess(%q) = %+v, proposals %+v; want insufficient, no rewrite", q, res.Assessment, res.Proposals)
	}
	q = "can the vacuum blender descale"
	res, _ = b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: hollinLike[1:2], Groups: []string{"public"}})
	if len(res.Proposals) != 0 || !strings.Contains(res.Assessment.Reason, `no document you can see holds "descale" with enough of the rest`) {
		t.Errorf("Assess(%q) = %+v, proposals %+v; want no rewrite: the kettle page holds %q, but nothing else of the question", q, res.Assessment, res.Proposals, "descale")
	}
	q = "how many years of warranty does a blender motor get"
	res, _ = b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: hollinLike[1:2], Groups: []string{"public"}})
	if len(res.Proposals) == 0 {
		t.Errorf("Assess(%q) = %+v: no rewrite, but the warranty page would suffice", q, res.Assessment)
	}
	// Staff see a chunk that would suffice; the public does not.
	_, lex := newTestAssessor()
	b2 := NewBuiltin(terms.New(), lex)
	b2.Rewriter = NewRewriter(terms.New(), lex)
	lex.add(terms.New(), []string{"staff"}, "The vacuum blender can descale itself")
	for _, tc := range []struct {
		groups []string
		want   bool
	}{{[]string{"public"}, false}, {[]string{"public", "staff"}, true}} {
		res, _ := b2.Assess(context.Background(), Request{Question: "can the vacuum blender descale", Query: "can the vacuum blender descale", K: 5, Evidence: hollinLike[1:2], Groups: tc.groups})
		if got := len(res.Proposals) > 0; got != tc.want {
			t.Errorf("groups %v: rewrite proposed %v, want %v (%+v)", tc.groups, got, tc.want, res.Assessment)
		}
	}
}

// TestAnswerType: the question's frame ("how often", "how fast", "can ...
// go in") is not content to cover; a chunk must hold an answer of the
// expected type near the question's words, and the reason says what type
// was asked for and what was, or was not, found.
func TestAnswerType(t *testing.T) {
	an := terms.New()
	ev := []Evidence{
		{ChunkID: "care#0", Title: "Mixer care", Text: "Wash the bowl and whisk in the dishwasher. Wipe the motor unit with a damp cloth."},
		{ChunkID: "filter#0", Title: "Mixer filter", Text: "The mixer filter traps dust. Replace the filter every six months."},
		{ChunkID: "specs#0", Title: "Mixer specifications", Text: "The mixer has a steel bowl. Its top setting reaches 1,100 RPM."},
		{ChunkID: "lid#0", Title: "Mixer lid", Text: "The mixer lid is made of glass and fits the bowl."},
		{ChunkID: "misc#0", Title: "Often asked", Text: "Customers often ask about colours. We ship fast."},
		{ChunkID: "codes#0", Title: "Mixer error codes", Text: "F2 means the bowl is not seated: turn the bowl until it locks. F9 means a sensor fault: contact the maker."},
		{ChunkID: "belt#0", Title: "Mixer belt replacement", Text: "If the belt slips, replace the drive belt, part BLT-7. Allow 25 minutes of labour."},
		{ChunkID: "motor#0", Title: "Mixer motor", Text: "The mixer motor is rated at 800 W and holds 2 litres."},
	}
	checkAssess(t, builtinOver(an, ev), []assessCase{
		// "often" and "go" are frame: before, the chunk lacked them.
		{"how often should I replace the mixer filter", ev[1:2], true, []string{"a frequency", `"every six months"`}},
		{"can the mixer whisk go in the dishwasher", ev[:1], true, []string{"a yes/no statement"}},
		// "fast" is frame, "spin" a word no chunk has: the speed near
		// "mixer" answers.
		{"how fast does the mixer spin", ev[2:3], true, []string{"a speed or time", `"1,100 RPM"`}},
		// The words are there, the answer is not.
		{"how many speeds does the mixer lid have", ev[3:4], false, []string{"asks for a count", "holds none near"}},
		{"how much does the mixer lid cost", ev[3:4], false, []string{"an amount of money", "holds none"}},
		// The instruction is in the clause after the colon.
		{"what should I do if my mixer shows F9", ev[5:6], true, []string{"an instruction", `"contact the"`}},
		{"what do I do when the mixer bowl is not seated", ev[5:6], true, []string{"an instruction", `"turn the"`}},
		// "how much ... time" asks for a period, and "time" is frame.
		{"how much labour time should a mixer belt replacement take", ev[6:7], true, []string{"a period of time", `"25 minutes"`}},
		// A statement before the question: the clause after it asks.
		{"my mixer filter is clogged: how often should I replace it", ev[1:2], true, []string{"a frequency", `"every six months"`}},
		// A question embedded in a request: the request's words are frame.
		{"can you tell me how often to replace the mixer filter", ev[1:2], true, []string{"a frequency", `"every six months"`}},
		// A unit names the dimension: a volume does not answer "how many
		// watts", a power does, written as a symbol.
		{"how many watts is the mixer lid", ev[3:4], false, []string{"a measure of power", "holds none"}},
		{"how many watts does the mixer motor draw", ev[7:8], true, []string{"a measure of power", `"800 W"`}},
		// "when should I" is answered by the condition to act on.
		{"when should I replace the mixer drive belt", ev[6:7], true, []string{"a time or condition", `"If the belt slips"`}},
		// The noun asked for and a partitive are frame: the code near
		// "belt" answers.
		{"what's the part number for a new pair of mixer drive belts", ev[6:7], true, []string{"a name", `"BLT-7"`}},
		// A chunk that merely uses the frame word does not answer.
		{"how often should I replace the mixer filter", ev[4:5], false, nil},
	})
}

// assessCase is a question, the evidence retrieved for it, and the
// verdict expected: sufficient or not, and substrings of the reason.
type assessCase struct {
	q          string
	evidence   []Evidence
	sufficient bool
	reason     []string
}

// builtinOver returns the builtin assessor over a corpus of ev alone.
func builtinOver(an *terms.Analyzer, ev []Evidence) *Builtin {
	return NewBuiltin(an, lexiconOf(an, ev))
}

// lexiconOf is the lexicon of ev's titles and texts.
func lexiconOf(an *terms.Analyzer, ev []Evidence) *lexicon {
	var texts []string
	for _, e := range ev {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	return newLexicon(an, texts...)
}

// defaultOver is the default assessor, with its Rewriter, over the
// lexicon of ev: what the odd-input and fuzz tests judge.
func defaultOver(ev []Evidence) *Builtin {
	an := terms.New()
	lex := lexiconOf(an, ev)
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	return b
}

// uniqueEvidence joins sets, keeping the first chunk of each id.
func uniqueEvidence(sets ...[]Evidence) []Evidence {
	var out []Evidence
	seen := map[string]bool{}
	for _, set := range sets {
		for _, e := range set {
			if !seen[e.ChunkID] {
				seen[e.ChunkID] = true
				out = append(out, e)
			}
		}
	}
	return out
}

func checkAssess(t *testing.T, b *Builtin, cases []assessCase) {
	t.Helper()
	for _, tt := range cases {
		res, err := b.Assess(context.Background(), Request{Question: tt.q, Query: tt.q, Evidence: tt.evidence, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		a := res.Assessment
		if a.Sufficient != tt.sufficient {
			t.Errorf("Assess(%q) = %+v, want sufficient %v", tt.q, a, tt.sufficient)
		}
		for _, s := range tt.reason {
			if !strings.Contains(a.Reason, s) {
				t.Errorf("Assess(%q).Reason = %q, want it to contain %q", tt.q, a.Reason, s)
			}
		}
	}
}

// TestEntityCoveredWhole: evidence naming part of an entity, or its words
// apart, does not cover it.
func TestEntityCoveredWhole(t *testing.T) {
	an := terms.New()
	lex := newLexicon(an, "X300 Pro", "Brook Street Repairs", "kettle", "jar", "lid", "motor")
	ents := Entities(an, "which of our jobs does Brook Street Repairs do on an X300 Pro", lex.Visible([]string{"public"}))
	if len(ents) != 2 {
		t.Fatalf("Entities = %+v, want Brook Street Repairs and X300 Pro", ents)
	}
	brook, x300pro := ents[0], ents[1]
	for _, tt := range []struct {
		e    Entity
		text string
		want bool
	}{
		{x300pro, "The X300 Pro has ten speeds.", true},
		{x300pro, "The X300 has five speeds.", false},
		{x300pro, "The X300 has five speeds. A pro tip: descale it.", false},
		{x300pro, "Pro models such as the X300 are faster.", false},
		{brook, "Hollin pays Brook Street Repairs £42.", true},
		{brook, "Brook Lane Repairs is on Street Road.", false},
		{brook, "Brook Street is closed.", false},
		{brook, "Repairs on Brook Street.", false},
	} {
		if got := tt.e.CoveredBy(Mentions(an, tt.text)); got != tt.want {
			t.Errorf("%q.CoveredBy(%q) = %v, want %v", tt.e.Text, tt.text, got, tt.want)
		}
	}
	// In the title or the body, but not across them.
	if !x300pro.CoveredBy(Mentions(an, "X300 Pro error codes", "E4 means the lid is loose.")) {
		t.Error("an entity named in the title is not covered")
	}
	if x300pro.CoveredBy(Mentions(an, "Errors of the X300", "Pro users: E4 means the lid is loose.")) {
		t.Error("an entity split between title and body is covered")
	}
	// The assessor: a chunk naming part of the entity is not sufficient.
	b := NewBuiltin(an, lex)
	res, err := b.Assess(context.Background(), Request{Question: "how many speeds does the X300 Pro have", Groups: []string{"public"},
		Evidence: []Evidence{{ChunkID: "x300#0", Title: "X300 specifications", Text: "The X300 has five speeds. A pro tip: clean it daily."}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Assessment.Sufficient || !strings.Contains(res.Assessment.Reason, `"X300 Pro"`) {
		t.Errorf("Assess = %+v, want insufficient, naming the X300 Pro", res.Assessment)
	}
}

// TestComparisonAcrossChunks: a comparison of two entities is answered by
// one chunk per entity, judged together; a question that does not compare
// is not answered by two chunks each naming one of its entities.
func TestComparisonAcrossChunks(t *testing.T) {
	an := terms.New()
	ev := []Evidence{
		{ChunkID: "z10#0", Title: "Z10 toaster specifications", Text: "The Z10 toaster has two slots and a 900 W element."},
		{ChunkID: "z20#0", Title: "Z20 toaster specifications", Text: "The Z20 toaster has four slots and a 1,400 W element."},
		{ChunkID: "z10-codes#0", Title: "Z10 error codes", Text: "F9 means a sensor fault: contact the maker."},
		{ChunkID: "care#0", Title: "Toaster care", Text: "Empty the crumb tray every week."},
	}
	checkAssess(t, builtinOver(an, ev), []assessCase{
		{"which toaster has more slots, the Z10 or the Z20", ev[:2], true, []string{`"Z10 toaster specifications" with "Z20 toaster specifications" covers`}},
		{"what does F9 mean on the Z20", []Evidence{ev[1], ev[2]}, false, []string{`does not mention`}},
		{"which toaster has more slots, the Z10 or the Z30", ev[:2], false, []string{`mentions "Z30"`}},
	})
}

// TestVerbsSaidOtherwise: a chunk holding an answer of the expected type
// about the question's other words may say its verbs in other words; a
// procedure's or a decision's own verb it must hold. Sentences invented
// for the test (issue 24, round 4).
func TestVerbsSaidOtherwise(t *testing.T) {
	an := terms.New()
	ev := []Evidence{
		{ChunkID: "pair#0", Title: "Pairing the Q7 with the app", Text: "To pair the Q7 with the app, hold the power knob down for 3 seconds until the lamp blinks."},
		{ChunkID: "codes#0", Title: "Q7 error codes", Text: "F2 means the door is open: close it. F9 means a sensor fault: contact the maker."},
		{ChunkID: "order#0", Title: "Ordering a repair", Text: "Order a repair at fixit.example/order with your receipt."},
		{ChunkID: "knob#0", Title: "Q7 controls", Text: "The Q7 has a power knob and a lamp. Turn the knob to start."},
		{ChunkID: "descale#0", Title: "Descaling the K2", Text: "Descale the K2 once a month."},
	}
	checkAssess(t, builtinOver(an, ev), []assessCase{
		// "press" is the asked verb, the page says "hold": the period
		// near "power knob" and "pair" answers.
		{"how long do I press the power knob for when pairing the Q7", ev[:1], true, []string{"a period of time", `leaving out "press"`}},
		// "showing" sets the scene: the question is about the Q7 and F9.
		{"my Q7 is showing F9 - can I repair that myself?", ev[1:2], true, []string{`leaving out "showing"`, "a yes/no statement"}},
		// "use" relates the asker to the website asked for.
		{"which website do I use to order a repair", ev[2:3], true, []string{"a place", `"fixit.example/order"`}},
		// A procedure's verb is what it asks about: a page on the Q7 that
		// never says "descale" is no answer (and "descale" is a word the
		// corpus has).
		{"how do I descale the Q7", ev[3:4], false, nil},
		// A yes/no decision about an action the page does not name.
		{"can I descale the Q7 knob", ev[3:4], false, nil},
	})
}

// TestOtherKind: a noun the question restricts by a word no visible
// document has ("express delivery") is not answered by a sentence about
// another kind of it ("Standard delivery takes ..."), and is by one that
// names it bare. Sentences invented for the test (issue 24, round 4).
func TestOtherKind(t *testing.T) {
	an := terms.New()
	ev := []Evidence{
		{ChunkID: "parts#0", Title: "Ordering parts", Text: "Parts are sold online. Standard shipping takes 2 to 4 days and costs £3."},
		{ChunkID: "parts2#0", Title: "Parts shipping", Text: "Parts are sold online. Shipping takes 2 to 4 days."},
	}
	b := builtinOver(an, ev)
	checkAssess(t, b, []assessCase{
		{"how long does overnight shipping of parts take", ev[:1], false, []string{"a period of time", "holds none"}},
		{"how long does shipping of parts take", ev[:1], true, []string{`"2 to 4 days"`}},
		{"how long does standard shipping of parts take", ev[:1], true, []string{`"2 to 4 days"`}},
		{"how long does overnight shipping of parts take", ev[1:2], true, []string{`"2 to 4 days"`}},
	})
}

// TestReasonNamesWords: an accepted chunk's reason names the question's
// key word as typed ("kettle"), not its index term ("kettl") — as the
// reasons that refuse already did (wordFor); rv14.
func TestReasonNamesWords(t *testing.T) {
	ev := []Evidence{{ChunkID: "man-k50-kettle#0", Title: "K50 Smart Kettle", Text: "The K50 smart kettle boils in about four minutes. Descale the kettle every month."}}
	b, _ := assessorOver(ev)
	for _, q := range []string{"how long does the kettle take to descale?", "how long does the kettel take to descale?"} {
		res := assessAs(t, b, true, q, ev)
		words := append(strings.Fields(strings.Trim(q, "?")), "kettle") // as typed, or as spelt right
		key := ""
		if _, after, ok := strings.Cut(res.Assessment.Reason, `including "`); ok {
			key, _, _ = strings.Cut(after, `"`)
		}
		if !res.Assessment.Sufficient || !slices.Contains(words, key) {
			t.Errorf("%q: %v %q, want accepted, the reason naming a word of the question, not a stem (%q)", q, res.Assessment.Sufficient, res.Assessment.Reason, key)
		}
	}
}

// TestJointQuestions: builtin:coverage-v17 (Joint) judges a question that
// asks the same of each thing it names ("the same ... as") the way a
// comparison is judged, one chunk per thing, and takes for each thing the
// chunk that says most of the question about it, not a page that names
// both things and says nothing of what is asked. v16 (Joint off) refuses.
// Sentences invented for the test (issue 24, round 15).
func TestJointQuestions(t *testing.T) {
	an := terms.New()
	ev := []Evidence{
		{ChunkID: "z20-codes#0", Title: "Z20 error codes", Text: "F9 means the crumb tray is full: empty it."},
		{ChunkID: "z10-codes#0", Title: "Z10 error codes", Text: "F9 means a sensor fault: contact the maker."},
		// Names both toasters: it covers more of the question than the Z10
		// codes page, but less of what is asked of the Z10 alone.
		{ChunkID: "range#0", Title: "Toaster range", Text: "Z10 and Z20 toasters: what each light means."},
		{ChunkID: "care#0", Title: "Toaster care", Text: "Empty the crumb tray every week. F9 never shows while you clean."},
	}
	b := builtinOver(an, ev)
	checkAssess(t, b, []assessCase{
		{"does F9 mean the same thing on the Z10 as it does on the Z20?", ev[:3], true, []string{`"Z10 error codes"`, " with "}},
		{"is F9 on the Z10 similar to F9 on the Z20?", ev[:3], true, []string{`"Z10 error codes"`, " with "}},
		// Naming two things is no joint question: one chunk must answer.
		{"what does F9 mean on the Z10 when my Z20 is fine?", ev[:1], false, nil},
	})
	b.Joint = false
	if want := BuiltinModel + "-nojoint"; b.Model() != want {
		t.Errorf("model with Joint off %q, want %q", b.Model(), want)
	}
	for _, q := range []string{"does F9 mean the same thing on the Z10 as it does on the Z20?", "is F9 on the Z10 similar to F9 on the Z20?"} {
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: ev[:3]})
		if err != nil {
			t.Fatal(err)
		}
		if res.Assessment.Sufficient && strings.Contains(res.Assessment.Reason, `"Z20 error codes" with "Z10 error codes"`) {
			t.Errorf("v16 on %q: %s (the test no longer shows the joint reading)", q, res.Assessment.Reason)
		}
	}
}

// TestSizeAsked: builtin:coverage-v17 (Sized) reads "how big" as asking
// for a size, a length, volume or mass: a page giving only the jug's
// power answers nothing, one giving its volume does; v16 took any measure.
// Sentences invented for the test (issue 24, round 15).
func TestSizeAsked(t *testing.T) {
	an := terms.New()
	ev := []Evidence{
		{ChunkID: "z10-specs#0", Title: "Z10 blender specifications", Text: "The Z10 jug blender has a 900 W motor and five speeds."},
		{ChunkID: "z20-specs#0", Title: "Z20 blender specifications", Text: "The Z20 jug blender has a 1.8 litre jug and a 1,200 W motor."},
		{ChunkID: "care#0", Title: "Blender care", Text: "Wash the jug by hand."},
	}
	b := builtinOver(an, ev)
	checkAssess(t, b, []assessCase{
		{"How big is the jug on the Z10?", ev[:1], false, []string{"a measure of size"}},
		{"How big is the jug on the Z20?", ev[1:2], true, []string{"1.8 litre"}},
		{"How large is the Z20's jug?", ev[1:2], true, nil},
	})
	b.Sized = false
	if want := BuiltinModel + "-nosized"; b.Model() != want {
		t.Errorf("model with Sized off %q, want %q", b.Model(), want)
	}
	res, err := b.Assess(context.Background(), Request{Question: "How big is the jug on the Z10?", Query: "How big is the jug on the Z10?", Groups: []string{"public"}, Evidence: ev[:1]})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Assessment.Sufficient {
		t.Errorf("v16 refused the Z10's power for its size (the test no longer shows the size reading): %s", res.Assessment.Reason)
	}
}
