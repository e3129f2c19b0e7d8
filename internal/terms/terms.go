// Package terms turns text into the terms the lexical index sees: bleve's
// English analyzer (Unicode words, lower case, English stop words removed,
// Porter stems). The assessor, the extractive generator and the grounding
// check use it so that "covered" in a question and "cover" in a source
// count as the same word, exactly as they do for BM25.
package terms

import (
	"slices"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"
)

// Analyzer is a reusable English analyzer. The zero value is not usable;
// call New or NewUncached. Safe for concurrent use.
type Analyzer struct {
	a     analysis.Analyzer
	words *words // a's analysis a word at a time (words.go); nil: a.Analyze
	cache *cache // nil: every text analysed
}

// New builds the analyzer for serving questions: it shares the process's
// bounded cache of analysed texts (cache.go), so a text analysed by one
// stage of a question is not analysed again by the next.
func New() *Analyzer {
	return &Analyzer{a: english(), words: sharedWords(), cache: shared}
}

// NewUncached builds an analyzer without the cache, for index builds,
// which analyse each chunk once: caching them would only push out the
// texts of the questions being served.
func NewUncached() *Analyzer {
	return &Analyzer{a: english(), words: sharedWords()}
}

// sharedWords is the process's one memo of English words (words.go).
var sharedWords = sync.OnceValue(func() *words { return newWords(english()) })

func english() analysis.Analyzer {
	a, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
	if err != nil {
		// The en analyzer is compiled into bleve; failing here is a build bug.
		panic("terms: bleve's English analyzer is missing: " + err.Error())
	}
	return a
}

// Terms returns text's terms in order, repeats included.
func (a *Analyzer) Terms(text string) []string {
	ts := a.terms(text)
	if a.cache == nil {
		return ts // terms' own slice when uncached
	}
	return append(make([]string, 0, len(ts)), ts...)
}

// terms is Terms without the copy: with the cache, the slice is the
// cache's, read only.
func (a *Analyzer) terms(text string) []string {
	if a.cache != nil {
		if ts, ok := a.cache.get(text); ok {
			return ts
		}
	}
	var out []string
	ok := false
	if a.words != nil {
		out, ok = a.words.analyze(text)
	}
	if !ok {
		stream := a.a.Analyze([]byte(text))
		out = make([]string, 0, len(stream))
		for _, tok := range stream {
			out = append(out, string(tok.Term))
		}
	}
	if a.cache != nil {
		a.cache.put(text, out)
	}
	return out
}

// Keep records ts as text's terms in the cache, for a caller that has
// them from elsewhere (an index keeps each chunk's terms: the reranker
// reads them instead of analysing the chunk), so that later stages
// analysing text find them as if it had been analysed. ts must be
// Terms(text) and must not be changed afterwards. Without a cache it does
// nothing.
func (a *Analyzer) Keep(text string, ts []string) {
	if a.cache != nil {
		a.cache.put(text, ts)
	}
}

// Titled returns Terms(title) and Terms(text). When the cache holds the
// analysis of title + "\n" + text (the key the reranker analyses a chunk
// under) and it begins with title's terms, text's terms are the rest of
// it: a newline always ends a word (Unicode word boundaries, rules
// WB3a/WB3b), so the two texts' words are those of the joined text, and
// every filter after the tokenizer reads one token at a time. Otherwise
// text is analysed (or found) on its own.
func (a *Analyzer) Titled(title, text string) (titleTerms, textTerms []string) {
	tt := a.terms(title)
	var xt []string
	if a.cache != nil {
		if both, ok := a.cache.get(title + "\n" + text); ok && len(both) >= len(tt) && slices.Equal(both[:len(tt)], tt) {
			xt = both[len(tt):]
		}
	}
	if xt == nil {
		xt = a.terms(text)
	}
	if a.cache == nil {
		return tt, xt
	}
	return slices.Clone(tt), slices.Clone(xt)
}

// Set returns text's distinct terms.
func (a *Analyzer) Set(text string) map[string]bool {
	ts := a.terms(text)
	set := make(map[string]bool, len(ts))
	for _, t := range ts {
		set[t] = true
	}
	return set
}

// questionWords shape a question without saying what it is about ("how
// many", "what does ... mean"). They are stored as analyzed terms.
var questionWords = map[string]bool{
	"how": true, "what": true, "when": true, "where": true, "which": true, "who": true, "why": true,
	"can": true, "do": true, "doe": true, "mani": true, "much": true, "long": true, "i": true,
	"my": true, "get": true, "mean": true,
}

// Content returns text's distinct terms without question words: what a
// question is about.
func (a *Analyzer) Content(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range a.terms(text) {
		if !questionWords[t] && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// IsQuestionWord reports whether an analyzed term is a question word.
func IsQuestionWord(term string) bool { return questionWords[term] }
