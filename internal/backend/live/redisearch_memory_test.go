package live_test

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
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/retrieval"
)

// TestRediSearchWorkerMemory is a diagnostic for issue 20's memory target
// in RediSearch mode, not a CI test: with ASSAY_SCALE_REDIS (host:port of
// a Redis holding an index built by `assay index --backend redisearch`),
// ASSAY_SCALE_NAME (its name) and ASSAY_SCALE_EMBEDDER (what it was built
// with; default builtin) set, it opens the index as `assay dev`'s worker
// does (with ASSAY_SCALE_CORPUS, the corpus checked against the manifest),
// searches hybrid+rerank (bm25 without vectors) as the anonymous caller for every question in
// ASSAY_SCALE_QUESTIONS (optional), and reports the Go heap in use and the
// process's resident memory after each step. ASSAY_HEAP_PROFILE names a
// heap profile to write (go tool pprof).
func TestRediSearchWorkerMemory(t *testing.T) {
	addr, name := os.Getenv("ASSAY_SCALE_REDIS"), os.Getenv("ASSAY_SCALE_NAME")
	if addr == "" || name == "" {
		t.Skip("SKIPPED: diagnostic; set ASSAY_SCALE_REDIS and ASSAY_SCALE_NAME")
	}
	cfg := config.Default()
	cfg.Index.Backend, cfg.Redis.Addr, cfg.Index.Name = config.BackendRediSearch, addr, name
	cfg.Index.Corpus = os.Getenv("ASSAY_SCALE_CORPUS")
	if e := os.Getenv("ASSAY_SCALE_EMBEDDER"); e != "" {
		cfg.Embed.Provider = e
	}
	t.Logf("before open: %s", residentNow())
	start := time.Now()
	l, err := live.Open(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), cfg.Index.Corpus != "")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	t.Logf("opened %d chunks in %s; %s", l.Len(), time.Since(start).Round(time.Millisecond), residentNow())
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
	mode := retrieval.HybridRerank
	if cfg.Embed.Provider == config.EmbedNone {
		mode = retrieval.BM25
	}
	start = time.Now()
	for _, q := range questions {
		if _, err := l.Search(context.Background(), retrieval.Request{Query: q, Groups: []string{"public"}, K: 10, Mode: mode}); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("searched %d questions in %s; %s", len(questions), time.Since(start).Round(time.Millisecond), residentNow())
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

// residentNow is the Go heap in use and the process's VmRSS and VmHWM.
func residentNow() string {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	out := []string{fmt.Sprintf("heap in use %.0f MiB", float64(m.HeapInuse)/(1<<20))}
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") || strings.HasPrefix(line, "VmHWM:") {
			out = append(out, strings.Join(strings.Fields(line), " "))
		}
	}
	return strings.Join(out, ", ")
}
