package assess

import (
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
)

// V37Model names the builtin assessor with v38's reading of codes
// (Builtin.CodeTerm) off: builtin:coverage-v37, kept selectable.
const V37Model = "builtin:coverage-v37"

// builtin:coverage-v38 (Builtin.CodeTerm = 15, all four bits; issue 24's
// thirty-fifth round, docs/log/round-35-a35-open.md) reads whether a
// chunk names a product code from its terms alone. v28's general reading
// (general.go) credits a product's class noun ("blender", "kettle") to a page naming no product:
// a policy, FAQ or notice about every appliance ("Repairs and
// turnaround") that never writes the noun. It tells such a page by its
// holding no term with a letter and a digit, as every model code's term
// has; but a chunk's mentions (TitledMentions) hold, beside its terms, the
// runs of up to maxRun of them joined by runSeparator (entity.go, for the
// entities' multi-word names), and a run joining a word and a number
// ("carry £25 inspection fee") has both. So v28 read nearly every page
// stating a number as naming a code, and credited the noun only to pages
// holding no number at all. With CodeTerm a run is not a code: only a
// single term is read (holdsOwnCode).

// CodeTerm's bits. codeRuns reads a code from single terms only. Alone it
// credits the noun to every page about no product, and such pages are
// alike: the noun then tips a page holding little else of the question
// (round 35's replay: two design no-answer questions accepted). codeOnly
// credits it only to a page holding every other known word of the question
// but the entities' (generalHave); codeWord only when one of those is a
// word, not a number ("3" of "3 yrs old" against "3 to 5 working days");
// codeNew puts codeOnly's and codeWord's conditions only on the pages
// codeRuns adds (those v28 read as naming a code by a run), so a page v28
// credited keeps its credit.
const (
	codeRuns = 1 << iota
	codeOnly
	codeWord
	codeNew
	// codeV38 is builtin:coverage-v38's CodeTerm: all four bits.
	codeV38 = codeRuns | codeOnly | codeWord | codeNew
)

// holdsCode reports whether have names a code: holdsOwnCode with
// CodeTerm, holdsCodeTerm (any key, runs too) without.
func (b *Builtin) holdsCode(have map[string]bool) bool {
	if b.CodeTerm&codeRuns != 0 {
		return holdsOwnCode(have)
	}
	return holdsCodeTerm(have)
}

// holdsOwnCode reports whether have holds a single term (not a run of
// terms, see mentionsOf) with a letter and a digit.
func holdsOwnCode(have map[string]bool) bool {
	for t := range have {
		if !strings.Contains(t, runSeparator) && answertype.IsCode(t) {
			return true
		}
	}
	return false
}

// generalHave is withGeneral(have, class), but with codeOnly have itself
// unless every known question term that is no entity's and no class
// noun is covered: a page about every appliance holds the asker's
// "blender" only when it holds everything else the question says in the
// documents' words.
func (b *Builtin) generalHave(have, class map[string]bool, r *reading, covers func(map[string]bool, string) bool) map[string]bool {
	if len(class) == 0 {
		return have
	}
	if b.codeOnlyOn() && (b.CodeTerm&codeNew == 0 || holdsCodeTerm(have)) {
		word := b.CodeTerm&codeWord == 0
		for _, q := range r.qterms {
			if !q.known || class[q.term] || entityTerm(r.ents, q.term) {
				continue
			}
			if !covers(have, q.term) {
				return have
			}
			word = word || strings.ContainsFunc(q.term, unicode.IsLetter)
		}
		if !word {
			return have
		}
	}
	return b.withGeneral(have, class)
}

// A chunk's credit by v28's general reading (creditOf), whatever
// generalClass answers.
const (
	creditNone    = iota // no answer adds a class noun to it
	creditFree           // a class noun it lacks is added, with no condition
	creditChecked        // added when codeOnly's condition holds
)

// creditOf tells how generalHave could credit a class noun to have (a
// chunk's mentions with its product names, as the judgement reads it),
// for any answer of generalClass: never to a page naming a code
// (withGeneral); and, under codeOnly's condition, never when have does
// not cover a known question term that is no entity's and that no
// answer can hold — every class noun generalClass returns is a term
// named reports (one some visible chunk writes in a product's name), so
// such a term is checked, and refuses, whatever the answer. Then no
// search for have's sake can change its judgement, and generalClass
// makes none (v38 reads many more pages as naming no code, and a page
// stating a number is under the condition; round 36,
// docs/log/round-36-p36-name.md).
func (b *Builtin) creditOf(have map[string]bool, qterms []weighted, ents []Entity, covers func(map[string]bool, string) bool, named func(term string) bool) int {
	if b.holdsCode(have) {
		return creditNone
	}
	if !b.codeOnlyOn() || b.CodeTerm&codeNew != 0 && !holdsCodeTerm(have) {
		return creditFree
	}
	for _, q := range qterms {
		if !q.known || entityTerm(ents, q.term) || named(q.term) {
			continue
		}
		if !covers(have, q.term) {
			return creditNone
		}
	}
	return creditChecked
}
