package postings

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// The default parameters (backend.DefaultBM25).
var bm25 = Params{K1: 10, B: 0.4}

type testDoc struct {
	terms  []string
	groups []string
}

func build(t testing.TB, docs []testDoc) *Index {
	t.Helper()
	dir := t.TempDir()
	b, err := NewBuilder(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range docs {
		if err := b.Add(i, d.terms, d.groups); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Finish(); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(dir, 8)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// randomCorpus draws n chunks over a small Zipf vocabulary (so scores tie
// often), each visible to 0–3 of groups.
func randomCorpus(r *rand.Rand, n, vocab int, groups []string) []testDoc {
	z := rand.NewZipf(r, 1.2, 1, uint64(vocab-1))
	docs := make([]testDoc, n)
	for i := range docs {
		l := r.IntN(25)
		for range l {
			docs[i].terms = append(docs[i].terms, fmt.Sprintf("t%d", z.Uint64()))
		}
		for range r.IntN(4) {
			docs[i].groups = append(docs[i].groups, groups[r.IntN(len(groups))])
		}
	}
	return docs
}

func visibleTo(d testDoc, groups []string) bool {
	for _, g := range d.groups {
		if slices.Contains(groups, g) {
			return true
		}
	}
	return false
}

// bruteForce scores every chunk in see and allowed by the bleve backend's
// formula (backend.BM25Query on main: the same operations in the same
// order), written out independently of Search.
func bruteForce(docs []testDoc, see func(int) bool, allowed func(int) bool, q []string, k int) []Hit {
	n, total := 0, 0
	df := map[string]int{}
	for i, d := range docs {
		if !see(i) {
			continue
		}
		n++
		total += len(d.terms)
		seen := map[string]bool{}
		for _, t := range d.terms {
			if !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	if n == 0 || len(q) == 0 || k < 1 {
		return nil
	}
	avgdl := float64(total) / float64(n) // the visible chunks' mean length in tokens
	idf := make([]float64, len(q))
	var sumSq float64
	for i, t := range q {
		idf[i] = math.Log(1 + (float64(n)-float64(df[t])+0.5)/(float64(df[t])+0.5))
		sumSq += idf[i] * idf[i]
	}
	qnorm := 1 / math.Sqrt(sumSq)
	k1, b := bm25.K1, bm25.B
	var hits []Hit
	for i, d := range docs {
		if !see(i) || !allowed(i) {
			continue
		}
		tfs := map[string]int{}
		for _, t := range d.terms {
			tfs[t]++
		}
		length := float64(len(d.terms))
		var score float64
		matched := 0
		for j, t := range q {
			if tfs[t] == 0 {
				continue
			}
			w := idf[j]
			tf := math.Sqrt(float64(tfs[t]))
			lenNorm := 1.0
			if avgdl > 0 {
				lenNorm = 1 - b + b*length/avgdl
			}
			score += w * w * qnorm * tf * k1 / (tf + k1*lenNorm)
			matched++
		}
		if matched > 0 {
			hits = append(hits, Hit{uint32(i), score * float64(matched) / float64(len(q))})
		}
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return int(a.Ord) - int(b.Ord)
	})
	return hits[:min(k, len(hits))]
}

func randomQuery(r *rand.Rand, vocab int) []string {
	q := make([]string, 1+r.IntN(5))
	for i := range q {
		switch x := r.IntN(10); {
		case x == 0:
			q[i] = "absent"
		case x < 3 && i > 0:
			q[i] = q[r.IntN(i)] // a repeated clause
		default:
			q[i] = fmt.Sprintf("t%d", r.IntN(vocab))
		}
	}
	return q
}

func TestSearchEqualsExhaustive(t *testing.T) {
	groups := []string{"public", "staff", "a", "b", "c", "d"}
	for seed := range uint64(12) {
		r := rand.New(rand.NewPCG(seed, 7))
		n := []int{40, 700, 3000}[seed%3]
		vocab := []int{8, 40, 300}[seed/3%3]
		docs := randomCorpus(r, n, vocab, groups)
		if seed%2 == 0 { // every chunk has a group: some callers see all
			for i := range docs {
				if len(docs[i].groups) == 0 {
					docs[i].groups = []string{"public"}
				}
			}
		}
		ix := build(t, docs)
		for trial := range 40 {
			var gs []string
			for _, g := range groups {
				if r.IntN(3) == 0 || trial%5 == 0 {
					gs = append(gs, g)
				}
			}
			var allowed *roaring.Bitmap
			allow := func(int) bool { return true }
			if trial%3 != 0 {
				allowed = roaring.New()
				density := []float64{0.5, 0.05}[trial%2]
				for i := range n {
					if r.Float64() < density {
						allowed.Add(uint32(i))
					}
				}
				allow = func(i int) bool { return allowed.Contains(uint32(i)) }
			}
			v := ix.Visible(gs)
			see := func(i int) bool { return visibleTo(docs[i], gs) }
			if trial%7 == 0 {
				v, see = ix.All(), func(int) bool { return true }
			}
			q := randomQuery(r, vocab)
			for _, k := range []int{1, 10, 100} {
				got, err := v.Search(context.Background(), q, allowed, k, bm25)
				if err != nil {
					t.Fatal(err)
				}
				want := bruteForce(docs, see, allow, q, k)
				if !slices.Equal(got, want) {
					t.Fatalf("seed %d trial %d groups %v query %q k %d:\n got %v\nwant %v", seed, trial, gs, q, k, got, want)
				}
			}
		}
	}
}

// TestLongQueriesEqualExhaustive covers queries of more than 64 distinct
// terms (more than a 64-bit mask of terms would hold).
func TestLongQueriesEqualExhaustive(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	groups := []string{"public", "staff"}
	docs := make([]testDoc, 3000) // uniform over 120 terms: most occur
	for i := range docs {
		for range r.IntN(40) {
			docs[i].terms = append(docs[i].terms, fmt.Sprintf("t%d", r.IntN(120)))
		}
		docs[i].groups = []string{groups[r.IntN(2)]}
	}
	ix := build(t, docs)
	long := 0
	for trial := range 10 {
		q := make([]string, 90+r.IntN(30))
		for i := range q {
			q[i] = fmt.Sprintf("t%d", r.IntN(120))
		}
		gs := groups[:1+trial%2]
		if pq := ix.Visible(gs).prepare(q, bm25); len(pq.terms) > 64 {
			long++
		}
		for _, k := range []int{1, 10, 100} {
			got, err := ix.Visible(gs).Search(context.Background(), q, nil, k, bm25)
			if err != nil {
				t.Fatal(err)
			}
			want := bruteForce(docs, func(i int) bool { return visibleTo(docs[i], gs) }, func(int) bool { return true }, q, k)
			if !slices.Equal(got, want) {
				t.Fatalf("groups %v, %d-clause query, k %d:\n got %v\nwant %v", gs, len(q), k, got, want)
			}
		}
	}
	if long == 0 {
		t.Fatal("no query had more than 64 distinct terms")
	}
}

// TestHiddenChunksChangeNothing: chunks a caller cannot see, full of the
// query's words, change neither its results nor its scores.
func TestHiddenChunksChangeNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	groups := []string{"public", "staff", "a"}
	docs := randomCorpus(r, 2000, 60, groups)
	var mixed []testDoc
	var orig []uint32 // mixed ordinal → docs ordinal, or MaxUint32 for hidden
	for i, d := range docs {
		mixed = append(mixed, d)
		orig = append(orig, uint32(i))
		if r.IntN(3) == 0 {
			var terms []string
			for range 1 + r.IntN(30) {
				terms = append(terms, fmt.Sprintf("t%d", r.IntN(8)), "secret")
			}
			mixed = append(mixed, testDoc{terms: terms, groups: []string{"hidden"}})
			orig = append(orig, math.MaxUint32)
		}
	}
	plain, withHidden := build(t, docs), build(t, mixed)
	for trial := range 60 {
		gs := []string{groups[trial%3]}
		q := append(randomQuery(r, 8), "secret")
		for _, k := range []int{1, 10, 100} {
			want, err := plain.Visible(gs).Search(context.Background(), q, nil, k, bm25)
			if err != nil {
				t.Fatal(err)
			}
			got, err := withHidden.Visible(gs).Search(context.Background(), q, nil, k, bm25)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				got[i].Ord = orig[got[i].Ord]
			}
			if !slices.Equal(got, want) {
				t.Fatalf("groups %v query %q k %d: hidden chunks changed the results:\n got %v\nwant %v", gs, q, k, got, want)
			}
		}
		if a, b := plain.Visible(gs).DocFreq("secret"), withHidden.Visible(gs).DocFreq("secret"); a != 0 || b != 0 {
			t.Fatalf("DocFreq(secret) = %d, %d; want 0", a, b)
		}
	}
}

func TestStatisticsAndHoldings(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	groups := []string{"public", "staff", "a", "b"}
	docs := randomCorpus(r, 5000, 50, groups)
	ix := build(t, docs)
	if ix.Len() != len(docs) {
		t.Fatalf("Len = %d, want %d", ix.Len(), len(docs))
	}
	for trial := range 30 {
		gs := []string{groups[r.IntN(4)], groups[r.IntN(4)]}
		v := ix.Visible(gs)
		var allowed *roaring.Bitmap
		if trial%2 == 1 {
			allowed = roaring.New()
			for i := range docs {
				if r.IntN(4) == 0 {
					allowed.Add(uint32(i))
				}
			}
		}
		terms := []string{"t0", "t1", fmt.Sprintf("t%d", r.IntN(50)), "absent", fmt.Sprintf("t%d", 10+r.IntN(40))}
		wantLen, wantTokens, wantDF := 0, 0, map[string]int{}
		want := map[uint64]int{}
		for i, d := range docs {
			if !visibleTo(d, gs) {
				continue
			}
			wantLen++
			wantTokens += len(d.terms)
			var mask uint64
			for j, t := range terms {
				if slices.Contains(d.terms, t) {
					mask |= 1 << j
				}
			}
			for _, t := range slices.Compact(slices.Sorted(slices.Values(terms))) {
				if slices.Contains(d.terms, t) {
					wantDF[t]++
				}
			}
			if mask != 0 && (allowed == nil || allowed.Contains(uint32(i))) {
				want[mask]++
			}
		}
		if v.Len() != wantLen {
			t.Fatalf("groups %v: Len = %d, want %d", gs, v.Len(), wantLen)
		}
		if want := float64(wantTokens) / float64(wantLen); v.AvgLen() != want {
			t.Fatalf("groups %v: AvgLen = %g, want %g (mean tokens)", gs, v.AvgLen(), want)
		}
		for _, term := range terms {
			if got := v.DocFreq(term); got != wantDF[term] {
				t.Fatalf("groups %v: DocFreq(%s) = %d, want %d", gs, term, got, wantDF[term])
			}
		}
		got := v.Holdings(terms, allowed)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("groups %v: Holdings = %v, want %v", gs, got, want)
		}
	}
	if ix.Visible(make([]string, 0)).Len() != 0 {
		t.Fatal("no groups see something")
	}
	if got := ix.Visible(nil).Holdings(make([]string, MaxHeld+1), nil); got != nil {
		t.Fatalf("Holdings of %d terms = %v, want nil", MaxHeld+1, got)
	}
}

// TestHoldingsManyTerms checks Holdings against counting chunk by chunk
// for as many terms as the dense count takes (denseHeld) and more, where
// it counts in a map, with some terms absent so found terms' positions
// differ from their bits.
func TestHoldingsManyTerms(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	groups := []string{"public", "staff", "a", "b"}
	docs := randomCorpus(r, 3000, 50, groups)
	ix := build(t, docs)
	for _, nt := range []int{1, 2, denseHeld - 1, denseHeld, denseHeld + 1, 40, MaxHeld} {
		gs := []string{groups[r.IntN(4)], groups[r.IntN(4)]}
		terms := make([]string, nt)
		for j := range terms {
			terms[j] = fmt.Sprintf("t%d", r.IntN(50))
			if r.IntN(5) == 0 {
				terms[j] = fmt.Sprintf("absent%d", j)
			}
		}
		want := countHoldings(docs, gs, terms, nil)
		if got := ix.Visible(gs).Holdings(terms, nil); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%d terms, groups %v: Holdings = %v, want %v", nt, gs, got, want)
		}
	}
}

