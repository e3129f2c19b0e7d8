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
		{" send back to the country of origin", ""},                                        // a particle is no object
		{" (usually used with `off') make fit for use", ""},                                // the head after skipped words
		{" to an; \"wipe the floor\"", ""},                                                 // no head
		{"", ""},
	} {
		if got := afterGenus([]byte(c.gloss), heads); got != c.want {
			t.Errorf("afterGenus(%q) = %q, want %q", c.gloss, got, c.want)
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
