package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// aloneHandbook and aloneRates are the partner-rates pages Alone's tests
// read: the handbook names the hourly rate its partners are paid and
// states none; the partner's agreement states it.
var (
	aloneHandbook = Evidence{ChunkID: "handbook#0", Title: "Service partner handbook", Text: "Service partners carry out warranty labour for Hollin. Claim your warranty labour at the hourly rate of your partner agreement, from Hollin, each month."}
	aloneRates    = Evidence{ChunkID: "rates#0", Title: "Brook Street Repairs: partner agreement", Text: "Hollin pays Brook Street Repairs £42 per hour of warranty labour."}
)

// TestAlone: the partner handbook, which BM25 ranks first for "what's our
// hourly rate from Hollin for warranty labour", names the hourly rate but
// states no amount; the partner's agreement, second, states "£42 per
// hour", which only the wide reading takes for "hourly" (through the
// thesaurus), and the wide reading reads only the first chunk. Alone 0
// refuses; Alone 1 (rank 1) accepts the agreement judged alone, and so do
// the guards (aloneWhole: the wide reading reads the whole question;
// aloneKey: the agreement holds "hourly" through "hour"; aloneKnown: the
// clause that asks names nothing no document names). The agreement third
// is read at rank 2, not 1. A question naming a thing no document names
// ("the hourly rate for the head office") is accepted at rank 1 but not
// with aloneKnown.
func TestAlone(t *testing.T) {
	an := terms.New()
	handbook := aloneHandbook
	rates := aloneRates
	other := Evidence{ChunkID: "claims#0", Title: "Warranty labour claims", Text: "Warranty labour claims from Hollin partners are paid each month."}
	lex := newLexicon(an, handbook.Title+"\n"+handbook.Text, rates.Title+"\n"+rates.Text, other.Title+"\n"+other.Text, "K50 kettle descaling", "X300 Pro blender jug", "repair centre move")
	judge := aloneJudge(t, an, lex)
	accepted := func(r Result, id string) bool {
		return r.Assessment.Sufficient && len(r.Accepted) > 0 && r.Accepted[0] == id
	}
	q := "What's our hourly rate from Hollin for warranty labour?"
	if r := judge(0, q, handbook, rates); r.Assessment.Sufficient || r.Usage.Model != V38Model+"+fake-1" {
		t.Errorf("Alone 0: %+v %v (%s), want refused", r.Assessment, r.Accepted, r.Usage.Model)
	}
	for _, v := range []int{1, 1 | aloneWhole, 1 | aloneKey, 1 | aloneKnown, 1 | aloneWhole | aloneKey | aloneKnown} {
		r := judge(v, q, handbook, rates)
		if !accepted(r, "rates#0") || !strings.HasPrefix(r.Assessment.Reason, "judged alone, the chunk ranked 2: ") || !strings.Contains(r.Assessment.Reason, `"£42"`) {
			t.Errorf("Alone %d: %+v %v, want accepted on rates#0", v, r.Assessment, r.Accepted)
		}
	}
	if r := judge(113, q, handbook, rates); r.Usage.Model != BuiltinModel+"-alone113-nomerged-norival-noclassfree-noagree-nosides-nomeasure-nolisted-noplaces-nomatter-norates-noparts-noruled-nomeasured-nosituated-nolistedclause-nocovered-nofollow-notimed-noevery-nocounts-noopposite-noreview-nolearned-nolearnedcover-noveto-nostatus+fake-1" {
		t.Errorf("Alone 113: model %s", r.Usage.Model)
	}
	if r := judge(1, q, handbook, other, rates); r.Assessment.Sufficient {
		t.Errorf("Alone 1, the agreement third: %+v %v, want refused", r.Assessment, r.Accepted)
	}
	if r := judge(2, q, handbook, other, rates); !accepted(r, "rates#0") {
		t.Errorf("Alone 2, the agreement third: %+v %v, want accepted on rates#0", r.Assessment, r.Accepted)
	}
	office := "What's the hourly rate from Hollin for warranty labour at the head office?"
	if r := judge(1, office, handbook, rates); !accepted(r, "rates#0") {
		t.Errorf("Alone 1, head office: %+v %v, want accepted on rates#0", r.Assessment, r.Accepted)
	}
	if r := judge(1|aloneKnown, office, handbook, rates); r.Assessment.Sufficient {
		t.Errorf("Alone 1|aloneKnown, head office: %+v %v, want refused", r.Assessment, r.Accepted)
	}
}