// countHoldings is Holdings counted chunk by chunk: the chunks of docs
// visible to groups gs and in allowed (nil: all), by which of terms they
// hold.
func countHoldings(docs []testDoc, gs, terms []string, allowed *roaring.Bitmap) map[uint64]int {
	want := map[uint64]int{}
	for i, d := range docs {
		if !visibleTo(d, gs) || allowed != nil && !allowed.Contains(uint32(i)) {
			continue
		}
		var mask uint64
		for j, t := range terms {
			if slices.Contains(d.terms, t) {
				mask |= 1 << j
			}
		}
		if mask != 0 {
			want[mask]++
		}
	}
	return want
}

// TestAverageLengthIsMeanTokens checks the average length BM25 divides by
// against the visible chunks' mean length in tokens, for lengths up to a
// few thousand tokens (recovered from float32 norms) and empty chunks.
func TestAverageLengthIsMeanTokens(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	groups := []string{"public", "staff", "a", "b", "c"}
	docs := make([]testDoc, 3000)
	for i := range docs {
		n := r.IntN(300)
		if i%10 == 0 {
			n = r.IntN(5000)
		}
		if i%17 == 0 {
			n = 0
		}
		docs[i].terms = make([]string, n)
		for j := range docs[i].terms {
			docs[i].terms[j] = fmt.Sprintf("t%d", r.IntN(40))
		}
		docs[i].groups = []string{groups[r.IntN(len(groups))], groups[r.IntN(len(groups))]}
	}
	ix := build(t, docs)
	for _, gs := range [][]string{groups, {"public"}, {"a"}, {"b", "c"}, {"staff", "a", "c"}} {
		n, tokens := 0, 0
		for _, d := range docs {
			if visibleTo(d, gs) {
				n++
				tokens += len(d.terms)
			}
		}
		if got, want := ix.Visible(gs).AvgLen(), float64(tokens)/float64(n); got != want {
			t.Errorf("groups %v: AvgLen = %g, want %g", gs, got, want)
		}
	}
	for i, d := range docs {
		if got := ix.length(uint32(i)); got != float64(len(d.terms)) {
			t.Fatalf("chunk %d: length %g, want %d", i, got, len(d.terms))
		}
	}
}

