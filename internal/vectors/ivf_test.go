package vectors

import (
	"bytes"
	"fmt"
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

// clusteredVectors returns n unit vectors around centres random centres,
// each a centre plus Gaussian noise of the given spread: the structure an
// inverted file exploits (embeddings of texts on shared topics).
func clusteredVectors(rng *rand.Rand, n, dim, centres int, spread float64) [][]float32 {
	cs := randomVectors(rng, centres, dim)
	out := make([][]float32, n)
	for i := range out {
		c := cs[rng.IntN(centres)]
		v := make([]float32, dim)
		for j := range v {
			v[j] = c[j] + float32(spread*rng.NormFloat64())
		}
		out[i] = unit(v)
	}
	return out
}

// openWithIVF writes vecs, builds their codes and an inverted file of
// lists lists, and opens the store.
func openWithIVF(t testing.TB, vecs [][]float32, lists int) *Store {
	t.Helper()
	path := writeVectors(t, t.TempDir(), vecs)
	buildIVFAt(t, path, len(vecs[0]), lists)
	s, err := Open(path, len(vecs[0]))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if !s.HasIVF() || s.IVFListCount() != lists {
		t.Fatalf("store has IVF %v with %d lists, want %d", s.HasIVF(), s.IVFListCount(), lists)
	}
	return s
}

// buildIVFAt builds the codes and an inverted file of lists lists beside
// the vector file at path.
func buildIVFAt(t testing.TB, path string, dim, lists int) {
	t.Helper()
	if err := BuildCodes(path, dim); err != nil {
		t.Fatal(err)
	}
	if err := BuildIVF(path, dim, lists); err != nil {
		t.Fatal(err)
	}
}

func TestIVFRecallAgainstExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	const dim, n, lists = 128, 20000, 141
	s := openWithIVF(t, clusteredVectors(rng, n, dim, 200, 0.03), lists)
	queries := clusteredVectors(rng, 50, dim, 200, 0.03)
	recall := func(probes int, allowed *roaring.Bitmap) float64 {
		var sum float64
		for _, q := range queries {
			exact, err := s.Search(ctx, q, allowed, 10, Float32, 0)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.SearchIVF(ctx, q, allowed, 10, 100, probes)
			if err != nil {
				t.Fatal(err)
			}
			sum += overlap(exact, got)
		}
		return sum / float64(len(queries))
	}
	// An over-fetch of 100 takes the 1-bit estimate's errors out of the
	// comparison: what is left is the lists not probed.
	bit := recallAt(t, s, queries, 10, Bit, 100)
	for _, c := range []struct {
		probes int
		floor  float64
	}{{1, 0.7}, {8, 0.75}, {24, bit - 0.02}} {
		r := recall(c.probes, nil)
		t.Logf("%d of %d lists: recall@10 %.3f (the exact 1-bit scan %.3f)", c.probes, lists, r, bit)
		if r < c.floor {
			t.Errorf("%d probes: recall@10 %.3f, want ≥ %.2f", c.probes, r, c.floor)
		}
	}
	// Probing every list scans every code: the same as the 1-bit scan.
	for _, q := range queries[:10] {
		want, err := s.Search(ctx, q, nil, 10, Bit, 20)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.SearchIVF(ctx, q, nil, 10, 20, lists)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("every list probed: %v, the 1-bit scan %v", head(got), head(want))
		}
	}
}

func TestIVFReturnsOnlyAllowed(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	const dim, n, lists = 64, 8000, 90
	vecs := clusteredVectors(rng, n, dim, 100, 0.1)
	s := openWithIVF(t, vecs, lists)
	for _, share := range []float64{0.5, 0.02, 0.001} {
		allowed := randomSubset(rng, n, share)
		for qi, q := range clusteredVectors(rng, 20, dim, 100, 0.1) {
			for _, probes := range []int{1, 4, lists} {
				got, err := s.SearchIVF(ctx, q, allowed, 10, 20, probes)
				if err != nil {
					t.Fatal(err)
				}
				for _, h := range got {
					if !allowed.Contains(h.Ordinal) {
						t.Fatalf("share %g, query %d, %d probes: returned ordinal %d, not allowed", share, qi, probes, h.Ordinal)
					}
				}
				// A caller who sees few vectors gets k of them: the
				// probe goes on until it has its candidates.
				if want := min(10, int(allowed.GetCardinality())); len(got) != want {
					t.Fatalf("share %g, %d probes: %d hits, want %d", share, probes, len(got), want)
				}
				if probes == lists {
					want, err := s.Search(ctx, q, allowed, 10, Bit, 20)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("share %g, every list: %v, the 1-bit scan %v", share, head(got), head(want))
					}
				}
			}
		}
	}
}

