package live

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/wire"
)

// BenchmarkLoop is the worker's share of one question without Temporal:
// the Search, chunk loading and Assess the loop's first attempt runs, as
// the anonymous caller (public), over a bleve index built beforehand, for
// each question of a JSONL file ({"question": ...}; bench-scale writes
// questions.jsonl). It reports the mean per question of each part and of
// each retrieval stage. Opt-in, for profiling at scale
// (docs/performance-scale.md):
//
//	ASSAY_LOOP_INDEX=DIR ASSAY_LOOP_QUESTIONS=FILE go test ./internal/backend/live \
//	    -run XXX -bench Loop -benchtime 1x -cpuprofile cpu.pprof
func BenchmarkLoop(b *testing.B) {
	dir, file := os.Getenv("ASSAY_LOOP_INDEX"), os.Getenv("ASSAY_LOOP_QUESTIONS")
	if dir == "" || file == "" {
		b.Skip("set ASSAY_LOOP_INDEX (a bleve index dir) and ASSAY_LOOP_QUESTIONS (a JSONL file of questions)")
	}
	qs := loadQuestions(b, file)
	cfg := config.Default()
	cfg.Index.Dir = dir
	ctx := context.Background()
	ix, err := Open(ctx, cfg, slog.New(slog.DiscardHandler), false)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	groups := []string{wire.PublicGroup}
	var search, load, judge time.Duration
	stages := map[string]float64{}
	asked := 0
	for b.Loop() {
		for _, q := range qs {
			t0 := time.Now()
			res, err := ix.Search(ctx, retrieval.Request{Query: q, Groups: groups, K: wire.DefaultTopK})
			if err != nil {
				b.Fatal(err)
			}
			for _, s := range res.Stages {
				stages[s.Name] += s.Millis
			}
			t1 := time.Now()
			ids := make([]string, len(res.Hits))
			for i, h := range res.Hits {
				ids[i] = h.ChunkID
			}
			chunks, err := ix.Chunks(ctx, ids)
			if err != nil {
				b.Fatal(err)
			}
			t2 := time.Now()
			req := assess.Request{Question: q, Query: q, Groups: groups, K: wire.DefaultTopK}
			for i, c := range chunks {
				req.Evidence = append(req.Evidence, assess.Evidence{ChunkID: c.ID, Title: c.Title, Text: c.Text, Score: res.Hits[i].Score})
			}
			if _, err := ix.Assess(ctx, req); err != nil {
				b.Fatal(err)
			}
			search, load, judge = search+t1.Sub(t0), load+t2.Sub(t1), judge+time.Since(t2)
			asked++
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(asked) }
	b.ReportMetric(ms(search), "search-ms/q")
	b.ReportMetric(ms(load), "chunks-ms/q")
	b.ReportMetric(ms(judge), "assess-ms/q")
	for _, name := range []string{"bm25", "vector", "rerank"} {
		b.ReportMetric(stages[name]/float64(asked), name+"-ms/q")
	}
}

func loadQuestions(b testing.TB, file string) []string {
	f, err := os.Open(file)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var q struct {
			Question string `json:"question"`
		}
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			b.Fatalf("%s: %v", file, err)
		}
		out = append(out, q.Question)
	}
	if err := sc.Err(); err != nil {
		b.Fatal(err)
	}
	return out
}
