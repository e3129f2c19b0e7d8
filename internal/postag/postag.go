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
	"strings"
	"sync"

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
func Tag(text string) []Word {
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
	doc, err := prose.NewDocument(lowerI.ReplaceAllString(text, "I"), prose.UsingModel(model), prose.WithExtraction(false), prose.WithSegmentation(false))
	if err != nil {
		return nil
	}
	var out []Word
	for _, t := range doc.Tokens() {
		out = append(out, Word{t.Text, t.Tag})
	}
	return out
}

// IsVerb reports whether tag is a verb's (VB, VBD, VBG, VBN, VBP, VBZ;
// not the modal MD).
func IsVerb(tag string) bool { return strings.HasPrefix(tag, "VB") }
