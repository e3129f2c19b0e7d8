package postings

// Benchmarks on a synthetic corpus made from SciFact (../shared/data/scifact
// beside the repository, or ASSAY_SCIFACT_DIR):
//
//	go test ./internal/postings/ -run '^$' -bench . -benchtime 3x [-short]
//
// The corpus is SciFact's 5,183 abstracts followed by documents of 4–12
// random SciFact sentences, one chunk each, deterministic. ACL: each chunk
// is visible to 1–3 of 100 teams and, half of them, to "public". Callers:
// "all" sees every group (full-access statistics), "public+team" sees
// public and one team (about 51%), "team" sees one team (about 2%). Each
// benchmark op runs SciFact's 300 test queries at k=100 and reports the
// per-query p50 and p99 of wall time and of the thread's CPU time (the
// machine is shared), chunks scored and blocks decoded per query;
// "exhaustive" scores every visible match of the same memory-mapped index
// (what the bleve backend's searchVisible does from memory) for the ratio.
// POSTINGS_EXPORT=dir also writes the corpus as BEIR jsonl for
// ../shared/peers/lucene/run.sh.

import (
	"bufio"
	"context"
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
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"golang.org/x/sys/unix"

	"github.com/assay-rag/assay/internal/terms"
)

// scifactDir is ASSAY_SCIFACT_DIR, or ../shared/data/scifact beside the
// repository.
func scifactDir() string {
	if d := os.Getenv("ASSAY_SCIFACT_DIR"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "shared", "data", "scifact")
}

type scifact struct {
	docs      [][]string // abstracts' terms (title then text)
	sentences [][]string // terms of each sentence of the abstracts
	text      []string   // sentences' text, for the export
	titles    []string
	bodies    []string
	queries   [][]string
}

var (
	sfOnce sync.Once
	sf     *scifact
	sfErr  error
)

func loadSciFact(b *testing.B) *scifact {
	sfOnce.Do(func() { sf, sfErr = readSciFact() })
	if sfErr != nil {
		b.Skipf("SKIPPED: SciFact not available (set ASSAY_SCIFACT_DIR): %v", sfErr)
	}
	return sf
}

