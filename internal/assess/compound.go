package assess

import (
	"strings"
	"unicode"
)

// unbound (Builtin.Compound, builtin:coverage-v33) is credit, question terms'
// relatives (v16's related, v23's kin, v24's taxa, v32's defined words),
// without the relatives the evidence writes only inside a compound
// WordNet lists as one word: "spare" in "spare parts" ("spare part", a
// component) is no "extra", though WordNet relates "spare" to "extra".
// The word there names the compound's thing, not its own sense. Without a
// thesaurus that knows base forms (BaseFormer), credit as it is.
func (b *Builtin) unbound(credit map[string][]synonym, evidence []Evidence) map[string][]synonym {
	bf, ok := b.Thesaurus.(BaseFormer)
	if !b.Compound || !ok || len(credit) == 0 {
		return credit
	}
	asked := map[string]bool{} // the relatives' terms: only their words are read
	for _, syns := range credit {
		for _, s := range syns {
			asked[s.Term] = true
		}
	}
	free, bound := map[string]bool{}, map[string]bool{} // terms written outside a compound, inside one
	for _, e := range evidence {
		for _, text := range []string{e.Title, e.Text} {
			raw := strings.Fields(text)
			for i, r := range raw {
				w := strings.ToLower(trimMarks(r))
				ts := b.an.Terms(w)
				if len(ts) != 1 || !asked[ts[0]] || free[ts[0]] {
					continue
				}
				joined := func(a, c string) bool { // a and c one word of WordNet's, nothing between them
					a, c = strings.ToLower(a), strings.ToLower(c)
					if a == "" || c == "" || strings.ContainsFunc(a, unicode.IsPunct) {
						return false
					}
					return len(bf.BaseForms(a+"_"+trimMarks(c))) > 0
				}
				if i > 0 && joined(raw[i-1], w) || i+1 < len(raw) && joined(r, raw[i+1]) {
					bound[ts[0]] = true
				} else {
					free[ts[0]] = true
				}
			}
		}
	}
	out := map[string][]synonym{}
	for t, syns := range credit {
		for _, s := range syns {
			if !bound[s.Term] || free[s.Term] {
				out[t] = append(out[t], s)
			}
		}
	}
	return out
}
