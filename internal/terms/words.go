package terms

import (
	"sync"
	"unsafe"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/segment"
)

// words is the English analyzer's work done once per distinct word rather
// than once per occurrence. bleve's DefaultAnalyzer tokenizes (Unicode
// word segmentation, one Token struct per word) and then passes the whole
// stream through each token filter in turn; every filter of the English
// analyzer (possessive, lower case, stop words, Porter stem) reads and
// writes one token at a time, independently of its neighbours, its
// position and its type. So a word's term (or its removal) depends on the
// word's bytes alone, and words runs the segmenter itself and looks each
// word up in a bounded memo of word → term, running the filters on a
// one-token stream only on a miss. The terms are the same, in the same
// order (TestWordsEqualAnalyze); what goes is the Token structs, the
// filters' passes and a string per term (a memo's term is shared by every
// text that holds the word).
//
// Most of a question's analysis is of chunks and sentences of ordinary
// prose, whose words repeat across texts: the memo holds the words of
// recent texts, not a vocabulary. It is one map per analysis running at a
// time, from a sync.Pool (per P, so no lock and no contention: a sharded
// map behind mutexes cost as much as the segmenter under 8 questions in
// flight), each emptied when it reaches memoWords; the pool drops them
// at garbage collections and they fill again.
type words struct {
	filters []analysis.TokenFilter
	memos   sync.Pool // of *memo
}

// memo is one analysis's map of word → term, with the segmenter's
// buffers and one for the terms.
type memo struct {
	m     map[string]wordTerm
	segs  [][]byte
	types []int
	terms []string
}

func newMemo() *memo { return &memo{m: map[string]wordTerm{}} }

const (
	// memoWords bounds a memo: about 1.5 MB at 16-byte words
	// (TestWordsHeap), one per analysis running at once.
	memoWords = 16384
	// wordMax: a longer word is analysed every time, not kept.
	wordMax = 64
)

// wordTerm is what the filters make of a word: no term (a stop word) or
// one. split marks a word a filter turned into several tokens, which no
// filter of the English analyzer does: analyze then gives up and the text
// is analysed by bleve as a whole.
type wordTerm struct {
	term  string
	keep  bool
	split bool
}

// newWords returns the memoised analysis of a, or nil when a is not a
// DefaultAnalyzer with the Unicode tokenizer and no char filters (words
// only reproduces that one).
func newWords(a analysis.Analyzer) *words {
	d, ok := a.(*analysis.DefaultAnalyzer)
	if !ok || len(d.CharFilters) > 0 {
		return nil
	}
	if _, ok := d.Tokenizer.(*unicode.UnicodeTokenizer); !ok {
		return nil
	}
	w := &words{filters: d.TokenFilters}
	w.memos.New = func() any { return newMemo() }
	return w
}

// analyze returns text's terms, what the analyzer's Analyze returns, as
// strings: gathered in the memo's buffer, then copied into a slice of
// their exact length (the cache keeps it). ok is false when a word's
// filters split it.
func (w *words) analyze(text string) (_ []string, ok bool) {
	if text == "" {
		return []string{}, true
	}
	m := w.memos.Get().(*memo)
	defer w.memos.Put(m)
	buf, ok := w.analyzeWith(m, text, m.terms[:0])
	var out []string
	if ok {
		out = append(make([]string, 0, len(buf)), buf...)
	}
	clear(buf) // the pool must not keep the terms alive
	m.terms = buf[:0]
	return out, ok
}

// analyzeWith is analyze with the memo mm.
func (w *words) analyzeWith(mm *memo, text string, out []string) (_ []string, ok bool) {
	// The segmenter only reads its input, and each word is copied before
	// a filter sees it (the lower-case filter writes in place). The whole
	// text is segmented in one call (bleve's tokenizer asks for one word
	// at a time, which restarts the segmenter's machine at each); a text
	// the segmenter cannot take whole is left to bleve.
	data := unsafe.Slice(unsafe.StringData(text), len(text))
	segs, types, used, err := segment.SegmentWordsDirect(data, mm.segs[:0], mm.types[:0])
	defer func() {
		clear(segs) // the pool must not keep the text alive
		mm.segs, mm.types = segs[:0], types[:0]
	}()
	if err != nil || used != len(data) {
		return out, false
	}
	m := mm.m
	for i, word := range segs {
		typ := types[i]
		if typ == segment.None {
			continue
		}
		t, hit := m[string(word)]
		if !hit {
			t = w.filter(word, typ)
			if len(word) <= wordMax {
				if len(m) >= memoWords {
					clear(m)
				}
				m[string(word)] = t
			}
		}
		switch {
		case t.split:
			return out, false
		case t.keep:
			out = append(out, t.term)
		}
	}
	return out, true
}

// filter runs the analyzer's filters on word alone, as the tokenizer
// would have given it to them (its type as bleve's Unicode tokenizer
// sets it; no filter of the English analyzer reads it).
func (w *words) filter(word []byte, typ int) wordTerm {
	tok := &analysis.Token{Term: append([]byte(nil), word...), Start: 0, End: len(word), Position: 1, Type: tokenType(typ)}
	stream := analysis.TokenStream{tok}
	for _, f := range w.filters {
		stream = f.Filter(stream)
	}
	switch len(stream) {
	case 0:
		return wordTerm{}
	case 1:
		return wordTerm{term: string(stream[0].Term), keep: true}
	}
	return wordTerm{split: true}
}

// tokenType is bleve's Unicode tokenizer's convertType.
func tokenType(segmentType int) analysis.TokenType {
	switch segmentType {
	case segment.Ideo, segment.Kana:
		return analysis.Ideographic
	case segment.Number:
		return analysis.Numeric
	}
	return analysis.AlphaNumeric
}
