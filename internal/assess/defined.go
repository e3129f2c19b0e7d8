package assess

import "github.com/assay-rag/assay/internal/thesaurus"

// V31Model names the builtin assessor with v32's reading of a question
// word through the words WordNet defines by it off (Builtin.Defined):
// builtin:coverage-v31, kept selectable.
const V31Model = "builtin:coverage-v31"

// A Definer is a thesaurus that knows which words its glosses define by
// a word (thesaurus.WordNet.Defined): "erase" and "delete" are defined
// as wiping out recorded information, "request" as asking.
type Definer interface {
	Defined(word string) []thesaurus.Taxon
}

// defined (Builtin.Defined) maps each question term that is no entity's
// to the words the chunk judged (the first; with KinRank, one below it:
// judgeCredited) holds that WordNet defines by it — whose
// gloss, in one of their two most frequent senses of a part of speech,
// opens with the question word ("wipe" → "delete": "wipe out digitally
// or magnetically recorded information"; "ask" → "request"; "early" →
// "before": "earlier in time") — single words that are no unit and not
// the question's own, that the asker's documents use (linked, as taxa
// reads its relatives). The asker names the action or the thing in the
// word the definition gives; the page, in the word defined. A question
// word heading more than fifty senses' definitions ("part",
// "remove") gives none (thesaurus.maxDefined). Without a thesaurus that
// knows its glosses, none.
func (b *Builtin) defined(question string, ents []Entity, vocab Vocabulary, first *judged) map[string][]synonym {
	df, ok := b.Thesaurus.(Definer)
	if !b.Defined || !ok {
		return nil
	}
	return b.linked(question, ents, vocab, first.have, b.definedHeld(question, first, df.Defined)) // gloss.go
}

// withDefined adds to tries, the credits a chunk (first) is judged with
// in turn (Builtin.Kin, Hyp; judgeCredited), one more: the last of them
// with the words defined by a question word (defined) added, when the
// chunk holds any.
func (b *Builtin) withDefined(tries []map[string][]synonym, question string, ents []Entity, vocab Vocabulary, first *judged) []map[string][]synonym {
	def := b.defined(question, ents, vocab, first)
	if len(def) == 0 {
		return tries
	}
	return append(tries, withTaxa(tries[len(tries)-1], def))
}
