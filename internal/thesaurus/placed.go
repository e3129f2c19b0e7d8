package thesaurus

import (
	"slices"
	"strings"
)

// instanceOf is the pointer symbol an instance's hypernym ("@i": Spain is
// an instance of a European country) is kept under; only Placed follows it.
const instanceOf = 'i'

// Placed returns the adverbs and adjectives WordNet defines by a kind the
// proper name is an instance of: the name's noun senses (its exact form,
// multi-word ones with spaces; the maxSenses most frequent) reach through
// their instance hypernym a class ("European country") and that class's
// hypernyms, each word of those synsets one of whose maxSenses most
// frequent senses it is ("country", not "state" or "land"), and a word whose gloss, in one
// of its maxSenses most frequent senses, opens with a phrase one of those
// nouns ends is given ("abroad": "to or in a foreign country"). A word that
// is no name of an instance (a common noun, an unknown word) has none.
// Sorted, each once.
func (w *WordNet) Placed(name string) []string {
	w.defined.once.Do(w.indexDefined)
	form := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), " ", "_")
	kinds := map[string]bool{}
	n := 0
	for _, r := range w.index[form] {
		if r.pos != 'n' {
			continue
		}
		if n++; n > maxSenses {
			break
		}
		_, ptrs := w.synsetBy(r, string(instanceOf))
		for _, p := range ptrs {
			ws, up := w.synsetBy(p.synsetRef, "@")
			w.firstSenses(kinds, p.synsetRef, ws)
			for _, q := range up {
				ws, _ := w.synsetBy(q.synsetRef, "")
				w.firstSenses(kinds, q.synsetRef, ws)
			}
		}
	}
	var out []string
	for k := range kinds {
		for _, x := range w.defined.modified[k] {
			if !slices.Contains(out, x) {
				out = append(out, x)
			}
		}
	}
	slices.Sort(out)
	return out
}

// firstSenses adds to kinds each word of ws (synset r's) one of whose
// maxSenses most frequent senses r is: "country" of "country, state,
// land" (its second), not "state" (its seventh; its first is a condition)
// or "land", which would give "edgy" ("in a state of nervous tension") or
// "landward".
func (w *WordNet) firstSenses(kinds map[string]bool, r synsetRef, ws []string) {
	for _, x := range ws {
		if its, _ := w.senseOf(x, r); its > 0 && its <= maxSenses {
			kinds[x] = true
		}
	}
}
