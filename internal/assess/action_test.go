package assess

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// actCorpus is a small Hollin-like corpus: a pairing page whose
// instruction ("hold the dial") is for pairing, and pages on tracking,
// error codes and descaling.
var actCorpus = []Evidence{
	{ChunkID: "pair#0", Title: "Pairing the K50 kettle with the Hollin Home app", Text: "To pair the K50 with the Hollin Home app, hold the temperature dial down for 5 seconds until the ring light flashes white, then choose Add appliance in the app."},
	{ChunkID: "track#0", Title: "Tracking a repair", Text: "We email a tracking link when the courier collects your appliance. A repair shows as Booked, In workshop, Repaired, then Dispatched."},
	{ChunkID: "err#0", Title: "X300 Pro error codes", Text: "E4: the lid is not locked. Take the lid off and refit it until it clicks."},
	{ChunkID: "scale#0", Title: "Hard water and limescale", Text: "In hard-water areas, descale kettles more often. Limescale damage is not covered by the warranty."},
}

// actLexicon is actCorpus's vocabulary and a few more pages'.
func actLexicon(an *terms.Analyzer) *lexicon {
	var texts []string
	for _, e := range actCorpus {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	return newLexicon(an, append(texts, "X200 blender specifications", "Book a repair online",
		"Your money back: refunds are paid within 14 days", "Register your appliance to hear about safety notices")...)
}

// actJudge judges q against ev (the first of actCorpus's pages by id)
// with Act as set, with a thesaurus relating as th says, or none.
func actJudge(t *testing.T, act bool, th Thesaurus, q string, ids ...string) Result {
	t.Helper()
	an := terms.New()
	lex := actLexicon(an)
	var ev []Evidence
	for _, id := range ids {
		i := slices.IndexFunc(actCorpus, func(e Evidence) bool { return e.ChunkID == id })
		ev = append(ev, actCorpus[i])
	}
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	if th != nil {
		b.UseThesaurus(th)
	}
	b.Act = act
	res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestAct: with Act (and a thesaurus), an instruction question is not
// decided by an instruction for another action of the same product
// (fresh10 t88's and t93's shapes, no-answer questions the focus and
// wide readings answered from the pairing page); a page stating the asked
// verb, what a light verb acts on, or the code a pronoun stands for still
// decides it; without a thesaurus Act reads nothing.
func TestAct(t *testing.T) {
	th := fakeThesaurus{}
	refused := []struct{ q, page string }{
		{"the ring light on my kettle is too bright at night, how do i turn it off", "pair#0"},
		{"how do i factory reset my K50? it just won't pair with my old android phone", "pair#0"},
	}
	for _, c := range refused {
		if off := actJudge(t, false, th, c.q, c.page); !off.Assessment.Sufficient {
			t.Fatalf("%q, Act off: %+v, want accepted (the case no longer shows the class)", c.q, off.Assessment)
		}
		on := actJudge(t, true, th, c.q, c.page)
		if on.Assessment.Sufficient {
			t.Errorf("%q, Act on: %+v, want refused", c.q, on.Assessment)
		}
		if none := actJudge(t, true, nil, c.q, c.page); !none.Assessment.Sufficient {
			t.Errorf("%q, Act on, no thesaurus: %+v, want accepted (Act reads nothing without one)", c.q, none.Assessment)
		}
	}
	kept := []struct{ q, page string }{
		{"how do I get my K50 talking to the app on my phone?", "pair#0"},       // a light verb: what it acts on, "app"
		{"how do I pair the K50 with the app?", "pair#0"},                       // the verb itself
		{"The X300 Pro is showing E4. How do I clear it?", "err#0"},             // a pronoun: the scene's code
		{"how will I know when the courier has taken my appliance?", "track#0"}, // "know": the clause after it
	}
	for _, c := range kept {
		if on := actJudge(t, true, th, c.q, c.page); !on.Assessment.Sufficient {
			t.Errorf("%q, Act on: %+v, want accepted", c.q, on.Assessment)
		}
	}
	// A verb WordNet names a way of doing the asked one states it: "pair"
	// is a way to "join", a way to "connect" (hollin q21's shape).
	connect := "how do I connect the K50 to my phone?"
	if off := actJudge(t, false, th, connect, "pair#0"); !off.Assessment.Sufficient {
		t.Fatalf("%q, Act off: %+v, want accepted", connect, off.Assessment)
	}
	if on := actJudge(t, true, th, connect, "pair#0"); on.Assessment.Sufficient {
		t.Errorf("%q, Act on, no taxonomy: %+v, want refused (no document says connect)", connect, on.Assessment)
	}
	ways := fakeTaxonomy{th, map[string][]thesaurus.Taxon{
		"connect": {{Word: "join", Pos: 'v', Common: true, Pointer: '~'}},
		"join":    {{Word: "pair", Pos: 'v', Pointer: '~'}, {Word: "connect", Pos: 'v', Broader: true, Pointer: '@'}},
	}}
	if on := actJudge(t, true, ways, connect, "pair#0"); !on.Assessment.Sufficient {
		t.Errorf("%q, Act on, \"pair\" a way to connect: %+v, want accepted", connect, on.Assessment)
	}
	if actModel(t) != V34Model || V34Model != "builtin:coverage-v34" {
		t.Errorf("Act on (Frame and Kind off) names %q, want builtin:coverage-v34", actModel(t))
	}
}

// actModel is the model id of the default assessor with Act on and
// Frame and Kind off.
func actModel(t *testing.T) string {
	t.Helper()
	b := NewBuiltin(terms.New(), newLexicon(terms.New()))
	b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = true, false, false, false, 0, 0, 0, 0, false
	newerIf(b, false)
	b.Gate = false
	return b.Model()
}

// TestAskedAction: the reading of the asked action, on actCorpus's
// vocabulary: the verbs the documents use, or what a light verb acts on
// (its words after a particle and up to what the question sets aside),
// an unknown verb or light verb's object read as unknown.
func TestAskedAction(t *testing.T) {
	an := terms.New()
	lex := actLexicon(an)
	b := NewBuiltin(an, lex)
	vocab := lex.Visible([]string{"public"})
	for _, c := range []struct {
		q              string
		verbs, objects []string
		unknown        bool
	}{
		{"how do i turn it off", nil, nil, true},
		{"how do i descale it", []string{"descal"}, nil, false},
		{"how do i factory reset my K50?", nil, nil, true},
		{"can I get my money back instead of a repair?", nil, []string{"monei"}, false},
		{"do we get a bonus for turning a repair round?", nil, []string{"repair"}, true},
		{"how do I get my K50 talking to the app?", nil, []string{"app"}, false},
		{"what do I do now?", nil, nil, false},
		{"will that do for the app?", nil, nil, false}, // "do" with nothing after it names no action, whatever follows the preposition (rv32b)
		// a33-kind: a light verb after a pronoun, where answertype.Verbs
		// reads none, is read as one: its direct object no document
		// names decides nothing
		{"will that get us a bonus?", nil, nil, true},
		// a33-kind: a verb of learning is no asked verb, however known
		// ("know" has a relative here); the clause after it says what
		{"how will I know when the courier has collected it?", nil, []string{"courier", "collect"}, false},
	} {
		ents := Entities(an, c.q, vocab)
		a := b.askedAction(c.q, answertype.Classify(c.q), ents, vocab, map[string][]synonym{"know": {{Word: "learn", Term: "learn"}}})
		if !slices.Equal(a.verbs, c.verbs) || !slices.Equal(a.objects, c.objects) || a.unknown != c.unknown {
			t.Errorf("%q: verbs %v objects %v unknown %v, want %v %v %v", c.q, a.verbs, a.objects, a.unknown, c.verbs, c.objects, c.unknown)
		}
	}
}

// actJudgeOver judges q against the pages of actCorpus and hollinLike
// ids names, in that order, over both corpora's vocabulary, with Act as
// set and th (rv32b: the wide reading's hook and focusedBelow read the
// K50 kettle page, which holds another instruction, "descale it").
func actJudgeOver(t *testing.T, act bool, th Thesaurus, q string, ids ...string) Result {
	t.Helper()
	// Learned off: the rules' own verdict (the learned model accepts the
	// K50 page for "how do I speed up the spout" at 0.87: round 47's log)
	return actJudgeWith(t, func(b *Builtin) { b.Act, b.Learned, b.LearnedCover, b.Veto = act, false, false, false }, th, q, ids...)
}

// actJudgeWith is actJudgeOver with the switches set sets.
func actJudgeWith(t *testing.T, set func(b *Builtin), th Thesaurus, q string, ids ...string) Result {
	t.Helper()
	return actJudgeIn(t, append(append(slices.Clone(actCorpus), hollinLike...), moreK50...), set, th, q, ids...)
}

// actJudgeIn is actJudgeWith over the pages of pool.
func actJudgeIn(t *testing.T, pool []Evidence, set func(b *Builtin), th Thesaurus, q string, ids ...string) Result {
	t.Helper()
	an := terms.New()
	var texts []string
	for _, e := range pool {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	lex := newLexicon(an, texts...)
	var ev []Evidence
	for _, id := range ids {
		i := slices.IndexFunc(pool, func(e Evidence) bool { return e.ChunkID == id })
		ev = append(ev, pool[i])
	}
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	b.UseThesaurus(th)
	set(b)
	res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// moreK50 are two more K50 pages, each with an instruction for another
// action ("wipe it", "unplug it"), to rank the pairing page fourth.
var moreK50 = []Evidence{
	{ChunkID: "k50-lid#0", Title: "K50 lid", Text: "The K50 lid opens with a button. Wipe it with a damp cloth once a week."},
	{ChunkID: "k50-base#0", Title: "K50 base", Text: "The K50 base has a 75 cm cord. Unplug it before cleaning."},
}

// wideReasonPart is what the wide reading's reason says (wideReason).
const wideReasonPart = "of the weight of the question's words your documents use, in any of their forms"

// TestActWide (rv32b): with Act, the wide reading (read.go, readWidely)
// takes a chunk for an instruction question only when it states the
// asked action: the K50 kettle page's "descale it" answers no "how do I
// speed up the spout" (the page says nothing of speed; refused), and
// still answers "how do I descale the spout at full speed" (accepted,
// the wide way). Fails with the hook in readWidely removed (the first is
// accepted) or inverted (the second is refused).
func TestActWide(t *testing.T) {
	th := fakeThesaurus{}
	speed := "My K50 kettle boils in about four minutes with citric acid; how do I speed up the spout?"
	if off := actJudgeOver(t, false, th, speed, "man-k50-kettle#0"); !off.Assessment.Sufficient || !strings.Contains(off.Assessment.Reason, wideReasonPart) {
		t.Fatalf("%q, Act off: %+v, want accepted by the wide reading (the case no longer shows it)", speed, off.Assessment)
	}
	if on := actJudgeOver(t, true, th, speed, "man-k50-kettle#0"); on.Assessment.Sufficient {
		t.Errorf("%q, Act on: %+v, want refused (the page says nothing of speeding up)", speed, on.Assessment)
	}
	descale := "My K50 kettle boils in about four minutes; how do I descale the spout at full speed?"
	if on := actJudgeOver(t, true, th, descale, "man-k50-kettle#0"); !on.Assessment.Sufficient || !strings.Contains(on.Assessment.Reason, wideReasonPart) {
		t.Errorf("%q, Act on: %+v, want accepted by the wide reading (the page says how to descale)", descale, on.Assessment)
	}
}

// TestActBelow (rv32b): with Act, when the focus reading's first chunk
// does not state the asked action, it takes one below it that does
// (focusedBelow, hollin q21's shape): "how do I connect the K50 to my
// phone?" with the kettle page first and the pairing page second is
// answered from the pairing page ("pair" a way to connect); without the
// taxonomy naming that way, no page states it and the question is
// refused; the pairing page is taken third, not fourth (actRank). Fails
// with focusedBelow not called (refused), its statesAction test inverted
// (refused) or actRank raised (the fourth accepted).
func TestActBelow(t *testing.T) {
	th := fakeThesaurus{}
	ways := fakeTaxonomy{th, map[string][]thesaurus.Taxon{
		"connect": {{Word: "join", Pos: 'v', Common: true, Pointer: '~'}},
		"join":    {{Word: "pair", Pos: 'v', Pointer: '~'}, {Word: "connect", Pos: 'v', Broader: true, Pointer: '@'}},
	}}
	q := "how do I connect the K50 to my phone?"
	if off := actJudgeOver(t, false, ways, q, "man-k50-kettle#0", "pair#0"); !off.Assessment.Sufficient || !slices.Equal(off.Accepted, []string{"man-k50-kettle#0"}) {
		t.Fatalf("%q, Act off: %+v %v, want accepted on the kettle page (the case no longer shows the class)", q, off.Assessment, off.Accepted)
	}
	on := actJudgeOver(t, true, ways, q, "man-k50-kettle#0", "pair#0")
	if !on.Assessment.Sufficient || !slices.Equal(on.Accepted, []string{"pair#0"}) {
		t.Errorf("%q, Act on: %+v %v, want accepted on the pairing page, second", q, on.Assessment, on.Accepted)
	}
	if none := actJudgeOver(t, true, th, q, "man-k50-kettle#0", "pair#0"); none.Assessment.Sufficient {
		t.Errorf("%q, Act on, no way of connecting known: %+v %v, want refused", q, none.Assessment, none.Accepted)
	}
	// down to rank 2 (actRank), not below
	if third := actJudgeOver(t, true, ways, q, "man-k50-kettle#0", "k50-lid#0", "pair#0"); !third.Assessment.Sufficient || !slices.Equal(third.Accepted, []string{"pair#0"}) {
		t.Errorf("%q, Act on, the pairing page third: %+v %v, want accepted on it", q, third.Assessment, third.Accepted)
	}
	if fourth := actJudgeOver(t, true, ways, q, "man-k50-kettle#0", "k50-lid#0", "k50-base#0", "pair#0"); fourth.Assessment.Sufficient {
		t.Errorf("%q, Act on, the pairing page fourth: %+v %v, want refused (below actRank)", q, fourth.Assessment, fourth.Accepted)
	}
	// a33-kind: the chunks below are judged by the focus reading's own
	// test (focusTakes): with FocusTopic (off in every named model) the
	// pairing page, holding no word of the clause but the K50's, is not
	// taken second, as it would not be first
	topic := actJudgeWith(t, func(b *Builtin) { b.Act, b.FocusTopic = true, true }, ways, q, "man-k50-kettle#0", "pair#0")
	if slices.Equal(topic.Accepted, []string{"pair#0"}) && strings.Contains(topic.Assessment.Reason, "clause that asks") {
		t.Errorf("%q, Act and FocusTopic on: %+v %v, want the pairing page not taken by the focus reading", q, topic.Assessment, topic.Accepted)
	}
}

// TestActOddInput (rv32b): the asked action is read without panicking,
// and the same way twice, from questions of odd shapes — empty, only a
// verb, only punctuation, "?" first or doubled, non-ASCII words — with a
// thesaurus and without.
func TestActOddInput(t *testing.T) {
	for _, q := range []string{"", "?", "??", "install", "how", "how?", "? how do I pair it", "how do I?? pair it?",
		"do", "it", "do it?", "how do I do it", "¿cómo reinicio el K50?", "how do I ☕ the K50 kettle?", "how do I pair — it’s the K50 — with the app?",
		"E4 E4 E4", "how do I get", "how do I get it", "what do I do now with the app?"} {
		for _, th := range []Thesaurus{nil, fakeThesaurus{}} {
			first := actJudge(t, true, th, q, "pair#0", "err#0")
			again := actJudge(t, true, th, q, "pair#0", "err#0")
			if first.Assessment.Sufficient != again.Assessment.Sufficient || first.Assessment.Reason != again.Assessment.Reason {
				t.Errorf("%q: judged %+v then %+v", q, first.Assessment, again.Assessment)
			}
		}
	}
}

// TestActReasonAndScope (rv32b): the coverage rules' refusal under Act
// says why ("says it of another action than the one asked"), and v34
// reads instruction questions only: the yes/no shape of the same
// question ("can i turn it off?") is accepted on the pairing page as
// without Act. Fails with the reason's case removed or Act read on every
// answer type.
func TestActReasonAndScope(t *testing.T) {
	th := fakeThesaurus{}
	how := "the ring light on my kettle is too bright at night, how do i turn it off"
	if on := actJudgeOver(t, true, th, how, "pair#0"); on.Assessment.Sufficient || !strings.Contains(on.Assessment.Reason, "says it of another action than the one asked") {
		t.Errorf("%q, Act on: %+v, want refused as an instruction for another action", how, on.Assessment)
	}
	can := "the ring light on my kettle is too bright at night, can i turn it off?"
	if on := actJudgeOver(t, true, th, can, "pair#0"); !on.Assessment.Sufficient {
		t.Errorf("%q, Act on: %+v, want accepted (v34 reads instruction questions only)", can, on.Assessment)
	}
}

// TestStatesAction (a33-kind): where statesAction looks and what counts
// as stating the asked action, on one chunk each: the title ("Descaling
// the K50" states "descale", though the steps never say it); a term the
// asked one prefixes, of four letters or more ("registration" states
// "register": regist, registr); a relative the thesaurus gives ("turn"
// for "switch"); a sentence next to an instruction, not one further off.
// Each rule fails with its part of statesAction removed.
func TestStatesAction(t *testing.T) {
	an := terms.New()
	b := NewBuiltin(an, newLexicon(an))
	asked := answertype.Classify("how do I register my K50?")
	covers := func(have map[string]bool, t string) bool { return have[t] }
	steps := "Fill the kettle with citric acid solution and boil it. Then rinse twice."
	for _, c := range []struct {
		rule        string
		a           *action
		title, text string
		want        bool
	}{
		{"the title", &action{verbs: []string{"descal"}}, "Descaling the K50", steps, true},
		{"the title (none)", &action{verbs: []string{"descal"}}, "K50 care", steps, false},
		{"a term the asked one prefixes", &action{verbs: []string{"regist"}}, "Your K50", "Complete the registration form within 28 days.", true},
		{"a prefix under four letters", &action{objects: []string{"reg"}}, "Your K50", "Complete the registration form within 28 days.", false},
		{"a relative", &action{verbs: []string{"switch"}, related: map[string][]synonym{"switch": {{Word: "turn", Term: "turn"}}}}, "Ring light", "Turn the dial to off. The ring light goes out.", true},
		{"a relative (none)", &action{verbs: []string{"switch"}}, "Ring light", "Turn the dial to off. The ring light goes out.", false},
		{"next to an instruction", &action{verbs: []string{"free"}}, "Your K50", "Registration takes a minute. It is free. You get reminders. Hold the dial down.", false},
		{"next to an instruction (next)", &action{verbs: []string{"remind"}}, "Your K50", "Registration takes a minute. It is free. You get reminders. Hold the dial down.", true},
	} {
		if got := b.statesAction(c.a, asked, &Evidence{Title: c.title, Text: c.text}, covers); got != c.want {
			t.Errorf("%s: %+v in %q / %q: stated %v, want %v", c.rule, c.a, c.title, c.text, got, c.want)
		}
	}
}

// TestWaysOf (a33-kind): the ways of doing a verb are read from its
// common senses only: "pair", a way to "join", is a way to "connect"
// when "join" is a common sense's hyponym of "connect", and none when
// it is a rare sense's (WordNet lists every sense; a rare one's troponyms
// would let a page say how to do another thing).
func TestWaysOf(t *testing.T) {
	an := terms.New()
	lex := actLexicon(an)
	vocab := lex.Visible([]string{"public"})
	for _, common := range []bool{true, false} {
		b := NewBuiltin(an, lex)
		b.UseThesaurus(fakeTaxonomy{fakeThesaurus{}, map[string][]thesaurus.Taxon{
			"connect": {{Word: "join", Pos: 'v', Common: common, Pointer: '~'}},
			"join":    {{Word: "pair", Pos: 'v', Pointer: '~'}, {Word: "connect", Pos: 'v', Broader: true, Pointer: '@'}},
		}})
		want := []string(nil)
		if common {
			want = []string{"pair"}
		}
		if got := b.waysOf("connect", vocab); !slices.Equal(got, want) {
			t.Errorf("\"join\" a common sense %v: ways of connecting %v, want %v", common, got, want)
		}
	}
}

// careK50 are K50 pages for TestActFocus: one saying "descaling" away
// from its instruction, one with no instruction, one with an instruction
// for resetting, one saying "keep".
var careK50 = []Evidence{
	{ChunkID: "k50-care#0", Title: "K50 care", Text: "Descaling keeps the K50 working well. It takes ten minutes. Most owners find it easy. Fill the K50 with citric acid and boil it."},
	{ChunkID: "k50-box#0", Title: "K50 in the box", Text: "The K50 ships with a base and a manual. The base has a 75 cm cord."},
	{ChunkID: "k50-reset#0", Title: "K50 reset", Text: "To reset the K50, hold the dial down for ten seconds."},
	{ChunkID: "k50-keep#0", Title: "Keeping your K50", Text: "Keep the K50 away from the sink."},
}

// TestActFocus (a33-kind): where Act checks the focus reading. Only when
// the clause that asks holds a word no document uses or falls back to
// its entities: "how do I descale the K50?" asks in words the documents
// use, the focus reading's coverage already reads "descale", and the care
// page saying "descaling" three sentences before its instruction is
// accepted (fails with Act checking every focus acceptance); "how do I
// keep it?" holds only a generic word, the focus reading falls back to
// the K50, and the reset page, which says nothing of keeping, is refused
// with Act and accepted without (fails with the entity fallback not
// read: entityOnly). focusedBelow reads only a clause with a reading of
// an action in words: "what do I do now?" names none, and the reset page
// second is not taken for it (fails with focusedBelow's guard removed).
func TestActFocus(t *testing.T) {
	pool := append(append(append(slices.Clone(actCorpus), hollinLike...), moreK50...), careK50...)
	th := fakeThesaurus{}
	v33 := func(b *Builtin) {
		b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, 0, 0, 0, 0, false
		newerIf(b, false)
		b.Gate = false
	}
	v36 := func(b *Builtin) {}
	for _, c := range []struct {
		rule    string
		q       string
		ids     []string
		off, on bool
	}{
		{"words the documents use: no check", "My courier dropped the warranty box and the tracking link broke. How do I descale the K50?", []string{"k50-care#0"}, true, true},
		{"the entity fallback: checked", "My K50 base cuts out at the sink. How do I keep it?", []string{"k50-reset#0"}, true, false},
		{"no action named: nothing below the first", "My K50 base and cord keep cutting out at the sink. What do I do now?", []string{"k50-box#0", "k50-reset#0"}, false, false},
	} {
		if off := actJudgeIn(t, pool, v33, th, c.q, c.ids...); off.Assessment.Sufficient != c.off || off.Usage.Model != V33Model+"+fake-1" {
			t.Errorf("%s: %q, v33: %+v (%s), want sufficient %v (builtin:coverage-v33+fake-1)", c.rule, c.q, off.Assessment, off.Usage.Model, c.off)
		}
		if on := actJudgeIn(t, pool, v36, th, c.q, c.ids...); on.Assessment.Sufficient != c.on {
			t.Errorf("%s: %q, v36: %+v %v, want sufficient %v", c.rule, c.q, on.Assessment, on.Accepted, c.on)
		}
	}
}
