package assess

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// V23Model names the builtin assessor with v24's hypernym and hyponym
// credit off (Builtin.Hyp): builtin:coverage-v23, kept selectable.
const V23Model = "builtin:coverage-v23"

// Taxonomer is a Thesaurus that also knows the words one hypernym or
// hyponym pointer from a word's senses; WordNet does.
type Taxonomer interface {
	Taxa(word string) []thesaurus.Taxon
}

// hypWord is question word raw as taxa reads it (bareWord), or "" when
// taxa leaves it alone: a word holding a digit or of fewer than three
// letters (WordNet's numbers, letters, symbols and abbreviations), and,
// when the question has lower-case letters (lower), a word in capitals: an
// acronym, which WordNet knows only as the lower-case word ("PIN" as the
// verb "pin", to fasten; "LED" as "lead"; "RAM" the sheep). In a question
// of ordinary case Entities takes such a word for a name and taxa never
// reads it; in a title-case one ("How Do I Reset My PIN?") Entities
// reads no names (round-24 rv24, TestHypLeavesAcronyms). In a question
// all in capitals an acronym cannot be told, and every word is read.
func hypWord(raw string, lower bool) string {
	w := bareWord(raw)
	if utf8.RuneCountInString(w) < 3 || strings.ContainsFunc(w, unicode.IsDigit) || lower && !strings.ContainsFunc(w, unicode.IsLower) {
		return ""
	}
	return w
}

// taxa (builtin:coverage-v24, Builtin.Hyp) maps each question term that
// is no entity's to the words one direct hypernym or hyponym pointer from
// it that the asker's documents use, through a common sense of both
// words (thesaurus.Taxon's Common and ItsCommon: "ask" → "request", not
// "support" → "part"), single words only ("till" → "work on" is no
// "work"), and no unit ("date" → "day", "period" → "hours": a unit
// says how an answer is counted, and every page stating a period holds
// one; answertype.IsUnit). A question word holding a digit or of fewer
// than three letters is left alone: WordNet knows such tokens as numbers,
// letters, symbols and abbreviations, mostly untagged, so their first
// sense passes for a common one ("2" → "digit", "pm" → "metal" as
// promethium, "eu" → "metal" as europium; round-23 rv23,
// TestHypLeavesNumbersAndShortTokens), and so is an acronym (hypWord).
// Without a thesaurus that knows
// them, none. Measured against
// looser rules on the development sets: docs/log/round-22-a22-hyp.md.
//
// chunk is the first chunk's terms (judged.have), the only chunk the
// credit reads (judgeFirst), or nil for every relative the documents use.
// A relative the chunk lacks can credit nothing (relatedCovers and
// hypCredited read only the chunk's terms), so the visible vocabulary is
// asked only about relatives the chunk holds (round-23 h23-vocab: 11,410 →
// 54 lookups over fresh18–20's 300 first attempts, TestHypAsksOnlyForChunkWords).
// The judgement is the same as asking about all of them: the relatives
// kept are the chunk's, in the same order, and whether a word's relatives
// were found, which decides whether a later spelling of the same term is
// read ("erased … erasing"), is asked about the others only when such a
// spelling follows (TestHypTaxaAsEveryRelative).
func (b *Builtin) taxa(question string, ents []Entity, vocab Vocabulary, chunk map[string]bool) map[string][]synonym {
	tx, ok := b.Thesaurus.(Taxonomer)
	if !ok {
		return nil
	}
	return b.linked(question, ents, vocab, chunk, func(word string) []thesaurus.Taxon {
		var out []thesaurus.Taxon
		for _, x := range tx.Taxa(word) {
			if x.Common && x.ItsCommon {
				out = append(out, x)
			}
		}
		return out
	})
}

