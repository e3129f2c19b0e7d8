package vectors

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/assay-rag/assay/internal/percentile"
)

// TestGraphAtScale is a diagnostic for the graph index
// (docs/performance-scale.md, "a graph index"), not a CI test. Over a
// vector file with its codes (ASSAY_GRAPH_VECTORS, e.g. a bleve index's
// vectors.f32; the graph is built beside it when missing, timed) and
// SciFact's claims embedded by the builtin embedder as queries, it
// compares the graph search at several beam widths (ASSAY_GRAPH_BEAMS,
// comma-separated) with the exact 1-bit leg (every allowed code
// scanned): recall@100 and the median time of each, for a caller who
// sees everything and for random subsets of the vectors.
//
//	ASSAY_SCIFACT=1 ASSAY_GRAPH_VECTORS=.../vectors.f32 \
//	    go test ./internal/vectors -run TestGraphAtScale -v -timeout 60m
func TestGraphAtScale(t *testing.T) {
	path := os.Getenv("ASSAY_GRAPH_VECTORS")
	if path == "" {
		t.Skip("set ASSAY_GRAPH_VECTORS to a vector file with its codes beside it")
	}
	_, queries := scifact(t)
	shares := []float64{1, 0.5, 0.25, 0.1}
	queries = queries[:min(300, len(queries))]
	dim := len(queries[0])
	if _, err := os.Stat(BitPath(path)); err != nil {
		if err := BuildCodes(path, dim); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(GraphPath(path)); err != nil {
		t0 := time.Now()
		R, C := GraphDegree, GraphBuildBeam
		if x, err := strconv.Atoi(os.Getenv("ASSAY_GRAPH_DEGREE")); err == nil {
			R = x
		}
		if x, err := strconv.Atoi(os.Getenv("ASSAY_GRAPH_BUILD_BEAM")); err == nil {
			C = x
		}
		t.Logf("building with degree %d, beam %d", R, C)
		if err := buildGraph(path, dim, R, C); err != nil {
			t.Fatal(err)
		}
		t.Logf("built the graph in %s", time.Since(t0).Round(time.Millisecond))
	}
	s, err := Open(path, dim)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.HasGraph() {
		t.Fatal("no graph")
	}
	if os.Getenv("ASSAY_GRAPH_WALK") == "int8" {
		graphWalkInt8 = true
		defer func() { graphWalkInt8 = false }()
		t.Log("walking with the int8 codes")
	}
	if x := os.Getenv("ASSAY_GRAPH_SHARES"); x != "" {
		shares = nil
		for _, f := range strings.Split(x, ",") {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatal(err)
			}
			shares = append(shares, v)
		}
	}
	if os.Getenv("ASSAY_GRAPH_QUERIES") == "chunks" {
		// In-distribution queries: 300 stored vectors, to tell the
		// graph's quality from the claims' shape.
		qr := rand.New(rand.NewPCG(30, 31))
		for i := range queries {
			queries[i] = slices.Clone(s.Vector(qr.IntN(s.Len())))
		}
		t.Log("queries: 300 of the stored vectors")
	}
	beams := []int{64, 128, 256, 512}
	if b := os.Getenv("ASSAY_GRAPH_BEAMS"); b != "" {
		beams = nil
		for _, f := range strings.Split(b, ",") {
			x, err := strconv.Atoi(f)
			if err != nil {
				t.Fatal(err)
			}
			beams = append(beams, x)
		}
	}
	const k = 100
	over := DefaultOverfetch(k)
	rng := rand.New(rand.NewPCG(20, 21))
	for _, share := range shares {
		var allowed *roaring.Bitmap
		if share < 1 {
			allowed = randomSubset(rng, s.Len(), share)
		}
		name := fmt.Sprintf("%.0f%%", share*100)
		exact := make([][]Hit, len(queries))
		var took []time.Duration
		for i, q := range queries {
			t0 := time.Now()
			h, err := s.Search(ctx, q, allowed, k, Bit, over)
			if err != nil {
				t.Fatal(err)
			}
			took = append(took, time.Since(t0))
			exact[i] = h
		}
		var s1, s10, s100 float64
		for _, h := range exact {
			if len(h) == k {
				s1, s10, s100 = s1+float64(h[0].Score), s10+float64(h[9].Score), s100+float64(h[99].Score)
			}
		}
		nq := float64(len(exact))
		if share == 1 {
			// Are a query's nearest vectors near one another? The mean
			// dot product of the exact top 10 with each other, against
			// theirs with the query and a random pair's.
			var pair, rnd float64
			var np int
			for _, h := range exact {
				for a := 0; a < 10 && a < len(h); a++ {
					for b := a + 1; b < 10 && b < len(h); b++ {
						pair += float64(dot(s.Vector(int(h[a].Ordinal)), s.Vector(int(h[b].Ordinal))))
						rnd += float64(dot(s.Vector(rng.IntN(s.Len())), s.Vector(rng.IntN(s.Len()))))
						np++
					}
				}
			}
			t.Logf("mean dot product among a query's exact top 10: %.3f; of a random pair: %.3f", pair/float64(np), rnd/float64(np))
		}
		t.Logf("%s visible, exact 1-bit leg: p50 %.2f ms; mean score at rank 1 %.3f, 10 %.3f, 100 %.3f", name, msOf(percentile.NearestRank(took, 50)), s1/nq, s10/nq, s100/nq)
		for _, beam := range beams {
			var sum, sum10 float64
			took = took[:0]
			for i, q := range queries {
				t0 := time.Now()
				h, err := s.SearchGraph(ctx, q, allowed, k, over, beam)
				if err != nil {
					t.Fatal(err)
				}
				took = append(took, time.Since(t0))
				sum += overlap(exact[i], h)
				sum10 += overlap(exact[i][:min(10, len(exact[i]))], h)
			}
			t.Logf("%s visible, graph beam %d: recall@100 %.4f (of the exact top 10: %.4f), p50 %.2f ms", name, beam, sum/float64(len(queries)), sum10/float64(len(queries)), msOf(percentile.NearestRank(took, 50)))
		}
	}
}

func msOf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
