package assess

import (
	"maps"
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestQualifiersComplement (rv33): the complement's tests, each shown by
// a case that fails with it changed — "to" reads the word after it as a
// verb ("do I need to stop claiming": "stop" is a candidate after "to");
// the complement opens within complementReach words (two words between:
// read; three: not); "to" opens it only before a verb that is a content
// word of the question ("use to receipts", "use to do it": no); an -ing
// form is a verb of more than five letters that is a content word
// ("bring" is no -ing form; "paying" is one; "having" is no content word;
// "morning" no verb); a word of an entity is no qualifier; and each of
// complementFrames' frames alone makes a verb a candidate, no other
// frame does.
func TestQualifiersComplement(t *testing.T) {
	g := fakeGrammar{fakeThesaurus{}, map[string]string{
		"use": "nv", "stop": "nv", "claiming": "v", "need": "nv", "do": "v", "bring": "v", "paying": "v", "having": "v", "morning": "n",
	}, map[string][]int{"use": {8, 24}, "stop": {8, 28, 33}, "need": {8, 28}}}
	b := &Builtin{an: terms.New(), Frame: true}
	b.Thesaurus = g
	qualifiers := func(q string, ents []Entity) []string { return readQualifiers(b, q, ents) }
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"will it be fine to stop claiming on the warranty?", []string{"stop"}}, // after "to": a verb
		{"does that stop my son claiming?", []string{"stop"}},                   // two words before the complement
		{"does that stop my old son claiming?", nil},                            // three: out of reach
		{"what else can I use to receipts?", nil},                               // "to" and no verb
		{"what else can I use to do it?", nil},                                  // "to" and no content word
		{"will that stop me bring it?", nil},                                    // five letters: no -ing form
		{"will that stop me paying?", []string{"stop"}},                         // six letters: one
		{"will that stop me having it?", nil},                                   // an -ing verb that is no content word
		{"will that stop the morning?", nil},                                    // an -ing word WordNet knows as no verb
	} {
		if got := qualifiers(c.q, nil); !slices.Equal(got, c.want) {
			t.Errorf("qualifiers(%q) = %v, want %v", c.q, got, c.want)
		}
	}
	stop := []Entity{{Text: "Stop", Terms: []string{"stop"}}}
	if got := qualifiers("does that stop me claiming?", stop); got != nil {
		t.Errorf("with \"stop\" an entity: %v, want none", got)
	}
	for f := 1; f <= 35; f++ {
		g.frames["stop"] = []int{f}
		got := qualifiers("does that stop me claiming?", nil)
		if want := slices.Contains([]int{24, 25, 26, 28, 29, 30, 32, 33, 34, 35}, f); (got != nil) != want { // WordNet's frames with a verbal or clausal complement
			t.Errorf("\"stop\" with frame %d alone: %v, want a qualifier %v", f, got, want)
		}
	}
}

// TestDroppedQualifiers (rv33): a chunk need not hold a qualifier it
// lacks when it names every entity and covers a known content word of the
// question that is no entity's, no number and no qualifier; a qualifier
// it holds is not left out.
func TestDroppedQualifiers(t *testing.T) {
	r := &reading{
		qterms: []weighted{{term: "stop", known: true}, {term: "expect", known: true}, {term: "claim", known: true},
			{term: "k50", known: true}, {term: "2", known: true}, {term: "warranti"}},
		qualifiers: map[string]bool{"stop": true, "expect": true},
		ents:       []Entity{{Text: "K50", Terms: []string{"k50"}, Code: true}},
	}
	covers := func(have map[string]bool, t string) bool { return have[t] }
	for _, c := range []struct {
		have []string
		want []string
		why  string
	}{
		{[]string{"k50", "claim"}, []string{"expect", "stop"}, "the entity and a content word"},
		{[]string{"claim"}, nil, "no entity"},
		{[]string{"k50", "warranti"}, nil, "only a word the documents do not use"},
		{[]string{"k50", "stop"}, nil, "only a qualifier"},
		{[]string{"k50", "2"}, nil, "only a number"},
		{[]string{"k50"}, nil, "only the entity"},
		{[]string{"k50", "claim", "stop"}, []string{"expect"}, "a qualifier held is not left out"},
	} {
		have := map[string]bool{}
		for _, t := range c.have {
			have[t] = true
		}
		if got := slices.Sorted(maps.Keys(r.droppedQualifiers(have, covers))); !slices.Equal(got, c.want) {
			t.Errorf("%s (%v): %v, want %v", c.why, c.have, got, c.want)
		}
	}
}