// linked is taxa for the words links gives a question word (already
// filtered by their senses): of them, single words that are no unit,
// not the question's own, that the chunk holds and the asker's documents
// use, each named by how it relates (linkHow).
func (b *Builtin) linked(question string, ents []Entity, vocab Vocabulary, chunk map[string]bool, links func(word string) []thesaurus.Taxon) map[string][]synonym {
	inEntity, inQuestion := entityTerms(ents), b.an.Set(question)
	lower := strings.ContainsFunc(question, unicode.IsLower)
	type spelling struct{ word, term string }
	var words []spelling
	for _, raw := range strings.Fields(question) {
		w := hypWord(raw, lower)
		if w == "" {
			continue
		}
		ts := b.an.Terms(w)
		if len(ts) != 1 || inEntity[ts[0]] || terms.IsQuestionWord(ts[0]) {
			continue
		}
		words = append(words, spelling{w, ts[0]})
	}
	out := map[string][]synonym{}
	found := map[string]bool{} // a relative the documents use was found (out[t] != nil before round 23)
	for i, sp := range words {
		if found[sp.term] {
			continue
		}
		var lacked []string // relatives the documents may use but the chunk lacks
		for _, x := range links(sp.word) {
			if answertype.IsUnit(x.Word) {
				continue
			}
			rt := b.an.Terms(x.Word)
			if strings.Contains(x.Word, " ") || len(rt) != 1 || inQuestion[rt[0]] {
				continue
			}
			if chunk != nil && !chunk[rt[0]] {
				lacked = append(lacked, rt[0])
				continue
			}
			if vocab.DocFreq(rt[0]) == 0 {
				continue
			}
			found[sp.term] = true
			if !containsTerm(out[sp.term], rt[0]) {
				out[sp.term] = append(out[sp.term], synonym{Word: x.Word, Term: rt[0], How: linkHow(x)})
			}
		}
		if !found[sp.term] && len(lacked) > 0 && slices.ContainsFunc(words[i+1:], func(o spelling) bool { return o.term == sp.term && o.word != sp.word }) {
			found[sp.term] = slices.ContainsFunc(lacked, func(t string) bool { return vocab.DocFreq(t) > 0 })
		}
	}
	return out
}

// linkHow says how x relates to the question's word, in the reason.
func linkHow(x thesaurus.Taxon) string {
	switch {
	case x.Pointer == '+':
		return "a derived word"
	case x.Pointer == 'g':
		return "a word defined by it"
	case x.Pointer != 0 && x.Pointer != '@' && x.Pointer != '~':
		return "a related word"
	case x.Broader:
		return "a broader word"
	}
	return "a narrower word"
}

func containsTerm(syns []synonym, t string) bool {
	return slices.ContainsFunc(syns, func(s synonym) bool { return s.Term == t })
}

// withTaxa is kin with each term's taxa added after its relatives.
func withTaxa(kin, taxa map[string][]synonym) map[string][]synonym {
	out := map[string][]synonym{}
	for t, s := range kin {
		out[t] = append(out[t], s...)
	}
	for t, s := range taxa {
		for _, x := range s {
			if !containsTerm(out[t], x.Term) {
				out[t] = append(out[t], x)
			}
		}
	}
	return out
}

// hypCredited is kinCredited for v24: it names the words credited and,
// for a hypernym or hyponym, how it relates (`reading "erased" as
// "delete", a broader word`), or "" when none of them is a hypernym or
// hyponym.
func hypCredited(an *terms.Analyzer, question string, qterms []weighted, j *judged, covers func(map[string]bool, string) bool, credit map[string][]synonym) string {
	var out []string
	taxon := false
	for _, q := range qterms {
		if covers(j.have, q.term) || j.dropped[q.term] {
			continue
		}
		for _, s := range credit[q.term] {
			if j.have[s.Term] {
				x := fmt.Sprintf("%q as %q", wordFor(an, question, q.term), s.Word)
				if s.How != "" {
					x += ", " + s.How
					taxon = true
				}
				out = append(out, x)
				break
			}
		}
	}
	if !taxon {
		return ""
	}
	return " (reading " + strings.Join(out, "; ") + ")"
}
