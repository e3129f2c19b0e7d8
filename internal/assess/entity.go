package assess

import (
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/terms"
)

// An Entity is something a question names rather than describes: a model
// number, an error or part code, a case number, a product, partner or
// place name. Evidence about another entity of the same kind (the X200's
// speeds for a question about the X400) does not answer the question, so
// the builtin assessor requires the chunk it judges to mention every
// entity of the question.
type Entity struct {
	// Text is the entity as the question typed it ("X300 Pro").
	Text string
	// Terms are its analyzed terms; a chunk covers the entity when they
	// stand together in it, in this order (CoveredBy).
	Terms []string
	// Code is true when the entity holds a digit (a model, part, error or
	// case number), false for a capitalised name.
	Code bool
}

// backgroundShare is the share of the visible chunks above which a name is
// background rather than a subject: the corpus owner's name ("Hollin") on
// every other page tells no document from another, so a question that
// mentions it is not asking about a particular entity.
const backgroundShare = 0.2

// Entities finds the entities of question by their shape, using vocab
// (the principal's visible statistics) only to drop background names:
//
//   - a code is a word holding a digit and a letter ("X200", "E7",
//     "PMP-X300", "B-2291"), or a number of four or more digits ("30455");
//     shorter plain numbers are quantities, not names;
//   - a name is a capitalised word that does not start the question or a
//     sentence ("Brook", "Tritan"), or a word in capitals of two or more
//     letters anywhere ("VAT"); "I" is not a name;
//   - adjacent entity words form one entity ("X300 Pro", "Brook Street
//     Repairs", "Hollin Home").
//
// When most words of the question are capitalised (a title-case or
// all-caps question), capitals say nothing and only codes are entities.
// A name all of whose terms occur in more than backgroundShare of the
// visible chunks is dropped. A name or code the principal's documents never
// mention is kept: evidence cannot be about it.
func Entities(an *terms.Analyzer, question string, vocab Vocabulary) []Entity {
	var out []Entity
	var cur []string // words of the entity being read
	code := false
	flush := func() {
		if len(cur) == 0 {
			return
		}
		text := strings.Join(cur, " ")
		ts := an.Terms(text)
		if len(ts) > 0 && (code || !background(ts, vocab)) {
			out = append(out, Entity{Text: text, Terms: ts, Code: code})
		}
		cur, code = nil, false
	}
	words := strings.Fields(question)
	capitals := 0
	for _, w := range words {
		if rs := []rune(w); len(rs) > 0 && unicode.IsUpper(rs[0]) {
			capitals++
		}
	}
	names := 2*capitals <= len(words)
	sentenceStart := true
	for _, raw := range words {
		w := strings.TrimFunc(raw, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		w = dropPossessive(dropModifier(w))
		ends := strings.ContainsAny(raw[len(raw)-1:], ".?!;:")
		isCode := isCodeWord(w)
		isName := names && !isCode && isNameWord(w, sentenceStart)
		switch {
		case isCode || isName:
			cur = append(cur, w)
			code = code || isCode
		default:
			flush()
		}
		if w != "" {
			sentenceStart = false
		}
		if ends || strings.ContainsAny(raw, ",") {
			flush() // "X200, and the K50" are two entities
		}
		if ends {
			sentenceStart = true
		}
	}
	flush()
	return out
}

// dropModifier cuts a lower-case ending off a hyphenated word that names
// something: "Rad53-dependent" names Rad53, "Artemisinin-based"
// Artemisinin. A code's own parts ("PMP-X300", "HL-X300-UK", "B-2291")
// are kept, as is a lower-case word ("hard-water").
func dropModifier(w string) string {
	for {
		i := strings.LastIndex(w, "-")
		if i <= 0 {
			return w
		}
		head, tail := w[:i], w[i+1:]
		if tail == "" || strings.IndexFunc(tail, func(r rune) bool { return !unicode.IsLower(r) }) >= 0 ||
			strings.IndexFunc(head, func(r rune) bool { return unicode.IsUpper(r) || unicode.IsDigit(r) }) < 0 {
			return w
		}
		w = head
	}
}

// dropPossessive cuts a possessive ending off a word: "X200's jar" names
// the X200 (the analyzer would read "x200" and "s", two terms no passage
// holds together). A plural possessive's apostrophe ("Repairs'") is cut
// with the punctuation around the word.
func dropPossessive(w string) string {
	for _, suffix := range []string{"'s", "’s", "'S", "’S"} {
		if strings.HasSuffix(w, suffix) {
			return strings.TrimSuffix(w, suffix)
		}
	}
	return w
}

// isCodeWord reports whether a word is a code (answertype.IsCode) or a
// number of four digits or more ("2291", a batch or part number).
func isCodeWord(w string) bool {
	if answertype.IsCode(w) {
		return true
	}
	digits := 0
	for _, r := range w {
		if unicode.IsDigit(r) {
			digits++
		}
	}
	return digits >= 4
}

func isNameWord(w string, sentenceStart bool) bool {
	rs := []rune(w)
	if len(rs) < 2 || !unicode.IsUpper(rs[0]) {
		return false
	}
	allCaps := true
	for _, r := range rs {
		if unicode.IsLetter(r) && !unicode.IsUpper(r) {
			allCaps = false
			break
		}
	}
	return allCaps || !sentenceStart
}

// background reports whether every term of a name is common in vocab.
func background(ts []string, vocab Vocabulary) bool {
	n := vocab.Len()
	if n == 0 {
		return false
	}
	for _, t := range ts {
		if float64(vocab.DocFreq(t)) <= backgroundShare*float64(n) {
			return false
		}
	}
	return true
}

// CoveredBy reports whether a text's mentions (see Mentions) name the
// whole of e: its terms standing together, in its order. Part of an entity
// is another entity: "X300" does not cover "X300 Pro", nor "Brook" (or
// "Brook" and "Street" far apart) "Brook Street Repairs".
func (e Entity) CoveredBy(mentions map[string]bool) bool {
	if len(e.Terms) == 0 {
		return false
	}
	for _, k := range e.keys() {
		if !mentions[k] {
			return false
		}
	}
	return true
}

// keys are e's terms joined as Mentions joins a run of adjacent terms: one
// key, or for an entity longer than maxRun each of its runs of maxRun
// terms.
func (e Entity) keys() []string {
	if len(e.Terms) <= maxRun {
		return []string{strings.Join(e.Terms, runSeparator)}
	}
	var out []string
	for i := 0; i+maxRun <= len(e.Terms); i++ {
		out = append(out, strings.Join(e.Terms[i:i+maxRun], runSeparator))
	}
	return out
}

// runSeparator joins adjacent terms in a Mentions key; analyzed terms
// never hold it.
const runSeparator = "\x1f"

// maxRun is the longest run of adjacent terms Mentions records.
const maxRun = 4

// Mentions returns what texts (a title and a body, say) mention, as the
// entity check reads them: each of their analyzed terms, and each run of
// two to maxRun terms adjacent in one text (stop words left out, as the
// index leaves them) joined by runSeparator. Every plain term is in it, so
// it serves as the texts' term set too.
func Mentions(an *terms.Analyzer, texts ...string) map[string]bool {
	lists := make([][]string, len(texts))
	for i, text := range texts {
		lists[i] = an.Terms(text)
	}
	return mentionsOf(lists)
}

// TitledMentions is Mentions(an, title, text), with text's terms read
// from the analysis of the chunk as the reranker read it when the cache
// holds it (terms.Analyzer.Titled). The map is shared with every other
// caller asking for the same title and text (mentions_memo.go): read
// only.
func TitledMentions(an *terms.Analyzer, title, text string) map[string]bool {
	m, k, ok := titledMemo.get(title, text)
	if ok {
		return m
	}
	tt, xt := an.Titled(title, text)
	m = mentionsOf([][]string{tt, xt})
	titledMemo.put(k, title, text, m)
	return m
}

// mentionsOf is Mentions over texts already analysed.
func mentionsOf(lists [][]string) map[string]bool {
	// Sized for every list's terms and runs at once: sized for the first
	// list, a title's, it grew step by step through the text's (the
	// rehashing was ≈1% of `assay dev`'s CPU at 500k chunks).
	total := 0
	for _, ts := range lists {
		total += len(ts)
	}
	out := make(map[string]bool, maxRun*total)
	var starts []int
	for _, ts := range lists {
		if len(ts) < 2 {
			for _, t := range ts {
				out[t] = true
			}
			continue
		}
		// Each run's key is a substring of the list's terms joined by
		// runSeparator, built once: a key built per run cost a lookup, a
		// string and an assignment (round 29: the string and the lookup
		// were ≈40% of mentionsOf at 500k chunks).
		joined, st := joinTerms(ts, starts[:0])
		starts = st
		for i := range ts {
			out[ts[i]] = true
			for n := 2; n <= maxRun && i+n <= len(ts); n++ {
				last := i + n - 1
				out[joined[starts[i]:starts[last]+len(ts[last])]] = true
			}
		}
	}
	return out
}

// joinTerms returns ts joined by runSeparator and, appended to starts,
// where each term begins in it.
func joinTerms(ts []string, starts []int) (string, []int) {
	size := len(runSeparator) * (len(ts) - 1)
	for _, t := range ts {
		size += len(t)
	}
	var sb strings.Builder
	sb.Grow(size)
	for i, t := range ts {
		if i > 0 {
			sb.WriteString(runSeparator)
		}
		starts = append(starts, sb.Len())
		sb.WriteString(t)
	}
	return sb.String(), starts
}

// assumeTogether marks in have, a term set that cannot tell where its
// terms stand, every entity whose terms it holds as mentioned whole: the
// most a text holding them could say.
func assumeTogether(have map[string]bool, ents []Entity) {
	for _, e := range ents {
		all := len(e.Terms) > 0
		for _, t := range e.Terms {
			all = all && have[t]
		}
		if all {
			for _, k := range e.keys() {
				have[k] = true
			}
		}
	}
}

// known reports whether any visible chunk mentions every term of e (not
// necessarily together).
func (e Entity) known(vocab Vocabulary) bool {
	for _, t := range e.Terms {
		if vocab.DocFreq(t) == 0 {
			return false
		}
	}
	return true
}
