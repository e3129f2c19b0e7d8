package vectors

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/eval"
)

// writeVectors writes vecs as a vectors.f32 file in dir and returns its
// path.
func writeVectors(t testing.TB, dir string, vecs [][]float32) string {
	t.Helper()
	path := filepath.Join(dir, "vectors.f32")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var b [4]byte
	for _, v := range vecs {
		for _, x := range v {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(x))
			w.Write(b[:])
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// openWithCodes writes vecs, builds their codes and opens the store.
func openWithCodes(t testing.TB, vecs [][]float32, scaling int8Scaling) *Store {
	t.Helper()
	path := writeVectors(t, t.TempDir(), vecs)
	if err := buildCodes(path, len(vecs[0]), scaling); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, len(vecs[0]))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func unit(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return v
	}
	n = math.Sqrt(n)
	for j := range v {
		v[j] = float32(float64(v[j]) / n)
	}
	return v
}

// randomVectors returns n unit vectors with Gaussian components.
func randomVectors(rng *rand.Rand, n, dim int) [][]float32 {
	out := make([][]float32, n)
	for i := range out {
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(rng.NormFloat64())
		}
		out[i] = unit(v)
	}
	return out
}

// bruteForce scores every allowed vector and sorts them all: the
// reference the searches must match.
func bruteForce(vecs [][]float32, q []float32, allowed *roaring.Bitmap, k int) []Hit {
	var all []Hit
	for i, v := range vecs {
		if allowed != nil && !allowed.Contains(uint32(i)) {
			continue
		}
		all = append(all, Hit{Ordinal: uint32(i), Score: dot(q, v)})
	}
	slices.SortStableFunc(all, func(a, b Hit) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0 // stable: lower ordinal first
	})
	return all[:min(k, len(all))]
}

// randomSubset holds each ordinal below n with probability p.
func randomSubset(rng *rand.Rand, n int, p float64) *roaring.Bitmap {
	b := roaring.New()
	for i := range n {
		if rng.Float64() < p {
			b.Add(uint32(i))
		}
	}
	return b
}

var ctx = context.Background()

func TestFloat32EqualsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vecs := randomVectors(rng, 3000, 48)
	// Duplicates make exact ties, which must go to the lower ordinal.
	for i := 0; i < 300; i++ {
		vecs[rng.IntN(len(vecs))] = slices.Clone(vecs[rng.IntN(len(vecs))])
	}
	s := openWithCodes(t, vecs, defaultInt8Scaling)
	queries := randomVectors(rng, 20, 48)
	queries = append(queries, vecs[7], vecs[100]) // queries with exact duplicates among the vectors
	for qi, q := range queries {
		for _, allowed := range []*roaring.Bitmap{nil, randomSubset(rng, len(vecs), 0.05), roaring.New()} {
			for _, k := range []int{1, 10, 100, len(vecs) + 5} {
				got, err := s.Search(ctx, q, allowed, k, Float32, 0)
				if err != nil {
					t.Fatal(err)
				}
				want := bruteForce(vecs, q, allowed, k)
				if len(want) == 0 {
					want = nil
				}
				if !slices.Equal(got, want) {
					t.Fatalf("query %d, k %d, allowed %v: search differs from brute force\n got %v\nwant %v", qi, k, allowed.GetCardinality(), head(got), head(want))
				}
			}
		}
	}
}

func head(h []Hit) []Hit { return h[:min(len(h), 12)] }

