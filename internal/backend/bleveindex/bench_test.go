package bleveindex

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// sciFact builds (once per benchmark) an index of SciFact's 5,183
// abstracts, their ACLs alternating between two teams, with the builtin
// embedder's vectors when e is set. ASSAY_SCIFACT names the dataset
// directory (default ../shared/data/scifact beside the repository);
// without it the benchmark is skipped.
func sciFact(b *testing.B, e backend.Embedder) *Index {
	dir := os.Getenv("ASSAY_SCIFACT_DIR")
	if dir == "" {
		dir = os.Getenv("ASSAY_SCIFACT")
	}
	if dir == "" || dir == "1" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "data", "scifact")
	}
	docs, err := corpus.LoadJSONL(filepath.Join(dir, "corpus.jsonl"))
	if err != nil {
		b.Skip("SKIPPED: no SciFact corpus (set ASSAY_SCIFACT): ", err)
	}
	chunks := wholeChunks(docs)
	for i := range chunks {
		chunks[i].ACL = []string{[]string{"team-a", "team-b"}[i%2]}
	}
	ixDir := filepath.Join(b.TempDir(), "ix")
	if _, _, err := Build(context.Background(), ixDir, chunks, backend.BuildOptions{Checksum: "x", Embedder: e}); err != nil {
		b.Fatal(err)
	}
	ix, err := Open(ixDir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	return ix
}

// A SciFact claim's content terms, common ones among them.
const claim = "APOE4 expression in iPSC-derived neurons increases AlphaBeta production and tau phosphorylation causing cell death"

// callers are a full-access caller and one who sees half the corpus.
var callers = []struct {
	name   string
	groups []string
}{{"full", []string{"team-a", "team-b"}}, {"restricted", []string{"team-a"}}}

// BenchmarkHoldings measures the builtin assessor's visible-chunk check
// (Holdings over a question's terms) beside what the assessor already did
// for the same terms (one DocFreq each).
func BenchmarkHoldings(b *testing.B) {
	ix := sciFact(b, nil)
	q := terms.New().Content(claim)
	for _, c := range callers {
		v := ix.Visible(c.groups)
		b.Run(c.name+"/docfreq", func(b *testing.B) {
			n := 0
			for b.Loop() {
				for _, t := range q {
					n += v.DocFreq(t)
				}
			}
		})
		b.Run(c.name+"/holdings", func(b *testing.B) {
			for b.Loop() {
				if h, _ := v.Holdings(context.Background(), q, nil); h == nil {
					b.Fatal("nil")
				}
			}
		})
	}
}

// BenchmarkSearchText measures BM25 top-100 for each caller.
func BenchmarkSearchText(b *testing.B) {
	ix := sciFact(b, nil)
	for _, c := range callers {
		f := backend.Filter{Groups: c.groups}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := ix.SearchText(context.Background(), claim, f, 100); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSearchVector measures the vector leg (top 100, the builtin
// embedder's 768 dimensions) for each caller.
func BenchmarkSearchVector(b *testing.B) {
	e, err := embed.NewHashed(768)
	if err != nil {
		b.Fatal(err)
	}
	ix := sciFact(b, e)
	vecs, err := e.Embed(context.Background(), []string{claim})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range callers {
		f := backend.Filter{Groups: c.groups}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := ix.SearchVector(context.Background(), vecs[0], f, 100); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkChunks measures reading 100 chunks back from disk, what a
// search does for its candidates.
func BenchmarkChunks(b *testing.B) {
	ix := sciFact(b, nil)
	hits, err := ix.SearchText(context.Background(), claim, backend.Filter{Groups: callers[0].groups}, 100)
	if err != nil {
		b.Fatal(err)
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ChunkID
	}
	for b.Loop() {
		if _, err := ix.Chunks(context.Background(), ids); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearchTextAtScale measures the BM25 leg of a question (top
// 100, retrieval's fetch depth) over an index built beforehand, for each
// question of a JSONL file ({"question": ...}; bench-scale writes
// questions.jsonl), as the anonymous caller (public) and as a caller who
// sees one small group (bench-scale's team-07). An op asks every question; it reports
// the thread's CPU a question (the machine is shared). Opt-in:
//
//	ASSAY_BM25_INDEX=DIR ASSAY_BM25_QUESTIONS=FILE go test ./internal/backend/bleveindex \
//	    -run XXX -bench SearchTextAtScale -benchtime 3x
func BenchmarkSearchTextAtScale(b *testing.B) {
	dir, file := os.Getenv("ASSAY_BM25_INDEX"), os.Getenv("ASSAY_BM25_QUESTIONS")
	if dir == "" || file == "" {
		b.Skip("set ASSAY_BM25_INDEX (a bleve index dir) and ASSAY_BM25_QUESTIONS (a JSONL file of questions)")
	}
	ix, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	var qs []string
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var q struct {
			Question string `json:"question"`
		}
		if err := json.Unmarshal(line, &q); err != nil {
			b.Fatalf("%s: %v", file, err)
		}
		qs = append(qs, q.Question)
	}
	for _, c := range []struct {
		name   string
		groups []string
	}{{"public", []string{wire.PublicGroup}}, {"team-07", []string{"team-07"}}} {
		f := backend.Filter{Groups: c.groups}
		b.Run(c.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var cpu time.Duration
			asked := 0
			for b.Loop() {
				for _, q := range qs {
					c0 := threadCPU()
					if _, err := ix.SearchText(context.Background(), q, f, 100); err != nil {
						b.Fatal(err)
					}
					cpu += threadCPU() - c0
					asked++
				}
			}
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(asked), "cpu-ms/q")
		})
	}
}

func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
