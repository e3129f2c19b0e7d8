package bleveindex

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
)

// TestOpenDuringRebuild: a build that swaps its directory in while Open
// is opening the old one (after its files, before Open stamps the build
// it opened) must not leave an index that serves the old build's chunks
// as if they were the new one's. Before round 48 Open stat'ed the
// manifest after opening: it stamped the new build, so Stale never found
// the old chunks stale and a passage narrowed to staff stayed public.
func TestOpenDuringRebuild(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ix")
	c := corpus.Chunk{ID: "d#0", DocID: "d", Title: "Rates", Text: "partner rates", Status: corpus.Current, Authority: 1, ACL: []string{"public"}}
	if _, _, err := Build(ctx, dir, []corpus.Chunk{c}, backend.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	rebuilt := false
	openedHook = func() {
		if rebuilt {
			return
		}
		rebuilt = true
		c.ACL = []string{"staff"}
		if _, _, err := Build(ctx, dir, []corpus.Chunk{c}, backend.BuildOptions{}); err != nil {
			t.Error(err)
		}
	}
	defer func() { openedHook = nil }()
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if !rebuilt {
		t.Fatal("the hook did not rebuild")
	}
	stale, err := ix.Stale(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := ix.Chunks(ctx, []string{"d#0"})
	if err != nil {
		t.Fatal(err)
	}
	if !stale && cs[0].VisibleTo([]string{"public"}) {
		t.Errorf("opened across a rebuild that restricted d#0 to staff: ACL %v and not stale; the old build would be served as the new one", cs[0].ACL)
	}
}
