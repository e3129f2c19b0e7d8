package thesaurus

import (
	"slices"
	"strings"
)

// A Taxon is a word one hypernym or hyponym pointer away from a sense of
// another: "delete" is a direct hypernym of "erase" (erasing is a kind of
// deleting), "request" a direct hyponym of "ask" (requesting is a kind of
// asking). Related leaves these out: through every sense they relate a
// word to hundreds of others, so Taxa says which senses each comes
// through and the caller chooses.
type Taxon struct {
	Word string // lower-cased, multi-word ones with spaces
	// Broader: Word is the more general one, a hypernym of the asked word's
	// sense; otherwise a hyponym (a kind of it).
	Broader bool
	Pos     byte // 'n' or 'v'
	// Sense is the asked word's sense the pointer leaves from (1 is its
	// most frequent in Pos); Common whether that sense is one of its
	// common ones, as CommonRelated reads them (two most frequent per part
	// of speech, a tenth of the tagged uses).
	Sense  int
	Common bool
	// Its and ItsCommon are the same for Word's sense in the synset
	// reached: "delete" reaches "erase" through its first sense.
	Its       int
	ItsCommon bool
	// Pointer is the symbol followed ('@', '~', or one Links was asked
	// for; a meronym's '%', a holonym's '#').
	Pointer byte
	// Object and Modifier read a gloss's phrase, for Defined's taxa (see
	// glossPhrase): Object is the noun a defining verb acts on ("bill" for
	// "invoice": "send an bill to"), "" when none; Modifier reports that
	// a defining noun's head only modifies a noun after it ("extra" for
	// "spare": "an extra component of a machine").
	Object   string
	Modifier bool
}

// taxonomic are the pointers Taxa follows: hypernym and hyponym (for
// verbs, WordNet's troponyms).
const taxonomic = "@~"

// Taxa returns the words of the synsets one hypernym or hyponym pointer
// away from the senses of word's base forms that Related reads (the
// maxSenses most frequent per part of speech), each with the senses it
// comes through, sorted by word, then sense. An unknown word has none.
// The answer is computed once per word WordNet knows and kept (a word of
// many senses has hundreds of hyponyms); a word it does not know is
// answered without being kept, so questions full of made-up words do not
// grow a long-running worker's memory.
func (w *WordNet) Taxa(word string) []Taxon {
	word = strings.ToLower(strings.TrimSpace(word))
	if v, ok := w.taxa.Load(word); ok {
		return v.([]Taxon)
	}
	out := w.readTaxa(word)
	if len(out) > 0 || len(w.lemmas(word)) > 0 {
		w.taxa.Store(word, out)
	}
	return out
}

// readTaxa is Taxa, uncached.
func (w *WordNet) readTaxa(word string) []Taxon { return w.links(word, taxonomic) }

// Links is Taxa for the pointers syms names instead, uncached: '+'
// derivation, '<' participle, '\\' pertainym, '&' similar to, '^' also
// see, '=' attribute, '%' meronym and '#' holonym (of every kind). A
// lexical pointer (a derivation, a participle, a pertainym, an also see
// between words) is followed only from the word's own lemma and reaches
// only the word it names; a semantic one reaches every word of the synset.
func (w *WordNet) Links(word, syms string) []Taxon {
	return w.links(strings.ToLower(strings.TrimSpace(word)), syms)
}

// links is Links of a lower-cased word.
func (w *WordNet) links(word, syms string) []Taxon {
	ls := w.lemmas(word)
	total := 0
	for _, l := range ls {
		for _, c := range w.tags[l] {
			total += c
		}
	}
	var out []Taxon
	for _, l := range ls {
		n := 0
		for _, r := range w.index[l.form] {
			if r.pos != l.pos {
				continue
			}
			n++
			if n > maxSenses {
				break
			}
			common := w.common(l, n, total)
			words, ptrs := w.synsetBy(r, syms)
			for _, p := range ptrs {
				if p.source > 0 && (int(p.source) > len(words) || words[p.source-1] != strings.ReplaceAll(l.form, "_", " ")) {
					continue // a lexical pointer from another word of the synset
				}
				targets, _ := w.synsetBy(p.synsetRef, "")
				if p.target > 0 {
					if int(p.target) > len(targets) {
						continue
					}
					targets = targets[p.target-1 : p.target]
				}
				for _, x := range targets {
					if x == word || slices.Contains(words, x) || slices.ContainsFunc(ls, func(l lemma) bool { return strings.ReplaceAll(l.form, "_", " ") == x }) {
						continue
					}
					its, itsCommon := w.senseOf(x, p.synsetRef)
					out = append(out, Taxon{Word: x, Broader: p.sym == '@', Pos: r.pos, Sense: n, Common: common, Its: its, ItsCommon: itsCommon, Pointer: p.sym})
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Taxon) int {
		if c := strings.Compare(a.Word, b.Word); c != 0 {
			return c
		}
		return a.Sense - b.Sense
	})
	return out
}

// common reports whether sense n of l is one of the common senses of a
// word whose base forms' senses were tagged total times: among the
// maxSenses most frequent of its part of speech, and holding a tenth of
// the tagged uses, or, when none was tagged, the first.
func (w *WordNet) common(l lemma, n, total int) bool {
	switch {
	case n > maxSenses:
		return false
	case total == 0:
		return n == 1
	}
	return float64(w.tags[l][n]) >= minCommonShare*float64(total)
}

// senseOf is the sense number of word x's sense in synset r, and whether
// it is one of x's common senses (its tagged uses counted over every
// part of speech).
func (w *WordNet) senseOf(x string, r synsetRef) (int, bool) {
	form := strings.ReplaceAll(x, " ", "_")
	total := w.formTags[form]
	n := 0
	for _, s := range w.index[form] {
		if s.pos != r.pos {
			continue
		}
		n++
		if s == r {
			return n, w.common(lemma{form, r.pos}, n, total)
		}
	}
	return 0, false
}
