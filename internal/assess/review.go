package assess

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
)

// Builtin.Review's bits (builtin:coverage-v61, round 47's a47-rv): round
// 46's reviews' proposals (docs/log/round-46-rv46.md P1–P3,
// round-46-rv46b.md P1–P4), each a reading made more general or more
// correct for any wording.
const (
	// reviewCompound: Covered's compound ("limescale" for "scale") is
	// read on the words as written, not only on the analyzer's terms
	// ("limescale" is the term "limescal", which does not end in
	// "scale").
	reviewCompound = 1 << iota
	// reviewCoverNeg: a cover statement may be written with a contraction
	// ("isn't covered", "won't cover", "doesn't cover") or in the past
	// ("was covered").
	reviewCoverNeg
	// reviewCounted: "how many X …, and what are they?" read as "what X
	// …?" (Builtin.Follow's counted) is answered only by a chunk that
	// names them: one of its sentences enumerates, or it lists codes.
	reviewCounted
	// reviewCodes: a list of codes answers a count only of things the
	// chunk names by a word of the counted phrase ("how many error
	// codes", not "how many beeps").
	reviewCodes
	// reviewMeasure: a number with a unit of measure ("1,200 W") counts
	// no things.
	reviewMeasure
	// reviewExtra: "extra", "full", "whole" (and "working", "business",
	// "calendar") after a number count time only before a unit of time
	// ("2 extra working days", not "3 extra blades").
	reviewExtra
	// reviewParticle: Timed's "turn" and "show" say a thing arrives only
	// with "up" ("turn up", "show up"): "when will the X300 Pro show E4"
	// asks for a condition.
	reviewParticle
	// reviewAmount: an amount of money the question states is one written
	// with a currency's name or code ("28.50 pounds", "GBP 28.50") as
	// well as with its sign.
	reviewAmount
	// reviewListWord: the focus reading's enumeration answers a count only
	// when its chunk holds a word of the counted phrase.
	reviewListWord
	// reviewFree: "free" alone does not ask of cover ("is it free to
	// fix?" asks of cost): Covered reads a question of cover by
	// "warranty", "guarantee", "covered" or "covers".
	reviewFree
	// reviewNames: the follow-up that asks the things counted to be named
	// is read in more wordings ("what're they", "what are the names",
	// "which ones", "name them", "list them").
	reviewNames
	// reviewExtreme: Timed reads a question asking for the bound of a time
	// to come in any wording that holds an extreme, a future modal and an
	// arrival verb ("by when at the latest will it be ready?"), not only
	// one opening "what's the latest".
	reviewExtreme
	// reviewKind: a count found near the question's words answers a count
	// question only when it counts a thing the question counts: "three
	// speeds" is no count of colours ("how many colours does the X200 jar
	// come in?"), "3 extra blades" is one of blades.
	reviewKind

	// reviewV61 is builtin:coverage-v61's: every bit but reviewListWord
	// (it refuses the enumeration of statuses Counts was made for: "how
	// many different statuses" names no word the tracking page holds) and
	// reviewFree (replayed: fresh6 m41, "will you still fix it for free?",
	// asks of cover and is then accepted on a page that does not answer).
	reviewV61 = reviewCompound | reviewCoverNeg | reviewCounted | reviewCodes | reviewMeasure | reviewExtra | reviewParticle |
		reviewAmount | reviewNames | reviewExtreme | reviewKind
)

// V60Model names the builtin assessor without Builtin.Review:
// builtin:coverage-v60, kept selectable.
const V60Model = "builtin:coverage-v60"

// reCoverStatementV61 is reCoverStatement with contractions and the past
// tense (reviewCoverNeg).
var reCoverStatementV61 = regexp.MustCompile(`(?i)\b(?:(?:is|are|be|was|were)(?:\s+not|n[’']t)?\s+covered|(?:does|do|did|will|would)(?:\s+not|n[’']t)\s+cover|won[’']t\s+cover|covers|excludes?|excluded|voids?)\b`)

// namesThemV61 and namesThemInV61 are namesThem and namesThemIn in more
// wordings (reviewNames).
const namesThemV61 = `(?:(?:what|which)(?: are|'re|’re| were)? (?:they|them|those|these|their names|the names|the ones|ones)(?: called| named| all)?|(?:can you |could you |please )?(?:name|list) them(?: all)?(?: for me)?(?: please)?)`

var (
	namesThemInV61 = regexp.MustCompile(`(?i)\b` + namesThemV61 + `\s*[?.!]*\s*$`)
	namesThemV61Re = regexp.MustCompile(`(?i)^(?:and |but |also |then )?` + namesThemV61 + `\s*[?.!]*$`)
)

// namesThem is the follow-up Follow's counted reading takes for one
// asking the things counted to be named.
func (b *Builtin) namesThem() *regexp.Regexp {
	if b.Review&reviewNames != 0 {
		return namesThemV61Re
	}
	return namesThem
}

// coverStatement reports whether sentence states what a cover takes in
// or leaves out.
func (b *Builtin) coverStatement(sentence string) bool {
	if b.Review&reviewCoverNeg != 0 {
		return reCoverStatementV61.MatchString(sentence)
	}
	return reCoverStatement.MatchString(sentence)
}

