package live

import (
	"context"
	"log/slog"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/names"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
	"github.com/assay-rag/assay/internal/wire"
)

// namingCall is one one-word search (SearchText for namingChunks) the
// diagnostic saw: which reading asked it, the word, its time and Redis
// CPU.
type namingCall struct {
	reading, text string
	wall, redis   time.Duration
	hits          int
}

// namingCounter is an index whose one-word searches are recorded.
type namingCounter struct {
	backend.Index
	cpu   func() time.Duration
	mu    sync.Mutex
	calls []namingCall
}

func (w *namingCounter) Names() *names.Table {
	if ns, ok := w.Index.(backend.NameSource); ok {
		return ns.Names()
	}
	return nil
}

func (w *namingCounter) SearchText(ctx context.Context, text string, f backend.Filter, k int) ([]backend.Hit, error) {
	if k != namingChunks {
		return w.Index.SearchText(ctx, text, f, k)
	}
	reading := "?"
	pcs := make([]uintptr, 32)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		fr, more := frames.Next()
		for _, r := range []string{"classNames", "generalClass", "unkind", "Spellings"} {
			if strings.HasSuffix(fr.Function, "."+r) || strings.Contains(fr.Function, "."+r+".") {
				if reading == "?" {
					reading = r
				}
			}
		}
		if !more {
			break
		}
	}
	c0, t0 := w.cpu(), time.Now()
	hits, err := w.Index.SearchText(ctx, text, f, k)
	wall, cpu := time.Since(t0), w.cpu()-c0
	w.mu.Lock()
	w.calls = append(w.calls, namingCall{reading, text, wall, cpu, len(hits)})
	w.mu.Unlock()
	return hits, err
}

// TestNamingCost lists the one-word searches (Naming: the class readings'
// and the spelling's) the builtin assessor asks for the first attempt of
// each question of a JSONL file, as the anonymous caller, over a
// RediSearch index already built in a running server on this machine:
// which reading asked each, its word, and Redis's main-thread CPU for it
// (/proc schedstat; other clients' commands count too). Opt-in:
//
//	ASSAY_NAMING_REDIS=host:port ASSAY_NAMING_NAME=index ASSAY_NAMING_QUESTIONS=questions.jsonl [ASSAY_NAMING_WORDNET=dir]
func TestNamingCost(t *testing.T) {
	addr, name, file := os.Getenv("ASSAY_NAMING_REDIS"), os.Getenv("ASSAY_NAMING_NAME"), os.Getenv("ASSAY_NAMING_QUESTIONS")
	if addr == "" || name == "" || file == "" {
		t.Skip("SKIPPED: measurement on a built index; set ASSAY_NAMING_REDIS, ASSAY_NAMING_NAME, ASSAY_NAMING_QUESTIONS")
	}
	qs := loadQuestions(t, file)
	cfg := config.Default()
	cfg.Index.Backend = config.BackendRediSearch
	cfg.Redis.Addr = addr
	cfg.Index.Name = name
	ctx := context.Background()
	d, err := OpenDirect(ctx, cfg, slog.New(slog.DiscardHandler), false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	w := &namingCounter{Index: d.Index, cpu: redisMainCPU(t, addr)}
	var thes assess.Thesaurus
	if dir := os.Getenv("ASSAY_NAMING_WORDNET"); dir != "" {
		wn, err := thesaurus.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		thes = wn
	}
	a, err := assessorOver(lexicon{w, newHeldMemo(), terms.New()}, thes, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("assessor %s", a.Model())
	groups := []string{wire.PublicGroup}
	var assessCPU time.Duration
	perQ := map[int]int{}
	for qi, q := range qs {
		req := searchedRequest(t, d, q, groups, wire.DefaultTopK)
		before := len(w.calls)
		c0 := w.cpu()
		if _, err := a.Assess(ctx, req); err != nil {
			t.Fatal(err)
		}
		assessCPU += w.cpu() - c0
		perQ[qi] = len(w.calls) - before
		for _, c := range w.calls[before:] {
			t.Logf("q%d %-12s %-16q hits %d  %6.2f ms wall %6.2f ms redis", qi, c.reading, c.text, c.hits, ms(c.wall), ms(c.redis))
		}
	}
	by := map[string][]namingCall{}
	for _, c := range w.calls {
		by[c.reading] = append(by[c.reading], c)
	}
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var cpu time.Duration
		for _, c := range by[k] {
			cpu += c.redis
		}
		t.Logf("%-12s %d searches, %.2f a question, %.2f ms of Redis each, %.2f ms a question", k, len(by[k]),
			float64(len(by[k]))/float64(len(qs)), ms(cpu)/float64(len(by[k])), ms(cpu)/float64(len(qs)))
	}
	t.Logf("%d questions; Redis CPU during Assess %.2f ms a question", len(qs), ms(assessCPU)/float64(len(qs)))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// searchedRequest is the assessment request of a question's first
// attempt: the retriever's top k for groups, read as evidence.
func searchedRequest(t testing.TB, d *Direct, question string, groups []string, k int) assess.Request {
	ctx := context.Background()
	res, err := d.Retriever.Search(ctx, retrieval.Request{Query: question, Groups: groups, K: k})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		ids[i] = h.ChunkID
	}
	chunks, err := d.Index.Chunks(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	req := assess.Request{Question: question, Query: question, Groups: groups, K: k}
	for i, c := range chunks {
		req.Evidence = append(req.Evidence, assess.Evidence{ChunkID: c.ID, Title: c.Title, Text: c.Text, Score: res.Hits[i].Score})
	}
	return req
}

// redisMainCPU returns a reader of the main-thread CPU time of the Redis
// at addr (this machine's; redistest.MainThreadCPU).
func redisMainCPU(t *testing.T, addr string) func() time.Duration {
	return redistest.MainThreadCPU(t, redis.NewClient(&redis.Options{Addr: addr}))
}