// TestQualifiersTagged (v37, Builtin.Tagged): a candidate is a qualifier
// only where the part-of-speech tagger tags it a verb in the clause that
// asks. Each noun below is one v36's position rule (no article,
// possessive or preposition before it) read as a verb taking the "to" or
// -ing form after it; the verbs are read by both.
func TestQualifiersTagged(t *testing.T) {
	g := fakeGrammar{fakeThesaurus{}, map[string]string{
		"service": "nv", "submit": "v", "claim": "nv", "finishing": "v", "start": "nv", "finish": "nv", "stop": "nv", "claiming": "v", "use": "nv", "show": "nv",
	}, map[string][]int{"service": {8, 28}, "claim": {8, 26, 33}, "start": {2, 28, 33}, "stop": {8, 28, 33}, "use": {8, 24}}}
	b := &Builtin{an: terms.New(), Frame: true}
	b.Thesaurus = g
	qualifiers := func(q string) []string { return readQualifiers(b, q, nil) }
	for _, c := range []struct {
		q        string
		v36, v37 []string
	}{
		{"How long do service partners have to submit a warranty claim?", []string{"servic"}, nil}, // the subject's noun
		{"How long have we got to put in a labour claim after finishing a job?", []string{"claim"}, nil},
		{"What steps does my repair go through on the tracker, start to finish?", []string{"start"}, nil},
		{"Does that stop me claiming on the warranty?", []string{"stop"}, []string{"stop"}},
		{"what else can i use to show i bought it?", []string{"us"}, []string{"us"}}, // "i": the tagger reads "use" as a noun after it
	} {
		b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, 0, 0, 0, 0, false
		newerIf(b, false)
		b.Gate = false
		if got := qualifiers(c.q); !slices.Equal(got, c.v36) {
			t.Errorf("v36: qualifiers(%q) = %v, want %v", c.q, got, c.v36)
		}
		b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = true, 0, 0, 0, 0, false
		newerIf(b, false)
		b.Gate = false
		if got := qualifiers(c.q); !slices.Equal(got, c.v37) {
			t.Errorf("v37: qualifiers(%q) = %v, want %v", c.q, got, c.v37)
		}
	}
}

// TestTaggedVerbs: the tagger's words are matched to the clause's
// (actionWords) in order, a contraction by its first part ("doesn't":
// "does", a verb).
func TestTaggedVerbs(t *testing.T) {
	clause := "What's the code, and doesn't that stop me claiming?"
	ws := actionWords(clause)
	got := taggedVerbs(clause, ws)
	want := map[string]bool{"what's": false, "code": false, "doesn't": true, "stop": true, "me": false, "claiming": true}
	for i, w := range ws {
		if v, ok := want[w]; ok && got[i] != v {
			t.Errorf("%q (word %d): verb %v, want %v (%v)", w, i, got[i], v, ws)
		}
	}
}

// readQualifiers is b's qualifiers of q, every content word of q a
// question term, sorted.
func readQualifiers(b *Builtin, q string, ents []Entity) []string {
	var qt []weighted
	for _, term := range b.an.Content(q) {
		qt = append(qt, weighted{term: term})
	}
	return slices.Sorted(maps.Keys(b.qualifiers(q, qt, ents)))
}