// With every vector equal, each type must return the lowest ordinals, in
// order, like the bleve index's exact scan.
func TestTiesGoToTheLowerOrdinal(t *testing.T) {
	v := unit([]float32{1, -2, 3, 0.5, 0, 1, 1, -1})
	vecs := make([][]float32, 500)
	for i := range vecs {
		vecs[i] = slices.Clone(v)
	}
	s := openWithCodes(t, vecs, defaultInt8Scaling)
	allowed := roaring.BitmapOf(499, 3, 250, 17, 18, 400)
	for _, typ := range []Type{Float32, Int8, Bit} {
		got, err := s.Search(ctx, v, nil, 5, typ, 2)
		if err != nil {
			t.Fatal(err)
		}
		if ords := ordinals(got); !slices.Equal(ords, []uint32{0, 1, 2, 3, 4}) {
			t.Errorf("%s: got ordinals %v, want 0..4", typ, ords)
		}
		got, err = s.Search(ctx, v, allowed, 4, typ, 1)
		if err != nil {
			t.Fatal(err)
		}
		if ords := ordinals(got); !slices.Equal(ords, []uint32{3, 17, 18, 250}) {
			t.Errorf("%s restricted: got ordinals %v, want [3 17 18 250]", typ, ords)
		}
	}
}

func ordinals(h []Hit) []uint32 {
	out := make([]uint32, len(h))
	for i, x := range h {
		out[i] = x.Ordinal
	}
	return out
}

// A restricted search returns only allowed ordinals, as many as it can,
// each with its exact score; with an over-fetch that covers every allowed
// vector the quantized types equal the exact search.
func TestRestrictedSearchReturnsOnlyAllowed(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vecs := randomVectors(rng, 4000, 64)
	s := openWithCodes(t, vecs, defaultInt8Scaling)
	for qi, q := range randomVectors(rng, 10, 64) {
		allowed := randomSubset(rng, len(vecs), 0.05)
		allowedN := int(allowed.GetCardinality())
		for _, typ := range []Type{Float32, Int8, Bit} {
			for _, k := range []int{10, 1000} {
				got, err := s.Search(ctx, q, allowed, k, typ, 3)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != min(k, allowedN) {
					t.Errorf("%s query %d k %d: %d hits, want %d", typ, qi, k, len(got), min(k, allowedN))
				}
				for _, h := range got {
					if !allowed.Contains(h.Ordinal) {
						t.Fatalf("%s query %d: returned disallowed ordinal %d", typ, qi, h.Ordinal)
					}
					if want := dot(q, vecs[h.Ordinal]); h.Score != want {
						t.Fatalf("%s query %d: ordinal %d scored %v, exact %v", typ, qi, h.Ordinal, h.Score, want)
					}
				}
			}
			got, err := s.Search(ctx, q, allowed, 10, typ, allowedN)
			if err != nil {
				t.Fatal(err)
			}
			if want := bruteForce(vecs, q, allowed, 10); !slices.Equal(got, want) {
				t.Errorf("%s query %d with full over-fetch: got %v, want %v", typ, qi, got, want)
			}
		}
	}
}

