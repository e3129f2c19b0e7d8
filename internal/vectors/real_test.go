package vectors

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// realCodes is a store of real vectors, a caller's ordinals and real
// query vectors, read from the directory named by ASSAY_VECTORS_REAL
// (written by bleveindex's TestWriteVectorFixture from the scale
// benchmark's 500k index: the 250k ordinals its anonymous caller sees
// and 300 SciFact claims, embedded as the index embeds queries).
type realCodes struct {
	s       *Store
	allowed *roaring.Bitmap
	queries [][]float32
}

// openReal opens ASSAY_VECTORS_REAL's fixture, or skips.
func openReal(tb testing.TB) realCodes {
	tb.Helper()
	dir := os.Getenv("ASSAY_VECTORS_REAL")
	if dir == "" {
		tb.Skip("set ASSAY_VECTORS_REAL to a fixture of bleveindex's TestWriteVectorFixture")
	}
	desc, err := os.ReadFile(filepath.Join(dir, "store.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	var path string
	var dim int
	if _, err := fmt.Sscanf(string(desc), "%s %d", &path, &dim); err != nil {
		tb.Fatalf("store.txt: %v", err)
	}
	s, err := Open(path, dim)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	b, err := os.ReadFile(filepath.Join(dir, "allowed.u32"))
	if err != nil {
		tb.Fatal(err)
	}
	allowed := roaring.New()
	for j := 0; j+4 <= len(b); j += 4 {
		allowed.Add(binary.LittleEndian.Uint32(b[j:]))
	}
	if b, err = os.ReadFile(filepath.Join(dir, "queries.f32")); err != nil {
		tb.Fatal(err)
	}
	var queries [][]float32
	for j := 0; j+4*dim <= len(b); j += 4 * dim {
		q := make([]float32, dim)
		for d := range q {
			q[d] = math.Float32frombits(binary.LittleEndian.Uint32(b[j+4*d:]))
		}
		queries = append(queries, q)
	}
	if allowed.IsEmpty() || len(queries) == 0 {
		tb.Fatalf("%s: %d ordinals and %d queries", dir, allowed.GetCardinality(), len(queries))
	}
	return realCodes{s: s, allowed: allowed, queries: queries}
}

// blockSubset is NewSubset in the block layout (whatever the CPU).
func blockSubset(tb testing.TB, s *Store, allowed *roaring.Bitmap) *Subset {
	tb.Helper()
	defer func(b bool) { subsetBlocks = b }(subsetBlocks)
	subsetBlocks = true
	sub, err := s.NewSubset(allowed)
	if err != nil {
		tb.Fatal(err)
	}
	if sub.blocks == nil || !sub.masked {
		tb.Fatalf("a subset of %d-word codes: blocks %v, masked %v", s.bits.words, sub.blocks != nil, sub.masked)
	}
	return sub
}

// sameOffers checks that the block scan of sub keeps the same offers
// with its masks (aboveBlocks) as without: the same keys in the same
// order, the same floor, for query q and keep.
func sameOffers(t *testing.T, s *Store, sub *Subset, q []float32, keep int) {
	t.Helper()
	scan := func(masked bool) *bestSet {
		sub.masked = masked
		defer func() { sub.masked = true }()
		top := newBestSet(keep)
		if err := s.scanSubsetBlocks(ctx, sub, s.bits.estimator(q), top); err != nil {
			t.Fatal(err)
		}
		return top
	}
	want, got := scan(false), scan(true)
	if !slices.Equal(got.keys, want.keys) || got.floor != want.floor || got.full != want.full {
		t.Fatalf("keep %d: with masks the scan kept %d keys (floor %x), without %d (floor %x), or others", keep, len(got.keys), got.floor, len(want.keys), want.floor)
	}
}

// With its masks the block scan makes the same offers as without, on
// generated codes (ties included: duplicated vectors) and on real ones
// (ASSAY_VECTORS_REAL); over the real codes the searches return the same
// hits as the bitmap search.
func TestMaskedScanSameOffers(t *testing.T) {
	t.Run("generated", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(30, 1))
		const dim = 256
		vecs := randomVectors(rng, 20000, dim)
		for range 4000 {
			vecs = append(vecs, vecs[rng.IntN(len(vecs))])
		}
		s := openWithCodes(t, vecs, defaultInt8Scaling)
		for _, share := range []float64{1, 0.5} {
			sub := blockSubset(t, s, randomSubset(rng, len(vecs), share))
			for _, q := range randomVectors(rng, 10, dim) {
				for _, keep := range []int{1, 10, 200, 2000} {
					sameOffers(t, s, sub, q, keep)
				}
			}
		}
	})
	t.Run("real", func(t *testing.T) {
		r := openReal(t)
		sub := blockSubset(t, r.s, r.allowed)
		for qi, q := range r.queries {
			for _, keep := range []int{1000, 2000} {
				sameOffers(t, r.s, sub, q, keep)
			}
			if qi%10 == 0 {
				want, err := r.s.Search(ctx, q, r.allowed, 100, Bit, DefaultOverfetch(100))
				if err != nil {
					t.Fatal(err)
				}
				got, err := r.s.SearchSubset(ctx, q, sub, 100, Bit, DefaultOverfetch(100))
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("query %d: the subset search returned other hits than the bitmap search", qi)
				}
			}
		}
	})
}

// TestRealScanCounts logs, on the real codes, what the block scan of the
// anonymous caller's subset does per query: records whose mask bit is set
// (they go through the loop), offers, selections; and how many blocks
// round 29's proposed per-block bound (the block's largest count, its
// extreme factor and count of ones, no record's own) would have skipped.
func TestRealScanCounts(t *testing.T) {
	r := openReal(t)
	sub := blockSubset(t, r.s, r.allowed)
	w := r.s.bits.words
	bb := blockBytes(w)
	n := len(sub.ords)
	nb := n / blockRecs
	// per block: least and largest factor, least and largest ones
	type ext struct{ fmin, fmax, omin, omax float32 }
	exts := make([]ext, nb)
	for k := range exts {
		e := ext{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Inf(1)), float32(math.Inf(-1))}
		for _, h := range sub.heads[k*blockRecs:][:blockRecs] {
			f, o := math.Float32frombits(uint32(h)), float32(h>>32)
			e.fmin, e.fmax, e.omin, e.omax = min(e.fmin, f), max(e.fmax, f), min(e.omin, o), max(e.omax, o)
		}
		exts[k] = e
	}
	counts := make([]uint16, nb*blockRecs)
	for _, keep := range []int{1000, 2000} {
		var passed, offered, selections, boundSkips, maskedBlocks int
		for _, q := range r.queries {
			est := r.s.bits.estimator(q)
			top := newBestSet(keep)
			countBlocks(blockTables(est.packed, w), sub.blocks[:nb*bb], w, counts)
			var masks [1]uint32
			for k := range nb {
				heads, cs := sub.heads[k*blockRecs:][:blockRecs], counts[k*blockRecs:][:blockRecs]
				if top.full {
					maskedBlocks++
					aboveBlocks(est.bitQuery, top.floorScore, heads, cs, masks[:])
					passed += bits.OnesCount32(masks[0])
					e := exts[k]
					pmax := float32(slices.Max(cs))
					ones := e.omax
					if est.lo < 0 {
						ones = e.omin
					}
					x := 2*(est.lo*ones+est.step*pmax) - est.sum
					bound := est.qMean + max(e.fmin*x, e.fmax*x)
					if e.fmin >= 0 && float64(bound)+1e-4*math.Abs(float64(bound)) < float64(top.floorScore) {
						boundSkips++
					}
				}
				for j, h := range heads {
					score := est.estimate(h, int(cs[j]))
					if top.full && score <= top.floorScore {
						continue
					}
					offered++
					wasFull, floor := top.full, top.floor
					top.offer(sub.ords[k*blockRecs+j], score)
					if top.full && (!wasFull || top.floor != floor) {
						selections++
					}
				}
			}
		}
		nq := float64(len(r.queries))
		t.Logf("keep %d, %d records (%d blocks), %d queries: a query's mask bits set %.0f (%.2f%% of %.0f masked records), offers %.0f, selections %.1f; blocks the per-block bound skips %.1f%%",
			keep, n, nb, len(r.queries), float64(passed)/nq, 100*float64(passed)/float64(maskedBlocks*blockRecs), float64(maskedBlocks*blockRecs)/nq,
			float64(offered)/nq, float64(selections)/nq, 100*float64(boundSkips)/float64(maskedBlocks))
	}
}

// realLayouts is r's subset in rows (the layout of a CPU with AVX-512
// VPOPCNTQ before round 30, counted by its kernels) and in blocks.
func realLayouts(b *testing.B, r realCodes) (rows, blocks *Subset) {
	blocks = blockSubset(b, r.s, r.allowed)
	defer func(b bool) { subsetBlocks = b }(subsetBlocks)
	subsetBlocks = false
	rows, err := r.s.NewSubset(r.allowed)
	if err != nil {
		b.Fatal(err)
	}
	return rows, blocks
}

// eachQuery runs search on the real queries in turn, b.N times, and
// reports the thread's CPU time an operation (cpu-ns/op): on a machine
// others share, the benchmark's own work where its wall time is not.
func eachQuery(b *testing.B, r realCodes, search func(q []float32) error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, qi := threadCPU(b), 0
	for b.Loop() {
		if err := search(r.queries[qi%len(r.queries)]); err != nil {
			b.Fatal(err)
		}
		qi++
	}
	b.ReportMetric(float64(threadCPU(b)-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkScanSubsetReal is the subset scan of the real codes (the
// anonymous caller's 250k at 500k), cycling through the real queries, in
// rows and in blocks without and with their masks. keep 2,000 is
// k×overfetch of the retrieval's vector leg (k = 100), 1,000 that of a
// search of k ≤ 50.
//
//	ASSAY_VECTORS_REAL=DIR go test ./internal/vectors -run '^$' -bench ScanSubsetReal -count 6
func BenchmarkScanSubsetReal(b *testing.B) {
	r := openReal(b)
	rows, blocks := realLayouts(b, r)
	for _, keep := range []int{1000, 2000} {
		for _, v := range []struct {
			name   string
			sub    *Subset
			masked bool
		}{{"rows", rows, false}, {"blocks", blocks, false}, {"blocks-masked", blocks, true}} {
			b.Run(fmt.Sprintf("keep=%d/layout=%s", keep, v.name), func(b *testing.B) {
				v.sub.masked = v.masked
				defer func() { v.sub.masked = v.sub.blocks != nil }()
				eachQuery(b, r, func(q []float32) error {
					return r.s.scanSubset(ctx, v.sub, r.s.bits.estimator(q), newBestSet(keep))
				})
			})
		}
	}
}

// BenchmarkSearchSubsetReal is the whole vector leg over the real subset
// (k = 100 with the default over-fetch: the scan, the int8 narrowing,
// the float32 re-rank), over rows and over blocks with their masks.
func BenchmarkSearchSubsetReal(b *testing.B) {
	r := openReal(b)
	rows, blocks := realLayouts(b, r)
	for _, v := range []struct {
		name string
		sub  *Subset
	}{{"rows", rows}, {"blocks-masked", blocks}} {
		b.Run("layout="+v.name, func(b *testing.B) {
			eachQuery(b, r, func(q []float32) error {
				_, err := r.s.SearchSubset(ctx, q, v.sub, 100, Bit, DefaultOverfetch(100))
				return err
			})
		})
	}
}