// The same vectors make the same file, whatever the number of CPUs.
func TestIVFBuildIsDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	vecs := clusteredVectors(rng, 6000, 96, 50, 0.1)
	build := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		path := writeVectors(t, t.TempDir(), vecs)
		buildIVFAt(t, path, 96, 77)
		b, err := os.ReadFile(IVFPath(path))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b, c := build(1), build(4), build(2)
	if !bytes.Equal(a, b) || !bytes.Equal(a, c) {
		t.Fatal("two builds of the same vectors wrote different inverted files")
	}
	// Every ordinal in exactly one list, increasing within each.
	s := openWithIVF(t, vecs, 77)
	seen := make([]bool, len(vecs))
	for l := range 77 {
		ords := s.ivf.ords[s.ivf.offsets[l]:s.ivf.offsets[l+1]]
		if !slices.IsSorted(ords) {
			t.Fatalf("list %d not in ordinal order", l)
		}
		for _, o := range ords {
			if seen[o] {
				t.Fatalf("ordinal %d in two lists", o)
			}
			seen[o] = true
		}
	}
	if i := slices.Index(seen, false); i >= 0 {
		t.Fatalf("ordinal %d in no list", i)
	}
}

func TestIVFErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	vecs := clusteredVectors(rng, 3000, 32, 20, 0.1)
	dir := t.TempDir()
	path := writeVectors(t, dir, vecs)
	if err := BuildCodes(path, 32); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, 32)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SearchIVF(ctx, vecs[0], nil, 10, 20, 4); !errs.Is(errs.Unsupported, err) {
		t.Fatalf("SearchIVF without an inverted file: %v, want Unsupported", err)
	}
	if err := s.buildIVF(0); err == nil || !strings.Contains(err.Error(), "lists") {
		t.Fatalf("buildIVF with 0 lists: %v, want an error naming lists", err)
	}
	if err := s.buildIVF(40); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(path, 32); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name          string
		q             []float32
		k, over, prob int
		field         string
	}{
		{"probes", vecs[0], 10, 20, 0, "probes"},
		{"overfetch", vecs[0], 10, 0, 4, "overfetch"},
	} {
		if _, err := s.SearchIVF(ctx, c.q, nil, c.k, c.over, c.prob); err == nil || !bytes.Contains([]byte(err.Error()), []byte(c.field)) {
			t.Errorf("%s: error %v, want one naming %s", c.name, err, c.field)
		}
	}
	if _, err := s.SearchIVF(ctx, vecs[0][:31], nil, 10, 20, 4); !errs.Is(errs.Invalid, err) {
		t.Errorf("short query: %v, want Invalid", err)
	}
	s.Close()
	// A damaged (truncated) inverted file is an error naming it, not a
	// panic; so is one written for other codes.
	b, err := os.ReadFile(IVFPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(IVFPath(path), b[:len(b)-8], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path, 32); err == nil || !bytes.Contains([]byte(err.Error()), []byte(filepath.Base(IVFPath(path)))) {
		t.Fatalf("truncated inverted file: %v", err)
	}
	b[4] = 9 // version
	if err := os.WriteFile(IVFPath(path), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path, 32); !errs.Is(errs.Invalid, err) {
		t.Fatalf("inverted file of version 9: %v, want Invalid", err)
	}
}

// BenchmarkSearchIVF compares the exact 1-bit scan with the inverted
// file's probe at a few probe counts, on 200k clustered 768-dimension
// vectors, for a caller who sees everything and one who sees half (the
// anonymous caller of the scale benchmark), with recall@100 against the
// exact float32 search. -short uses 50k vectors.
func BenchmarkSearchIVF(b *testing.B) {
	n := 200_000
	if testing.Short() {
		n = 50_000
	}
	rng := rand.New(rand.NewPCG(29, 30))
	const dim = 768
	vecs := clusteredVectors(rng, n, dim, 5000, 0.05)
	lists := IVFLists(n)
	s := openWithIVF(b, vecs, lists)
	queries := clusteredVectors(rng, 100, dim, 5000, 0.05)
	vecs = nil
	half := randomSubset(rng, n, 0.5)
	for _, allowed := range []*roaring.Bitmap{nil, half} {
		name := "all"
		if allowed != nil {
			name = "half"
		}
		exact := exactTop(b, s, queries[:recallQueries], allowed, 100)
		b.Run(fmt.Sprintf("allowed=%s/bit-scan", name), func(b *testing.B) {
			measure(b, queries, func(q []float32) []Hit {
				h, err := s.Search(ctx, q, allowed, 100, Bit, DefaultOverfetch(100))
				if err != nil {
					b.Fatal(err)
				}
				return h
			}, exact)
		})
		for _, probes := range []int{lists / 32, lists / 16, lists / 8} {
			b.Run(fmt.Sprintf("allowed=%s/ivf-%d-of-%d", name, probes, lists), func(b *testing.B) {
				measure(b, queries, func(q []float32) []Hit {
					h, err := s.SearchIVF(ctx, q, allowed, 100, DefaultOverfetch(100), probes)
					if err != nil {
						b.Fatal(err)
					}
					return h
				}, exact)
			})
		}
	}
}
