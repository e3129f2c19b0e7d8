// Package embed turns texts into vectors for dense retrieval.
//
// Two embedders share one method set (ID, Dim, Embed), which the index and
// retrieval packages each declare as their own small interface:
//
//   - Hashed, the builtin, needs no download and no network. It is not a
//     neural model: it hashes a text's analyzed words, word pairs and
//     character n-grams into a fixed number of dimensions (the "hashing
//     trick"), so texts that share rare-looking words and word pieces land
//     close together. It captures spelling variants and word pieces that
//     BM25's whole-term match misses, and no meaning beyond that. Its id
//     says so: "builtin:hashed-ngrams-v2". A text's vector is fixed to
//     the last bit (features are summed in the order they first occur).
//   - OpenAI calls any OpenAI-compatible /v1/embeddings endpoint (OpenAI,
//     Ollama, vLLM, TEI) through go-openai, in batches, with retries and a
//     dimension check.
package embed

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/blevesearch/go-porterstemmer"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/errs"
)

// HashedID is the builtin embedder's model id, recorded in index manifests
// and the embedding cache key; change it whenever its output changes.
const HashedID = "builtin:hashed-ngrams-v2"

// Hashed is the builtin feature-hashing embedder. Without a vocabulary it
// is stateless: a text's vector depends only on the text and the
// dimension. With one (NewHashedIDF) each feature is weighted by its
// word's IDF over the corpus, and the id names the corpus. Safe for
// concurrent use.
type Hashed struct {
	dim  int
	an   analysis.Analyzer
	stop analysis.TokenMap
	// Feature weights, relative to an analyzed word's 1.
	bigram, chars float64
	vocab         Vocabulary // nil: every word weighs 1
	corpus        string
}

// Vocabulary gives the corpus statistics an IDF-weighted embedder needs:
// how many chunks contain an analyzed term, out of how many. DocFreq's
// error is a count the statistics' server could not give (a RediSearch
// index's, read from Redis): Embed fails with it rather than weigh the
// term as if no chunk held it. Counts made in memory (a build's
// backend.Stats) never fail: Counts adapts them.
type Vocabulary interface {
	DocFreq(term string) (int, error)
	Len() int
}

// Counts is term counts that cannot fail (counted in memory, as a build
// counts its corpus) as a Vocabulary.
func Counts(c backend.TermCounts) Vocabulary { return counts{c} }

type counts struct{ c backend.TermCounts }

func (c counts) DocFreq(term string) (int, error) { return c.c.DocFreq(term), nil }
func (c counts) Len() int                         { return c.c.Len() }

// HashedIDFID is the model id of the IDF-weighted builtin.
const HashedIDFID = "builtin:hashed-ngrams-idf-v1"

// NewHashedIDF returns the builtin embedder weighting features by IDF over
// vocab. corpus names the corpus the statistics come from (its checksum):
// it is part of the id, so vectors computed with other statistics never
// mix with these.
func NewHashedIDF(dim int, vocab Vocabulary, corpus string) (*Hashed, error) {
	h, err := NewHashed(dim)
	if err != nil {
		return nil, err
	}
	if vocab == nil || vocab.Len() == 0 || corpus == "" {
		return nil, errs.FieldError("embed.NewHashedIDF", "vocab", "needs corpus statistics and the corpus checksum")
	}
	h.vocab, h.corpus = vocab, corpus
	return h, nil
}

// DefaultHashedDim is the builtin's default dimension (measured; see
// docs/retrieval.md): collisions cost little above it and the exact scan gets slower.
const DefaultHashedDim = 768

// NewHashed returns the builtin embedder with dim dimensions.
func NewHashed(dim int) (*Hashed, error) {
	if dim < 16 || dim > 1<<16 {
		return nil, errs.FieldError("embed.NewHashed", "dim", fmt.Sprintf("want 16..65536, got %d", dim))
	}
	stop := analysis.NewTokenMap()
	if err := stop.LoadBytes(en.EnglishStopWords); err != nil {
		return nil, errs.E("embed.NewHashed", errs.Internal, err)
	}
	an, err := withoutStemmer(en.AnalyzerName)
	if err != nil {
		return nil, errs.E("embed.NewHashed", errs.Internal, err)
	}
	return &Hashed{dim: dim, an: an, stop: stop, bigram: 0.5, chars: 0.6}, nil
}

// withoutStemmer is bleve's analyzer called name less its last filter,
// which must be the porter stemmer: embed stems each term itself, the
// same way, in reused buffers (scratch.stem).
func withoutStemmer(name string) (analysis.Analyzer, error) {
	an, err := registry.NewCache().AnalyzerNamed(name)
	if err != nil {
		return nil, err
	}
	d, ok := an.(*analysis.DefaultAnalyzer)
	if !ok || len(d.TokenFilters) == 0 {
		return nil, fmt.Errorf("analyzer %s: %T, want a DefaultAnalyzer ending in the porter stemmer", name, an)
	}
	last := d.TokenFilters[len(d.TokenFilters)-1]
	if _, ok := last.(*porter.PorterStemmer); !ok {
		return nil, fmt.Errorf("analyzer %s ends in %T, want the porter stemmer", name, last)
	}
	c := *d
	c.TokenFilters = slices.Clip(d.TokenFilters[:len(d.TokenFilters)-1])
	return &c, nil
}

