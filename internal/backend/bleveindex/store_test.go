package bleveindex

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/assay-rag/assay/internal/corpus"
)

// testStore writes and opens a store of n chunks whose ids share long
// prefixes and differ in length ("doc-7#0", "doc-70#12", ...).
func testStore(t testing.TB, n int) (*store, []string) {
	var ids []string
	for i := 0; len(ids) < n; i++ {
		for j := range 1 + i%3 {
			ids = append(ids, corpus.ChunkID(fmt.Sprintf("doc-%d", i), j))
		}
	}
	ids = ids[:n]
	slices.Sort(ids)
	chunks := make([]corpus.Chunk, n)
	prints := make([]uint64, n)
	for i, id := range ids {
		chunks[i] = corpus.Chunk{ID: id, Text: "text of " + id}
		prints[i] = uint64(i)
	}
	dir := t.TempDir()
	if err := writeStore(dir, chunks, prints); err != nil {
		t.Fatal(err)
	}
	s, err := openStore(dir, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.close() })
	return s, ids
}

// search is what ordinal did before the hash table (idTable): a binary
// search over the sorted ids, where id is or would be.
func (s *store) search(id string) (int, bool) {
	i := sort.Search(s.n, func(i int) bool { return string(s.idBytes(i)) >= id })
	return i, i < s.n && string(s.idBytes(i)) == id
}

// The hash table finds every id at its ordinal and no id that is not
// there, as the binary search over the sorted ids does.
func TestOrdinalEqualsSearch(t *testing.T) {
	for _, n := range []int{1, 2, 3, 100, 5000} {
		s, ids := testStore(t, n)
		if s.byID.slots == nil {
			t.Fatal("no id table after openStore")
		}
		probes := slices.Clone(ids)
		for _, id := range ids {
			probes = append(probes, id+"x", id[:len(id)-1], "x"+id, id+"#0")
		}
		probes = append(probes, "", "doc-", "zzz", "\x00")
		for _, id := range probes {
			got, gotOK := s.ordinal(id)
			want, wantOK := s.search(id)
			if gotOK != wantOK || gotOK && got != want {
				t.Fatalf("n=%d: ordinal(%q) = %d, %v; the binary search says %d, %v", n, id, got, gotOK, want, wantOK)
			}
		}
	}
}

// BenchmarkOrdinal: an id's ordinal among 500,000, by the hash table and
// by binary search (what a question's candidates cost in ChunkMeta,
// Fingerprints and Chunks).
func BenchmarkOrdinal(b *testing.B) {
	s, ids := testStore(b, 500_000)
	r := rand.New(rand.NewPCG(1, 2))
	order := r.Perm(len(ids))
	for _, method := range []string{"table", "search"} {
		b.Run(method, func(b *testing.B) {
			i := 0
			for b.Loop() {
				id := ids[order[i%len(order)]]
				i++
				if method == "table" {
					s.ordinal(id)
				} else {
					s.search(id)
				}
			}
		})
	}
}
