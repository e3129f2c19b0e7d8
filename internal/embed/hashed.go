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
	feats := map[string]float64{} // feature → summed weight
	toks := h.an.Analyze([]byte(text))
	prev, prevIDF := "", 0.0
	for _, tok := range toks {
		t := string(tok.Term)
		w := h.idf(t)
		feats["w\x00"+t] += w
		if prev != "" {
			feats["b\x00"+prev+" "+t] += h.bigram * (w + prevIDF) / 2
		}
		prev, prevIDF = t, w
		raw := strings.ToLower(text[tok.Start:tok.End])
		if utf8.RuneCountInString(raw) < 4 || h.isStop(raw) {
			continue // short words are whole-word features already
		}
		grams := charGrams("<" + raw + ">")
		for _, g := range grams {
			feats["c\x00"+g] += h.chars * w / float64(len(grams))
		}
	}
	v := make([]float64, h.dim)
	for f, c := range feats {
		hs := fnv.New64a()
		hs.Write([]byte(f))
		x := hs.Sum64()
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