// recallAt is the mean share of the exact top k that the search with typ
// and overfetch finds.
func recallAt(t testing.TB, s *Store, queries [][]float32, k int, typ Type, overfetch int) float64 {
	t.Helper()
	var sum float64
	for _, q := range queries {
		exact, err := s.Search(ctx, q, nil, k, Float32, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Search(ctx, q, nil, k, typ, overfetch)
		if err != nil {
			t.Fatal(err)
		}
		sum += overlap(exact, got)
	}
	return sum / float64(len(queries))
}

func overlap(exact, got []Hit) float64 {
	if len(exact) == 0 {
		return 1
	}
	in := map[uint32]bool{}
	for _, h := range exact {
		in[h.Ordinal] = true
	}
	n := 0
	for _, h := range got {
		if in[h.Ordinal] {
			n++
		}
	}
	return float64(n) / float64(len(exact))
}

// recallFloors are the recall@10 each quantized type must keep at an
// over-fetch, on random and on SciFact vectors (measured values are
// logged; the floors leave a margin). Random Gaussian vectors are the
// hard case for 1-bit codes: their nearest neighbours are barely nearer
// than the rest (measured: bit ×4 0.42, ×10 0.62, ×20 0.77); SciFact's
// builtin vectors have structure (bit ×4 0.92, ×10 0.98, ×20 0.997).
var recallFloors = []struct {
	typ       Type
	overfetch int
	random    float64
	scifact   float64
}{
	{Int8, 1, 0.90, 0.95},
	{Int8, 2, 0.98, 0.99},
	{Int8, 4, 0.99, 0.995},
	{Bit, 4, 0.35, 0.88},
	{Bit, 10, 0.55, 0.96},
	{Bit, 20, 0.70, 0.99},
}

func TestRecallRandomVectors(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const dim = 256
	s := openWithCodes(t, randomVectors(rng, 20000, dim), defaultInt8Scaling)
	queries := randomVectors(rng, 50, dim)
	for _, f := range recallFloors {
		r := recallAt(t, s, queries, 10, f.typ, f.overfetch)
		t.Logf("random d%d: %s ×%d recall@10 %.3f", dim, f.typ, f.overfetch, r)
		if r < f.random {
			t.Errorf("%s ×%d: recall@10 %.3f on random vectors, want ≥ %.3f", f.typ, f.overfetch, r, f.random)
		}
	}
}

// sciFact is SciFact's corpus and test claims embedded with the builtin
// embedder, in file order.
type sciFact struct {
	docIDs, queryIDs []string
	docs, queries    [][]float32
}

// scifact embeds SciFact once per process; it skips unless
// ASSAY_SCIFACT=1.
func scifact(t testing.TB) (docs, queries [][]float32) {
	sf := loadSciFact(t)
	return sf.docs, sf.queries
}

func loadSciFact(t testing.TB) *sciFact {
	t.Helper()
	if os.Getenv("ASSAY_SCIFACT") != "1" {
		t.Skip("SKIPPED: needs SciFact; set ASSAY_SCIFACT=1 (and ASSAY_SCIFACT_DIR if the data is not at ../shared/data/scifact) to run it")
	}
	sciFactOnce.Do(func() { sciFactData, sciFactErr = embedSciFact(sciFactDir()) })
	if sciFactErr != nil {
		t.Fatal(sciFactErr)
	}
	return sciFactData
}

var (
	sciFactOnce sync.Once
	sciFactData *sciFact
	sciFactErr  error
)

func sciFactDir() string {
	if dir := os.Getenv("ASSAY_SCIFACT_DIR"); dir != "" {
		return dir
	}
	return filepath.Join("..", "..", "..", "shared", "data", "scifact")
}

func embedSciFact(dir string) (*sciFact, error) {
	read := func(name string) (ids, texts []string, err error) {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return nil, nil, err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var r struct {
				ID          string `json:"_id"`
				Title, Text string
			}
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", name, err)
			}
			ids = append(ids, r.ID)
			texts = append(texts, strings.TrimSpace(r.Title+"\n"+r.Text))
		}
		return ids, texts, sc.Err()
	}
	emb, err := embed.NewHashed(embed.DefaultHashedDim)
	if err != nil {
		return nil, err
	}
	sf := &sciFact{}
	docTexts, queryTexts := []string(nil), []string(nil)
	if sf.docIDs, docTexts, err = read("corpus.jsonl"); err != nil {
		return nil, err
	}
	if sf.queryIDs, queryTexts, err = read("queries.jsonl"); err != nil {
		return nil, err
	}
	if sf.docs, err = emb.Embed(context.Background(), docTexts); err != nil {
		return nil, err
	}
	if sf.queries, err = emb.Embed(context.Background(), queryTexts); err != nil {
		return nil, err
	}
	return sf, nil
}

