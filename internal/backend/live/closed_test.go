package live

import (
	"context"
	"log/slog"
	"testing"

	"github.com/assay-rag/assay/internal/errs"
)

// TestCloseWhileRead (round 48 review, rv48): Close (a worker stopping)
// while a request still reads the served version leaves that version open
// until the request releases it, as a replaced version's retire does
// (TestReplacedVersionStaysOpenWhileRead): a read of a closed bleve
// version is not an error but a fault (its files are unmapped: SIGSEGV,
// the process dies). Before this, Close closed every version at once.
func TestCloseWhileRead(t *testing.T) {
	n := bleveNarrowing(t)
	ctx := context.Background()
	l, err := Open(ctx, n.cfg, slog.New(slog.DiscardHandler), true)
	if err != nil {
		t.Fatal(err)
	}
	g, err := l.current(ctx) // the long request
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if g.shut.Load() {
		t.Fatal("Close closed the version a request still reads") // reading it now would fault
	}
	if cs, err := g.ix.Chunks(ctx, []string{"d#0"}); err != nil || len(cs) != 1 {
		t.Errorf("the request begun before Close read %+v, %v; want d#0", cs, err)
	}
	g.release()
	if !g.shut.Load() {
		t.Error("the version still open after Close and its last request's release")
	}
}

// TestNoSwapAfterClose (round 48 review, rv48): a request that reaches an
// Index after Close fails (unavailable): it neither reads the closed
// version (a fault on bleve) nor opens a rebuilt version and serves it,
// which nothing would ever close (Close has run; before, every request
// after a rebuild did).
func TestNoSwapAfterClose(t *testing.T) {
	n := bleveNarrowing(t)
	ctx := context.Background()
	l, err := Open(ctx, n.cfg, slog.New(slog.DiscardHandler), true)
	if err != nil {
		t.Fatal(err)
	}
	g := l.cur.Load()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	n.rebuild("staff")
	for name, call := range map[string]func() error{
		"search": func() error { _, err := sawD(t, l); return err },
		"chunks": func() error { _, err := l.Chunks(ctx, []string{"d#0"}); return err },
		"ready":  func() error { _, err := l.Ready(ctx); return err },
	} {
		if err := call(); !errs.Is(errs.Unavailable, err) {
			t.Errorf("%s after Close: %v, want unavailable", name, err)
		}
		if cur := l.cur.Load(); cur != g {
			t.Errorf("%s after Close opened and served %s, which nothing closes", name, cur.ix.Version())
			cur.close()
			l.cur.Store(g)
		}
	}
}
