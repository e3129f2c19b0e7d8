package assess

import (
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/postag"
)

// agreeHead is Agree's millions digit (round 42's a42-agree4, rebuilt in
// round 43): which words of the clause that asks (askedHead) Agree's
// acceptance asks the chunk to hold when no visible document knows them.
// 1 the asked verb, 2 the head noun of its complement, 3 both, 4 the
// complement's words, 5 the verb and the complement. A question whose
// verb acts on a thing no document names ("what does it cost us in
// total", "how do I get a copy of …") is not answered by a page that
// holds the rest of it, however often the run's searches find that page.
func (b *Builtin) agreeHead() int { return b.Agree / 1000000 % 10 }

// agreePronoun is Agree's ten-millions digit: 1 reads a noun an object
// pronoun follows ("cost us") as the asked verb when the tagger found no
// verb (askedHead's pronoun); 0 does not. The rule was made on one design
// question's tagging (fresh11 u92), so it is a switch of its own.
func (b *Builtin) agreePronoun() bool { return b.Agree/10000000%10 == 1 }

// askedParts is what askedHead reads of the clause that asks.
type askedParts struct {
	verb []string // the asked verb, with the nouns that modify it ("factory reset")
	head string   // the head noun of its complement; "" when none
	comp []string // the complement's words (after the verb, to the clause's end)
}

// auxiliaries are verbs askedHead passes over for the one asked.
var auxiliaries = map[string]bool{
	"be": true, "is": true, "are": true, "was": true, "were": true, "am": true, "been": true, "being": true, "'s": true, "'re": true, "'m": true,
	"do": true, "does": true, "did": true, "done": true,
	"have": true, "has": true, "had": true, "'ve": true,
}

// subjectPronouns open a clause; nouns between one and the verb modify
// the verb ("I factory reset").
var subjectPronouns = map[string]bool{"i": true, "we": true, "you": true, "they": true, "he": true, "she": true, "it": true}

// objectPronouns after a noun the tagger read make it a verb ("cost us")
// under agreePronoun.
var objectPronouns = map[string]bool{"us": true, "me": true, "him": true, "them": true}

// askedHead reads the clause that asks of question (answertype.Asking, cut
// at its sentence's end) with the part-of-speech tagger: the asked verb —
// the first verb that is not an auxiliary; with pronoun, a noun an object
// pronoun follows when the tagger found none; nouns between a subject
// pronoun and the verb modify it — the head noun of its complement (the
// last noun of the first noun run after it, past determiners, pronouns,
// adjectives, adverbs and prepositions) and the complement's words.
func askedHead(question string, pronoun bool) askedParts {
	text := answertype.Asking(question)
	for i := 0; i < len(text); i++ {
		if strings.ContainsRune(".?!", rune(text[i])) && (i+1 == len(text) || text[i+1] == ' ') {
			text = text[:i]
			break
		}
	}
	ws := postag.Tag(text)
	lower := func(i int) string { return strings.ToLower(ws[i].Text) }
	noun := func(i int) bool { return strings.HasPrefix(ws[i].Tag, "NN") }
	v := -1
	for i := range ws {
		if !postag.IsVerb(ws[i].Tag) || auxiliaries[lower(i)] {
			continue
		}
		v = i
		break
	}
	if v < 0 && pronoun {
		for i := 0; i+1 < len(ws); i++ {
			if noun(i) && objectPronouns[lower(i+1)] {
				v = i
				break
			}
		}
	}
	var a askedParts
	if v < 0 {
		return a
	}
	from := v
	for from > 0 && noun(from-1) {
		from--
	}
	if from == v || from == 0 || !subjectPronouns[lower(from-1)] {
		from = v
	}
	for i := from; i <= v; i++ {
		a.verb = append(a.verb, ws[i].Text)
	}
	for i := v + 1; i < len(ws); i++ {
		a.comp = append(a.comp, ws[i].Text)
	}
	i := v + 1
	for i < len(ws) && passed(ws[i].Tag) {
		i++
	}
	for ; i < len(ws) && noun(i); i++ {
		a.head = ws[i].Text
	}
	return a
}

// passed reports whether askedHead passes over a word of tag on its way
// from the asked verb to its complement's head noun.
func passed(tag string) bool {
	for _, p := range []string{"DT", "PDT", "PRP", "JJ", "RB", "IN", "TO"} {
		if strings.HasPrefix(tag, p) {
			return true
		}
	}
	return false
}

// headWords returns the words of a that Agree's millions digit d reads.
func (a askedParts) headWords(d int) []string {
	var out []string
	if d == 1 || d == 3 || d == 5 {
		out = append(out, a.verb...)
	}
	if (d == 2 || d == 3) && a.head != "" {
		out = append(out, a.head)
	}
	if d == 4 || d == 5 {
		out = append(out, a.comp...)
	}
	return out
}

// unknownHead lists the terms of the words of question's clause that asks
// Agree's millions digit reads (askedHead's, headWords) that no visible
// chunk holds (readFocus's unknown).
func (b *Builtin) unknownHead(question string, asked answertype.Question, ents []Entity, vocab Vocabulary) []string {
	words := askedHead(question, b.agreePronoun()).headWords(b.agreeHead())
	if len(words) == 0 {
		return nil
	}
	unknown := b.readFocus(question, asked, ents, vocab).unknown
	in := b.an.Set(strings.Join(words, " "))
	return slices.DeleteFunc(unknown, func(t string) bool { return !in[t] })
}
