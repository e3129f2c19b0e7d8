package retrieval

import (
	"math"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
)

func TestFuse(t *testing.T) {
	lex := []backend.Hit{{ChunkID: "a", Score: 9}, {ChunkID: "b", Score: 4}}
	vec := []backend.Hit{{ChunkID: "c", Score: 0.9}, {ChunkID: "a", Score: 0.7}}
	got := Fuse(lex, vec, 60, 0.5)
	if len(got) != 3 || got[0].ChunkID != "a" || got[1].ChunkID != "b" || got[2].ChunkID != "c" {
		t.Fatalf("Fuse order = %v, want a, b, c (first seen, BM25 first)", got)
	}
	a := got[0]
	if a.BM25 != 9 || a.BM25Rank != 1 || a.Cosine != 0.7 || a.VectorRank != 2 {
		t.Errorf("a = %+v, want BM25 9 at rank 1 and cosine 0.7 at rank 2", *a)
	}
	if want := 1.0/61 + 0.5/62; math.Abs(a.Fused-want) > 1e-12 {
		t.Errorf("a fused = %v, want %v", a.Fused, want)
	}
	if c := got[2]; c.BM25Rank != 0 || math.Abs(c.Fused-0.5/61) > 1e-12 {
		t.Errorf("c = %+v, want no BM25 rank and fused 0.5/61", *c)
	}
	if Fuse(nil, nil, 60, 0.5) != nil {
		t.Error("Fuse of no lists is not empty")
	}
}
