package thesaurus

import (
	"slices"
	"strings"
	"sync"
)

// genusSkip are the words glossPhrase passes over at the start of a gloss:
// function words and the light verbs definitions open with ("make fit
// for use", "cause to ..."), which name no kind of thing or action. A
// general noun heading a definition ("a person who ...", "the act of
// ...") is kept: it heads too many to give any (maxDefined).
var genusSkip = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the of to in on for and or by with from as at is be that this it its which who
		one some any not no used use make made makes do does done have has having get gets give put take being been
		become cause causes especially usually often very more less most`) {
		genusSkip[w] = true
	}
}

// maxDefined is the most senses a word may head the definitions of for
// Defined to give them: a word heading more ("part", "remove", "person",
// "turn": "whiten", "redden", "curdle" ...) is too general a head to
// stand for any one of them.
const maxDefined = 50

// definedIndex maps each base form a gloss's head word has to the senses
// it heads (Defined), built once.
type definedIndex struct {
	once sync.Once
	by   map[string][]Taxon
	// modified maps a noun to the single adverbs and adjectives whose
	// gloss, in one of their maxSenses most frequent senses, opens with a
	// phrase that noun ends ("abroad": "to or in a foreign country"), read
	// by Placed.
	modified map[string][]string
}

// Defined returns the words WordNet defines by word: the single words
// whose gloss, in one of their maxSenses most frequent senses of a part
// of speech, opens with a base form of word in that part of speech ("erase", "delete": "wipe out
// digitally or magnetically recorded information", for "wipe"; "request"
// for "ask"; "before" for "early"), each with that sense (Its,
// ItsCommon) and Pointer 'g'. A word is given once for each reading of
// its defining phrase (Object, Modifier) its senses have, the first
// sense of each: "tune" for "adjust" both as adjusting pitches and with no
// object ("adjust for (better) functioning"). None when word's base
// forms head the definitions of more than maxDefined senses, or of none.
// Open reads the index from every synset.
func (w *WordNet) Defined(word string) []Taxon {
	w.defined.once.Do(w.indexDefined)
	word = strings.ToLower(strings.TrimSpace(word))
	var out []Taxon
	// seen: the forms of word (each read once); given: the readings given
	type reading struct {
		word, object string
		modifier     bool
	}
	seen, given := map[string]bool{word: true}, map[reading]bool{}
	forms := []string{word}
	for _, l := range w.lemmas(word) {
		if f := strings.ReplaceAll(l.form, "_", " "); !seen[f] {
			seen[f] = true
			forms = append(forms, f)
		}
	}
	n := 0
	for _, f := range forms {
		n += len(w.defined.by[f])
		for _, x := range w.defined.by[f] {
			if r := (reading{x.Word, x.Object, x.Modifier}); !seen[x.Word] && !given[r] {
				given[r] = true
				out = append(out, x)
			}
		}
	}
	if n > maxDefined {
		return nil
	}
	return out
}

// indexDefined builds w.defined: for each synset with a head word, each of
// its single words of which it is one of the maxSenses most frequent
// senses in its part of speech, under each base form of the head word in
// that part of speech. A head of another part of speech is a modifier,
// not the kind defined ("will": "a fixed and persistent intent"; "daily":
// "every day"), and heads nothing.
func (w *WordNet) indexDefined() {
	by := map[string][]Taxon{}
	for _, p := range parts {
		t := w.synsets[p.pos]
		headsOf := map[string][]string{} // g's base forms in p's part of speech, read once per g
		for i, g := range t.genus {
			if g == "" {
				continue
			}
			ref := synsetRef{p.pos, t.starts[i]}
			heads, ok := headsOf[g]
			if !ok {
				for _, l := range w.lemmas(g) {
					if f := strings.ReplaceAll(l.form, "_", " "); l.pos == p.pos && !slices.Contains(heads, f) && !strings.Contains(f, " ") {
						heads = append(heads, f)
					}
				}
				headsOf[g] = heads
			}
			if len(heads) == 0 {
				continue
			}
			for _, x := range t.words[t.firstWord[i]:t.firstWord[i+1]] {
				if strings.Contains(x, " ") {
					continue
				}
				its, common := w.senseOf(x, ref)
				if its == 0 || its > maxSenses {
					continue
				}
				obj, mod := w.phraseOf(p.pos, t.after[i])
				for _, h := range heads {
					by[h] = append(by[h], Taxon{Word: x, Pos: p.pos, Its: its, ItsCommon: common, Pointer: 'g', Object: obj, Modifier: mod})
				}
			}
		}
	}
	w.defined.by = by
	modified := map[string][]string{}
	for _, pos := range []byte{'r', 'a'} {
		t := w.synsets[pos]
		for i, a := range t.after {
			if a == "" || t.genus[i] == "" || !w.isNoun(a) {
				continue
			}
			ref := synsetRef{pos, t.starts[i]}
			for _, x := range t.words[t.firstWord[i]:t.firstWord[i+1]] {
				if strings.Contains(x, " ") || slices.Contains(modified[a], x) {
					continue
				}
				if its, _ := w.senseOf(x, ref); its == 0 || its > maxSenses {
					continue
				}
				modified[a] = append(modified[a], x)
			}
		}
	}
	w.defined.modified = modified
}
