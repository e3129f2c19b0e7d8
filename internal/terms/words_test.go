package terms

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
)

// bleveTerms is what bleve's English analyzer makes of text, token by
// token: the reference words must reproduce.
func bleveTerms(text string) []string {
	var out []string
	for _, tok := range english().Analyze([]byte(text)) {
		out = append(out, string(tok.Term))
	}
	return out
}

// wordTexts are texts for the words memo: the cases of the other tests,
// the Hollin corpus (titles and texts), SciFact's abstracts when
// ASSAY_SCIFACT_DIR is set, and random texts over characters that join,
// split, case-fold (some to another length) and stem words.
func wordTexts(t *testing.T) []string {
	out := slices.Clone(texts)
	for _, p := range titledCases {
		out = append(out, p[0], p[1], p[0]+"\n"+p[1])
	}
	pairs := corpusPairs(t, filepath.Join("..", "..", "testdata", "hollin", "corpus.jsonl"), 0)
	if dir := os.Getenv("ASSAY_SCIFACT_DIR"); dir != "" {
		pairs = append(pairs, corpusPairs(t, filepath.Join(dir, "corpus.jsonl"), 2000)...)
	}
	for _, p := range pairs {
		out = append(out, p[0], p[1], p[0]+"\n"+p[1])
	}
	r := rand.New(rand.NewPCG(7, 8))
	alphabet := []string{"a", "B", "S", "s", "3", ".", ",", "'", "’", "＇", "-", " ", " ", "\u0301", "\u200d", "_", ":",
		"ing", "ies", "ational", "the", "The", "AND", "日", "カ", "\n", "\r", "İ", "ẞ", "Σ", "ǅ", "Ω", "😀", "\u00ad", "ﬁ", "K", "ı",
		"\xff", "\xc3", "\xe2\x80", "\x00"} // and bytes that are not UTF-8
	for range 5000 {
		var b strings.Builder
		for range 1 + r.IntN(30) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		out = append(out, b.String())
	}
	return out
}

// TestWordsEqualAnalyze: the memoised analysis gives bleve's terms for
// every text, on first sight of its words and on every later one, and
// leaves the text as it was (the lower-case filter writes into its
// input).
func TestWordsEqualAnalyze(t *testing.T) {
	w := newWords(english())
	if w == nil {
		t.Fatal("newWords does not take the English analyzer")
	}
	all := wordTexts(t)
	fellBack := 0
	for round := range 2 {
		for _, text := range all {
			before := strings.Clone(text)
			got, ok := w.analyze(text)
			if want := bleveTerms(text); !ok && utf8.ValidString(text) || ok && !slices.Equal(got, want) {
				t.Fatalf("round %d, %q:\n got %q (%v)\nwant %q", round, text, got, ok, want)
			}
			if !ok {
				fellBack++ // the Analyzer analyses it with bleve: checked below
			}
			if text != before {
				t.Fatalf("analysing %q changed it to %q", before, text)
			}
		}
	}
	// And through the Analyzer, cached and not.
	for _, an := range []*Analyzer{New(), NewUncached()} {
		for _, text := range all {
			if got, want := an.Terms(text), bleveTerms(text); !slices.Equal(got, want) && (len(got) > 0 || len(want) > 0) {
				t.Fatalf("Terms(%q) = %q, want %q", text, got, want)
			}
		}
	}
	t.Logf("%d texts; left to bleve (not UTF-8, and the segmenter stopped short) %d times", len(all), fellBack)
}

// A memo holds at most memoWords words, and the terms stay right once it
// has been emptied.
func TestWordsBounded(t *testing.T) {
	w := newWords(english())
	var b strings.Builder
	for i := range 3 * memoWords {
		fmt.Fprintf(&b, "w%dx ", i)
	}
	text := b.String()
	m := newMemo()
	for range 2 {
		if got, ok := w.analyzeWith(m, text, nil); !ok || !slices.Equal(got, bleveTerms(text)) {
			t.Fatal("terms differ after the memo was emptied")
		}
		if len(m.m) > memoWords || len(m.m) == 0 {
			t.Fatalf("the memo holds %d words, bound %d", len(m.m), memoWords)
		}
	}
	long := strings.Repeat("x", wordMax+1)
	if got, ok := w.analyze(long); !ok || !slices.Equal(got, bleveTerms(long)) {
		t.Fatalf("a word over wordMax: %q", got)
	}
}

// splitter is a token filter that turns "ab" into "a", "b": not per word.
type splitter struct{}

func (splitter) Filter(in analysis.TokenStream) analysis.TokenStream {
	var out analysis.TokenStream
	for _, tok := range in {
		if string(tok.Term) == "ab" {
			out = append(out, &analysis.Token{Term: []byte("a")}, &analysis.Token{Term: []byte("b")})
			continue
		}
		out = append(out, tok)
	}
	return out
}

// A filter that splits a word is not one words can memoise: analyze says
// so, and the Analyzer falls back to analysing the text as a whole.
func TestWordsSplitFallsBack(t *testing.T) {
	d := english().(*analysis.DefaultAnalyzer)
	a := &analysis.DefaultAnalyzer{Tokenizer: d.Tokenizer, TokenFilters: append(slices.Clone(d.TokenFilters), splitter{})}
	w := newWords(a)
	if _, ok := w.analyze("x ab y"); ok {
		t.Fatal("analyze memoised a word the filters split")
	}
	an := &Analyzer{a: a, words: w}
	if got, want := an.Terms("x ab y"), []string{"x", "a", "b", "y"}; !slices.Equal(got, want) {
		t.Fatalf("Terms = %q, want %q", got, want)
	}
}

// A full memo's heap: about 1.5 MB.
func TestWordsHeap(t *testing.T) {
	var b strings.Builder
	for i := range memoWords {
		fmt.Fprintf(&b, "wordnumber%dx ", 100000+i) // 16-byte words
	}
	text := b.String()
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	w := newWords(english())
	m := newMemo()
	w.analyzeWith(m, text, nil)
	runtime.GC()
	runtime.ReadMemStats(&m1)
	heap := float64(m1.HeapAlloc) - float64(m0.HeapAlloc)
	t.Logf("a full memo of 16-byte words: %.1f MB of heap", heap/1e6)
	if heap > 4e6 {
		t.Errorf("a full memo holds %.1f MB, want at most 4", heap/1e6)
	}
	runtime.KeepAlive(m)
}
