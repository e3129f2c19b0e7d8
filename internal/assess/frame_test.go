package assess

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// fakeGrammar is a thesaurus that reads parts of speech and verb frames
// (Grammar) from its maps.
type fakeGrammar struct {
	fakeThesaurus
	parts  map[string]string
	frames map[string][]int
}

func (g fakeGrammar) Parts(w string) string { return g.parts[strings.ToLower(w)] }

func (g fakeGrammar) VerbFrames(w string) uint64 {
	var bits uint64
	for _, f := range g.frames[strings.ToLower(w)] {
		bits |= 1 << f
	}
	return bits
}

// frameCorpus: a registration page that decides a claim without
// registering, and pages that make "stop" a word the documents use.
var frameCorpus = []Evidence{
	{ChunkID: "reg#0", Title: "Registering your appliance", Text: "Registering is optional. You can still claim under the warranty without registering, as long as you keep your proof of purchase."},
	{ChunkID: "motor#0", Title: "Z10 toaster controls", Text: "Press stop to halt the toaster at once."},
}

// frameGrammar reads "stop" as WordNet does (a verb whose common senses
// take "to INFINITIVE" and "VERB-ing", frames 28 and 33), or, with
// complement false, as one taking an object only (frame 8).
func frameGrammar(complement bool) fakeGrammar {
	stop := []int{8}
	if complement {
		stop = []int{8, 28, 33}
	}
	return fakeGrammar{fakeThesaurus{}, map[string]string{"stop": "nv", "claiming": "v", "claim": "nv", "register": "v", "forgot": "v"},
		map[string][]int{"stop": stop, "claiming": {8, 22, 26}, "claim": {8, 22, 26}}}
}

// frameJudge judges q against frameCorpus's registration page with Frame
// as set and th as the thesaurus (nil: none).
func frameJudge(t *testing.T, frame bool, th Thesaurus, q string) Result {
	t.Helper()
	an := terms.New()
	var texts []string
	for _, e := range frameCorpus {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	lex := newLexicon(an, append(texts, "Warranty terms: how to claim", "Claiming on the warranty for a repair", "Register a claim online", "Opening hours")...)
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	if th != nil {
		b.UseThesaurus(th)
	}
	b.Frame = frame
	res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: frameCorpus[:1], Groups: []string{"public"}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestFrame: with Frame and a Grammar, a verb of the clause that asks
// whose WordNet frames take a verbal complement, and which the question
// gives one ("does that stop me claiming"), is left out of the weight of
// a chunk holding a yes/no statement and the asked action; not without a
// Grammar, not when its frames take no complement, not when the question
// gives it none.
func TestFrame(t *testing.T) {
	q := "Does not registering stop me claiming on the warranty?"
	if off := frameJudge(t, false, frameGrammar(true), q); off.Assessment.Sufficient {
		t.Fatalf("Frame off: %+v, want refused (the test no longer shows the frame)", off.Assessment)
	}
	on := frameJudge(t, true, frameGrammar(true), q)
	if !on.Assessment.Sufficient || !slices.Equal(on.Accepted, []string{"reg#0"}) ||
		!strings.Contains(on.Assessment.Reason, `leaving out "stop": words that only qualify what is asked`) {
		t.Errorf("Frame on: %+v %v, want accepted on reg#0 leaving out \"stop\"", on.Assessment, on.Accepted)
	}
	if on.Usage.Model != BuiltinModel+"+fake-1" || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("model %q, want builtin:coverage-v68+fake-1 (v35 is Frame's; v36 adds Kind, v37 Tagged, v38 CodeTerm, v40 Alone, v41 Gate, v42 ExpandMerge, v43 Rival, v44 ClassFree, v45 Agree, v47 Sides, v48 Places, v49 Matter, v50 Rates, v51 Parts, v52 Ruled)", on.Usage.Model)
	}
	if res := frameJudge(t, true, fakeThesaurus{}, q); res.Assessment.Sufficient {
		t.Errorf("Frame on, a thesaurus with no grammar: %+v, want refused", res.Assessment)
	}
	if res := frameJudge(t, true, nil, q); res.Assessment.Sufficient {
		t.Errorf("Frame on, no thesaurus: %+v, want refused", res.Assessment)
	}
	if res := frameJudge(t, true, frameGrammar(false), q); res.Assessment.Sufficient {
		t.Errorf("Frame on, \"stop\" framed with an object only: %+v, want refused", res.Assessment)
	}
	noComplement := "Does not registering stop the claim on the warranty?"
	if res := frameJudge(t, true, frameGrammar(true), noComplement); res.Assessment.Sufficient {
		t.Errorf("Frame on, %q: %+v, want refused (\"stop\" has no verbal complement here)", noComplement, res.Assessment)
	}
}

// TestQualifiers: the verbs read as qualifying the asking, by their
// frames and the complement the question gives them.
func TestQualifiers(t *testing.T) {
	g := fakeGrammar{fakeThesaurus{}, map[string]string{
		"use": "nv", "show": "nv", "expect": "v", "turn": "nv", "asking": "nv", "fit": "nva", "save": "nv", "pay": "nv", "pick": "nv", "stop": "nv", "claiming": "v", "point": "nv", "registering": "v", "labour": "nv", "swapping": "v",
	}, map[string][]int{
		"use": {8, 24}, "show": {8, 26}, "expect": {8, 24, 26, 28}, "turn": {1, 2}, "asking": {2, 26, 29}, "fit": {1, 10}, "save": {8}, "pay": {8, 9}, "pick": {8}, "stop": {8, 28, 33}, "point": {8, 24}, "labour": {2, 33},
	}}
	an := terms.New()
	b := &Builtin{an: an, Frame: true}
	b.Thesaurus = g
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"lost the receipt, what else can I use to show I bought it?", []string{"us"}},
		{"If I order a part today, when can I expect it to turn up?", []string{"expect"}},
		{"Engineer's asking what to do when E12 keeps coming back", []string{"ask"}},
		{"can we fit cheaper parts on warranty jobs to save time?", nil}, // "fit": no complement frame
		{"do I have to pay the courier to pick it up?", nil},             // "pay": no complement frame
		{"does that stop the claim?", nil},                               // no verbal complement
		{"I wanted to stop claiming. What is the warranty?", nil},        // not in the clause that asks
		{"does that stop me claiming on the warranty?", []string{"stop"}},
		{"what's the point of registering it?", nil},                      // a noun after an article
		{"what will Hollin pay us in labour for swapping the pump?", nil}, // a noun after a preposition
	} {
		var qt []weighted
		for _, term := range an.Content(c.q) {
			qt = append(qt, weighted{term: term})
		}
		got := b.qualifiers(c.q, qt, nil)
		var ks []string
		for k := range got {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		if !slices.Equal(ks, c.want) {
			t.Errorf("qualifiers(%q) = %v, want %v", c.q, ks, c.want)
		}
	}
	b.Frame = false
	if got := b.qualifiers("does that stop me claiming?", []weighted{{term: "stop"}, {term: "claim"}}, nil); got != nil {
		t.Errorf("Frame off: %v, want none", got)
	}
}
