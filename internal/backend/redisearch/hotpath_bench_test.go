package redisearch

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
)

// synthContents are n content fields shaped like SciFact's at 50,000
// chunks (measured on 400 of them: 103 terms a field, 5.7 bytes a term,
// 39% of fields holding an escaped term): 80–130 stemmed terms of 1–12
// bytes drawn from a Zipf-like vocabulary of 3,000 words, and in two
// fields of five one to three escaped terms (decimals, hyphens), which
// send the field through countContent's escaped path.
func synthContents(r *rand.Rand, n int) (contents []string, vocab []string) {
	letters := "abcdefghiklmnoprstuy"
	vocab = make([]string, 3000)
	for i := range vocab {
		var b strings.Builder
		for range 1 + r.IntN(r.IntN(12)+1) {
			b.WriteByte(letters[r.IntN(len(letters))])
		}
		vocab[i] = b.String()
	}
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(vocab)-1))
	contents = make([]string, n)
	for i := range contents {
		ts := make([]string, 80+r.IntN(50))
		for j := range ts {
			ts[j] = vocab[zipf.Uint64()]
		}
		if r.IntN(5) < 2 {
			for range 1 + r.IntN(3) {
				j := r.IntN(len(ts))
				if r.IntN(2) == 0 {
					ts[j] = strconv.Itoa(r.IntN(90)) + "." + strconv.Itoa(r.IntN(9))
				} else {
					ts[j] = "il-" + strconv.Itoa(r.IntN(20))
				}
			}
		}
		contents[i] = escapeTerms(ts)
	}
	return contents, vocab
}

// BenchmarkRescoreContent: SearchText's re-scoring of one query's 424
// candidates (k 100's depth with the rare-term split, as at 50,000
// chunks), their content fields as the candidates' read returns them,
// for a query of 14 distinct terms (SciFact claims' median) of which a
// few are in the vocabulary's head.
func BenchmarkRescoreContent(b *testing.B) {
	r := rand.New(rand.NewPCG(19, 20))
	contents, vocab := synthContents(r, 424)
	var query []string
	for _, i := range []int{3, 17, 40, 95, 180, 260, 400, 610, 900, 1300, 1700, 2100, 2500, 2999} {
		query = append(query, vocab[i])
	}
	df := map[string]int{}
	for i, t := range query {
		df[t] = 50000 / (i + 2)
	}
	v := fixedStats{n: 50000, avg: 130, df: df}
	p := backend.BM25{K1: 10, B: 0.4}
	cands := make([]candidate, len(contents))
	b.ReportAllocs()
	for b.Loop() {
		for i, c := range contents {
			cands[i] = candidate{id: strconv.Itoa(i), content: c}
		}
		rescore(v, p, query, cands, 100)
	}
}

// BenchmarkDecodeChunks: reading 100 chunks' HMGET replies into cached
// chunks, what Chunks does for the chunks a search returns that the
// cache does not hold (k 100 at 50,000 chunks: most of them).
func BenchmarkDecodeChunks(b *testing.B) {
	r := rand.New(rand.NewPCG(19, 21))
	contents, _ := synthContents(r, 100)
	vals := make([][]any, len(contents))
	for i, c := range contents {
		text := strings.Repeat("Some abstract sentence of a scientific paper, with words. ", 16)
		vals[i] = []any{"synth-" + strconv.Itoa(i) + "#0", "synth-" + strconv.Itoa(i), "0", "A title of a paper", text,
			"article", "scifact", "2024-01-01", "current", "1", "public|team-07", nil, nil, nil, "1234567890123", c}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, v := range vals {
			decodeChunk(v)
		}
	}
}