// aloneJudge judges a question on evidence over lex, with Alone set to a
// value and a thesaurus relating "hourly" to "hour".
func aloneJudge(t *testing.T, an *terms.Analyzer, lex *lexicon) func(alone int, q string, ev ...Evidence) Result {
	return func(alone int, q string, ev ...Evidence) Result {
		t.Helper()
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.UseThesaurus(fakeThesaurus{"hourly": {"hour"}})
		b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = alone, 0, 0, false // v41 with Alone, v38 without
		newerIf(b, false)
		b.Gate = alone != 0 // (v41's Gate came after Alone)
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
}

// TestAloneOwn: the privacy page, second, holds the question's "wipe"
// only as "delete", a word WordNet defines by it (TestBeyond's case):
// judged alone at rank 1 the coverage rules' thesaurus tries accept it;
// with aloneOwn they are not asked and it is refused.
func TestAloneOwn(t *testing.T) {
	an := terms.New()
	page := Evidence{ChunkID: "account#0", Title: "Your account page", Text: "Your account data is shown on your account page. Account data includes your orders, your account settings and the data of your registered products."}
	privacy := Evidence{ChunkID: "privacy#0", Title: "Your account data", Text: "You can ask us to delete your account data. We do it within 30 days of your request."}
	lex := newLexicon(an, page.Title+"\n"+page.Text, privacy.Title+"\n"+privacy.Text, "K50 kettle descaling", "X300 Pro blender jug", "repair centre move", "Delete old jobs from the repair log", "Wipe the jug with a damp cloth")
	q := "how do I get you to wipe my account data"
	th := fakeDefiner{fakeTaxonomy{fakeThesaurus{}, nil}, map[string][]thesaurus.Taxon{"wipe": {{Word: "delete", Pos: 'v', Its: 1, ItsCommon: true, Pointer: 'g'}}}}
	judge := func(alone int) Result {
		t.Helper()
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.UseThesaurus(th)
		b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = alone, 0, 0, false // v41 with Alone, v38 without
		newerIf(b, false)
		b.Gate = alone != 0
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: []Evidence{page, privacy}, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if r := judge(0); r.Assessment.Sufficient {
		t.Errorf("Alone 0: %+v, want refused", r.Assessment)
	}
	if r := judge(1); !r.Assessment.Sufficient || len(r.Accepted) == 0 || r.Accepted[0] != "privacy#0" || !strings.Contains(r.Assessment.Reason, `"delete"`) {
		t.Errorf("Alone 1: %+v %v, want accepted on privacy#0 through \"delete\"", r.Assessment, r.Accepted)
	}
	if r := judge(1 | aloneOwn); r.Assessment.Sufficient {
		t.Errorf("Alone 1|aloneOwn: %+v %v, want refused", r.Assessment, r.Accepted)
	}
}

// TestAloneNamed: aloneNamed lets a chunk below the first be judged alone
// only when the first holds what the question asks about but no answer of
// its type. The partner handbook, first, names the hourly rate and states
// no amount: the agreement below it is accepted, with aloneNamed alone and
// with every guard. A first chunk about something else (a survey where
// customers rate the partners' warranty labour: the question's words but
// not "hourly") leaves the agreement to rank 1 unguarded, but aloneNamed
// refuses it: the top of the ranking is not about what is asked, so a
// lower chunk holding the question's words and a value vouches for
// nothing.
func TestAloneNamed(t *testing.T) {
	an := terms.New()
	handbook := aloneHandbook
	rates := aloneRates
	survey := Evidence{ChunkID: "survey#0", Title: "Rate our warranty labour", Text: "Hollin customers rate the warranty labour of Hollin partners each month: our warranty labour survey."}
	lex := newLexicon(an, handbook.Title+"\n"+handbook.Text, rates.Title+"\n"+rates.Text, survey.Title+"\n"+survey.Text, "K50 kettle descaling", "X300 Pro blender jug", "repair centre move")
	q := "What's our hourly rate from Hollin for warranty labour?"
	judgeQ := aloneJudge(t, an, lex)
	judge := func(alone int, ev ...Evidence) Result {
		t.Helper()
		return judgeQ(alone, q, ev...)
	}
	accepted := func(r Result) bool {
		return r.Assessment.Sufficient && len(r.Accepted) > 0 && r.Accepted[0] == "rates#0"
	}
	for _, v := range []int{1 | aloneNamed, 1 | aloneWhole | aloneKey | aloneKnown | aloneNamed} {
		if r := judge(v, handbook, rates); !accepted(r) {
			t.Errorf("Alone %d, the handbook first: %+v %v, want accepted on rates#0", v, r.Assessment, r.Accepted)
		}
	}
	if r := judge(1, survey, rates); !accepted(r) {
		t.Errorf("Alone 1, the survey first: %+v %v, want accepted on rates#0", r.Assessment, r.Accepted)
	}
	if r := judge(1|aloneNamed, survey, rates); r.Assessment.Sufficient {
		t.Errorf("Alone 1|aloneNamed, the survey first: %+v %v, want refused", r.Assessment, r.Accepted)
	}
}

// aloneIf is builtin:coverage-v40's Alone when on, else 0 (for the tests
// that turn a model's switches on or off together).
func aloneIf(on bool) int {
	if on {
		return aloneV40
	}
	return 0
}

// TestAloneModel: builtin:coverage-v40 is Alone's rank 1 with every
// guard; Alone off is v38 (kept selectable); another value names itself.
func TestAloneModel(t *testing.T) {
	b := NewBuiltin(terms.New(), newLexicon(terms.New(), "x"))
	if b.Alone != aloneV40 || aloneV40 != 497 || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("default Alone %d, model %q, want 497 and builtin:coverage-v68", b.Alone, b.Model())
	}
	v47If(b, false)
	if b.ExpandMerge, b.Rival, b.ClassFree, b.Agree, b.Places, b.Matter, b.Rates, b.Parts, b.Ruled, b.Measured, b.Situated, b.ListedClause, b.Covered, b.Follow, b.Timed, b.Every, b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = 0, 0, false, 0, 0, false, false, false, false, false, false, false, false, false, false, false, 0, false, 0, false, false, false, false; b.Model() != V41Model || V41Model != "builtin:coverage-v41" {
		t.Errorf("model %q with ExpandMerge off, want builtin:coverage-v41", b.Model())
	}
	if b.Gate = false; b.Model() != V40Model || V40Model != "builtin:coverage-v40" {
		t.Errorf("model %q with Gate off too, want builtin:coverage-v40", b.Model())
	}
	b.Alone = 0
	b.Gate = false
	if b.Model() != V38Model {
		t.Errorf("model %q with Alone off, want %q", b.Model(), V38Model)
	}
	b.Alone = 113
	b.Gate = true
	if got, want := b.Model(), BuiltinModel+"-alone113-nomerged-norival-noclassfree-noagree-nosides-nomeasure-nolisted-noplaces-nomatter-norates-noparts-noruled-nomeasured-nosituated-nolistedclause-nocovered-nofollow-notimed-noevery-nocounts-noopposite-noreview-nolearned-nolearnedcover-noveto-nostatus"; got != want {
		t.Errorf("model %q, want %q", got, want)
	}
}

// TestNamesOnlyEachCondition: aloneNamed's test of the first chunk holds
// only when every one of its conditions does — the question expects a
// type, the chunk holds none of it, names every entity, holds the key
// term and covers at least the minimum — so dropping any one condition
// from namesOnly fails a case here (round 37's review found four of them
// survived the end-to-end tests).
func TestNamesOnlyEachCondition(t *testing.T) {
	covers := func(have map[string]bool, term string) bool { return have[term] }
	question := func() *reading {
		return &reading{qterms: []weighted{{term: "hourly"}, {term: "labour"}}, ents: []Entity{{Text: "Hollin", Terms: []string{"hollin"}}}, expects: true, min: 0.5}
	}
	first := func() *judged {
		return &judged{have: map[string]bool{"hourly": true, "labour": true}, coverage: 0.8, entities: 1, key: 0}
	}
	if r, j := question(), first(); !r.namesOnly(j, covers) {
		t.Fatalf("a first chunk naming everything and holding no value: namesOnly false, want true")
	}
	for _, c := range []struct {
		name   string
		change func(r *reading, j *judged)
	}{
		{"the question expects no type", func(r *reading, j *judged) { r.expects = false }},
		{"the chunk holds the type", func(r *reading, j *judged) { j.typed = true }},
		{"an entity missing", func(r *reading, j *judged) { j.entities = 0 }},
		{"no key term", func(r *reading, j *judged) { j.key = -1 }},
		{"the key term not held", func(r *reading, j *judged) { delete(j.have, "hourly") }},
		{"below the minimum coverage", func(r *reading, j *judged) { j.coverage = 0.4 }},
	} {
		r, j := question(), first()
		c.change(r, j)
		if r.namesOnly(j, covers) {
			t.Errorf("%s: namesOnly true, want false", c.name)
		}
	}
}

// TestAloneGuardsEach: the partner's page second, stating a flat "rate of
// £42 for warranty labour" and no hour, judged alone, is accepted by the
// sentence reading for "what's our hourly rate from Hollin for warranty
// labour?" at rank 1 (and with aloneNamed: the handbook first names the
// hourly rate and states none); aloneKey refuses it (it lacks "hourly",
// the key, in every form), and so does aloneWhole (no reading of one
// sentence below the first). Each guard is tried on its own, so turning
// either into a no-op fails here (round 37's review found both survived).
func TestAloneGuardsEach(t *testing.T) {
	an := terms.New()
	handbook := aloneHandbook
	flat := Evidence{ChunkID: "flat#0", Title: "Brook Street Repairs: partner agreement", Text: "Hollin pays Brook Street Repairs a rate of £42 for warranty labour."}
	lex := newLexicon(an, handbook.Title+"\n"+handbook.Text, flat.Title+"\n"+flat.Text, "Hollin pays Brook Street Repairs £42 per hour of warranty labour.", "K50 kettle descaling", "X300 Pro blender jug", "repair centre move")
	judge := aloneJudge(t, an, lex)
	q := "What's our hourly rate from Hollin for warranty labour?"
	for _, c := range []struct {
		alone int
		want  bool
	}{{1, true}, {1 | aloneNamed, true}, {1 | aloneKey, false}, {1 | aloneWhole, false}, {aloneV40, false}} {
		r := judge(c.alone, q, handbook, flat)
		if got := r.Assessment.Sufficient; got != c.want {
			t.Errorf("Alone %d: sufficient %v (%s), want %v", c.alone, got, r.Assessment.Reason, c.want)
		}
	}
}
