package assess

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
)

// builtin:coverage-v28 (Builtin.Bound) takes an expression of the expected
// answer type for an answer only when it is a value of what the question
// asks it of. Round 26 read why the builtin accepted the no-answer
// questions of the development sets: most of them were accepted on a
// passage holding a value of the asked type that the passage states of
// something else. Five readings of the question, none naming a corpus
// word, tell some of those values apart:
//
//   - a noun of the phrase a "what"/"which" question asks about naming a
//     dimension ("what's the highest temperature I can set") asks for a
//     measure in it, wherever it stands in the phrase: "1.7 litres" is no
//     temperature (answertype.DimensionNoun, read before only right after
//     the question word);
//   - a rate asked per a unit ("how much ... per mile") is not answered by
//     an amount the sentence states per another ("£42 per hour of
//     warranty labour");
//   - a question asking for a lower extreme ("the least water", "the
//     lowest setting", "the minimum") is answered only by a sentence that
//     states one (a lower-extreme word, "from", "between", "at least", a
//     range "2 to 5"): a capacity ("boils 1.7 litres") is a maximum;
//   - a "when" question is not answered by a duration ("unplugging for 20
//     minutes"): that says how long, not when;
//   - a question asking for a person by name ("the name of the customer",
//     "which agent") is answered by a person's name as a sentence writes
//     one — two capitalised words ("Ellie Shaw") or one after a noun
//     naming a person ("agent Tom") — not by a code ("K50") nor by a
//     single capitalised word ("Android");
//   - a count is a whole number: a decimal ("firmware 2.1") counts nothing.
type valueOf struct {
	person bool   // a name question asking for a person
	per    string // the word after "per" in the clause that asks
	lower  string // the lower-extreme word of the clause that asks
}

var (
	rePer        = regexp.MustCompile(`(?i)\bper\s+([a-z]+)`)
	rePerAfter   = regexp.MustCompile(`(?i)^\s*per\s+([^.,;:()]*)`)
	reLowerAsk   = regexp.MustCompile(`(?i)\b(least|lowest|minimum|min|smallest|fewest|shortest|slowest|earliest)\b`)
	reLowerState = regexp.MustCompile(`(?i)\b(least|lowest|minimum|min|smallest|fewest|shortest|slowest|earliest|from|between|down to|as little as|as few as|at least)\b|\d\s*(?:-|–|to)\s*\d`)
	reDecimal    = regexp.MustCompile(`^\d+\.\d`)
	reNameOf     = regexp.MustCompile(`(?i)\bname of (?:the |this |that |a |an |our |your )?(\w+)|\b(\w+)'s name\b`)
)

// askedValue reads what question's asked value is of (see valueOf), from
// the clause that asks (answertype.Asking).
func askedValue(question string) valueOf {
	low := strings.ToLower(answertype.Asking(question))
	var v valueOf
	if nps, ok := answertype.AskedPhrases(question); ok {
		for _, np := range nps {
			for _, w := range np {
				v.person = v.person || answertype.PersonNoun(strings.TrimSuffix(w, "'s"))
			}
		}
	}
	if m := reNameOf.FindStringSubmatch(low); m != nil {
		v.person = v.person || answertype.PersonNoun(m[1]) || answertype.PersonNoun(m[2])
	}
	if m := rePer.FindStringSubmatch(low); m != nil {
		v.per = m[1]
	}
	if m := reLowerAsk.FindStringSubmatch(low); m != nil {
		v.lower = m[1]
	}
	return v
}

// otherValue says, in the asker's terms, why expr, an expression of the
// type t found in sentence, is no value of what the question asks it of
// (see valueOf); "" when it is one.
func (r *reading) otherValue(t answertype.Question, sentence, expr string) string {
	v := r.asks
	switch t.Type {
	case answertype.Name:
		if v.person && (answertype.IsCode(expr) || !personName(sentence, expr)) {
			return "not a person's name"
		}
	case answertype.Count:
		if reDecimal.MatchString(expr) {
			return "a decimal, not a count"
		}
	case answertype.Date, answertype.Condition:
		if strings.HasPrefix(strings.ToLower(expr), "for ") {
			return "a duration, not a time"
		}
	case answertype.Money, answertype.Quantity, answertype.Speed:
		if v.per == "" {
			break
		}
		if i := strings.Index(sentence, expr); i >= 0 {
			if m := rePerAfter.FindStringSubmatch(sentence[i+len(expr):]); m != nil && !strings.Contains(strings.ToLower(m[1]), v.per) {
				return "per " + strings.TrimSpace(m[1]) + ", not per " + v.per
			}
		}
	}
	switch t.Type {
	case answertype.Quantity, answertype.Count, answertype.Period, answertype.Speed, answertype.Money:
		if v.lower != "" && !reLowerState.MatchString(sentence) {
			return "not stated as the " + v.lower
		}
	}
	return ""
}

// personName reports whether name, a word of sentence, is written as a
// person's name: beside another capitalised word that is no code, in the
// same phrase ("Ellie Shaw"), or after a noun naming a person ("agent
// Tom").
func personName(sentence, name string) bool {
	fs := strings.Fields(sentence)
	trim := func(f string) string {
		return strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	}
	capital := func(w string) bool {
		rs := []rune(w)
		return len(rs) > 1 && unicode.IsUpper(rs[0]) && !answertype.IsCode(w)
	}
	for i, f := range fs {
		if trim(f) != name {
			continue
		}
		if i+1 < len(fs) && capital(trim(fs[i+1])) && !strings.ContainsAny(f, ",;:.") ||
			i > 0 && capital(trim(fs[i-1])) && !strings.ContainsAny(fs[i-1], ",;:.") ||
			i > 0 && answertype.PersonNoun(strings.ToLower(trim(fs[i-1]))) {
			return true
		}
	}
	return false
}

// phraseDimension is the dimension a noun of the phrase a "what"/"which"
// question asks about names ("the highest temperature": a temperature;
// answertype.DimensionNoun), "" when none does.
func phraseDimension(question string) string {
	np, _ := answertype.AskedPhrase(question)
	for _, w := range np {
		if d, ok := answertype.DimensionNoun(w); ok {
			return d
		}
	}
	return ""
}

// setAside notes, for a refusal's reason, the first expression of the
// expected type chunk holds that otherValue set aside, and why.
func (r *reading) setAside(chunk, expr, why string) {
	if r.aside == nil {
		r.aside = map[string]string{}
	}
	if _, ok := r.aside[chunk]; !ok {
		r.aside[chunk] = fmt.Sprintf("%q (%s)", expr, why)
	}
}

// asideOf is what a refusal's reason says of the expression set aside in
// chunk: ", only <expr> (<why>)", or "" when none was.
func (r *reading) asideOf(chunk string) string {
	if s, ok := r.aside[chunk]; ok {
		return ", only " + s
	}
	return ""
}