// ID names the model and its dimension (and, IDF-weighted, its corpus).
func (h *Hashed) ID() string {
	if h.vocab != nil {
		return fmt.Sprintf("%s/d%d/%.12s", HashedIDFID, h.dim, h.corpus)
	}
	return fmt.Sprintf("%s/d%d", HashedID, h.dim)
}

// Dim is the vector length.
func (h *Hashed) Dim() int { return h.dim }

// Embed returns one unit-length vector per text (a zero vector for a text
// with no features), spreading large batches over the CPUs. IDF-weighted,
// a count the vocabulary could not give is the error (the first text's to
// fail), as the vocabulary typed it; no text is embedded after one failed
// (each uncached term of a RediSearch vocabulary is a round trip to Redis).
func (h *Hashed) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	failed := make([]error, len(texts))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(texts)/32))
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(texts); i += workers {
				if ctx.Err() != nil || stop.Load() {
					return
				}
				if out[i], failed[i] = h.embed(texts[i]); failed[i] != nil {
					stop.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, errs.E("embed.Hashed", errs.Timeout, err)
	}
	for _, err := range failed {
		if err != nil {
			return nil, errs.E("embed.Hashed", err)
		}
	}
	return out, nil
}

func (h *Hashed) embed(text string) ([]float32, error) {
	// Features are keyed by the FNV-1a hash of kind, 0 and the feature's
	// bytes, computed without building the strings, and summed in a
	// scratch table (featTable) reused across texts.
	s := scratchPool.Get().(*scratch)
	defer s.put()
	f := &s.feats
	f.reset()
	s.in = append(s.in[:0], text...) // the lowercase filter rewrites terms in place
	toks := h.an.Analyze(s.in)
	s.terms = s.terms[:0]
	var prev []byte
	prevIDF := 0.0
	for _, tok := range toks {
		t := tok.Term
		if !tok.KeyWord { // the porter filter, without its two allocations a token
			t = s.stem(t)
		}
		w := 1.0
		if h.vocab != nil {
			var err error
			if w, err = h.idf(string(t)); err != nil {
				return nil, err
			}
		}
		f.add(fnvAdd(fnvW, t), w)
		if prev != nil {
			k := fnvAdd(fnvAdd(fnvAdd(fnvB, prev), space), t)
			f.add(k, h.bigram*(w+prevIDF)/2)
		}
		prev, prevIDF = t, w
		// raw is "<" + strings.ToLower(the token's text) + ">"
		raw := append(s.raw[:0], '<')
		raw, ascii := appendLower(raw, text[tok.Start:tok.End])
		raw = append(raw, '>')
		s.raw = raw
		runes := len(raw)
		if !ascii {
			runes = utf8.RuneCount(raw)
		}
		if runes < 6 || h.isStop(string(raw[1:len(raw)-1])) {
			continue // short words are whole-word features already
		}
		grams := 0
		for n := 3; n <= 5; n++ {
			grams += max(0, runes-n+1)
		}
		gw := h.chars * w / float64(grams)
		if ascii {
			for n := 3; n <= 5; n++ {
				for i := 0; i+n <= runes; i++ {
					f.add(fnvAdd(fnvC, raw[i:i+n]), gw)
				}
			}
			continue
		}
		// rune boundaries of raw, so n-grams are n runes long
		bounds := s.bounds[:0]
		for i := range string(raw) {
			bounds = append(bounds, i)
		}
		bounds = append(bounds, len(raw))
		s.bounds = bounds
		for n := 3; n <= 5; n++ {
			for i := 0; i+n <= runes; i++ {
				f.add(fnvAdd(fnvC, raw[bounds[i]:bounds[i+n]]), gw)
			}
		}
	}
	v := s.vec(h.dim)
	// Summed in the order features first occur: a fixed order, so the
	// vector is a function of the text to the last bit (the map this
	// replaced was summed in its random iteration order).
	for i, x := range f.keys {
		c := f.vals[i]
		w := c
		if c > 1 {
			w = 1 + math.Log(c) // sublinear term frequency
		}
		if x>>63 == 1 {
			w = -w
		}
		v[x%uint64(h.dim)] += w
	}
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, h.dim)
	if norm == 0 {
		return out, nil
	}
	norm = math.Sqrt(norm)
	for i, x := range v {
		out[i] = float32(x / norm)
	}
	return out, nil
}

