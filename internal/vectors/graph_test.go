package vectors

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/assay-rag/assay/internal/errs"
)

// openWithGraph writes vecs, builds their codes and graph and opens the
// store; it returns the vector file's path too.
func openWithGraph(t testing.TB, vecs [][]float32) (*Store, string) {
	t.Helper()
	path := writeVectors(t, t.TempDir(), vecs)
	if err := BuildCodes(path, len(vecs[0])); err != nil {
		t.Fatal(err)
	}
	if err := BuildGraph(path, len(vecs[0])); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, len(vecs[0]))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if !s.HasGraph() {
		t.Fatal("no graph after BuildGraph")
	}
	return s, path
}

// TestGraphEqualsScanAtFullBeam: with a beam as large as the corpus the
// walk reaches every vector, so its candidates are the scan's and the
// results are the 1-bit scan's, hit for hit, for every caller.
func TestGraphEqualsScanAtFullBeam(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, dim = 600, 48
	s, _ := openWithGraph(t, clusteredVectors(rng, n, dim, 12, 0.3))
	queries := randomVectors(rng, 20, dim)
	for _, allowed := range []*roaring.Bitmap{nil, randomSubset(rng, n, 0.5), randomSubset(rng, n, 0.1)} {
		for qi, q := range queries {
			want, err := s.Search(ctx, q, allowed, 10, Bit, 4)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.SearchGraph(ctx, q, allowed, 10, 4, n)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("query %d, %d allowed: graph %v, scan %v", qi, card(allowed, n), head(got), head(want))
			}
		}
	}
}

func card(b *roaring.Bitmap, n int) int {
	if b == nil {
		return n
	}
	return int(b.GetCardinality())
}

// TestGraphRecall: on clustered vectors a walk with a modest beam finds
// nearly all of the 1-bit scan's top 10 while scoring a fraction of the
// codes.
func TestGraphRecall(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, dim = 8000, 64
	s, _ := openWithGraph(t, clusteredVectors(rng, n, dim, 40, 0.08))
	var queries [][]float32
	for range 50 { // near the data: a stored vector, perturbed
		v := slices.Clone(s.Vector(rng.IntN(n)))
		for j := range v {
			v[j] += float32(0.05 * rng.NormFloat64())
		}
		queries = append(queries, unit(v))
	}
	var sum float64
	for _, q := range queries {
		want, err := s.Search(ctx, q, nil, 10, Bit, 10)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.SearchGraph(ctx, q, nil, 10, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		sum += overlap(want, got)
	}
	recall := sum / float64(len(queries))
	t.Logf("recall@10 against the scan at beam 64: %.3f", recall)
	if recall < 0.95 {
		t.Errorf("recall@10 %.3f, want ≥ 0.95", recall)
	}
	// The walk scores a fraction of the codes.
	est := s.bits.estimator(queries[0])
	var seeds []scored
	for i := uint32(0); i < uint32(n); i += graphSeedStride {
		seeds = append(seeds, scored{i, est.score(i)})
	}
	slices.SortFunc(seeds, func(a, b scored) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	_, scoredN, err := beamSearch(ctx, seeds[:64], 64, est.score, s.g.neighbours, n, func(u uint32) bool { return u%graphSeedStride == 0 }, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if total := scoredN + len(seeds); total > n/2 {
		t.Errorf("the walk scored %d of %d codes, want under half", total, n)
	}
}

// TestGraphReturnsOnlyAllowed: a restricted caller's results are all
// allowed, with their exact scores, whatever the beam; hidden vectors
// route the walk but are never results.
func TestGraphReturnsOnlyAllowed(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, dim = 3000, 32
	vecs := clusteredVectors(rng, n, dim, 20, 0.3)
	s, _ := openWithGraph(t, vecs)
	for _, p := range []float64{0.5, 0.05, 0.003} {
		allowed := randomSubset(rng, n, p)
		for _, beam := range []int{8, 64, 512} {
			for range 10 {
				q := randomVectors(rng, 1, dim)[0]
				got, err := s.SearchGraph(ctx, q, allowed, 10, 4, beam)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) == 0 && !allowed.IsEmpty() {
					t.Errorf("share %.3f beam %d: no results", p, beam)
				}
				for _, h := range got {
					if !allowed.Contains(h.Ordinal) {
						t.Fatalf("share %.3f beam %d: result %d is not allowed", p, beam, h.Ordinal)
					}
					if want := dot(q, vecs[h.Ordinal]); h.Score != want {
						t.Fatalf("result %d scored %v, its exact score is %v", h.Ordinal, h.Score, want)
					}
				}
			}
		}
	}
	// Nothing allowed: nothing found.
	got, err := s.SearchGraph(ctx, randomVectors(rng, 1, dim)[0], roaring.New(), 10, 4, 64)
	if err != nil || len(got) != 0 {
		t.Errorf("empty allowed set: %v, %v", got, err)
	}
}

// TestGraphBuildIsDeterministic: the same vectors give the same graph
// bytes, whatever the number of CPUs building it.
func TestGraphBuildIsDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	vecs := clusteredVectors(rng, 3000, 32, 16, 0.3)
	var files [][]byte
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		path := writeVectors(t, t.TempDir(), vecs)
		if err := BuildCodes(path, 32); err != nil {
			t.Fatal(err)
		}
		err := BuildGraph(path, 32)
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(GraphPath(path))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Error("two builds of the same vectors wrote different graphs")
	}
}

