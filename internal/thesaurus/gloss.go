package thesaurus

import (
	"bytes"
	"strings"
	"unicode"
)

// afterStops end the phrase a gloss's head opens (glossPhrase): the
// prepositions, conjunctions and relative words that begin what the
// definition says of the phrase ("send an bill to", "the control on a
// radio", "a person who uses something").
var afterStops = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`to into onto from with without by for in on at of as about over under through
		across along around towards toward against between among upon than that which who whom whose where when while
		so because if until before after like via per`) {
		afterStops[w] = true
	}
}

// noObject are the words after a head that name no particular thing:
// the particles of a phrasal verb ("send back", "cast forth") and the
// indefinite pronouns that stand for any object ("transfer somebody").
var noObject = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`back out off down away forth inside outside apart aside together home
		something somebody someone anything anybody anyone everything oneself`) {
		noObject[w] = true
	}
}

// glossPhrase reads a synset's gloss (the text after "|") once for its
// head and the last word of the phrase the head opens.
//
// head is the first word of the definition, before the first ";" (the
// examples follow), that is no word of genusSkip and has three letters or
// more, lower-cased, parenthesised text left out. "wipe out digitally or
// magnetically recorded information" (erase) gives "wipe", "ask (a
// person) to do something" (request) "ask", "earlier in time" (before)
// "earlier".
//
// after is the last word of the phrase head opens: the words after it up
// to the first word of afterStops, a mark other than a hyphen or an
// apostrophe, or the gloss's first ";", parenthesised text left out,
// lower-cased, words head would pass over and those of noObject not
// counted; "" when head is followed by none, or by "or", "and" or "nor"
// (another verb or noun: "send or move"), and when there is no head. For
// a verb that word is what it acts on ("bill" for "invoice": "send an
// bill to"; "information" for "delete": "wipe out digitally or
// magnetically recorded information"; "away" for "dispatch", no noun:
// "send away towards a designated goal"); for a noun it is the noun the
// head only modifies ("component" for "spare": "an extra component of a
// machine"), none when the head is the phrase's noun ("dial": "the
// control on a radio or television set"). heads keeps each word once.
func glossPhrase(gloss []byte, heads map[string]string) (head, after string) {
	first := false
	glossWords(gloss, func(w []byte, mark bool) bool {
		switch {
		case head == "":
			if !mark && len(w) >= 3 && !genusSkip[string(w)] {
				head, first = intern(heads, w), true
			}
			return true
		case mark || afterStops[string(w)]:
			return false
		case first && (string(w) == "or" || string(w) == "and" || string(w) == "nor"):
			return false // "send or move ...": another verb, not an object
		}
		first = false
		if len(w) >= 3 && !genusSkip[string(w)] && !noObject[string(w)] {
			after = intern(heads, w)
		}
		return true
	})
	return head, after
}

// glossWords calls yield with each word of a gloss's definition, in
// order, lower-cased — a run of ASCII letters outside parentheses — and
// with each mark outside them (mark true: any other byte but a space, a
// hyphen, an apostrophe and the parentheses), until the first ";" at
// any depth, the gloss's end, or yield returns false. The bytes yielded
// are valid only during the call (intern keeps a word).
func glossWords(gloss []byte, yield func(w []byte, mark bool) bool) {
	depth, start := 0, -1
	for i := 0; i < len(gloss); i++ {
		c := gloss[i]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if letter && depth == 0 {
			if start < 0 {
				start = i
			}
			if i+1 < len(gloss) {
				continue
			}
			i++ // the gloss ends in a word
		}
		if start >= 0 {
			w := gloss[start:i]
			if bytes.ContainsFunc(w, unicode.IsUpper) {
				w = bytes.ToLower(w)
			}
			if !yield(w, false) {
				return
			}
			start = -1
		}
		if i >= len(gloss) {
			return
		}
		switch {
		case c == '(':
			depth++
		case c == ')':
			depth = max(0, depth-1)
		case c == ';':
			return
		case depth > 0 || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '-' || c == '\'':
		case !yield(gloss[i:i+1], true):
			return
		}
	}
}

// intern is w as heads keeps it, each word once.
func intern(heads map[string]string, w []byte) string {
	if h, ok := heads[string(w)]; ok {
		return h
	}
	h := string(w)
	heads[h] = h
	return h
}

// phraseOf reads after, the last word of the phrase a gloss's head opens
// in part of speech pos (glossPhrase), when WordNet knows it as a noun:
// for a verb it is the verb's object, for a noun the noun its head
// modifies. An adverb or an adjective ("send away", "remove or make
// invisible") is neither.
func (w *WordNet) phraseOf(pos byte, after string) (object string, modifier bool) {
	if after == "" || !w.isNoun(after) {
		return "", false
	}
	switch pos {
	case 'v':
		return after, false
	case 'n':
		return "", true
	}
	return "", false
}

// isNoun reports whether WordNet knows a base form of word as a noun.
func (w *WordNet) isNoun(word string) bool {
	for _, l := range w.lemmas(word) {
		if l.pos == 'n' {
			return true
		}
	}
	return false
}