// TestSciFactRelevance reports what the approximation costs in relevance:
// nDCG@10 of vector-only retrieval on SciFact test with each type, against
// the judgments. The quantized types at their recommended over-fetch must
// stay within 0.002 of exact.
func TestSciFactRelevance(t *testing.T) {
	sf := loadSciFact(t)
	d, err := eval.LoadBEIR(sciFactDir(), eval.SplitTest)
	if err != nil {
		t.Fatal(err)
	}
	s := openWithCodes(t, sf.docs, defaultInt8Scaling)
	ndcg := func(typ Type, overfetch int) float64 {
		run := eval.Run{}
		for i, qid := range sf.queryIDs {
			if _, judged := d.Qrels[qid]; !judged {
				continue
			}
			hits, err := s.Search(ctx, sf.queries[i], nil, 100, typ, overfetch)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hits {
				run[qid] = append(run[qid], eval.Ranked{DocID: sf.docIDs[h.Ordinal], Score: float64(h.Score)})
			}
		}
		ev, err := eval.Evaluate(d.Qrels, run, eval.Options{Cutoffs: []int{10}, Complete: true})
		if err != nil {
			t.Fatal(err)
		}
		c, _ := ev.Mean.At(10)
		return c.NDCG
	}
	exact := ndcg(Float32, 0)
	t.Logf("SciFact test, vector only, builtin d%d: float32 nDCG@10 %.4f", s.Dim(), exact)
	for _, v := range []struct {
		typ       Type
		overfetch int
		bound     float64 // largest allowed |nDCG - exact|; 0: only logged
	}{{Int8, 1, 0}, {Int8, 2, 0.002}, {Bit, 4, 0}, {Bit, 10, 0.002}, {Bit, 20, 0.002}} {
		got := ndcg(v.typ, v.overfetch)
		t.Logf("%s ×%d nDCG@10 %.4f (%+.4f)", v.typ, v.overfetch, got, got-exact)
		if v.bound > 0 && math.Abs(got-exact) > v.bound {
			t.Errorf("%s ×%d: nDCG@10 %.4f, exact %.4f: off by more than %.3f", v.typ, v.overfetch, got, exact, v.bound)
		}
	}
}

func TestRecallSciFactVectors(t *testing.T) {
	docs, queries := scifact(t)
	s := openWithCodes(t, docs, defaultInt8Scaling)
	for _, f := range recallFloors {
		r := recallAt(t, s, queries, 10, f.typ, f.overfetch)
		t.Logf("SciFact builtin d%d: %s ×%d recall@10 %.3f", s.Dim(), f.typ, f.overfetch, r)
		if r < f.scifact {
			t.Errorf("%s ×%d: recall@10 %.3f on SciFact vectors, want ≥ %.3f", f.typ, f.overfetch, r, f.scifact)
		}
	}
	for _, k := range []int{10, 100} {
		r := recallAt(t, s, queries, k, DefaultType, DefaultOverfetch(k))
		t.Logf("SciFact builtin d%d: default %s ×%d recall@%d %.3f", s.Dim(), DefaultType, DefaultOverfetch(k), k, r)
		if r < 0.99 {
			t.Errorf("default %s ×%d: recall@%d %.3f, want ≥ 0.99", DefaultType, DefaultOverfetch(k), k, r)
		}
	}
	// Hybrid retrieval fetches 100 vector candidates (retrieval's Fetch):
	// the same types at k = 100.
	for _, f := range []struct {
		typ       Type
		overfetch int
	}{{Int8, 1}, {Int8, 2}, {Bit, 2}, {Bit, 4}, {Bit, 10}} {
		t.Logf("SciFact builtin d%d: %s ×%d recall@100 %.3f", s.Dim(), f.typ, f.overfetch, recallAt(t, s, queries, 100, f.typ, f.overfetch))
	}
}

// TestInt8Scaling is the measurement behind defaultInt8Scaling: on the
// builtin embedder's vectors per-vector scaling recalls at least as much
// of the exact top 10 as per-dimension scaling.
func TestInt8Scaling(t *testing.T) {
	docs, queries := scifact(t)
	perVec := openWithCodes(t, docs, perVector)
	perDim := openWithCodes(t, docs, perDimension)
	for _, overfetch := range []int{1, 2} {
		rv := recallAt(t, perVec, queries, 10, Int8, overfetch)
		rd := recallAt(t, perDim, queries, 10, Int8, overfetch)
		t.Logf("int8 ×%d recall@10: per-vector %.4f, per-dimension %.4f", overfetch, rv, rd)
		if rv < rd {
			t.Errorf("int8 ×%d: per-vector recall %.4f < per-dimension %.4f: revisit defaultInt8Scaling", overfetch, rv, rd)
		}
	}
}

