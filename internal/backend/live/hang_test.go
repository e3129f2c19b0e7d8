package live

import (
	"context"
	"log/slog"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestPassageReadBoundedWhenRedisHangs (round 49 review, rv49): a
// gateway's passage index (no deadline on its requests: the sources
// endpoint's context) reading a chunk it has not cached while Redis
// accepts connections and answers nothing (a paused process) fails
// unavailable (the endpoint's 503 with Retry-After) within a few
// seconds. Before round 49 the check came first and failed at 5 s; with
// the check riding in the read's pipeline (a49-gw) the read waited for
// go-redis's read timeout on every retry of the pipeline: 45.9 s
// measured.
func TestPassageReadBoundedWhenRedisHangs(t *testing.T) {
	srv := redistest.Start(t)
	if srv.Cmd == nil {
		t.Skip("a Redis given by URL: the test cannot pause it")
	}
	cfg := redistest.IndexConfig(t, srv.Addr, redistest.Name("hang"))
	cfg.Index.Corpus = filepath.Join(t.TempDir(), "corpus.jsonl")
	writeNarrowCorpus(t, cfg.Index.Corpus, "public")
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	buildLayout(t, cfg, cfg.Index.Vector)
	src := NewPassageSource(cfg)
	p, err := OpenPassages(ctx, src, log)
	if err != nil {
		src.Close()
		t.Fatal(err)
	}
	defer p.Close()
	if err := srv.Cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer srv.Cmd.Process.Signal(syscall.SIGCONT)
	start := time.Now()
	cs, err := p.Chunks(ctx, []string{"d#0"})
	took := time.Since(start)
	if !errs.Is(errs.Unavailable, err) || len(cs) != 0 {
		t.Errorf("an uncached passage read with Redis paused = %+v, %v; want unavailable, nothing", cs, err)
	}
	if took > 8*time.Second {
		t.Errorf("an uncached passage read with Redis paused failed after %v; want within a few seconds", took.Round(time.Millisecond))
	}
}
