package thesaurus

import "testing"

// TestAfterGenus: the phrase a gloss's head opens ends at a preposition,
// a relative word, a mark or the first ";"; its last counted word is what
// a defining verb acts on or the noun a defining noun's head modifies.
func TestAfterGenus(t *testing.T) {
	heads := map[string]string{}
	for _, c := range []struct{ gloss, want string }{
		{" send an bill to; \"She invoiced the company\"", "bill"},                         // invoice
		{" wipe out digitally or magnetically recorded information; \"x\"", "information"}, // delete
		{" send away towards a designated goal", ""},                                       // dispatch: a particle, then a preposition
		{" ask (a person) to do something", ""},                                            // parenthesised text left out
		{" an extra component of a machine or other apparatus", "component"},               // spare
		{" the control on a radio or television set", ""},                                  // dial: the head is the phrase's noun
		{" a person who uses something", ""},                                               // a relative word
		{" send or move around in a bus", ""},                                              // "or" after the head: another verb
		{" remove, as of a part", ""},                                                      // a mark ends it
		{" remove, especially dirt", ""},                                                   // a mark ends it, no stop word after it (rv31)
		{" send an bill", "bill"},                                                          // the gloss ends in the phrase's word (rv31)
		{" send back to the country of origin", ""},                                        // a particle is no object
		{" (usually used with `off') make fit for use", ""},                                // the head after skipped words
		{" to an; \"wipe the floor\"", ""},                                                 // no head
		{"", ""},
	} {
		if _, got := glossPhrase([]byte(c.gloss), heads); got != c.want {
			t.Errorf("glossPhrase(%q) after = %q, want %q", c.gloss, got, c.want)
		}
	}
}

// TestDebianDefinedPhrase: with the real database, Defined's taxa carry
// the phrase their gloss's head opens: "invoice" is defined by "send" as
// sending a bill (Object "bill"), "delete" by "wipe" as wiping out
// information, "dispatch" by "send" with no object ("send away towards a
// designated goal"); "spare" is defined by "extra" only as a modifier ("an
// extra component of a machine").
func TestDebianDefinedPhrase(t *testing.T) {
	w := openDebian(t)
	find := func(word, defined string) (Taxon, bool) {
		for _, x := range w.Defined(word) {
			if x.Word == defined {
				return x, true
			}
		}
		return Taxon{}, false
	}
	for _, c := range []struct {
		word, defined, object string
		modifier              bool
	}{
		{"send", "invoice", "bill", false},
		{"sent", "dispatch", "", false},
		{"wipe", "delete", "information", false},
		{"extra", "spare", "", true},
		{"control", "dial", "", false},
	} {
		x, ok := find(c.word, c.defined)
		if !ok || x.Object != c.object || x.Modifier != c.modifier {
			t.Errorf("Defined(%q)'s %q: %+v (found %v), want Object %q, Modifier %v", c.word, c.defined, x, ok, c.object, c.modifier)
		}
	}
}

// TestDebianDefinedEverySense (rv31): a word a head defines in several
// senses is given for each reading of its defining phrase, not only for
// its first sense in the data file: "tune" is defined by "adjust" as
// adjusting the pitches of instruments (its second sense, first in the
// file) and, with no object, "adjust for (better) functioning" (its
// first); v33's Genus, reading only the first, asked for "pitches". Each
// reading is given once.
func TestDebianDefinedEverySense(t *testing.T) {
	w := openDebian(t)
	for _, c := range []struct{ word, defined string }{{"adjust", "tune"}, {"assume", "sponsor"}, {"commit", "sin"}} {
		objects := map[string]int{}
		for _, x := range w.Defined(c.word) {
			if x.Word == c.defined {
				objects[x.Object]++
			}
		}
		if len(objects) < 2 {
			t.Errorf("Defined(%q) gives %q with the objects %v, want each of its senses' readings", c.word, c.defined, objects)
		}
		for o, n := range objects {
			if n > 1 {
				t.Errorf("Defined(%q) gives %q with object %q %d times, want once", c.word, c.defined, o, n)
			}
		}
	}
}

// TestDebianOpenDropsGlossColumns (rv31): Open reads each synset's gloss
// head and phrase word (genus, after) only to build Defined's index, and
// keeps neither after it (≈4.4 MB of the real database's heap); Defined
// answers the same.
func TestDebianOpenDropsGlossColumns(t *testing.T) {
	w := openDebian(t)
	for pos, s := range w.synsets {
		if s.genus != nil || s.after != nil {
			t.Errorf("%c: Open keeps %d gloss heads and %d phrase words after Defined's index is read", pos, len(s.genus), len(s.after))
		}
	}
	if x := w.Defined("wipe"); len(x) == 0 {
		t.Errorf("Defined(\"wipe\") = none after Open")
	}
}
