package cli

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/release"
	"github.com/assay-rag/assay/internal/retrieval"
)

// TestRootBuildsEachPartOnce: the index and the activities are built on
// first use and shared after, and only the index is left to close.
func TestRootBuildsEachPartOnce(t *testing.T) {
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.Index.Corpus = "../../testdata/hollin/corpus.jsonl"
	r := NewRoot(cfg, slog.New(slog.DiscardHandler))
	if _, err := r.Index(context.Background()); err == nil {
		t.Fatal("Index without BuildIndex and without an index: no error")
	}
	r.BuildIndex = true
	ctx := context.Background()
	acts, err := r.Activities(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := r.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	acts2, _ := r.Activities(ctx)
	ix2, _ := r.Index(ctx)
	if acts2 != acts || ix2 != ix {
		t.Errorf("second Activities/Index built anew: %p→%p, %p→%p", acts, acts2, ix, ix2)
	}
	if set, ok := acts.Searcher.(*release.Set); !ok || set.Base != ix || acts.Tokens != nil {
		t.Errorf("activities search %T, tokens %v; want the releases served over the root's index and no token transport", acts.Searcher, acts.Tokens)
	}
	req := retrieval.Request{Query: "descale the kettle", Groups: []string{"public"}, K: 3}
	if res, err := acts.Searcher.Search(ctx, req); err != nil || len(res.Hits) == 0 {
		t.Fatalf("search before Close: %d hits, %v", len(res.Hits), err)
	}
	if len(r.closers) != 2 {
		t.Errorf("%d parts to close, want 2 (the index and the releases served; nothing dialled Temporal)", len(r.closers))
	}
	r.Close()
	r.Close() // twice is safe
}

// TestRootClosesNewestFirst: Close runs what was built in reverse order,
// runs all of it when some fail, and logs the failures.
func TestRootClosesNewestFirst(t *testing.T) {
	var logged strings.Builder
	r := NewRoot(config.Default(), slog.New(slog.NewTextHandler(&logged, nil)))
	var order []string
	for _, name := range []string{"server", "client", "index", "worker"} {
		r.onClose(func() error {
			order = append(order, name)
			if name == "index" {
				return errors.New("index close failed")
			}
			return nil
		})
	}
	r.Close()
	if want := []string{"worker", "index", "client", "server"}; !slices.Equal(order, want) {
		t.Errorf("closed %v, want %v", order, want)
	}
	if !strings.Contains(logged.String(), "index close failed") {
		t.Errorf("log %q does not name the failure", logged.String())
	}
}

// TestRootClientNamesTheAddress: a Temporal that does not answer is an
// error naming temporal.address, and nothing is left to close.
func TestRootClientNamesTheAddress(t *testing.T) {
	if testing.Short() {
		t.Skip("dials")
	}
	cfg := config.Default()
	cfg.Temporal.Address = "127.0.0.1:1"
	r := NewRoot(cfg, slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := r.Client(ctx)
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("Client: %v; want an error naming the address", err)
	}
	if len(r.closers) != 0 {
		t.Errorf("%d parts to close after a failed dial, want 0", len(r.closers))
	}
}
