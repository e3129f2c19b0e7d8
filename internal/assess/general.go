package assess

import (
	"context"
	"maps"

	"github.com/assay-rag/assay/internal/names"
	"github.com/assay-rag/assay/internal/wire"
)

// V27Model names the builtin assessor with v28's two readings off
// (Builtin.General, here, and Builtin.Bound, bound.go):
// builtin:coverage-v27, kept selectable.
const V27Model = "builtin:coverage-v27"

// V28Model names the builtin assessor with v29's readings off
// (Builtin.PeriodOf and FreeOf, about.go): builtin:coverage-v28, kept
// selectable.
const V28Model = "builtin:coverage-v28"

// builtin:coverage-v28 (Builtin.General) reads a product's class on a
// page about no product. The asker names the class of the thing ("my
// kettle", "my blender"); a policy, notice or FAQ that answers is about
// every appliance and names none ("Registering your appliance", "Repair
// tracking"), so it never writes the class noun, and v27's class reading
// credits the noun only to a page naming a product of that class. v28
// reads the same product names from the asker's visible chunks holding
// the word (NamingVocabulary, ProductNames without v20's two-codes limit,
// which says which product a noun names and matters only on a page that
// names one), and a chunk that names no product at all — it holds no
// term with a letter and a digit, as every model code's term has — holds
// each question word that is a word of some visible product's name. A
// chunk naming a code holds no class noun this way: a page about the
// X200 does not hold "kettle" (round 25 measured crediting a page that
// names a code whose name was not read, and it accepted a no-answer
// question about a kettle on the X200 recall notice). Like v20's and
// v27's, such a word is never the most specific term a chunk must hold
// and counts nowhere in the focus reading.

// generalClass returns the known, non-entity question terms some visible
// product name holds (read from the asker's visible chunks holding each
// term, see classNames), of those that a retrieved chunk naming no code
// lacks and could be credited (creditable); nil when vocab cannot read
// chunks or no retrieved chunk could be credited. names are the product
// names the judgement adds to each chunk (withNames), covers its coverage
// test: generalHave reads a chunk with both.
func (b *Builtin) generalClass(ctx context.Context, vocab Vocabulary, f wire.Filters, qterms []weighted, ents []Entity, owns []map[string]bool, names map[string]map[string]bool, covers func(map[string]bool, string) bool) (map[string]bool, error) {
	nv, ok := vocab.(NamingVocabulary)
	if !ok {
		return nil, nil
	}
	// With the asker's name pairs known, a word no visible chunk writes in
	// a name after any code is not searched: no Naming answer could hold
	// it in a product's name (inProductName reads the pairs names.In reads,
	// the pairs the table keeps).
	pairs, paired := namePairs(nv)
	// Only a chunk some answer could credit is searched for (creditOf):
	// with a chunk under codeOnly's condition, every chunk naming no code,
	// as before (a class noun such a chunk holds counts towards its
	// condition's word only when it is no class noun); else the chunks
	// credited without a condition.
	var general, free []map[string]bool
	checked := false
	for _, h := range owns {
		if b.holdsCode(h) { // codeterm.go
			continue
		}
		general = append(general, h)
		switch b.creditOf(withNames(h, names), qterms, ents, covers, func(t string) bool { return !paired || pairs.Word(t) }) {
		case creditFree:
			free = append(free, h)
		case creditChecked:
			checked = true
		}
	}
	if !checked {
		general = free
	}
	if len(general) == 0 {
		return nil, nil
	}
	var out map[string]bool
	for _, q := range qterms {
		texts, err := lackedNaming(ctx, nv, f, q, ents, general, func(int) bool { return !paired || pairs.Word(q.term) })
		if err != nil {
			return nil, err
		}
		if inProductName(b, q.term, texts) {
			if out == nil {
				out = map[string]bool{}
			}
			out[q.term] = true
		}
	}
	return out, nil
}

// inProductName reports whether some text writes term in a product's
// full name after a code, however many codes it is written after (the
// names ProductNames reads before its two-codes limit).
func inProductName(b *Builtin, term string, texts []string) bool {
	named := map[string]map[string]bool{}
	for _, t := range texts {
		names.In(b.an, t, named)
	}
	for _, ws := range named {
		if ws[term] {
			return true
		}
	}
	return false
}

// withGeneral returns have with the class terms added, each marked as
// held only through a name (namedKey), when have names no code (as
// b.holdsCode reads it); have itself otherwise.
func (b *Builtin) withGeneral(have map[string]bool, class map[string]bool) map[string]bool {
	if len(class) == 0 || b.holdsCode(have) {
		return have
	}
	var out map[string]bool
	for t := range class {
		if have[t] {
			continue
		}
		if out == nil {
			out = maps.Clone(have)
		}
		out[t] = true
		out[namedKey(t)] = true
	}
	if out == nil {
		return have
	}
	return out
}
