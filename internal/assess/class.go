package assess

import (
	"context"
	"slices"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/names"
	"github.com/assay-rag/assay/internal/wire"
)

// V26Model names the builtin assessor with v27's class reading off
// (Builtin.Class): builtin:coverage-v26, kept selectable.
const V26Model = "builtin:coverage-v26"

// builtin:coverage-v27 (Builtin.Class) learns a product's class from the
// asker's visible documents. The asker names the class ("my kettle", "the
// K50 kettle"); the page that answers names only the model ("Pairing the
// K50 with the Hollin Home app"), and v20's reading of product names sees
// the full name ("K50 Smart Kettle") only when the attempt's evidence
// happens to hold it. Class searches, for each known question word some
// retrieved chunk naming a code lacks (with the index's name pairs, only
// a word some visible chunk names one of that chunk's codes with:
// PairedNamingVocabulary), the few best-ranked visible chunks holding it that
// pass the run's filters (NamingVocabulary), and reads the product names
// those chunks write (ProductNames): a code the word is written after in
// a full name is a product of that class, and a chunk naming the code
// holds the word. As in v20, a word written after two codes names neither
// ("X200 Blender", "X300 Pro Blender"): round 25 measured crediting it to
// both, and it made two no-answer questions about an X200 part the asker
// cannot see accepted on the X200's blade page. Unlike v20 it applies when the question names its
// product too ("the K50 kettle"), and only the question's words are
// credited: a code's other name words change nothing.

// NamingVocabulary is a Vocabulary that can also read the texts of the
// visible chunks holding a term: both backends' vocabularies can, through
// internal/backend/live's adapter.
type NamingVocabulary interface {
	Vocabulary
	// Naming returns the title and text of each of the few best-ranked
	// visible chunks that pass the run's filters f and hold term (an
	// index term); an error when the search failed (the assessment then
	// fails and is retried rather than judge on what it could not read).
	Naming(ctx context.Context, term string, f wire.Filters) ([]string, error)
}

// PairedNamingVocabulary is a NamingVocabulary that also knows which
// (code, name word) pairs the asker's visible chunks write
// (names.Table, kept by the index): the class reading then searches a
// word only when a retrieved chunk lacking it holds a code some visible
// chunk names with it, the only searches whose answer can credit
// anything (ProductNames reads no pair that names.In does not read in a
// single title or text). Both backends' vocabularies are, through
// internal/backend/live's adapter, when their index keeps the table.
type PairedNamingVocabulary interface {
	NamingVocabulary
	// NamePairs returns the pairs of the chunks the asker may see; ok
	// false when the index keeps none (then every word is searched).
	NamePairs() (p names.Pairs, ok bool)
}

// classNames maps each code the asker's visible chunks name a product of
// one of the question's words with to those words: the class reading (see
// above). It reads the chunks holding each known, non-entity question term
// that some retrieved chunk holding a code term lacks — with the asker's
// name pairs known, only a term one of that chunk's codes is named with
// (below); nil when vocab cannot read chunks or no retrieved chunk holds
// a code term (a code some visible chunk names, with pairs). owns are the
// retrieved chunks' own mentions (TitledMentions), read once by assess.
func (b *Builtin) classNames(ctx context.Context, vocab Vocabulary, f wire.Filters, qterms []weighted, ents []Entity, owns []map[string]bool) (map[string]map[string]bool, error) {
	nv, ok := vocab.(NamingVocabulary)
	if !ok {
		return nil, nil
	}
	// Only a chunk holding a code can be credited a word (withNames), and a
	// code's term has a letter and a digit (answertype.IsCode): the chunks
	// holding no such term are left out, and with none left nothing is
	// searched — most questions over a corpus without model codes cost no
	// search here.
	//
	// With the asker's name pairs known (PairedNamingVocabulary), a chunk
	// counts only by the codes it holds that some visible chunk writes a
	// name after, and a word is searched only when one of those codes is
	// named with it: no other search's answer can credit a chunk lacking
	// the word (withNames adds a code's words to a chunk holding the code,
	// and a chunk holding the word gains nothing).
	pairs, paired := namePairs(nv)
	var haves []map[string]bool
	var codes [][]string // with pairs: per chunk of haves, its codes that head a visible name
	for _, h := range owns {
		if !paired {
			if holdsCodeTerm(h) {
				haves = append(haves, h)
			}
			continue
		}
		var cs []string
		for t := range h {
			if pairs.Code(t) {
				cs = append(cs, t)
			}
		}
		if len(cs) > 0 {
			haves = append(haves, h)
			codes = append(codes, cs)
		}
	}
	if len(haves) == 0 {
		return nil, nil
	}
	var out map[string]map[string]bool
	for _, q := range qterms {
		texts, err := lackedNaming(ctx, nv, f, q, ents, haves, func(k int) bool {
			return !paired || slices.ContainsFunc(codes[k], func(c string) bool { return pairs.Has(c, q.term) })
		})
		if err != nil {
			return nil, err
		}
		for code, ws := range ProductNames(b.an, texts...) {
			if !ws[q.term] {
				continue
			}
			if out == nil {
				out = map[string]map[string]bool{}
			}
			if out[code] == nil {
				out[code] = map[string]bool{}
			}
			out[code][q.term] = true
		}
	}
	return out, nil
}

// namePairs returns the asker's name pairs when vocab knows them.
func namePairs(vocab NamingVocabulary) (names.Pairs, bool) {
	if pv, ok := vocab.(PairedNamingVocabulary); ok {
		return pv.NamePairs()
	}
	return names.Pairs{}, false
}

// lackedNaming returns the texts of the visible chunks holding q's term
// (nv.Naming) when q is a known, non-entity term that some chunk of haves
// lacks and could be credited (credits(k), k the chunk's index in haves);
// nil, and no search, otherwise.
func lackedNaming(ctx context.Context, nv NamingVocabulary, f wire.Filters, q weighted, ents []Entity, haves []map[string]bool, credits func(k int) bool) ([]string, error) {
	if !q.known || entityTerm(ents, q.term) {
		return nil, nil
	}
	lacked := false
	for k, h := range haves {
		lacked = lacked || !h[q.term] && credits(k)
	}
	if !lacked {
		return nil, nil
	}
	return nv.Naming(ctx, q.term, f)
}

// holdsCodeTerm reports whether have holds a term with a letter and a
// digit, as every code's term has.
func holdsCodeTerm(have map[string]bool) bool {
	for t := range have {
		if answertype.IsCode(t) {
			return true
		}
	}
	return false
}

// mergeNames returns a with b's names added (a itself when b is empty).
func mergeNames(a, b map[string]map[string]bool) map[string]map[string]bool {
	if len(b) == 0 {
		return a
	}
	out := map[string]map[string]bool{}
	for _, m := range []map[string]map[string]bool{a, b} {
		for code, ws := range m {
			if out[code] == nil {
				out[code] = map[string]bool{}
			}
			for t := range ws {
				out[code][t] = true
			}
		}
	}
	return out
}
