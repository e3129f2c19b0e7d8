// Package postag reads the parts of speech of a sentence's words: Penn
// Treebank tags ("NN" a noun, "VB" a verb's base form, "VBZ" its third
// person, "JJ" an adjective …) from prose's averaged-perceptron tagger
// (github.com/jdkato/prose/v2, MIT licence, its notice in the repository's
// NOTICE; its weights embedded in the module; docs/log/round-34-a34-frame.md).
//
// The weights are read once, the first time a sentence is tagged (about
// 0.2 s and 26 MB of heap); a question of twenty words then tags in well
// under a millisecond. Tag is safe for concurrent use.
package postag

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/jdkato/prose/v2"
)

// Word is a word of a tagged sentence and its tag.
type Word struct {
	Text string
	Tag  string
}

var (
	load  sync.Once
	model *prose.Model
)

// lowerI is the pronoun "i" written in lower case, which the tagger,
// trained on edited text, reads as an adjective or a noun ("what else can i
// use": "use" then tags as a noun).
var lowerI = regexp.MustCompile(`\bi\b`)

// Tag returns text's words with their tags, in order (the tagger's
// words: "don't" is "do" and "n't", "what's" "what" and "'s"); none if the
// embedded weights could not be read.
//
// prose's tokenizer hands one token to every equal whitespace-separated
// span of a text (its cache), so the tagger's write for a span's last
// occurrence is what every earlier one reports: "Can I claim a claim on
// it" read "claim" NN twice, the first a verb. Tag reads such a span's
// earlier occurrences again (retag); a text with no repeated span is
// tagged once, as prose reads it (docs/log/round-35-a35-tag.md).
func Tag(text string) []Word {
	text = sanitizer.Replace(lowerI.ReplaceAllString(text, "I"))
	words := tag(text)
	if words == nil {
		return nil
	}
	if spans := strings.Fields(text); repeats(spans) {
		retag(words, spans)
	}
	return words
}

// sanitizer is prose's own (tokenize.go, applied to the whole text before
// it is split), applied here first so that the spans Tag compares are the
// ones prose's tokenizer compares; prose's pass then changes nothing.
var sanitizer = strings.NewReplacer("\u201c", `"`, "\u201d", `"`, "\u2018", "'", "\u2019", "'", "&rsquo;", "'")

// tag is prose's reading of text: its words, each with the tag its
// span's last occurrence got; none if the embedded weights could not be
// read.
func tag(text string) []Word {
	load.Do(func() {
		// A document built without a model builds the tagger alone (no
		// entity classifier); its model is kept for every later call.
		if doc, err := prose.NewDocument("", prose.WithExtraction(false), prose.WithSegmentation(false)); err == nil {
			model = doc.Model
		}
	})
	if model == nil {
		return nil // the embedded weights did not load: no word is tagged
	}
	doc, err := prose.NewDocument(text, prose.UsingModel(model), prose.WithExtraction(false), prose.WithSegmentation(false))
	if err != nil {
		return nil
	}
	var out []Word
	for _, t := range doc.Tokens() {
		out = append(out, Word{t.Text, t.Tag})
	}
	return out
}

// split is prose's tokenizer's reading of one span: its words, untagged.
func split(span string) []string {
	doc, err := prose.NewDocument(span, prose.WithTagging(false), prose.WithExtraction(false), prose.WithSegmentation(false))
	if err != nil {
		return nil
	}
	var out []string
	for _, t := range doc.Tokens() {
		out = append(out, t.Text)
	}
	return out
}

// repeats reports whether a span occurs twice.
func repeats(spans []string) bool {
	seen := make(map[string]bool, len(spans))
	for _, s := range spans {
		if seen[s] {
			return true
		}
		seen[s] = true
	}
	return false
}

// retagBudget bounds the words retag tags again for one text (about 10
// µs a word on a quiet machine: 20 ms). Most rounds tag a short window: a
// 2,000-byte text (the gateway's limit) uses 550–800 (the Hollin corpus's
// text, one sentence written 29 times). A round whose window cannot be
// checked tags the text from its start, so a text that defeats the check
// (one word written hundreds of times) needs a tagging of its whole head
// for each occurrence; past the budget its later occurrences keep prose's
// reading.
const retagBudget = 2000

// lead is how many spans a round's window starts before the two words it
// checks.
const lead = 4

