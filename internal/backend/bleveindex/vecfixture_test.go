package bleveindex

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/eval"
)

// TestWriteVectorFixture writes what package vectors' tests on real codes
// read (ASSAY_VECTORS_REAL, internal/vectors/real_test.go) from the index
// named by ASSAY_VECTOR_FIXTURE_INDEX (a measuring tool, skipped
// without it): in ASSAY_VECTOR_FIXTURE_OUT, allowed.u32, the ordinals
// the group public sees (the scale benchmark's anonymous caller), and
// queries.f32, the first 300 queries of ASSAY_VECTOR_FIXTURE_QUERIES (a
// BEIR queries.jsonl: bench-scale's OUT/data/N/queries.jsonl) embedded
// as the index's queries are (its builtin embedder), little-endian, and
// store.txt, the index's vectors file and their dimension.
func TestWriteVectorFixture(t *testing.T) {
	dir, out, qpath := os.Getenv("ASSAY_VECTOR_FIXTURE_INDEX"), os.Getenv("ASSAY_VECTOR_FIXTURE_OUT"), os.Getenv("ASSAY_VECTOR_FIXTURE_QUERIES")
	if dir == "" || out == "" || qpath == "" {
		t.Skip("set ASSAY_VECTOR_FIXTURE_INDEX, ASSAY_VECTOR_FIXTURE_OUT and ASSAY_VECTOR_FIXTURE_QUERIES")
	}
	ix, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	m := ix.Manifest()
	var e *embed.Hashed
	switch {
	case strings.HasPrefix(m.Embedder, embed.HashedIDFID+"/"):
		e, err = embed.NewHashedIDF(m.Dim, ix, m.CorpusChecksum)
	case strings.HasPrefix(m.Embedder, embed.HashedID+"/"):
		e, err = embed.NewHashed(m.Dim)
	default:
		t.Fatalf("embedder %q is not a builtin one", m.Embedder)
	}
	if err != nil {
		t.Fatal(err)
	}
	qs, err := eval.LoadQueries(qpath)
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, 0, 300)
	for _, q := range qs[:min(300, len(qs))] {
		texts = append(texts, q.Text)
	}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	allowed := ix.post.Visible([]string{"public"}).Docs()
	b := make([]byte, 0, 4*allowed.GetCardinality())
	for _, i := range allowed.ToArray() {
		b = binary.LittleEndian.AppendUint32(b, i)
	}
	if err := os.WriteFile(filepath.Join(out, "allowed.u32"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	b = b[:0]
	for _, v := range vecs {
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	if err := os.WriteFile(filepath.Join(out, "queries.f32"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(filepath.Join(dir, vectorsFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "store.txt"), fmt.Appendf(nil, "%s %d\n", abs, m.Dim), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of %d ordinals visible to public, %d queries of %d dimensions (%s)", allowed.GetCardinality(), ix.Len(), len(vecs), m.Dim, m.Embedder)
}
