package answertype

import "strings"

// AskedPhrase reads the noun phrase a "what" or "which" question asks
// about: the words right after the question word ("which firmware
// version should it run", "what colour does the light turn"), or after
// "is/are" and a determiner ("what is the opening time", "what are the
// different statuses"), up to the first auxiliary, preposition, pronoun,
// determiner or conjunction. It names the kind of thing the answer is.
//
// A clause that asks with no such phrase — the question word followed by
// an auxiliary ("what does that code indicate", "what have I done
// wrong") or by "is" and a participle, comparative or predicate word
// ("what's wrong with it", "what is causing that", "which is better";
// see predicate) — asks about what its verb or adjective says of a thing
// the clause names; np is then empty. After "is" and a noun ("what is
// pyrolysis mode") the noun is the phrase, as after a determiner. ok is false when the clause that
// asks (see Asking) does not open with "what" or "which".
func AskedPhrase(question string) (np []string, ok bool) {
	ws := contracted(opening(words(Asking(question))))
	if len(ws) == 0 || ws[0] != "what" && ws[0] != "which" {
		return nil, false
	}
	rest := ws[1:]
	switch {
	case len(rest) == 0:
		return nil, true
	case beForms[rest[0]]:
		rest = rest[1:]
		if len(rest) == 0 || predicate(rest[0]) {
			return nil, true // "what's wrong", "what is causing it", "which is better"
		}
	case auxiliaries[rest[0]]:
		return nil, true // "what does it mean"
	}
	for len(rest) > 0 && (determiners[rest[0]] || pronouns[rest[0]]) {
		rest = rest[1:]
	}
	if len(rest) > 2 && kindNouns[rest[0]] && rest[1] == "of" {
		rest = rest[2:] // "what sort of problems": problems
		for len(rest) > 0 && (determiners[rest[0]] || pronouns[rest[0]]) {
			rest = rest[1:]
		}
	}
	for _, w := range rest {
		if auxiliaries[w] || beForms[w] || prepositions[w] || pronouns[w] || determiners[w] || subjectStarts[w] ||
			conjunctions[w] || whWords[w] || w == "of" {
			break
		}
		np = append(np, w)
	}
	return np, true
}

// predicate reports whether w, right after "what is" or "which are", says
// something of a thing rather than naming it: a participle ("causing",
// "included"), a comparative or superlative ("better", "cheapest"), or
// one of the few words such clauses use ("wrong", "up", "there"). A
// noun there ("what is pyrolysis mode", "what are descaling cycles")
// is the phrase asked about, as it is after a determiner.
func predicate(w string) bool {
	return predicates[w] || len(w) > 4 && (strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "est"))
}

var predicates = set("wrong", "right", "up", "there", "so", "ok", "okay", "fine", "new", "different", "possible",
	"available", "broken", "faulty", "missing", "due", "better", "worse", "cheaper", "faster", "quicker",
	"longer", "shorter", "bigger", "larger", "smaller", "higher", "lower", "easier", "safer", "more", "less",
	"most", "least", "best", "worst", "likely", "allowed", "covered", "free", "normal", "usual", "meant")

// kindNouns before "of" say the phrase after them is what is asked about
// ("what sort of problems", "which kind of descaler").
var kindNouns = set("sort", "sorts", "kind", "kinds", "type", "types")

// AskedPhrases is AskedPhrase read from every "what" or "which" of the
// clause that asks, the first one's phrase first: a question can ask for
// a second kind of thing after its first part ("what have I done wrong,
// and what sort of warning is that?"), which AskedPhrase, reading from
// the clause's opening, does not reach. ok is AskedPhrase's.
func AskedPhrases(question string) (nps [][]string, ok bool) {
	np, ok := AskedPhrase(question)
	if !ok {
		return nil, false
	}
	nps = append(nps, np)
	fs := strings.Fields(Asking(question))
	for i := 1; i < len(fs); i++ {
		if w := contracted(words(fs[i])); len(w) == 0 || w[0] != "what" && w[0] != "which" {
			continue
		}
		if more, ok := AskedPhrase(strings.Join(fs[i:], " ")); ok && len(more) > 0 {
			nps = append(nps, more)
		}
	}
	return nps, true
}
