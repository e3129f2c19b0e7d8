package vectors

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkScanCounting is the subset scan's counting alone, 16-word
// codes (the builtin embedder's 1,024 bits), over records that sit in
// cache (256 of them, 35 KB, counted again and again) and over as many
// as the anonymous caller's scan at 500k reads (250,000, 34 MB, each
// counted once an iteration): whether the counting is bound by memory or
// by compute (docs/log/round-28-p28-scan.md). layout=rows is the row
// kernel of this CPU (weightedPopcounts), layout=blocks the byte-sliced
// one (countBlocks), layout=read only sums the rows' words: what reading
// them costs.
//
//	go test ./internal/vectors -run '^$' -bench ScanCounting -benchtime 20x
func BenchmarkScanCounting(b *testing.B) {
	rng := rand.New(rand.NewPCG(28, 1))
	const w = 16
	planes := make([]uint64, 4*w)
	for i := range planes {
		planes[i] = rng.Uint64()
	}
	for _, n := range []int{256, 250_000} {
		recs := make([]uint64, n*(1+w))
		for i := range recs {
			recs[i] = rng.Uint64()
		}
		out := make([]int64, 256)
		b.Run(fmt.Sprintf("records=%d/layout=rows", n), func(b *testing.B) {
			b.SetBytes(int64(n * (1 + w) * 8))
			for b.Loop() {
				for j := 0; j < n; j += len(out) {
					m := min(len(out), n-j)
					weightedPopcounts(planes, recs[j*(1+w):(j+m)*(1+w)], w, out[:m])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/record")
		})
		b.Run(fmt.Sprintf("records=%d/layout=read", n), func(b *testing.B) {
			b.SetBytes(int64(n * (1 + w) * 8))
			var s0, s1, s2, s3 uint64
			for b.Loop() {
				for j := 0; j+4 <= len(recs); j += 4 {
					s0 += recs[j]
					s1 += recs[j+1]
					s2 += recs[j+2]
					s3 += recs[j+3]
				}
			}
			sink = s0 + s1 + s2 + s3
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/record")
		})
		nb := (n + blockRecs - 1) / blockRecs
		blocks := make([]byte, nb*blockBytes(w))
		heads := make([]uint64, n)
		for j := range n {
			sliceRecord(blocks, heads, j, recs[j*(1+w):][:1+w], w)
		}
		tables := blockTables(planes, w)
		counts := make([]uint16, 256)
		b.Run(fmt.Sprintf("records=%d/layout=blocks", n), func(b *testing.B) {
			b.SetBytes(int64(len(blocks) + 8*n))
			bb := blockBytes(w)
			for b.Loop() {
				for j := 0; j < nb; j += 8 {
					m := min(8, nb-j)
					countBlocks(tables, blocks[j*bb:(j+m)*bb], w, counts[:m*blockRecs])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/record")
		})
	}
}

var sink uint64