// TestGraphFileErrors: a damaged, truncated, other-version or
// other-codes graph is refused at Open with an error naming the problem;
// a store without a graph searches by scanning, and rebuilding the codes
// removes the graph built over the old ones.
func TestGraphFileErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const dim = 32
	vecs := clusteredVectors(rng, 1000, dim, 8, 0.3)
	s, path := openWithGraph(t, vecs)
	s.Close()
	good, err := os.ReadFile(GraphPath(path))
	if err != nil {
		t.Fatal(err)
	}
	try := func(name string, b []byte, kind errs.Kind, want string) {
		t.Helper()
		if err := os.WriteFile(GraphPath(path), b, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Open(path, dim)
		if err == nil {
			s.Close()
			t.Errorf("%s: Open succeeded", name)
			return
		}
		if !errs.Is(kind, err) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a %v error saying %q", name, err, kind, want)
		}
	}
	damaged := slices.Clone(good)
	damaged[len(damaged)-3] ^= 0x40
	try("damaged", damaged, errs.Invalid, "damaged")
	try("truncated", good[:len(good)-4], errs.Invalid, "bytes")
	other := slices.Clone(good)
	other[4] = 9
	try("version", other, errs.Invalid, "graph version 9")
	try("not a graph", []byte("hello, world, this is no graph file at all"), errs.Invalid, "not a vector graph")

	// A graph over other codes: the vectors changed and the codes were
	// rebuilt, the old graph copied back.
	vecs2 := slices.Clone(vecs)
	vecs2[0] = randomVectors(rng, 1, dim)[0]
	path2 := writeVectors(t, t.TempDir(), vecs2)
	if err := BuildCodes(path2, dim); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(GraphPath(path2), good, 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := Open(path2, dim); err == nil {
		s.Close()
		t.Error("a graph over other codes: Open succeeded")
	} else if !errs.Is(errs.Conflict, err) || !strings.Contains(err.Error(), "other 1-bit codes") {
		t.Errorf("a graph over other codes: %v", err)
	}
	// Rebuilding the codes removes it.
	if err := BuildCodes(path2, dim); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(GraphPath(path2)); !os.IsNotExist(err) {
		t.Errorf("BuildCodes left the old graph: %v", err)
	}
	s2, err := Open(path2, dim)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if s2.HasGraph() {
		t.Error("HasGraph without a graph file")
	}
	q := randomVectors(rng, 1, dim)[0]
	if _, err := s2.SearchGraph(ctx, q, nil, 5, 4, 64); !errs.Is(errs.Unsupported, err) {
		t.Errorf("SearchGraph without a graph: %v, want errs.Unsupported", err)
	}
	if got, err := s2.Search(ctx, q, nil, 5, Bit, 4); err != nil || len(got) != 5 {
		t.Errorf("Search without a graph: %v, %v", got, err)
	}
	// Bad arguments.
	if err := os.WriteFile(GraphPath(path), good, 0o644); err != nil {
		t.Fatal(err)
	}
	s3, err := Open(path, dim)
	if err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	for name, call := range map[string]func() error{
		"beam":      func() error { _, err := s3.SearchGraph(ctx, q, nil, 5, 4, 0); return err },
		"overfetch": func() error { _, err := s3.SearchGraph(ctx, q, nil, 5, 0, 64); return err },
		"dimension": func() error { _, err := s3.SearchGraph(ctx, q[:3], nil, 5, 4, 64); return err },
		"allowed":   func() error { _, err := s3.SearchGraph(ctx, q, roaring.BitmapOf(5000), 5, 4, 64); return err },
	} {
		if err := call(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := BuildGraph(filepath.Join(t.TempDir(), "none.f32"), dim); err == nil {
		t.Error("BuildGraph of a missing file: no error")
	}
}

// BenchmarkSearchGraph is the graph search's hot path: 20,000 clustered
// vectors of 768 dimensions, k = 100 with the default over-fetch, the
// default beam, a caller who sees everything and one who sees half,
// against the 1-bit scan in the same run.
//
//	go test ./internal/vectors -run '^$' -bench SearchGraph
func BenchmarkSearchGraph(b *testing.B) {
	rng := rand.New(rand.NewPCG(11, 12))
	const n, dim, k = 20_000, 768, 100
	s, _ := openWithGraph(b, clusteredVectors(rng, n, dim, 200, 0.05))
	queries := randomVectors(rng, 64, dim)
	for _, c := range []struct {
		name    string
		allowed *roaring.Bitmap
	}{{"all", nil}, {"half", randomSubset(rng, n, 0.5)}} {
		b.Run(c.name+"/graph", func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if _, err := s.SearchGraph(ctx, queries[i%len(queries)], c.allowed, k, DefaultOverfetch(k), DefaultGraphBeam); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/scan", func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if _, err := s.Search(ctx, queries[i%len(queries)], c.allowed, k, Bit, DefaultOverfetch(k)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
