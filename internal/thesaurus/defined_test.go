package thesaurus

import (
	"slices"
	"testing"
)

// TestGenusOf: a gloss's head is its first word of three letters or more
// that genusSkip does not pass over, before the first ";", parenthesised
// text left out.
func TestGenusOf(t *testing.T) {
	heads := map[string]string{}
	for _, c := range []struct{ gloss, want string }{
		{" wipe out digitally or magnetically recorded information; \"Delete the files\" \n", "wipe"},
		{" ask (a person) to do something; \"She asked him to be here at noon\"", "ask"},
		{" (usually used with `off') make fit for use", "fit"}, // parenthesised text and light words passed over
		{" earlier in time", "earlier"},                        // lower-cased as read
		{" the act of requesting", "act"},                      // a general noun heads (maxDefined caps it)
		{" to an; \"wipe the floor\"", ""},                     // nothing before the ";"
		{" (Wipe) it", ""},                                     // only parenthesised and skipped words
		{" a person who uses something", "person"},             // not the relative clause's verb
		{" Cause to do; make it so", ""},                       // skipped words are read in any case
		{"", ""},
	} {
		if got, _ := glossPhrase([]byte(c.gloss), heads); got != c.want {
			t.Errorf("glossPhrase(%q) head = %q, want %q", c.gloss, got, c.want)
		}
	}
}

// TestDebianDefined: with the real database, Defined gives the words
// whose gloss, in one of their two most frequent senses, opens with the
// word ("delete": "wipe out digitally or magnetically recorded
// information", a sense "erase" shares but not among its two most
// frequent), read through the word's base forms ("wiped"); a head of
// another part of speech heads nothing ("will": "a fixed and persistent
// intent" is no kind of "fixed"; "daily": "every day"), and a word
// heading more than maxDefined senses' definitions gives none ("turn":
// "whiten", "redden", "curdle" ...).
func TestDebianDefined(t *testing.T) {
	w := openDebian(t)
	words := func(word string) []string {
		var out []string
		for _, x := range w.Defined(word) {
			if x.Pointer != 'g' || x.Its < 1 || x.Its > maxSenses {
				t.Errorf("Defined(%q): %+v", word, x)
			}
			out = append(out, x.Word)
		}
		return out
	}
	for _, c := range []struct {
		word    string
		has     []string
		hasNone []string
	}{
		{"wipe", []string{"delete"}, nil},
		{"wiped", []string{"delete"}, []string{"wiped", "wipe"}},
		{"ask", []string{"request"}, nil},
		{"early", []string{"earlier", "prior"}, nil},
		{"fixed", nil, []string{"will"}},
		{"every", nil, []string{"daily"}},
		{"turn", nil, []string{"whiten", "white"}},
		{"zorbexing", nil, nil},
	} {
		got := words(c.word)
		for _, h := range c.has {
			if !slices.Contains(got, h) {
				t.Errorf("Defined(%q) = %v, want %q among them", c.word, got, h)
			}
		}
		for _, h := range c.hasNone {
			if slices.Contains(got, h) {
				t.Errorf("Defined(%q) = %v, want no %q", c.word, got, h)
			}
		}
	}
	if len(w.Defined("turn")) != 0 || len(w.Defined("part")) != 0 {
		t.Errorf("Defined(turn) = %v, Defined(part) = %v: want none (heads of more than %d senses)", words("turn"), words("part"), maxDefined)
	}
}