func TestBuilderRejectsOutOfOrder(t *testing.T) {
	b, err := NewBuilder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Add(1, []string{"x"}, nil); err == nil {
		t.Fatal("Add(1) as the first chunk succeeded")
	}
}

func TestOpenRejectsTruncatedFiles(t *testing.T) {
	dir := t.TempDir()
	b, _ := NewBuilder(dir)
	for i := range 10 {
		b.Add(i, []string{"a", "b"}, []string{"g"})
	}
	if err := b.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, normsFile), 12); err != nil {
		t.Fatal(err)
	}
	if ix, err := Open(dir, 0); err == nil {
		ix.Close()
		t.Fatal("Open of a truncated norms file succeeded")
	}
}

// TestEachTerm: every term once, in byte order, with its whole-index
// document frequency.
func TestEachTerm(t *testing.T) {
	docs := []testDoc{
		{terms: []string{"b", "a", "a"}, groups: []string{"x"}},
		{terms: []string{"c", "a"}, groups: []string{"y"}},
		{terms: []string{"b"}, groups: nil},
	}
	ix := build(t, docs)
	var got []string
	ix.EachTerm(func(term string, df int) { got = append(got, fmt.Sprintf("%s:%d", term, df)) })
	if want := []string{"a:2", "b:2", "c:1"}; !slices.Equal(got, want) {
		t.Errorf("EachTerm = %v, want %v", got, want)
	}
}

