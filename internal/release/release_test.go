package release

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/redistest"
)

func manifest(name string, at time.Time) Manifest {
	m := Manifest{Name: name, CreatedAt: at, Reranker: "builtin", Index: IndexRef{Backend: "bleve", Dir: "/x/" + name}}
	m.Digest = ContentDigest(m)
	return m
}

// exercise runs the lifecycle every Store must support.
func exercise(t *testing.T, s Store) {
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, n := range []string{"initial", "b", "c"} {
		if err := s.Create(ctx, manifest(n, t0.Add(time.Duration(i)*time.Hour))); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Create(ctx, manifest("b", t0)); !errs.Is(errs.Conflict, err) {
		t.Fatalf("second create of b: %v, want a conflict", err)
	}
	if _, err := s.Get(ctx, "nope"); !errs.Is(errs.NotFound, err) {
		t.Fatalf("get of a missing release: %v, want not found", err)
	}
	list, err := s.List(ctx)
	if err != nil || len(list) != 3 || list[0].Name != "initial" || list[2].Name != "c" {
		t.Fatalf("list = %v, %v", list, err)
	}
	if a, _ := s.Active(ctx); a.Stable != "" {
		t.Fatalf("active before any promotion = %+v", a)
	}
	if err := StartCanary(ctx, s, "b", 5, Canary); err == nil {
		t.Fatal("a canary without a stable release started")
	}
	if _, err := Promote(ctx, s, "initial", "first", DefaultKeep); err != nil {
		t.Fatal(err)
	}
	if err := StartCanary(ctx, s, "b", 25, Canary); err != nil {
		t.Fatal(err)
	}
	if err := StartCanary(ctx, s, "c", 5, Canary); !errs.Is(errs.Conflict, err) {
		t.Fatalf("a second canary: %v, want a conflict", err)
	}
	a, _ := s.Active(ctx)
	if a.Candidate != "b" || a.Share != 25 || !slices.Equal(a.Names(), []string{"initial", "b"}) {
		t.Fatalf("active in canary = %+v", a)
	}
	a, from, err := Rollback(ctx, s, RolledBack, "insufficient_context rate 0.40 > 0.10")
	if err != nil || from != "b" || a.Stable != "initial" || a.Candidate != "" {
		t.Fatalf("rollback of the canary = %+v from %q, %v", a, from, err)
	}
	st, _ := s.Status(ctx, "b")
	if st.State != RolledBack || st.Share != 0 || st.Reason == "" {
		t.Fatalf("status after rollback = %+v", st)
	}
	if _, err := Promote(ctx, s, "c", "", DefaultKeep); err != nil {
		t.Fatal(err)
	}
	a, from, err = Rollback(ctx, s, RolledBack, "by hand")
	if err != nil || from != "c" || a.Stable != "initial" || len(a.Previous) != 0 {
		t.Fatalf("rollback of a promotion = %+v from %q, %v", a, from, err)
	}
	if st, _ := s.Status(ctx, "initial"); st.State != Promoted {
		t.Fatalf("initial after the rollback = %+v", st)
	}
	if _, _, err := Rollback(ctx, s, RolledBack, ""); err == nil {
		t.Fatal("a rollback with nothing to return to succeeded")
	}
}

func TestFileStore(t *testing.T) {
	s, err := NewFileStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, s)
}

func TestRedisStore(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: redistest.Addr(t)})
	defer rdb.Close()
	exercise(t, &RedisStore{RDB: rdb, Prefix: redistest.Name("assay-release-test")})
}

func TestPromoteKeepsK(t *testing.T) {
	ctx := context.Background()
	s, _ := NewFileStore(t.TempDir())
	for i := range 5 {
		n := fmt.Sprintf("r%d", i)
		s.Create(ctx, manifest(n, time.Unix(int64(i), 0)))
		if _, err := Promote(ctx, s, n, "", 2); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := s.Active(ctx)
	if a.Stable != "r4" || !slices.Equal(a.Previous, []string{"r3", "r2"}) {
		t.Fatalf("active = %+v, want r4 with r3, r2 kept", a)
	}
	s.Create(ctx, manifest("fresh", time.Unix(0, 0))) // created, never started
	s.SetStatus(ctx, Status{Name: "fresh", State: Created})
	for _, n := range []string{"r0", "r1", "r3", "r4", "fresh"} {
		if err := mkdir(s.IndexDir(n)); err != nil {
			t.Fatal(err)
		}
	}
	kept, err := Kept(ctx, s, a, 1)
	if err != nil {
		t.Fatal(err)
	}
	gone, err := s.Prune(kept)
	if err != nil || !slices.Equal(gone, []string{"r0", "r1"}) {
		t.Fatalf("prune removed %v, %v; want r0 and r1 (fresh is undecided, r2-r4 stable or kept)", gone, err)
	}
}

func TestPickIsStableAndProportional(t *testing.T) {
	a := Active{Stable: "s", Candidate: "c", Share: 25}
	n := 0
	for i := range 4000 {
		id := fmt.Sprintf("q-%d", i)
		if a.Pick(id) != a.Pick(id) {
			t.Fatal("pick is not deterministic")
		}
		if a.Pick(id) == "c" {
			n++
		}
	}
	if n < 850 || n > 1150 {
		t.Fatalf("%d of 4000 runs on the candidate at 25%%", n)
	}
	if (Active{Stable: "s"}).Pick("x") != "s" || (Active{}).Pick("x") != "" {
		t.Fatal("pick without a canary")
	}
}

func TestContentDigestIgnoresNameAndTime(t *testing.T) {
	a, b := manifest("a", time.Unix(1, 0)), manifest("b", time.Unix(2, 0))
	if ContentDigest(a) != ContentDigest(b) {
		t.Fatal("the digest depends on name, time or where the index lives")
	}
	b.Reranker = "other"
	if ContentDigest(a) == ContentDigest(b) {
		t.Fatal("the digest ignores the reranker")
	}
}

func mkdir(dir string) error { return os.MkdirAll(dir, 0o755) }