func readSciFact() (*scifact, error) {
	an := terms.New()
	s := &scifact{}
	err := eachJSON(filepath.Join(scifactDir(), "corpus.jsonl"), func(d struct{ Title, Text string }) {
		s.docs = append(s.docs, append(an.Terms(d.Title), an.Terms(d.Text)...))
		s.titles, s.bodies = append(s.titles, d.Title), append(s.bodies, d.Text)
		for _, sent := range strings.SplitAfter(d.Text, ". ") {
			if ts := an.Terms(sent); len(ts) > 0 {
				s.sentences = append(s.sentences, ts)
				s.text = append(s.text, sent)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	err = eachJSON(filepath.Join(scifactDir(), "queries.jsonl"), func(q struct{ Text string }) {
		s.queries = append(s.queries, an.Terms(q.Text))
	})
	return s, err
}

func eachJSON[T any](path string, fn func(T)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return err
		}
		fn(v)
	}
	return sc.Err()
}

// synthetic yields chunk i of the corpus: its terms, groups and (when
// text) the sentences it is made of.
type synthetic struct {
	sf *scifact
	r  *rand.Rand
}

func (s *synthetic) chunk(i int, text bool) (terms []string, groups []string, body string) {
	if i < len(s.sf.docs) {
		terms = s.sf.docs[i]
		if text {
			body = s.sf.bodies[i]
		}
	} else {
		var sb strings.Builder
		for range 4 + s.r.IntN(9) {
			j := s.r.IntN(len(s.sf.sentences))
			terms = append(terms, s.sf.sentences[j]...)
			if text {
				sb.WriteString(s.sf.text[j])
				sb.WriteByte(' ')
			}
		}
		body = sb.String()
	}
	for range 1 + s.r.IntN(3) {
		groups = append(groups, fmt.Sprintf("team-%02d", s.r.IntN(100)))
	}
	if s.r.IntN(2) == 0 {
		groups = append(groups, "public")
	}
	return terms, groups, body
}

type built struct {
	ix    *Index
	dir   string
	took  time.Duration
	bytes int64
	heap  int64 // Go heap Open added
}

var (
	builtMu sync.Mutex
	indexes = map[int]*built{}
)

// syntheticIndex builds (once per size and process) the index of n chunks.
func syntheticIndex(b *testing.B, n int) *built {
	s := loadSciFact(b)
	builtMu.Lock()
	defer builtMu.Unlock()
	if x := indexes[n]; x != nil {
		return x
	}
	dir, err := os.MkdirTemp("", "postings-bench")
	if err != nil {
		b.Fatal(err)
	}
	x := &built{dir: dir}
	x.took = buildSynthetic(b, s, dir, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if fi, err := e.Info(); err == nil {
			x.bytes += fi.Size()
		}
	}
	if x.ix, err = Open(dir, 0); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	x.heap = int64(after.HeapAlloc) - int64(before.HeapAlloc)
	indexes[n] = x
	return x
}

func buildSynthetic(b *testing.B, s *scifact, dir string, n int) time.Duration {
	gen := &synthetic{sf: s, r: rand.New(rand.NewPCG(1, uint64(n)))}
	export := os.Getenv("POSTINGS_EXPORT")
	var out *bufio.Writer
	if export != "" {
		d := filepath.Join(export, fmt.Sprint(n))
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		f, err := os.Create(filepath.Join(d, "corpus.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		out = bufio.NewWriter(f)
		defer out.Flush()
		q, _ := os.ReadFile(filepath.Join(scifactDir(), "queries.jsonl"))
		os.WriteFile(filepath.Join(d, "queries.jsonl"), q, 0o644)
	}
	start := time.Now()
	bl, err := NewBuilder(dir)
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		ts, gs, body := gen.chunk(i, out != nil)
		if err := bl.Add(i, ts, gs); err != nil {
			b.Fatal(err)
		}
		if out != nil {
			title := ""
			if i < len(s.titles) {
				title = s.titles[i]
			}
			js, _ := json.Marshal(map[string]string{"_id": fmt.Sprintf("c%d", i), "title": title, "text": body})
			out.Write(append(js, '\n'))
		}
	}
	if err := bl.Finish(); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

func sizes() []int {
	if testing.Short() {
		return []int{50_000}
	}
	return []int{50_000, 500_000}
}

func BenchmarkBuild(b *testing.B) {
	s := loadSciFact(b)
	for _, n := range sizes() {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var took time.Duration
			for b.Loop() {
				took += buildSynthetic(b, s, b.TempDir(), n)
			}
			b.ReportMetric(float64(n)*float64(b.N)/took.Seconds(), "chunks/s")
		})
	}
}

var callers = []struct {
	name   string
	groups []string
}{
	{"all", append([]string{"public"}, teams(100)...)},
	{"public+team", []string{"public", "team-07"}},
	{"team", []string{"team-07"}},
}

func teams(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("team-%02d", i)
	}
	return out
}

func BenchmarkSearch(b *testing.B) {
	const k = 100
	s := loadSciFact(b)
	for _, n := range sizes() {
		x := syntheticIndex(b, n)
		b.Logf("n=%d: build %v (%.0f chunks/s), %d terms, files %.1f MB; Go heap added by Open %.2f MB",
			n, x.took.Round(time.Millisecond), float64(n)/x.took.Seconds(), x.ix.meta.Terms, float64(x.bytes)/1e6, float64(x.heap)/1e6)
		for _, c := range callers {
			v := x.ix.Visible(c.groups)
			// The two methods must agree before either is timed.
			for _, q := range s.queries {
				got, _ := v.Search(context.Background(), q, nil, k, bm25)
				want, _ := exhaustive(v, q, nil, k)
				if !slices.Equal(got, want) {
					b.Fatalf("n=%d %s query %q: MaxScore and exhaustive scoring differ", n, c.name, q)
				}
			}
			for _, method := range []string{"maxscore", "exhaustive"} {
				b.Run(fmt.Sprintf("n=%d/caller=%s/%s", n, c.name, method), func(b *testing.B) {
					// Wall time suffers from other processes on a shared
					// machine; the thread's CPU time much less.
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					var lat, cpu []time.Duration
					var w work
					for b.Loop() {
						lat, cpu, w = lat[:0], cpu[:0], work{}
						for _, q := range s.queries {
							t0, c0 := time.Now(), threadCPU()
							if method != "exhaustive" {
								_, qw, _ := v.search(context.Background(), q, nil, k, bm25)
								w.examined += qw.examined
								w.scored += qw.scored
								w.decoded += qw.decoded
							} else {
								_, qw := exhaustive(v, q, nil, k)
								w.scored += qw.scored
								w.decoded += qw.decoded
							}
							cpu = append(cpu, threadCPU()-c0)
							lat = append(lat, time.Since(t0))
						}
					}
					ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
					slices.Sort(lat)
					slices.Sort(cpu)
					b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
					b.ReportMetric(ms(lat[len(lat)*99/100]), "p99-ms")
					b.ReportMetric(ms(cpu[len(cpu)/2]), "cpu-p50-ms")
					b.ReportMetric(ms(cpu[len(cpu)*99/100]), "cpu-p99-ms")
					b.ReportMetric(float64(w.examined)/float64(len(s.queries)), "examined/q")
					b.ReportMetric(float64(w.scored)/float64(len(s.queries)), "scored/q")
					b.ReportMetric(float64(w.decoded)/float64(len(s.queries)), "blocks/q")
					b.ReportMetric(float64(v.Len()), "visible")
				})
			}
		}
	}
}

// BenchmarkVisible computes a group set's visible set and statistics
// uncached: the union of its groups' chunk and term bitmaps.
func BenchmarkVisible(b *testing.B) {
	for _, n := range sizes() {
		x := syntheticIndex(b, n)
		for _, c := range callers {
			b.Run(fmt.Sprintf("n=%d/caller=%s", n, c.name), func(b *testing.B) {
				gs := slices.Sorted(slices.Values(c.groups))
				for b.Loop() {
					x.ix.visible(gs)
				}
			})
		}
	}
}

// BenchmarkHoldings is the assessor's visible-chunk check for each test
// query's distinct terms; an op is all 300 queries.
func BenchmarkHoldings(b *testing.B) {
	s := loadSciFact(b)
	for _, n := range sizes() {
		x := syntheticIndex(b, n)
		for _, c := range callers {
			v := x.ix.Visible(c.groups)
			b.Run(fmt.Sprintf("n=%d/caller=%s", n, c.name), func(b *testing.B) {
				// The thread's CPU time suffers less than wall time from
				// other processes on a shared machine.
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				var cpu time.Duration
				for b.Loop() {
					c0 := threadCPU()
					for _, q := range s.queries {
						v.Holdings(slices.Compact(slices.Sorted(slices.Values(q))), nil)
					}
					cpu += threadCPU() - c0
				}
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

// exhaustive scores every visible (and allowed) match of the query from
// the index's postings, clause by clause like searchVisible, then sorts:
// the baseline MaxScore is measured against.
func exhaustive(v *Visible, qterms []string, allowed *roaring.Bitmap, k int) ([]Hit, work) {
	q := v.prepare(qterms, bm25)
	if q == nil || k < 1 {
		return nil, work{}
	}
	var w work
	cand := v.docs
	if allowed != nil {
		cand = roaring.And(v.docs, allowed)
	}
	score := make([]float64, v.ix.Len())
	matched := make([]int32, v.ix.Len())
	var touched []uint32
	k1, b := q.p.K1, q.p.B
	for i, u := range q.clauses {
		if u < 0 {
			continue
		}
		c := newCursor(v.ix, q.terms[u].rec)
		for c.advance(0); c.doc != end; c.next() {
			if !v.full && !cand.Contains(c.doc) {
				continue
			}
			length := v.ix.length(c.doc)
			tf := math.Sqrt(float64(c.tf()))
			if matched[c.doc] == 0 {
				touched = append(touched, c.doc)
			}
			w.scored++
			score[c.doc] += q.w[i] * tf * k1 / (tf + k1*(1-b+b*length/q.avgdl))
			matched[c.doc]++
		}
		w.decoded += c.decoded
	}
	top := newTopK(k)
	for _, d := range touched {
		top.push(d, score[d]*float64(matched[d])/float64(len(q.clauses)))
	}
	return top.sorted(), w
}

// threadCPU is the CPU time of the calling thread.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, x := range indexes {
		x.ix.Close()
		os.RemoveAll(x.dir)
	}
	os.Exit(code)
}

// BenchmarkDocFreq asks each test query's terms' visible document
// frequencies once, as a question's first weighing does (an op is all
// 300 queries): "fresh" from a Visible made anew each op (no memo),
// "kept" from the cached Visible whose memo the earlier ops filled.
func BenchmarkDocFreq(b *testing.B) {
	s := loadSciFact(b)
	for _, n := range sizes() {
		x := syntheticIndex(b, n)
		for _, c := range callers {
			gs := slices.Sorted(slices.Values(c.groups))
			for _, kept := range []bool{false, true} {
				b.Run(fmt.Sprintf("n=%d/caller=%s/kept=%v", n, c.name, kept), func(b *testing.B) {
					v := x.ix.Visible(c.groups)
					for b.Loop() {
						if !kept {
							b.StopTimer()
							v = x.ix.visible(gs)
							b.StartTimer()
						}
						for _, q := range s.queries {
							for _, t := range q {
								v.DocFreq(t)
							}
						}
					}
					b.ReportMetric(float64(len(v.dfs)), "kept")
				})
			}
		}
	}
}

// BenchmarkDecode walks every posting of one term with its frequency
// (advance, next, tf), the decoding path of docsTo and tfsTo: "dense" is
// in every chunk with frequencies 1–3 (one-byte deltas and frequencies:
// eight at a time), "mixed" as mixedWidths (one- and two-byte values
// mixed), "sparse" in one chunk of about 200 (two-byte deltas: one at a
// time). An op is one walk of the term's postings; cpu-ns/posting is the
// thread's CPU time per posting.
func BenchmarkDecode(b *testing.B) {
	const n = 200000
	r := rand.New(rand.NewPCG(3, 9))
	docs := mixedWidths(r, n) // "a" mixed, "b" in every chunk
	for i := range docs {
		docs[i].terms = docs[i].terms[1:] // drop "b": dense below
		for range 1 + r.IntN(3) {
			docs[i].terms = append(docs[i].terms, "dense")
		}
		if r.IntN(200) == 0 {
			docs[i].terms = append(docs[i].terms, "sparse")
		}
	}
	ix := build(b, docs)
	for _, term := range []struct{ name, t string }{{"dense", "dense"}, {"mixed", "a"}, {"sparse", "sparse"}} {
		rec, ok := ix.term(term.t)
		if !ok {
			b.Fatalf("no term %q", term.t)
		}
		b.Run(term.name, func(b *testing.B) {
			// the thread's CPU time too: the machine is shared
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var sum uint64
			c0 := threadCPU()
			for b.Loop() {
				c := newCursor(ix, rec)
				for c.advance(0); c.doc != end; c.next() {
					sum += uint64(c.tf())
				}
			}
			per := float64(b.N) * float64(rec.df)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/posting")
			b.ReportMetric(float64((threadCPU()-c0).Nanoseconds())/per, "cpu-ns/posting")
			if sum == 0 {
				b.Fatal("no postings")
			}
		})
	}
}
