package thesaurus

import "strings"

// afterStops end the phrase a gloss's head opens (afterGenus): the
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

// afterGenus is the last word of the phrase the head of a synset's gloss
// (genusOf) opens: the words after the head up to the first word of
// afterStops, a mark other than a hyphen or an apostrophe, or the gloss's
// first ";", parenthesised text left out, lower-cased, words genusOf
// would pass over and those of noObject not counted (words are read as
// genusOf reads them); "" when the head is followed by none, or by "or",
// "and" or "nor" (another verb or noun: "send or move"). For a verb that word is what it acts on ("bill"
// for "invoice": "send an bill to"; "information" for "delete": "wipe out
// digitally or magnetically recorded information"; "away" for
// "dispatch", no noun: "send away towards a designated goal"); for a noun
// it is the noun the head only modifies ("component" for "spare": "an
// extra component of a machine"), none when the head is the phrase's
// noun ("dial": "the control on a radio or television set"). heads keeps
// each word once, as genusOf's.
func afterGenus(gloss []byte, heads map[string]string) string {
	depth, start := 0, -1
	seenHead, first := false, false
	last := ""
	word := func(end int) (string, bool) { // the word, and whether the phrase ends before it
		w := strings.ToLower(string(gloss[start:end]))
		if !seenHead {
			if len(w) >= 3 && !genusSkip[w] {
				seenHead, first = true, true
			}
			return "", false
		}
		if afterStops[w] {
			return "", true
		}
		if (w == "or" || w == "and" || w == "nor") && first {
			return "", true // "send or move ...": another verb, not an object
		}
		first = false
		if len(w) < 3 || genusSkip[w] || noObject[w] {
			return "", false
		}
		if h, ok := heads[w]; ok {
			return h, false
		}
		heads[w] = w
		return w, false
	}
	for i := 0; i <= len(gloss); i++ {
		c := byte(';')
		if i < len(gloss) {
			c = gloss[i]
		}
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if letter && depth == 0 {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			w, stop := word(i)
			start = -1
			if stop {
				return last
			}
			if w != "" {
				last = w
			}
		}
		switch {
		case c == '(':
			depth++
		case c == ')':
			depth = max(0, depth-1)
		case depth > 0 || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '-' || c == '\'':
		case c == ';' || seenHead:
			return last // any other mark ends the phrase once the head is read
		}
	}
	return last
}

// phraseOf reads after, the last word of the phrase a gloss's head opens
// in part of speech pos (afterGenus), when WordNet knows it as a noun:
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