// TestOnlyCandidatesExamined checks that a search for a caller who sees
// part of the corpus, too much of it to read the candidates window by
// window, examines only candidates: with k as large as the corpus
// nothing is pruned, so every candidate holding a query term is examined
// and no other chunk may be. With or without a filter.
func TestOnlyCandidatesExamined(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	const n = 5000
	docs := randomCorpus(r, n, 30, []string{"public"})
	for i := range docs {
		docs[i].groups = nil
		if i%2 == 0 {
			docs[i].groups = []string{"public"}
		}
		docs[i].terms = append(docs[i].terms, "t0", "t1") // every chunk holds the query
	}
	ix := build(t, docs)
	v := ix.Visible([]string{"public"})
	if sparseCand(v.Docs(), ix.Len()) {
		t.Fatal("half the corpus must not be sparse")
	}
	allowed := roaring.New()
	for i := range n {
		if i%3 != 0 {
			allowed.Add(uint32(i))
		}
	}
	for _, a := range []*roaring.Bitmap{nil, allowed} {
		hits, w, err := v.search(context.Background(), []string{"t0", "t1"}, a, n, bm25)
		if err != nil {
			t.Fatal(err)
		}
		want := n / 2
		if a != nil {
			want = int(roaring.And(v.Docs(), a).GetCardinality())
		}
		if w.examined != want || len(hits) != want {
			t.Errorf("filter %v: examined %d chunks and found %d, want %d candidates (of %d chunks)", a != nil, w.examined, len(hits), want, n)
		}
	}
}