// The estimates are dot products, not just orderings: close to the exact
// score on unit vectors.
func TestEstimatesApproximateTheDotProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	vecs := randomVectors(rng, 500, 128)
	s := openWithCodes(t, vecs, defaultInt8Scaling)
	q := randomVectors(rng, 1, 128)[0]
	i8, b1 := s.i8.estimator(q), s.bits.estimator(q)
	var e8, e1 float64
	for i, v := range vecs {
		exact := float64(dot(q, v))
		e8 = max(e8, math.Abs(float64(i8.score(uint32(i)))-exact))
		e1 = max(e1, math.Abs(float64(b1.score(uint32(i)))-exact))
	}
	t.Logf("max |estimate - exact|: int8 %.5f, bit %.4f", e8, e1)
	if e8 > 0.01 {
		t.Errorf("int8 estimates off by up to %.4f, want ≤ 0.01", e8)
	}
	if e1 > 0.35 {
		t.Errorf("1-bit estimates off by up to %.4f, want ≤ 0.35", e1)
	}
}

func TestOpenAndSearchErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	dir := t.TempDir()
	path := writeVectors(t, dir, randomVectors(rng, 100, 16))
	q := randomVectors(rng, 1, 16)[0]

	if _, err := Open(path, 24); !errs.Is(errs.Invalid, err) {
		t.Errorf("Open with a dimension that does not divide the file: %v, want invalid", err)
	}
	if _, err := Open(filepath.Join(dir, "missing.f32"), 16); !errs.Is(errs.NotFound, err) {
		t.Errorf("Open of a missing file: %v, want not_found", err)
	}
	s, err := Open(path, 16)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Search(ctx, q, nil, 10, Int8, 2); !errs.Is(errs.Unsupported, err) {
		t.Errorf("int8 search without codes: %v, want unsupported", err)
	}
	if _, err := s.Search(ctx, q[:8], nil, 10, Float32, 0); !errs.Is(errs.Invalid, err) {
		t.Errorf("short query: %v, want invalid", err)
	}
	if _, err := s.Search(ctx, q, roaring.BitmapOf(3, 100), 10, Float32, 0); errs.FieldOf(err) != "allowed" {
		t.Errorf("allowed ordinal past the end: %v, want an error about allowed", err)
	}
	nan := slices.Clone(q)
	nan[3] = float32(math.NaN())
	if _, err := s.Search(ctx, nan, nil, 10, Float32, 0); errs.FieldOf(err) != "query" {
		t.Errorf("NaN query: %v, want an error about query", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Search(cancelled, q, nil, 10, Float32, 0); !errs.Is(errs.Timeout, err) {
		t.Errorf("cancelled search: %v, want timeout", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Search(ctx, q, nil, 10, Float32, 0); err == nil {
		t.Error("search after Close succeeded")
	}

	// Codes built for another vector file are stale.
	if err := BuildCodes(path, 16); err != nil {
		t.Fatal(err)
	}
	writeVectors(t, dir, randomVectors(rng, 101, 16))
	if _, err := Open(path, 16); !errs.Is(errs.Conflict, err) {
		t.Errorf("Open with stale codes: %v, want conflict", err)
	}
	if err := BuildCodes(path, 16); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path, 16)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Search(ctx, q, nil, 10, Bit, 0); errs.FieldOf(err) != "overfetch" {
		t.Errorf("over-fetch 0: %v, want an error about overfetch", err)
	}
	if got, err := s.Search(ctx, q, nil, 10, Bit, 4); err != nil || len(got) != 10 {
		t.Errorf("search after rebuilding the codes: %d hits, %v", len(got), err)
	}
}

func TestEmptyStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vectors.f32")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := BuildCodes(path, 8); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, 8)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, typ := range []Type{Float32, Int8, Bit} {
		if got, err := s.Search(ctx, make([]float32, 8), nil, 10, typ, 2); err != nil || len(got) != 0 {
			t.Errorf("%s on an empty store: %v, %v", typ, got, err)
		}
	}
}

