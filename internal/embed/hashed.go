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
	"hash/fnv"
	"math"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/terms"
)

// HashedID is the builtin embedder's model id, recorded in index manifests
// and the embedding cache key; change it whenever its output changes.
const HashedID = "builtin:hashed-ngrams-v1"

// Hashed is the builtin feature-hashing embedder. It is stateless: a
// text's vector depends only on the text and the dimension, which keeps
// the embedding cache valid across corpus changes. Safe for concurrent use.
type Hashed struct {
	dim  int
	an   *terms.Analyzer
	stop analysis.TokenMap
	// Feature weights, relative to an analyzed word's 1.
	bigram, chars float64
}

// DefaultHashedDim is the builtin's default dimension (measured; see the
// README): collisions cost little above it and the exact scan gets slower.
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
	return &Hashed{dim: dim, an: terms.New(), stop: stop, bigram: 0.5, chars: 0.6}, nil
}

// ID names the model and its dimension.
func (h *Hashed) ID() string { return fmt.Sprintf("%s/d%d", HashedID, h.dim) }

// Dim is the vector length.
func (h *Hashed) Dim() int { return h.dim }

// Embed returns one unit-length vector per text (a zero vector for a text
// with no features).
func (h *Hashed) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, errs.E("embed.Hashed", errs.Timeout, err)
			}
		}
		out[i] = h.embed(t)
	}
	return out, nil
}

func (h *Hashed) embed(text string) []float32 {
	feats := map[string]float64{}
	stems := h.an.Terms(text)
	for i, t := range stems {
		feats["w\x00"+t]++
		if i > 0 {
			feats["b\x00"+stems[i-1]+" "+t] += h.bigram
		}
	}
	for _, w := range words(text) {
		if len([]rune(w)) < 4 || h.isStop(w) {
			continue // short words are whole-word features already
		}
		grams := charGrams("<" + w + ">")
		for _, g := range grams {
			feats["c\x00"+g] += h.chars / float64(len(grams))
		}
	}
	v := make([]float64, h.dim)
	for f, c := range feats {
		hs := fnv.New64a()
		hs.Write([]byte(f))
		x := hs.Sum64()
		w := 1 + math.Log(c) // sublinear term frequency
		if c < 1 {
			w = c
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

// isStop reports whether w is an English stop word.
func (h *Hashed) isStop(w string) bool { return h.stop[w] }

// words are the lower-cased letter-and-digit runs of text.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
}

// charGrams are the 3- to 5-rune substrings of w.
func charGrams(w string) []string {
	r := []rune(w)
	var out []string
	for n := 3; n <= 5; n++ {
		for i := 0; i+n <= len(r); i++ {
			out = append(out, string(r[i:i+n]))
		}
	}
	return out
}