// TestDocFreqMemo: a restricted set's visible document frequencies are
// kept per term after the first ask, and every ask, first or later,
// equals counting the visible chunks holding the term; the memo holds
// at most maxKeptDFs terms and answers the rest by counting.
func TestDocFreqMemo(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	const vocab = maxKeptDFs + 500
	docs := make([]testDoc, vocab)
	for i := range docs {
		docs[i].terms = []string{fmt.Sprintf("u%d", i), fmt.Sprintf("c%d", r.IntN(20))}
		docs[i].groups = []string{[]string{"public", "staff"}[r.IntN(2)]}
	}
	ix := build(t, docs)
	v := ix.Visible([]string{"public"})
	want := map[string]int{}
	for _, d := range docs {
		if visibleTo(d, []string{"public"}) {
			for _, term := range d.terms {
				want[term]++
			}
		}
	}
	for pass := range 2 {
		for i := range vocab {
			for _, term := range []string{fmt.Sprintf("u%d", i), fmt.Sprintf("c%d", i%20)} {
				if got := v.DocFreq(term); got != want[term] {
					t.Fatalf("pass %d: DocFreq(%s) = %d, want %d", pass, term, got, want[term])
				}
			}
		}
		if pass == 0 && len(v.dfs) != maxKeptDFs {
			t.Fatalf("memo holds %d terms after asking %d, want %d", len(v.dfs), vocab+20, maxKeptDFs)
		}
	}
	if len(v.dfs) > maxKeptDFs {
		t.Fatalf("memo holds %d terms, more than %d", len(v.dfs), maxKeptDFs)
	}
	if ix.All().dfs != nil {
		t.Fatal("the full-access set keeps a memo; its counts are stored")
	}
	// Concurrent askers of a fresh restricted set (go test -race): the
	// same counts.
	w := ix.Visible([]string{"staff"})
	if w.full {
		t.Fatal("staff sees every chunk")
	}
	wantStaff := map[string]int{}
	for _, d := range docs {
		if visibleTo(d, []string{"staff"}) {
			for _, term := range d.terms {
				wantStaff[term]++
			}
		}
	}
	var wg sync.WaitGroup
	bad := make(chan string, 4)
	for g := range 4 {
		wg.Go(func() {
			for i := range vocab {
				term := fmt.Sprintf("u%d", (i*7+g*1009)%vocab)
				if got := w.DocFreq(term); got != wantStaff[term] {
					bad <- fmt.Sprintf("DocFreq(%s) = %d for staff, want %d", term, got, wantStaff[term])
					return
				}
			}
		})
	}
	wg.Wait()
	close(bad)
	for msg := range bad {
		t.Fatal(msg)
	}
}

// TestDecodeMixedWidths: blocks whose doc deltas and frequencies mix
// one-byte and longer uvarints (gaps and frequencies on both sides of
// 128, runs of small ones), decoded eight bytes at a time where they
// can be, score as brute force does, every posting read (k as large as
// the corpus) and only the best (k 10).
func TestDecodeMixedWidths(t *testing.T) {
	const n = 6000
	docs := mixedWidths(rand.New(rand.NewPCG(21, 21)), n)
	ix := build(t, docs)
	v := ix.Visible([]string{"public"})
	see := func(int) bool { return true }
	for _, q := range [][]string{{"a"}, {"a", "b"}, {"b", "a", "a"}} {
		for _, k := range []int{10, n} {
			got, err := v.Search(context.Background(), q, nil, k, bm25)
			if err != nil {
				t.Fatal(err)
			}
			if want := bruteForce(docs, see, see, q, k); !slices.Equal(got, want) {
				t.Fatalf("query %q k %d: %d hits differ from brute force's %d", q, k, len(got), len(want))
			}
		}
	}
}

