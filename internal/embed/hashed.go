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
//     says so: "builtin:hashed-ngrams-v1".
//   - OpenAI calls any OpenAI-compatible /v1/embeddings endpoint (OpenAI,
//     Ollama, vLLM, TEI) through go-openai, in batches, with retries and a
//     dimension check.
package embed

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"

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
// how many chunks contain an analyzed term, out of how many.
type Vocabulary interface {
	DocFreq(term string) int
	Len() int
}

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
	an, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
	if err != nil {
		return nil, errs.E("embed.NewHashed", errs.Internal, err)
	}
	return &Hashed{dim: dim, an: an, stop: stop, bigram: 0.5, chars: 0.6}, nil
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
// with no features), spreading large batches over the CPUs.
func (h *Hashed) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(texts)/32))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(texts); i += workers {
				if ctx.Err() != nil {
					return
				}
				out[i] = h.embed(texts[i])
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, errs.E("embed.Hashed", errs.Timeout, err)
	}
	return out, nil
}

func (h *Hashed) embed(text string) []float32 {
	// Features are keyed by the FNV-1a hash of kind, 0 and the feature's
	// bytes, computed without building the strings.
	feats := map[uint64]float64{}
	toks := h.an.Analyze([]byte(text))
	var prev []byte
	prevIDF := 0.0
	var bounds []int
	for _, tok := range toks {
		t := tok.Term
		w := h.idf(string(t))
		feats[fnvAdd(fnvAdd(fnvKind('w'), t), nil)] += w
		if prev != nil {
			k := fnvAdd(fnvAdd(fnvAdd(fnvKind('b'), prev), []byte{' '}), t)
			feats[k] += h.bigram * (w + prevIDF) / 2
		}
		prev, prevIDF = t, w
		raw := []byte("<" + strings.ToLower(text[tok.Start:tok.End]) + ">")
		if utf8.RuneCount(raw) < 6 || h.isStop(string(raw[1:len(raw)-1])) {
			continue // short words are whole-word features already
		}
		// rune boundaries of raw, so n-grams are n runes long
		bounds = bounds[:0]
		for i := range string(raw) {
			bounds = append(bounds, i)
		}
		bounds = append(bounds, len(raw))
		runes := len(bounds) - 1
		grams := 0
		for n := 3; n <= 5; n++ {
			grams += max(0, runes-n+1)
		}
		gw := h.chars * w / float64(grams)
		for n := 3; n <= 5; n++ {
			for i := 0; i+n <= runes; i++ {
				feats[fnvAdd(fnvKind('c'), raw[bounds[i]:bounds[i+n]])] += gw
			}
		}
	}
	v := make([]float64, h.dim)
	for x, c := range feats {
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
		return out
	}
	norm = math.Sqrt(norm)
	for i, x := range v {
		out[i] = float32(x / norm)
	}
	return out
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
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
// 1 without one. A term the corpus lacks weighs the most.
func (h *Hashed) idf(t string) float64 {
	if h.vocab == nil {
		return 1
	}
	n, df := float64(h.vocab.Len()), float64(h.vocab.DocFreq(t))
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// isStop reports whether w is an English stop word.
func (h *Hashed) isStop(w string) bool { return h.stop[w] }