// retag corrects words, prose's reading of the spans, for the spans that
// recur. The tagger reads a word with the tags of the two words before
// it (its own, right even where the reported tags are not) and the words
// themselves from two before to two after, so a word's tag in a text cut
// two words after it is its tag in the whole text; and a word whose span
// does not recur later in what is tagged reports its own tag.
//
// Each round takes the first word still to read, the run of distinct
// spans from its span on, up to the first span that repeats one of the
// run, and tags the text cut a word after that span's first word (a span
// ending a text is prose's fresh token, never shared), the repeating span
// written in another case so it differs from the run's (the tagger reads
// its neighbours in lower case: the run's tags are unchanged). Every word
// of the run is then read. A span whose case cannot change ("2", "?") is
// cut off instead, and the run's last word waits for the next round; a
// word read by no round keeps prose's tag.
//
// The cut text starts a few spans before the run (a window), not at the
// text's start, where the two words before the run are known and tag in
// the window as they do in the text: the tagger then reads the run as in
// the whole text. Where they are not, the round tags the cut from the
// text's start.
func retag(words []Word, spans []string) {
	tokens := map[string][]string{}
	start := make([]int, len(spans)+1) // span k's words are words[start[k]:start[k+1]]
	for k, s := range spans {
		if _, ok := tokens[s]; !ok {
			tokens[s] = split(s)
		}
		start[k+1] = start[k] + len(tokens[s])
	}
	if start[len(spans)] != len(words) {
		return // not prose's words span by span: leave prose's reading
	}
	last := map[string]int{} // each span's last occurrence
	for k, s := range spans {
		last[s] = k
	}
	spanOf := make([]int, len(words))
	known := make([]bool, len(words)) // words[p].Tag is p's own
	for k := range spans {
		for i := start[k]; i < start[k+1]; i++ {
			spanOf[i], known[i] = k, last[spans[k]] == k
		}
	}
	budget := retagBudget
	for i := 0; i < len(words) && budget > 0; {
		if known[i] {
			i++ // prose's tag is the word's own
			continue
		}
		k := spanOf[i]
		check := checkable(spans, spanOf, known, i, k)
		cut, upto := runCut(spans, tokens, start, spanOf, i, k, check)
		if upto <= i && check {
			check = false
			cut, upto = runCut(spans, tokens, start, spanOf, i, k, false)
		}
		if upto <= i {
			i++ // no cut reads it: prose's tag stays
			continue
		}
		var tagged []Word
		from := 0 // tagged[0] is words[from]
		if check {
			s := spanOf[i-2] - lead
			from = start[s]
			tagged = tag(strings.Join(cut[s:], " "))
			budget -= len(tagged)
			if len(tagged) < upto-from || tagged[i-2-from].Tag != words[i-2].Tag || tagged[i-1-from].Tag != words[i-1].Tag {
				tagged, from = nil, 0
			}
		}
		if tagged == nil {
			tagged = tag(strings.Join(cut, " "))
			budget -= len(tagged)
		}
		if len(tagged) < upto-from {
			return
		}
		for ; i < upto; i++ {
			words[i].Tag, known[i] = tagged[i-from].Tag, true
		}
	}
}

// checkable reports whether a round reading from word i (of span k) can
// tag a window that starts lead spans before word i-2's span: words i-2
// and i-1 are known, and neither's span recurs up to span k (a later
// occurrence would report its tag for theirs).
func checkable(spans []string, spanOf []int, known []bool, i, k int) bool {
	if i < 2 || !known[i-1] || !known[i-2] || spanOf[i-2] < lead {
		return false
	}
	for _, q := range []int{i - 2, i - 1} {
		for j := spanOf[q] + 1; j <= k; j++ {
			if spans[j] == spans[spanOf[q]] {
				return false
			}
		}
	}
	return true
}

// runCut returns the spans a round reading from word i (of span k) tags,
// and the word before which it reads: the run of distinct spans from k
// (with check, distinct from the spans of words i-2 and i-1 too), cut a
// word after the first span that repeats one of them, that span written
// in another case; a span whose case cannot change ends the cut, and the
// run's last word is not read.
func runCut(spans []string, tokens map[string][]string, start, spanOf []int, i, k int, check bool) ([]string, int) {
	seen := map[string]bool{spans[k]: true}
	if check {
		seen[spans[spanOf[i-2]]] = true
		seen[spans[spanOf[i-1]]] = true
	}
	r := k + 1
	for ; !seen[spans[r]]; r++ { // span k recurs, so r stops before the end
		seen[spans[r]] = true
	}
	cut, upto := spans[:r+1], start[r]
	if start[r+1]-start[r] == 1 && r < len(spans)-1 {
		if alt, ok := recase(spans[r], tokens[spans[r]], seen); ok {
			cut = append(slices.Clone(spans[:r]), alt, spans[r+1])
		} else {
			upto-- // the run's last word needs span r's word after it
		}
	}
	return cut, upto
}

// recase returns span written in another case, differing from every span
// of run, which prose's tokenizer splits into words (toks) alike but for
// case; false if there is none.
func recase(span string, toks []string, run map[string]bool) (string, bool) {
	r, n := utf8.DecodeRuneInString(span)
	first := string(unicode.ToUpper(r))
	if first == string(r) {
		first = string(unicode.ToLower(r))
	}
	for _, alt := range []string{strings.ToUpper(span), strings.ToLower(span), first + span[n:]} {
		if alt == span || run[alt] {
			continue
		}
		if altToks := split(alt); slices.EqualFunc(altToks, toks, func(a, b string) bool { return strings.ToLower(a) == strings.ToLower(b) }) {
			return alt, true
		}
	}
	return "", false
}

// IsVerb reports whether tag is a verb's (VB, VBD, VBG, VBN, VBP, VBZ;
// not the modal MD).
func IsVerb(tag string) bool { return strings.HasPrefix(tag, "VB") }