// mixedWidths is n chunks all holding "b" once; "a" is held by runs of
// close chunks (gaps 1–3) broken by gaps over 127, with frequencies 1–4
// or over 127 (two-byte uvarints).
func mixedWidths(r *rand.Rand, n int) []testDoc {
	docs := make([]testDoc, n)
	for i := range docs {
		docs[i] = testDoc{terms: []string{"b"}, groups: []string{"public"}}
	}
	for i := 0; i < n; {
		tf := 1 + r.IntN(4)
		if r.IntN(6) == 0 {
			tf = 100 + r.IntN(200) // over 127: two bytes
		}
		for range tf {
			docs[i].terms = append(docs[i].terms, "a")
		}
		if r.IntN(5) == 0 {
			i += 120 + r.IntN(300) // a delta over 127
		} else {
			i += 1 + r.IntN(3)
		}
	}
	return docs
}

// TestPartialDecode: a cursor that decodes a block's docs and frequencies
// only as far as an advance or tf needs (a probe) gives, through any mix
// of advance, skipTo, next, tf and the window's completion of a block
// (docsTo(end), tfsTo(n)), the postings and frequencies the index holds.
func TestPartialDecode(t *testing.T) {
	const n = 60000
	r := rand.New(rand.NewPCG(5, 7))
	docs := mixedWidths(r, n)
	ix := build(t, docs)
	type posting struct{ doc, tf uint32 }
	var want []posting
	for i, d := range docs {
		if tf := uint32(slices.Index(d.terms, "a")); tf != ^uint32(0) {
			want = append(want, posting{uint32(i), uint32(len(d.terms) - 1)})
		}
	}
	rec, ok := ix.term("a")
	if !ok || int(rec.df) != len(want) || len(want) < 4*BlockSize {
		t.Fatalf("term a: %v %d postings, want %d (at least four blocks)", ok, rec.df, len(want))
	}
	// first is the index in want of the first posting at or after d.
	first := func(d uint32) int {
		i, _ := slices.BinarySearchFunc(want, d, func(p posting, d uint32) int { return cmp.Compare(p.doc, d) })
		return i
	}
	partial := 0
	for round := range 300 {
		c := newCursor(ix, rec)
		c.doc, c.lazy = 0, true
		at := -1 // index in want of the cursor's posting, -1 while lazy
		for step := 0; step < 60; step++ {
			var d uint32
			switch r.IntN(4) {
			case 0:
				d = c.doc + 1
			case 1:
				d = c.doc + uint32(r.IntN(20))
			case 2:
				d = c.doc + uint32(r.IntN(600))
			default:
				d = c.doc + uint32(r.IntN(3000))
			}
			switch op := r.IntN(6); {
			case op <= 1 || at < 0: // a probe
				c.advance(d)
				at = first(d)
			case op == 2:
				c.skipTo(d)
				c.materialize()
				at = first(max(d, want[at].doc))
			case op == 3:
				c.next()
				at++
			default: // the window's accumulation completes the block
				if c.have < c.n {
					partial++
					c.docsTo(end)
				}
				c.tfsTo(c.n)
				base := c.blk * BlockSize
				for p := range c.n {
					if w := want[base+p]; c.docs[p] != w.doc || c.tfs[p] != w.tf {
						t.Fatalf("round %d: block %d posting %d completed as (%d, %d), want (%d, %d)", round, c.blk, p, c.docs[p], c.tfs[p], w.doc, w.tf)
					}
				}
			}
			if at >= len(want) {
				if c.doc != end {
					t.Fatalf("round %d step %d: doc %d, want the end", round, step, c.doc)
				}
				break
			}
			if c.doc != want[at].doc {
				t.Fatalf("round %d step %d: doc %d, want %d", round, step, c.doc, want[at].doc)
			}
			if r.IntN(2) == 0 {
				if tf := c.tf(); tf != want[at].tf {
					t.Fatalf("round %d step %d: doc %d tf %d, want %d", round, step, c.doc, tf, want[at].tf)
				}
			}
		}
	}
	if partial == 0 {
		t.Fatal("no block was left partly decoded: the test does not exercise partial decoding")
	}
}

