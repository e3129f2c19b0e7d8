package rerank

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

// countVocab is the document frequencies of a list of documents.
type countVocab struct {
	df map[string]int
	n  int
}

func (v countVocab) DocFreq(t string) int { return v.df[t] }
func (v countVocab) Len() int             { return v.n }

// rerankCase is one query with the candidates a search might give it.
type rerankCase struct {
	query string
	cands []retrieval.Candidate
}

// realCases reads the documents and queries of a corpus and gives each
// query the depth documents sharing most of its content terms (a stand-in
// for a search's head: candidates that hold the query's terms, so that
// coverage, proximity and title all vary), with the corpus's document
// frequencies. max bounds the queries (0: all).
func realCases(tb testing.TB, docsPath string, queries []string, depth, max int) ([]rerankCase, countVocab) {
	tb.Helper()
	docs, err := corpus.LoadJSONL(docsPath)
	if err != nil {
		tb.Skipf("SKIPPED: %v", err)
	}
	an := terms.NewUncached()
	v := countVocab{df: map[string]int{}, n: len(docs)}
	sets := make([]map[string]bool, len(docs))
	for i, d := range docs {
		sets[i] = an.Set(d.Title + "\n" + d.Text)
		for t := range sets[i] {
			v.df[t]++
		}
	}
	if max > 0 && len(queries) > max {
		queries = queries[:max]
	}
	var out []rerankCase
	for qi, q := range queries {
		qt := an.Content(q)
		score := make([]int, len(docs))
		for i, s := range sets {
			for _, t := range qt {
				if s[t] {
					score[i]++
				}
			}
		}
		order := make([]int, len(docs))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return score[order[a]] > score[order[b]] })
		c := rerankCase{query: q}
		for r, i := range order[:min(depth, len(order))] {
			d := docs[i]
			c.cands = append(c.cands, retrieval.Candidate{ChunkID: d.ID, Title: d.Title, Text: d.Text,
				BM25: float64(score[i]) + 1/float64(r+1), Cosine: float64((qi+r)%7) / 7, Fused: 1 / float64(r+20)})
		}
		out = append(out, c)
	}
	return out, v
}

func scifactDir() string {
	if d := os.Getenv("ASSAY_SCIFACT_DIR"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "shared", "data", "scifact")
}

// scifactCases: SciFact's test claims against its abstracts.
func scifactCases(tb testing.TB, depth, max int) ([]rerankCase, countVocab) {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(scifactDir(), "queries.jsonl"))
	if err != nil {
		tb.Skipf("SKIPPED: SciFact not available (set ASSAY_SCIFACT_DIR): %v", err)
	}
	return realCases(tb, filepath.Join(scifactDir(), "corpus.jsonl"), jsonField(tb, b, "text"), depth, max)
}

// hollinCases: the Hollin development questions against the Hollin corpus.
func hollinCases(tb testing.TB, depth int) ([]rerankCase, countVocab) {
	tb.Helper()
	dir := filepath.Join("..", "..", "testdata", "hollin")
	b, err := os.ReadFile(filepath.Join(dir, "questions.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	return realCases(tb, filepath.Join(dir, "corpus.jsonl"), jsonField(tb, b, "question"), depth, 0)
}

// jsonField is the string field name of each line of a JSON-lines file.
func jsonField(tb testing.TB, b []byte, name string) []string {
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			tb.Fatal(err)
		}
		v, _ := m[name].(string)
		out = append(out, v)
	}
	return out
}

// BenchmarkRerankSciFact reranks the 20 candidates (the default rerank
// depth) of each of 100 SciFact claims, as bleve mode does: no kept
// terms, and texts the analysis cache does not hold (an uncached
// analyzer; at 500k chunks the cache rarely holds a head's chunks).
func BenchmarkRerankSciFact(b *testing.B) {
	cases, v := scifactCases(b, 20, 100)
	benchRerank(b, NewBuiltin(terms.NewUncached(), DefaultWeights), cases, v)
}

// benchRerank reranks each case's candidates with r, b.N times.
func benchRerank(b *testing.B, r *Builtin, cases []rerankCase, v countVocab) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range cases {
			if _, err := r.Rerank(ctx, c.query, v, c.cands); err != nil {
				b.Fatal(err)
			}
		}
	}
}

var _ backend.TermCounts = countVocab{}

// TestKeptTermsScoreAsAnalysis: on Hollin's questions and SciFact's
// claims, each with 20 candidates, a candidate carrying its kept terms
// (bleve's chunks.terms, RediSearch's content field) scores exactly, to
// the bit, as the same candidate analysed by the reranker, for both
// builtin models.
func TestKeptTermsScoreAsAnalysis(t *testing.T) {
	sets := map[string]func(testing.TB) ([]rerankCase, countVocab){
		"hollin":  func(tb testing.TB) ([]rerankCase, countVocab) { return hollinCases(tb, 20) },
		"scifact": func(tb testing.TB) ([]rerankCase, countVocab) { return scifactCases(tb, 20, 100) },
	}
	keep := terms.NewUncached()
	for name, load := range sets {
		t.Run(name, func(t *testing.T) {
			cases, v := load(t)
			var n, withProx int
			for _, id := range Models() {
				r, _ := Model(terms.New(), id)
				for _, c := range cases {
					kept := make([]retrieval.Candidate, len(c.cands))
					for i, x := range c.cands {
						x.Terms = keep.Terms(x.Title + "\n" + x.Text)
						kept[i] = x
					}
					want, err := r.Rerank(context.Background(), c.query, v, c.cands)
					if err != nil {
						t.Fatal(err)
					}
					got, err := r.Rerank(context.Background(), c.query, v, kept)
					if err != nil {
						t.Fatal(err)
					}
					for i := range want {
						if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
							t.Errorf("%s %q candidate %s: %v with kept terms, %v analysed", id, c.query, c.cands[i].ChunkID, got[i], want[i])
						}
						if f := r.features(retrieval.WeighQuery(r.an, v, c.query), c.cands[i]); f.Proximity > 0 && f.Proximity < 1 {
							withProx++
						}
						n++
					}
				}
			}
			if n == 0 || withProx == 0 {
				t.Errorf("%d candidates compared, %d with a partial proximity: want both > 0", n, withProx)
			}
			t.Logf("%d candidates compared, %d with a partial proximity", n, withProx)
		})
	}
}

// BenchmarkRerankSciFactKept is BenchmarkRerankSciFact with each
// candidate carrying its kept terms, as bleve mode's since round 29
// (chunks.terms), with the cached analyzer the server uses (the reranker
// records the kept terms in the analysis cache for the later stages).
func BenchmarkRerankSciFactKept(b *testing.B) {
	cases, v := scifactCases(b, 20, 100)
	an := terms.NewUncached()
	for _, c := range cases {
		for i := range c.cands {
			c.cands[i].Terms = an.Terms(c.cands[i].Title + "\n" + c.cands[i].Text)
		}
	}
	benchRerank(b, NewBuiltin(terms.New(), DefaultWeights), cases, v)
}
