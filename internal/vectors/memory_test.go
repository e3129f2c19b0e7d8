package vectors

import (
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// rssFile is the process's file-backed resident memory (RssFile in
// /proc/self/status), in bytes; the test is skipped where there is none.
func rssFile(t testing.TB) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "RssFile:" && f[2] == "kB" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatalf("/proc/self/status: %q: %v", line, err)
			}
			return kb << 10
		}
	}
	t.Skip("/proc/self/status has no RssFile")
	return 0
}

// Re-ranking reads the float32 vectors with pread, so searching does not
// map the float32 file into the process's resident memory: after many
// searches whose re-ranking reads most of the file, RssFile has grown by
// far less than the file. The code pages the scans read are mapped
// before measuring, by scoring every code once.
func TestRerankingKeepsVectorsOutOfResidentMemory(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	const n, dim = 20000, 256 // 20 MB of float32
	s := openWithCodes(t, randomVectors(rng, n, dim), defaultInt8Scaling)
	queries := randomVectors(rng, 40, dim)
	search := func(q []float32, typ Type) {
		if _, err := s.Search(ctx, q, nil, 100, typ, 20); err != nil {
			t.Fatal(err)
		}
	}
	bits, i8 := s.bits.estimator(queries[0]), s.i8.estimator(queries[0])
	for i := range uint32(n) {
		bits.score(i)
		i8.score(i)
	}
	before := rssFile(t)
	seen := map[uint32]bool{}
	for _, q := range queries {
		for _, typ := range []Type{Bit, Int8} {
			search(q, typ)
		}
		// What re-ranking read: the candidates of the 1-bit scan.
		cand := newTopK(100 * 20)
		est := s.bits.estimator(q)
		for i := range n {
			cand.offer(uint32(i), est.score(uint32(i)))
		}
		for _, c := range cand.items {
			seen[c.i] = true
		}
	}
	grew := rssFile(t) - before
	read := int64(len(seen)) * dim * 4
	t.Logf("re-ranking read %d distinct vectors (%d bytes) of %d; RssFile grew %d bytes", len(seen), read, n, grew)
	if read < n*dim*4/2 {
		t.Fatalf("the searches re-ranked %d bytes, want at least half the file for this test to mean anything", read)
	}
	if grew > read/8 {
		t.Errorf("RssFile grew %d bytes over searches that re-ranked %d bytes of vectors: re-ranking reads them through the mapping", grew, read)
	}
}

// ReadVectors returns what the mapping holds, for runs and lone ordinals,
// and refuses ordinals out of order or out of range.
func TestReadVectors(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	const n, dim = 300, 48
	vecs := randomVectors(rng, n, dim)
	s := openWithCodes(t, vecs, defaultInt8Scaling)
	ords := []uint32{0, 1, 2, 7, 100, 101, 299}
	for i := 150; i < 290; i++ { // a run longer than one pread
		ords = append(ords, uint32(i))
	}
	slices.Sort(ords)
	var got []uint32
	err := s.ReadVectors(ords, func(i uint32, v []float32) {
		got = append(got, i)
		if !slices.Equal(v, vecs[i]) {
			t.Errorf("vector %d differs from the one written", i)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, ords) {
		t.Errorf("visited %v, want %v", got, ords)
	}
	for _, bad := range [][]uint32{{3, 2}, {5, 5}, {n}} {
		if err := s.ReadVectors(bad, func(uint32, []float32) {}); err == nil {
			t.Errorf("ReadVectors(%v) = nil error", bad)
		}
	}
}

// BenchmarkRerank compares the two ways to read the vectors a search
// re-ranks (2,000 random candidates of 200k vectors of 768 dimensions,
// the file in the page cache): through the mapping with MADV_RANDOM, as
// before, and with pread (ReadVectors), as now. RssFile-MiB is how much
// of the file is in the process's resident memory after the run, from
// none: through the mapping, even with MADV_RANDOM, the kernel maps the
// cached neighbours of every page read (fault-around, large folios), so
// on this machine one re-rank of 2,000 candidates already maps all of
// it.
func BenchmarkRerank(b *testing.B) {
	rng := rand.New(rand.NewPCG(25, 26))
	const n, dim, cands = 200_000, 768, 2000
	s := openWithCodes(b, randomVectors(rng, n, dim), defaultInt8Scaling)
	q := randomVectors(rng, 1, dim)[0]
	pick := func() []uint32 {
		ords := make([]uint32, cands)
		for i := range ords {
			ords[i] = uint32(rng.IntN(n))
		}
		slices.Sort(ords)
		return slices.Compact(ords)
	}
	var sink float32
	b.Run("mmap", func(b *testing.B) {
		_ = unix.Madvise(s.f32map, unix.MADV_DONTNEED) // unmap what an earlier run mapped
		_ = unix.Madvise(s.f32map, unix.MADV_RANDOM)
		before := rssFile(b)
		for i := 0; i < b.N; i++ {
			for _, o := range pick() {
				sink += dot(q, s.Vector(int(o)))
			}
		}
		b.ReportMetric(float64(rssFile(b)-before)/(1<<20), "RssFile-MiB")
	})
	b.Run("pread", func(b *testing.B) {
		before := rssFile(b)
		for i := 0; i < b.N; i++ {
			if err := s.ReadVectors(pick(), func(_ uint32, v []float32) { sink += dot(q, v) }); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(rssFile(b)-before)/(1<<20), "RssFile-MiB")
	})
	// The candidates narrowed by their int8 codes to 300 first (what a
	// Bit search with k = 100 reads since Int8Narrow), then those read.
	b.Run("int8-narrowed", func(b *testing.B) {
		before := rssFile(b)
		for i := 0; i < b.N; i++ {
			ords := s.narrowInt8(q, pick(), 100*Int8Narrow)
			slices.Sort(ords)
			if err := s.ReadVectors(ords, func(_ uint32, v []float32) { sink += dot(q, v) }); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(rssFile(b)-before)/(1<<20), "RssFile-MiB")
	})
	_ = sink
}