// scratch is one embed call's working memory, pooled across calls.
type scratch struct {
	feats  featTable
	in     []byte // the text, for the analyzer to rewrite
	raw    []byte // one token's "<surface>"
	bounds []int  // rune boundaries of raw
	runes  []rune // the stemmer's input
	terms  []byte // stemmed terms, which outlive their token (bigrams)
	v      []float64
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// put returns s to the pool unless one long text made it large.
func (s *scratch) put() {
	if len(s.feats.slots) > 1<<16 || cap(s.in) > 1<<20 {
		return
	}
	scratchPool.Put(s)
}

// vec is a zeroed vector of dim float64s.
func (s *scratch) vec(dim int) []float64 {
	if cap(s.v) < dim {
		s.v = make([]float64, dim)
	}
	s.v = s.v[:dim]
	clear(s.v)
	return s.v
}

// stem is porter.PorterStemmer's Filter for one term (bytes.Runes,
// porterstemmer.StemWithoutLowerCasing, analysis.BuildTermFromRunes),
// with its runes and bytes in s's buffers. The result stays valid until
// the next embed call.
func (s *scratch) stem(t []byte) []byte {
	r := s.runes[:0]
	for i := 0; i < len(t); {
		if t[i] < utf8.RuneSelf {
			r = append(r, rune(t[i]))
			i++
			continue
		}
		c, n := utf8.DecodeRune(t[i:])
		r = append(r, c)
		i += n
	}
	s.runes = r
	r = porterstemmer.StemWithoutLowerCasing(r)
	start := len(s.terms)
	for _, c := range r {
		s.terms = utf8.AppendRune(s.terms, c)
	}
	return s.terms[start:len(s.terms):len(s.terms)]
}

// appendLower appends strings.ToLower(w) to b and says whether w is
// ASCII (then without allocating).
func appendLower(b []byte, w string) ([]byte, bool) {
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return append(b, strings.ToLower(w)...), false
		}
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b, true
}

// featTable sums feature weights by feature hash: open addressing over
// slots (index+1 into keys and vals, 0 empty), keys in the order they
// first occur.
type featTable struct {
	slots []int32
	keys  []uint64
	vals  []float64
}

func (f *featTable) reset() {
	if len(f.slots) == 0 {
		f.slots = make([]int32, 1024)
	}
	clear(f.slots)
	f.keys, f.vals = f.keys[:0], f.vals[:0]
}

// slot is where k's probe starts (a multiplicative hash of k's bits).
func (f *featTable) slot(k uint64) int {
	return int((k * 0x9E3779B97F4A7C15) >> 32 & uint64(len(f.slots)-1))
}

// add adds w to feature k's weight, as feats[k] += w on a map would.
func (f *featTable) add(k uint64, w float64) {
	mask := len(f.slots) - 1
	for i := f.slot(k); ; i = (i + 1) & mask {
		j := f.slots[i]
		if j == 0 {
			f.keys = append(f.keys, k)
			f.vals = append(f.vals, 0+w)
			f.slots[i] = int32(len(f.keys))
			if 2*len(f.keys) > len(f.slots) {
				f.grow()
			}
			return
		}
		if f.keys[j-1] == k {
			f.vals[j-1] += w
			return
		}
	}
}

// grow doubles the slots and places every key again.
func (f *featTable) grow() {
	f.slots = make([]int32, 2*len(f.slots))
	mask := len(f.slots) - 1
	for j, k := range f.keys {
		i := f.slot(k)
		for f.slots[i] != 0 {
			i = (i + 1) & mask
		}
		f.slots[i] = int32(j + 1)
	}
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// The feature kinds' starting hashes, and the bigram's separator.
var (
	fnvW, fnvB, fnvC = fnvKind('w'), fnvKind('b'), fnvKind('c')
	space            = []byte{' '}
)

// fnvKind starts a feature hash: FNV-1a over the kind byte and a 0.
func fnvKind(kind byte) uint64 {
	h := uint64(fnvOffset)
	h = (h ^ uint64(kind)) * fnvPrime
	return (h ^ 0) * fnvPrime
}

// fnvAdd continues an FNV-1a hash over b.
func fnvAdd(h uint64, b []byte) uint64 {
	for _, c := range b {
		h = (h ^ uint64(c)) * fnvPrime
	}
	return h
}

// idf is a term's BM25 inverse document frequency over the vocabulary, or
// 1 without one. A term the corpus lacks weighs the most; a count the
// vocabulary could not give is the error.
func (h *Hashed) idf(t string) (float64, error) {
	if h.vocab == nil {
		return 1, nil
	}
	df, err := h.vocab.DocFreq(t)
	if err != nil {
		return 0, err
	}
	return backend.IDF(h.vocab.Len(), df), nil
}

// isStop reports whether w is an English stop word.
func (h *Hashed) isStop(w string) bool { return h.stop[w] }