// The int8 estimate's integer sums must not overflow at the largest
// weights and codes, even at a high dimension.
func TestInt8EstimateDoesNotOverflow(t *testing.T) {
	const dim = 4096
	v := make([]float32, dim)
	for j := range v {
		v[j] = 1 / float32(math.Sqrt(dim))
	}
	s := openWithCodes(t, [][]float32{v, v}, perVector)
	got := s.i8.estimator(v).score(1)
	if math.Abs(float64(got)-1) > 1e-3 {
		t.Errorf("int8 estimate of a unit vector with itself at dim %d: %v, want 1", dim, got)
	}
}

// Opening and searching a store leaves the vectors out of the Go heap:
// they stay in the mapped files.
func TestVectorsStayOutOfTheHeap(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	const n, dim = 20000, 256 // 20 MB of float32
	path := writeVectors(t, t.TempDir(), randomVectors(rng, n, dim))
	if err := BuildCodes(path, dim); err != nil {
		t.Fatal(err)
	}
	q := randomVectors(rng, 1, dim)[0]
	heapNow := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heapNow()
	s, err := Open(path, dim)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, typ := range []Type{Float32, Int8, Bit} {
		if _, err := s.Search(ctx, q, nil, 100, typ, 10); err != nil {
			t.Fatal(err)
		}
	}
	grew := int64(heapNow()) - int64(before)
	t.Logf("heap grew %d bytes for a %d-byte vector file", grew, n*dim*4)
	if grew > 1<<20 {
		t.Errorf("heap grew %d bytes opening and searching %d vectors, want < 1 MiB", grew, n)
	}
}

func TestDefaultOverfetch(t *testing.T) {
	for k, want := range map[int]int{0: 1, 1: 1000, 10: 100, 50: 20, 100: 20, 1000: 20} {
		if got := DefaultOverfetch(k); got != want {
			t.Errorf("DefaultOverfetch(%d) = %d, want %d", k, got, want)
		}
	}
}

// A Bit search over a store with int8 codes reads at most k×Int8Narrow
// float32 vectors (fewer when their error bounds rule some out), not its
// k×overfetch candidates, and finds the same results on structured
// vectors.
func TestBitSearchNarrowsWithInt8(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	const dim, n, k, over = 96, 20000, 10, 20
	vecs := clusteredVectors(rng, n, dim, 300, 0.05)
	withI8 := openWithCodes(t, vecs, defaultInt8Scaling)
	path := writeVectors(t, t.TempDir(), vecs)
	if err := buildCodes(path, dim, defaultInt8Scaling); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(Int8Path(path)); err != nil {
		t.Fatal(err)
	}
	bitOnly, err := Open(path, dim)
	if err != nil {
		t.Fatal(err)
	}
	defer bitOnly.Close()
	var same int
	queries := clusteredVectors(rng, 50, dim, 300, 0.05)
	for _, q := range queries {
		before := withI8.reranked.Load()
		got, err := withI8.Search(ctx, q, nil, k, Bit, over)
		if err != nil {
			t.Fatal(err)
		}
		if read := withI8.reranked.Load() - before; read < k || read > k*Int8Narrow {
			t.Fatalf("a Bit search with int8 codes read %d float32 vectors, want %d to %d", read, k, k*Int8Narrow)
		}
		before = bitOnly.reranked.Load()
		want, err := bitOnly.Search(ctx, q, nil, k, Bit, over)
		if err != nil {
			t.Fatal(err)
		}
		if read := bitOnly.reranked.Load() - before; read != k*over {
			t.Fatalf("a Bit search without int8 codes read %d float32 vectors, want %d", read, k*over)
		}
		if slices.Equal(got, want) {
			same++
		}
	}
	t.Logf("int8-narrowed results equal to the 1-bit leg's for %d of %d queries", same, len(queries))
	if same < len(queries)*9/10 {
		t.Errorf("int8-narrowed results equal for %d of %d queries, want ≥ 90%%", same, len(queries))
	}
}

// clusteredVectors returns n unit vectors around centres random centres,
// each a centre plus Gaussian noise of the given spread: the structure of
// embeddings of texts on shared topics.
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
