package assess

import (
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/thesaurus"
)

// V32Model names the builtin assessor with v33's readings of a
// definition (Builtin.Genus, Builtin.Spelled) off: builtin:coverage-v32,
// kept selectable.
const V32Model = "builtin:coverage-v32"

// definedHeld is links (v32's words a question word defines, see
// defined) without those the first chunk cannot stand for it by
// (Builtin.Genus, Builtin.Spelled), read only for the words the chunk
// holds (the others credit nothing: linked):
//
//   - Genus: the definition reads as a phrase. A defining noun's head
//     that only modifies a noun after it is no kind the defined word is
//     ("spare": "an extra component of a machine" is a component, not an
//     extra); a defining verb's object must be what the question or the
//     chunk is about ("invoice": "send an bill to" stands for "send" only
//     when the question or the chunk holds "bill" or a word WordNet
//     relates to it, the chunk's "invoice" itself aside — "delete": "wipe
//     out ... recorded information" for a question about account "data").
//   - Spelled: the chunk writes the defined word, a form of it WordNet
//     reduces to it ("invoices"), not only a word the analyzer stems
//     alike ("importance" is no "import").
func (b *Builtin) definedHeld(question string, first *judged, links func(string) []thesaurus.Taxon) func(string) []thesaurus.Taxon {
	if !b.Genus && !b.Spelled || first == nil {
		return links
	}
	var words []string // the chunk's words, read once when asked
	chunkWords := func() []string {
		if words == nil && first.ev != nil {
			words = []string{}
			for _, raw := range strings.Fields(first.ev.Title + " " + first.ev.Text) {
				if w := strings.ToLower(bareWord(raw)); w != "" && !slices.Contains(words, w) {
					words = append(words, w)
				}
			}
		}
		return words
	}
	return func(word string) []thesaurus.Taxon {
		var out []thesaurus.Taxon
		for _, x := range links(word) {
			if ts := b.an.Terms(x.Word); len(ts) == 1 && first.have[ts[0]] {
				if b.Genus && (x.Modifier || x.Object != "" && !b.objectHeld(x, ts[0], question, first, chunkWords())) {
					continue
				}
				if b.Spelled && !b.spelled(x.Word, chunkWords()) {
					continue
				}
			}
			out = append(out, x)
		}
		return out
	}
}

// objectHeld reports whether the question or the first chunk holds x's
// Object (the noun its defining verb acts on) or a word WordNet relates to
// it either way (thesaurus Related: "data" is one of "information"'s
// senses), the chunk's own term for x aside: "invoice" is related to
// "bill", and a chunk saying "invoice" says nothing of sending one.
func (b *Builtin) objectHeld(x thesaurus.Taxon, own, question string, first *judged, chunk []string) bool {
	if b.Thesaurus == nil {
		return true
	}
	want := map[string]bool{}
	for _, w := range append([]string{x.Object}, b.Thesaurus.Related(x.Object)...) {
		if ts := b.an.Terms(w); len(ts) == 1 && ts[0] != own {
			want[ts[0]] = true
		}
	}
	qs := b.an.Set(question)
	for t := range want {
		if qs[t] || first.have[t] {
			return true
		}
	}
	for _, raw := range append(strings.Fields(question), chunk...) {
		w := strings.ToLower(bareWord(raw))
		if ts := b.an.Terms(w); len(ts) != 1 || ts[0] == own {
			continue
		}
		if slices.Contains(b.Thesaurus.Related(w), x.Object) {
			return true
		}
	}
	return false
}

// spelled reports whether the chunk's words hold word or a form WordNet
// reduces to it (BaseFormer); without a thesaurus that knows base forms,
// true.
func (b *Builtin) spelled(word string, chunk []string) bool {
	bf, ok := b.Thesaurus.(BaseFormer)
	if !ok {
		return true
	}
	for _, w := range chunk {
		if w == word || slices.Contains(bf.BaseForms(w), word) {
			return true
		}
	}
	return false
}
