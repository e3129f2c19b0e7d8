package assess

import (
	"strings"
	"unicode"
)

// compounds (Builtin.Compound, builtin:coverage-v33) reads one
// assessment's evidence for the relatives the evidence writes only inside
// a compound WordNet lists as one word: "spare" in "spare parts" ("spare
// part", a component) is no "extra", though WordNet relates "spare" to
// "extra". The word there names the compound's thing, not its own sense.
// An assessment asks it once for the wide reading's relatives and once
// for each thesaurus try (judgeCredited: up to three on the first chunk,
// three a chunk below it with KinRank): the evidence is split into words
// once, at the first ask, and each term's answer is kept (rv31b; before,
// each ask read every evidence word again).
type compounds struct {
	b        *Builtin
	bf       BaseFormer
	evidence []Evidence
	texts    []wordsOf       // the evidence's titles and texts, split at the first ask
	keep     map[string]bool // a term: written outside a compound, or not at all
}

// wordsOf is a title's or text's words and, for each, its one term ("" for
// a word of none or several).
type wordsOf struct {
	raw, terms []string
}

// compoundsOf returns the reading of evidence; nil when b reads no
// compounds (Compound off, or a thesaurus that knows no base forms).
func (b *Builtin) compoundsOf(evidence []Evidence) *compounds {
	bf, ok := b.Thesaurus.(BaseFormer)
	if !b.Compound || !ok {
		return nil
	}
	return &compounds{b: b, bf: bf, evidence: evidence}
}

// unbound is credit, question terms' relatives (v16's related, v23's kin,
// v24's taxa, v32's defined words), without the relatives the evidence
// writes only inside a compound; credit as it is when c is nil.
func (c *compounds) unbound(credit map[string][]synonym) map[string][]synonym {
	if c == nil || len(credit) == 0 {
		return credit
	}
	out := map[string][]synonym{}
	for t, syns := range credit {
		for _, s := range syns {
			if c.free(s.Term) {
				out[t] = append(out[t], s)
			}
		}
	}
	return out
}

// free reports whether the evidence writes term outside a compound, or
// does not write it at all.
func (c *compounds) free(term string) bool {
	if c.keep == nil {
		c.keep = map[string]bool{}
		for _, e := range c.evidence {
			for _, text := range []string{e.Title, e.Text} {
				w := wordsOf{raw: strings.Fields(text)}
				w.terms = make([]string, len(w.raw))
				for i, r := range w.raw {
					if ts := c.b.an.Terms(strings.ToLower(trimMarks(r))); len(ts) == 1 {
						w.terms[i] = ts[0]
					}
				}
				c.texts = append(c.texts, w)
			}
		}
	}
	if keep, ok := c.keep[term]; ok {
		return keep
	}
	joined := func(a, b string) bool { // a and b one word of WordNet's, nothing between them
		a, b = strings.ToLower(a), strings.ToLower(b)
		if a == "" || b == "" || strings.ContainsFunc(a, unicode.IsPunct) {
			return false
		}
		return len(c.bf.BaseForms(a+"_"+trimMarks(b))) > 0
	}
	written := false
	for _, w := range c.texts {
		for i, t := range w.terms {
			if t != term {
				continue
			}
			written = true
			r := w.raw[i]
			if !(i > 0 && joined(w.raw[i-1], strings.ToLower(trimMarks(r))) || i+1 < len(w.raw) && joined(r, w.raw[i+1])) {
				c.keep[term] = true
				return true
			}
		}
	}
	c.keep[term] = !written
	return !written
}