// TestHoldingsDense checks Holdings against counting chunk by chunk on an
// index of more than three roaring containers (its last word partly past
// the end), with terms held as runs, as bitmap containers and as arrays,
// visible sets and allowed sets of each kind (the visible set itself too),
// term lists with absent and repeated terms on both sides of denseHeld,
// and each call made twice, so a scratch left dirty by a call in the pool
// changes the next one's counts.
func TestHoldingsDense(t *testing.T) {
	const n = 3<<16 + 1000 // 197,608 chunks: 3,087 words and 40 chunks
	r := rand.New(rand.NewPCG(30, 30))
	docs := make([]testDoc, n)
	for i := range docs {
		d := &docs[i]
		d.terms = append(d.terms, "every")
		if i >= 70_000 && i < 140_000 {
			d.terms = append(d.terms, "range")
		}
		if r.IntN(10) < 6 {
			d.terms = append(d.terms, "dense")
		}
		if r.IntN(100) == 0 {
			d.terms = append(d.terms, "sparse")
		}
		if i == 0 || i == 1<<16-1 || i == 1<<16 || i == n-1 {
			d.terms = append(d.terms, "edge")
		}
		for range r.IntN(4) {
			d.terms = append(d.terms, fmt.Sprintf("t%d", r.IntN(20)))
		}
		if r.IntN(2) == 0 {
			d.groups = append(d.groups, "public")
		}
		if r.IntN(10) == 0 {
			d.groups = append(d.groups, "a")
		}
		if i >= 100_000 && i < 180_000 {
			d.groups = append(d.groups, "b")
		}
	}
	ix := build(t, docs)
	vocab := []string{"every", "range", "dense", "sparse", "edge", "absent"}
	for j := range 20 {
		vocab = append(vocab, fmt.Sprintf("t%d", j))
	}
	random := roaring.New()
	for i := range n {
		if r.IntN(3) == 0 {
			random.Add(uint32(i))
		}
	}
	span := roaring.New()
	span.AddRange(60_000, 150_000)
	past := roaring.BitmapOf(5, 65_536, n-1, n+5) // a chunk past the end too
	for _, gs := range [][]string{{"public", "a", "b"}, {"public"}, {"a", "b"}, {"b"}, {"none"}} {
		v := ix.Visible(gs)
		for ai, allowed := range []*roaring.Bitmap{nil, random, span, past, v.Docs()} {
			for _, nt := range []int{1, 3, 6, denseHeld, denseHeld + 1, 40, MaxHeld} {
				terms := make([]string, nt)
				for j := range terms {
					terms[j] = vocab[r.IntN(len(vocab))]
				}
				if nt == 6 {
					terms = []string{"every", "range", "dense", "sparse", "edge", "absent"}
				}
				want := countHoldings(docs, gs, terms, allowed)
				for call := range 2 {
					if got := v.Holdings(terms, allowed); !maps.Equal(got, want) {
						t.Fatalf("groups %v, allowed #%d, %d terms %v, call %d: Holdings = %v, want %v", gs, ai, nt, terms, call, got, want)
					}
				}
			}
		}
	}
}

// TestHoldingsConcurrent: callers at the same time each get their own
// pooled scratch, so their counts are those of the chunk-by-chunk count
// (run with -race too).
func TestHoldingsConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 31))
	groups := []string{"public", "staff", "a", "b"}
	docs := randomCorpus(r, 20_000, 60, groups)
	ix := build(t, docs)
	type ask struct {
		gs, terms []string
		want      map[uint64]int
	}
	var asks []ask
	for i := range 24 {
		gs := []string{groups[r.IntN(4)], groups[r.IntN(4)]}
		terms := make([]string, 1+i%20)
		for j := range terms {
			terms[j] = fmt.Sprintf("t%d", r.IntN(60))
		}
		asks = append(asks, ask{gs, terms, countHoldings(docs, gs, terms, nil)})
	}
	var wg sync.WaitGroup
	bad := make(chan string, len(asks)*10)
	for w := range 8 {
		wg.Go(func() {
			for k := range 10 * len(asks) / 8 {
				a := asks[(w+k)%len(asks)]
				if got := ix.Visible(a.gs).Holdings(a.terms, nil); !maps.Equal(got, a.want) {
					bad <- fmt.Sprintf("groups %v, terms %v: Holdings = %v, want %v", a.gs, a.terms, got, a.want)
					return
				}
			}
		})
	}
	wg.Wait()
	close(bad)
	for msg := range bad {
		t.Fatal(msg)
	}
}
