package live

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/retrieval"
)

// TestScaleMemory is a diagnostic for issue 20's memory targets, not a CI
// test. It opens a large index as `assay dev`'s worker does (with
// ASSAY_SCALE_CORPUS, the corpus it was built from, checked against the
// index's manifest; nothing rebuilt), searches it as the anonymous caller
// for every question in ASSAY_SCALE_QUESTIONS (a questions.jsonl;
// optional), and reports the Go heap in use and the process's resident
// memory (VmRSS, RssAnon, RssFile, VmHWM) after opening and after
// searching. With ASSAY_HEAP_PROFILE it writes a heap profile there (go
// tool pprof). The index is either
//
//   - bleve: ASSAY_SCALE_INDEX, the index directory; or
//
//   - RediSearch: ASSAY_SCALE_REDIS (host:port) and ASSAY_SCALE_NAME (the
//     index name), built with ASSAY_SCALE_EMBEDDER (default builtin; none
//     searches bm25).
//
//     ASSAY_SCALE_INDEX=.../index ASSAY_SCALE_CORPUS=.../corpus.jsonl \
//     ASSAY_SCALE_QUESTIONS=.../questions.jsonl go test ./internal/backend/live -run TestScaleMemory -v
func TestScaleMemory(t *testing.T) {
	cfg := config.Default()
	cfg.Index.Corpus = os.Getenv("ASSAY_SCALE_CORPUS")
	switch dir, addr, name := os.Getenv("ASSAY_SCALE_INDEX"), os.Getenv("ASSAY_SCALE_REDIS"), os.Getenv("ASSAY_SCALE_NAME"); {
	case addr != "" && name != "":
		cfg.Index.Backend, cfg.Redis.Addr, cfg.Index.Name = config.BackendRediSearch, addr, name
		if e := os.Getenv("ASSAY_SCALE_EMBEDDER"); e != "" {
			cfg.Embed.Provider = e
		}
	case dir != "" && cfg.Index.Corpus != "":
		cfg.Index.Dir = dir
	default:
		t.Skip("SKIPPED: diagnostic; set ASSAY_SCALE_INDEX and ASSAY_SCALE_CORPUS (bleve) or ASSAY_SCALE_REDIS and ASSAY_SCALE_NAME (RediSearch)")
	}
	mode := retrieval.HybridRerank
	if cfg.Embed.Provider == config.EmbedNone {
		mode = retrieval.BM25
	}
	t.Logf("before open: %s", memoryNow(t))
	start := time.Now()
	l, err := Open(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), cfg.Index.Corpus != "")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Version() == "" || l.Len() == 0 {
		t.Fatalf("opened %q with %d chunks", l.Version(), l.Len())
	}
	t.Logf("opened %d chunks in %s; %s", l.Len(), time.Since(start).Round(time.Millisecond), memoryNow(t))
	var questions []string
	if p := os.Getenv("ASSAY_SCALE_QUESTIONS"); p != "" {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var q struct{ Question string }
			if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			questions = append(questions, q.Question)
		}
		f.Close()
	}
	start = time.Now()
	for _, q := range questions {
		res, err := l.Search(context.Background(), retrieval.Request{Query: q, Groups: []string{"public"}, K: 10, Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 {
			t.Errorf("no hits for %q", q)
		}
	}
	t.Logf("searched %d questions in %s; %s", len(questions), time.Since(start).Round(time.Millisecond), memoryNow(t))
	if p := os.Getenv("ASSAY_HEAP_PROFILE"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		if err := pprof.WriteHeapProfile(f); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}

// memoryNow describes the Go heap in use and the process's resident
// memory, anonymous and file-backed.
func memoryNow(t *testing.T) string {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	out := []string{"heap in use " + mib(m.HeapInuse)}
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return out[0]
	}
	for _, line := range strings.Split(string(b), "\n") {
		for _, k := range []string{"VmRSS:", "RssAnon:", "RssFile:", "VmHWM:"} {
			if strings.HasPrefix(line, k) {
				out = append(out, strings.Join(strings.Fields(line), " "))
			}
		}
	}
	return strings.Join(out, ", ")
}

func mib(b uint64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }
