package postings

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// Callers at exactly 1/8 of the corpus (dense path), one fewer (sparse),
// filters at the boundary, many goroutines searching a fresh Visible.
func TestDenseBoundaryConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	const n = 4096 // 1/8 = 512
	docs := randomCorpus(r, n, 30, []string{"x"})
	for i := range docs {
		docs[i].groups = nil
	}
	perm := r.Perm(n)
	for _, i := range perm[:512] {
		docs[i].groups = append(docs[i].groups, "eighth")
	}
	for _, i := range perm[:511] {
		docs[i].groups = append(docs[i].groups, "under")
	}
	ix := build(t, docs)
	for _, g := range []string{"eighth", "under"} {
		gs := []string{g}
		see := func(i int) bool { return visibleTo(docs[i], gs) }
		// a fresh Visible each query set: searches race on denseOnce
		for trial := range 10 {
			ix.cache.Purge()
			v := ix.Visible(gs)
			var allowed *roaring.Bitmap
			allow := func(int) bool { return true }
			if trial%2 == 1 {
				allowed = roaring.New()
				for _, i := range perm[:600] {
					if r.IntN(10) != 0 {
						allowed.Add(uint32(i))
					}
				}
				allow = func(i int) bool { return allowed.Contains(uint32(i)) }
			}
			qs := make([][]string, 16)
			for i := range qs {
				qs[i] = randomQuery(r, 30)
			}
			var wg sync.WaitGroup
			for _, q := range qs {
				for _, k := range []int{1, 10, 600} {
					wg.Add(1)
					go func() {
						defer wg.Done()
						got, err := v.Search(context.Background(), q, allowed, k, bm25)
						if err != nil {
							t.Error(err)
							return
						}
						if want := bruteForce(docs, see, allow, q, k); !slices.Equal(got, want) {
							t.Errorf("%s trial %d q %q k %d:\n got %v\nwant %v", g, trial, q, k, got, want)
						}
					}()
				}
			}
			wg.Wait()
		}
	}
}