// compoundWritten reports whether sentence writes a compound ending in
// raw, the question's word as written, or in its term ("limescale" for
// "scale"): a word of at least four letters closing a longer word
// (reviewCompound).
func (b *Builtin) compoundWritten(sentence, raw, term string) bool {
	for _, f := range strings.Fields(strings.ToLower(sentence)) {
		w := trimMarks(f)
		for _, end := range []string{raw, term} {
			if len(end) >= 4 && len(w) > len(end)+2 && strings.HasSuffix(w, end) {
				return true
			}
		}
	}
	return false
}

// namesCounted reports whether one of the chunks accepted names the
// things a question asks to be counted and named: a sentence of it
// enumerates, or it lists codes (reviewCounted).
func namesCounted(ev []Evidence, accepted []string) bool {
	for _, e := range ev {
		if !slices.Contains(accepted, e.ChunkID) {
			continue
		}
		if codeList(e.Text) != "" || slices.ContainsFunc(citation.Sentences(e.Text), answertype.Enumerates) {
			return true
		}
	}
	return false
}

// countedIn reports whether have (a chunk's terms) holds a word of the
// phrase question counts (answertype.CountedPhrase), no generic word
// (reviewCodes, reviewListWord).
func (b *Builtin) countedIn(question string, have map[string]bool) bool {
	for _, w := range answertype.CountedPhrase(question) {
		for _, t := range b.an.Terms(w) {
			if !b.generic[t] && have[t] {
				return true
			}
		}
	}
	return false
}

// measureCount reports whether expr, a count found in a sentence ("1,200
// W"), is a number and a unit of a measure (answertype.MeasureUnit) that
// begins one of the sentence's measures (answertype.Find's Quantity)
// (reviewMeasure): a power, a volume or a length counts no things; "three
// speeds" and "3 cups" do.
func measureCount(expr string, measures []string) bool {
	f := strings.Fields(expr)
	if len(f) != 2 || !answertype.MeasureUnit(f[1]) {
		return false
	}
	return slices.ContainsFunc(measures, func(m string) bool { return strings.HasPrefix(m, expr) })
}

// reAmountNamed is an amount of money written with its currency's name or
// code (reviewAmount).
var reAmountNamed = regexp.MustCompile(`(?i)^(?:pounds?|quid|dollars?|euros?|gbp|usd|eur)\b`)

// currencyCodes are the codes reviewAmount reads before an amount ("GBP
// 28.50").
var currencyCodes = []string{"gbp", "usd", "eur"}

// statedNamed reports whether question writes e's text as an amount of
// money by the currency's name or code ("28.50 pounds", "GBP 28.50").
func statedNamed(question string, e Entity) bool {
	for from := 0; ; {
		i := strings.Index(question[from:], e.Text)
		if i < 0 {
			return false
		}
		i += from
		after := strings.TrimSpace(question[i+len(e.Text):])
		before := strings.ToLower(strings.TrimRight(question[max(0, i-16):i], " "))
		if reAmountNamed.MatchString(after[:min(len(after), 16)]) || slices.ContainsFunc(currencyCodes, func(c string) bool {
			return strings.HasSuffix(before, c) && (len(before) == len(c) || !unicode.IsLetter(rune(before[len(before)-len(c)-1])))
		}) {
			return true
		}
		from = i + len(e.Text)
	}
}

// countedTerms is the terms of the phrase question counts
// (answertype.CountedPhrase) that are known question terms (qterms: a
// word the visible documents use) and no generic word's; nil when it has
// none: a word no document uses may be a paraphrase of what a page counts
// ("how many revs" for "22,000 RPM").
func (b *Builtin) countedTerms(question string, qterms []weighted) map[string]bool {
	known := map[string]bool{}
	for _, q := range qterms {
		known[q.term] = q.known
	}
	var out map[string]bool
	for _, w := range answertype.CountedPhrase(question) {
		for _, t := range b.an.Terms(w) {
			if !b.generic[t] && known[t] {
				if out == nil {
					out = map[string]bool{}
				}
				out[t] = true
			}
		}
	}
	return out
}

// offCounted says why expr, a count found in sentence, counts no thing a
// count question counts (reviewKind): none of the words it counts, up to
// three after its number ("3 extra blades"), is a word of the counted
// phrase; "" when one is, or the question counts nothing named.
func (r *reading) offCounted(t answertype.Question, sentence, expr string) string {
	if r.counted == nil || t.Type != answertype.Count {
		return ""
	}
	f := strings.Fields(expr)
	i := strings.Index(sentence, expr)
	if len(f) < 2 || i < 0 {
		return ""
	}
	rest := sentence[i+len(expr):]
	rest = rest[:min(len(rest), 64)] // the three words after it at most
	after := append(f[1:], strings.Fields(rest)...)
	for k, w := range after {
		if k >= 3 || strings.ContainsAny(after[max(k-1, 0)], ",.;:") && k > 0 {
			break
		}
		for _, term := range r.countedAn.Terms(trimMarks(w)) {
			if r.counted[term] {
				return ""
			}
		}
	}
	return "a count of " + strings.Join(f[1:], " ") + ", not of the things the question counts"
}
