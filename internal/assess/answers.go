package assess

import (
	"slices"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
)

// builtin:coverage-v9's checks that a chunk answers (Builtin.Answers), on
// top of v8's coverage rules and focus reading. Each asks whether what
// made a chunk look like an answer is one:
//
//   - an answer that repeats the question is none: "what's the model
//     number of the K50 kettle" is not answered by "K50" in a page on the
//     K50, nor "how many years is the 5-year cover" by "5-year"
//     (repeats). A yes/no decision or an instruction is exempt: its
//     expression ("can", "not", "descale it") is a word of the asked
//     action, which the question names as a matter of course.
//   - a code asked for by its noun ("what's the part number", "the model
//     number", "what number do I ring") is answered only by a chunk that
//     names that kind of code: it must hold the word before the code noun
//     ("part", "model"), or the code noun itself when none comes before
//     it, whenever the visible corpus uses that word (codeNouns,
//     namesCode): an error code in a page that never says "part" is no
//     part number. A word no visible chunk uses asks nothing a chunk
//     could be checked against and is left out.
//   - the question is also judged as typed, with only the spelling
//     corrections the attempt's query carries (queried), and that reading
//     is taken when it accepts: a word the visible corpus does not use
//     then weighs as an unknown word (the paraphrase tolerance) rather
//     than as the corpus word nearest in spelling ("point" read as
//     "print", "packs" as "back", which a chunk then had to hold). When
//     it refuses, the corrected reading decides, as in v8: a real typo
//     ("baise pairs") is still read as the corpus word.
//   - a question whether something exists ("is there a firmware update
//     that sorts it?", "are there any discounts") asks about the thing
//     after "there": when no word of it is one a visible chunk uses, no
//     visible document mentions such a thing, and no chunk answers
//     (absentThing), however well it covers the rest.

// normalised is text in lower case with every run of characters other
// than letters, digits and the joiners of a code ("-", "/") one space,
// and a space at either end, so that a phrase is found in it as
// " phrase ".
func normalised(text string) string {
	var sb strings.Builder
	sb.WriteByte(' ')
	space := true
	for _, r := range strings.ToLower(text) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '/' {
			sb.WriteRune(r)
			space = false
			continue
		}
		if !space {
			sb.WriteByte(' ')
			space = true
		}
	}
	if !space {
		sb.WriteByte(' ')
	}
	return sb.String()
}

// repeats reports whether an expression of the expected type only
// repeats what the question names (see answers.go); never for a yes/no
// decision or an instruction, nor with the checks off.
func (r *reading) repeats(t answertype.Question, expr string) bool {
	if r.named == "" || t.Type == answertype.YesNo || t.Type == answertype.Procedure {
		return false
	}
	e := strings.TrimSpace(normalised(expr))
	return e != "" && strings.Contains(r.named, " "+e+" ")
}

// codeWords are the nouns that ask for a code (answertype's code nouns:
// "what's the part number", "which code").
var codeWords = map[string]bool{"number": true, "numbers": true, "code": true, "codes": true}

// notKinds are words before a code noun that do not say which code
// ("what number", "the number").
var notKinds = map[string]bool{"what": true, "which": true, "what's": true, "whats": true, "the": true, "a": true,
	"an": true, "is": true, "are": true, "its": true, "their": true, "my": true, "our": true, "your": true}

// codeNouns lists the noun a question asking for a code names it by, as
// the visible corpus would hold it: the word before the code noun in the
// clause that asks ("part" in "what's the part number", "model" in "the
// model number") when the visible corpus uses it, else the code noun
// itself when it does ("what number do I ring"); nil when the question
// asks for no code or the corpus uses neither (see answers.go).
func (b *Builtin) codeNouns(question string, asked answertype.Question, vocab Vocabulary) []string {
	if asked.Type != answertype.Name {
		return nil
	}
	ws := strings.Fields(strings.ToLower(answertype.Asking(question)))
	for i, w := range ws {
		w = strings.Trim(w, ",.;:?!\"'")
		if !codeWords[w] {
			continue
		}
		if i > 0 && !notKinds[ws[i-1]] {
			if ts := b.an.Terms(ws[i-1]); len(ts) == 1 && vocab.DocFreq(ts[0]) > 0 {
				return ts
			}
		}
		if ts := b.an.Terms(w); len(ts) == 1 && vocab.DocFreq(ts[0]) > 0 {
			return ts
		}
		return nil
	}
	return nil
}

// namesCode reports whether a chunk holding have may answer a question
// asking for a code by its noun: it holds one of the nouns (always true
// for any other question).
func (r *reading) namesCode(have map[string]bool) bool {
	return len(r.codeNouns) == 0 || slices.ContainsFunc(r.codeNouns, func(t string) bool { return have[t] })
}

// thingEnds end the noun phrase after "is there" ("a fix for that", "an
// update that sorts it").
var thingEnds = map[string]bool{"that": true, "which": true, "for": true, "to": true, "of": true, "on": true,
	"in": true, "with": true, "if": true, "when": true, "i": true, "we": true, "you": true, "about": true, "from": true}

// thingStarts may open it and say nothing of the thing.
var thingStarts = map[string]bool{"a": true, "an": true, "any": true, "some": true, "anything": true, "another": true, "the": true}

// absentThing returns, as the reading judged has it (spelling corrected
// or as typed), the thing a question asks whether there
// is ("a firmware update" in "is there a firmware update that sorts
// it?") when the visible corpus uses none of its words; "" when the
// question asks no such thing or a visible chunk uses a word of it (see
// answers.go).
func (b *Builtin) absentThing(question string, vocab Vocabulary) string {
	ws := strings.Fields(strings.ToLower(answertype.Asking(question)))
	for i := 0; i+1 < len(ws); i++ {
		be := strings.Trim(ws[i], ",.;:?!\"'")
		if !(be == "is" || be == "are" || be == "isn't" || be == "aren't") || strings.Trim(ws[i+1], ",.;:?!\"'") != "there" {
			continue
		}
		var thing []string
		known, content := false, false
		for _, w := range ws[i+2:] {
			end := strings.ContainsAny(w, ",.;:?!")
			w = strings.Trim(w, ",.;:?!\"'")
			if thingEnds[w] {
				break
			}
			thing = append(thing, w)
			if !thingStarts[w] {
				for _, t := range b.an.Content(w) {
					content = true
					known = known || vocab.DocFreq(t) > 0
				}
			}
			if end {
				break
			}
		}
		if content && !known {
			return strings.Join(thing, " ")
		}
		return ""
	}
	return ""
}

// queried returns the question with the spelling corrections of spelled
// (Rewriter.Spell's, word for word) that the attempt's query carries;
// the others are left as typed (see answers.go).
func (b *Builtin) queried(question, spelled, query string) string {
	if spelled == question {
		return question
	}
	ws, ss := strings.Fields(question), strings.Fields(spelled)
	if len(ws) != len(ss) {
		return spelled
	}
	inQuery := b.an.Set(query)
	for i := range ws {
		if ws[i] == ss[i] {
			continue
		}
		if ts := b.an.Terms(ss[i]); len(ts) == 1 && inQuery[ts[0]] {
			ws[i] = ss[i]
		}
	}
	return strings.Join(ws, " ")
}
