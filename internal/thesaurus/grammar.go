package thesaurus

import (
	"slices"
	"strings"
)

// Parts returns the parts of speech WordNet knows word in, through any of
// its base forms, as WordNet's letters in the order n, v, a, r ("top":
// "nva"; "anyway": "r"; "flat out", a collocation: "r"). An unknown word
// has none.
func (w *WordNet) Parts(word string) string {
	var out []byte
	for _, l := range w.lemmas(strings.ReplaceAll(strings.ToLower(strings.TrimSpace(word)), " ", "_")) {
		if !slices.Contains(out, l.pos) {
			out = append(out, l.pos)
		}
	}
	slices.SortFunc(out, func(a, b byte) int { return strings.IndexByte("nvar", a) - strings.IndexByte("nvar", b) })
	return string(out)
}

// VerbFrames returns the generic sentence frames WordNet lists for the
// common senses of word as a verb (the maxSenses most frequent of each of
// its verb base forms, as Related reads them): bit f set for frame f —
// 8 "Somebody ----s something", 26 "Somebody ----s that CLAUSE", 28
// "Somebody ----s to INFINITIVE", 33 "Somebody ----s VERB-ing" … ("stop":
// 28 and 33 among them). A word WordNet knows as no verb has none.
func (w *WordNet) VerbFrames(word string) uint64 {
	t := w.synsets['v']
	var bits uint64
	for _, l := range w.lemmas(strings.ToLower(strings.TrimSpace(word))) {
		if l.pos != 'v' {
			continue
		}
		n := 0
		for _, r := range w.index[l.form] {
			if r.pos != 'v' {
				continue
			}
			if n++; n > maxSenses {
				break
			}
			if i, ok := t.find(r.offset); ok && i < len(t.frames) {
				bits |= t.frames[i]
			}
		}
	}
	return bits
}
