package retrieval_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/rerank"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

const hollinDir = "../../testdata/hollin"

// hollin builds the Hollin sample corpus with the default chunker and the
// builtin embedder, and returns a retriever over it with default options.
func hollin(t testing.TB) (*retrieval.Retriever, *bleveindex.Index) {
	return hollinWith(t, retrieval.Options{})
}

// hollinCorpus is the Hollin sample corpus, its chunks (the default
// chunker) and the builtin embedder, as every backend's index is built.
func hollinCorpus(t testing.TB) ([]corpus.Document, []corpus.Chunk, *embed.Hashed) {
	t.Helper()
	docs, err := corpus.LoadJSONL(filepath.Join(hollinDir, "corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ch, err := chunk.New(chunk.Default())
	if err != nil {
		t.Fatal(err)
	}
	emb, err := embed.NewHashed(embed.DefaultHashedDim)
	if err != nil {
		t.Fatal(err)
	}
	return docs, ch.SplitAll(docs), emb
}

// hollinWith is hollin with retrieval options; the embedder and reranker
// are filled in.
func hollinWith(t testing.TB, o retrieval.Options) (*retrieval.Retriever, *bleveindex.Index) {
	t.Helper()
	docs, chunks, emb := hollinCorpus(t)
	dir := filepath.Join(t.TempDir(), "hollin")
	if _, _, err := bleveindex.Build(context.Background(), dir, chunks, backend.BuildOptions{
		Checksum: corpus.Checksum(docs), Embedder: emb, Chunking: chunk.Default().String(),
	}); err != nil {
		t.Fatal(err)
	}
	ix, err := bleveindex.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	o.Embedder, o.Reranker = emb, rerank.NewBuiltin(terms.New(), rerank.DefaultWeights)
	r, err := retrieval.NewWithOptions(ix, o)
	if err != nil {
		t.Fatal(err)
	}
	return r, ix
}

type searchCase struct {
	Comment   string            `json:"comment"`
	Query     string            `json:"query"`
	Groups    []string          `json:"groups"`
	Mode      retrieval.Mode    `json:"mode"`
	Filters   retrieval.Filters `json:"filters"`
	First     []string          `json:"first"`  // the top document is one of these
	Top       []string          `json:"top"`    // each is in the top 3 documents
	Absent    []string          `json:"absent"` // never retrieved
	Before    [][2]string       `json:"before"` // a ranks above b
	OnlyTypes []string          `json:"only_types"`
	Count     int               `json:"count"` // exact number of hits, when set
}

// TestHollinSearches runs the data-driven cases of
// testdata/hollin_searches.json in the default mode (or the case's).
func TestHollinSearches(t *testing.T) {
	b, err := os.ReadFile("testdata/hollin_searches.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []searchCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	eachBackend(t, func(t *testing.T, which string) {
		hollinSearches(t, which, cases)
	})
}

func hollinSearches(t *testing.T, which string, cases []searchCase) {
	r, ix := hollinOn(t, which, retrieval.Options{})
	for _, tc := range cases {
		t.Run(tc.Query+"/"+strings.Join(tc.Groups, ","), func(t *testing.T) {
			res, err := r.Search(context.Background(), retrieval.Request{Query: tc.Query, Groups: tc.Groups, Filters: tc.Filters, K: 10, Mode: tc.Mode})
			if err != nil {
				t.Fatalf("Search(%q) error: %v", tc.Query, err)
			}
			docs := docIDs(res.Hits)
			fail := func(format string, args ...any) {
				t.Helper()
				t.Errorf("%s\nSearch(%q as %v) = %v\n"+format, append([]any{tc.Comment, tc.Query, tc.Groups, docs}, args...)...)
			}
			if len(tc.First) > 0 && (len(docs) == 0 || !slices.Contains(tc.First, docs[0])) {
				fail("want first one of %v", tc.First)
			}
			for _, id := range tc.Top {
				if i := slices.Index(docs, id); i < 0 || i > 2 {
					fail("want %s in the top 3", id)
				}
			}
			for _, id := range tc.Absent {
				if slices.Contains(docs, id) {
					fail("want %s absent", id)
				}
			}
			for _, p := range tc.Before {
				if i, j := slices.Index(docs, p[0]), slices.Index(docs, p[1]); i < 0 || (j >= 0 && j < i) {
					fail("want %s above %s", p[0], p[1])
				}
			}
			if tc.Count > 0 && len(docs) != tc.Count {
				fail("want %d hits", tc.Count)
			}
			if len(tc.OnlyTypes) > 0 {
				chunks, _ := ix.Chunks(context.Background(), chunkIDs(res.Hits))
				for _, c := range chunks {
					if !slices.Contains(tc.OnlyTypes, c.Type) {
						fail("hit %s has type %s, want only %v", c.ID, c.Type, tc.OnlyTypes)
					}
				}
			}
		})
	}
}

func docIDs(hits []retrieval.Hit) []string {
	var out []string
	for _, h := range hits {
		if !slices.Contains(out, h.DocID) {
			out = append(out, h.DocID)
		}
	}
	return out
}

func chunkIDs(hits []retrieval.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ChunkID
	}
	return out
}

// principals are every ACL combination the Hollin corpus uses, alone and
// as the realistic sets a gateway key would carry.
var principals = [][]string{
	{"public"}, {"partners"}, {"staff"}, {"finance"},
	{"partner:brook-street"}, {"partner:calder-fix"},
	{"public", "partners", "partner:brook-street"},
	{"public", "partners", "partner:calder-fix"},
	{"public", "finance"}, {"nobody"},
}

// TestACLProperty runs every Hollin question as every principal in every
// mode and checks that no hit, and no candidate in any stage's trace, is
// outside the principal's groups.
func TestACLProperty(t *testing.T) {
	eachBackend(t, aclProperty)
}

func aclProperty(t *testing.T, which string) {
	r, ix := hollinOn(t, which, retrieval.Options{})
	qs, err := eval.LoadQuestions(filepath.Join(hollinDir, "questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	extra := []string{"internal cost prices", "partner agreement hourly rate", "case ticket agent", "firmware bulletin"}
	queries := extra
	for _, q := range qs {
		queries = append(queries, q.Question)
	}
	checked := 0
	for _, q := range queries {
		for _, groups := range principals {
			for _, mode := range retrieval.Modes {
				res, err := r.Search(context.Background(), retrieval.Request{Query: q, Groups: groups, K: 50, Mode: mode})
				if err != nil {
					t.Fatalf("Search(%q, %v, %s) error: %v", q, groups, mode, err)
				}
				ids := chunkIDs(res.Hits)
				for _, st := range res.Stages {
					ids = append(ids, st.Top...)
				}
				chunks, err := ix.Chunks(context.Background(), ids)
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range chunks {
					checked++
					if !c.VisibleTo(groups) {
						t.Errorf("Search(%q) as %v in %s returned %s (acl %v)", q, groups, mode, c.ID, c.ACL)
					}
				}
			}
		}
	}
	if checked < 10000 {
		t.Errorf("the property checked only %d hits; the test is not exercising retrieval", checked)
	}
}

// hollinGroups are the groups each labelled question runs as: public,
// except the restricted question about a staff ticket.
func hollinGroups(qid string) []string {
	if qid == "q15" {
		return []string{"staff"}
	}
	return []string{"public"}
}

// TestHollinQuestions measures, per mode and prior, how many of the 27 labelled
// questions put a right document first; a no-answer question passes when
// the search retrieves nothing or warns of a weak best score. It logs the best top-hit
// coverage among the no-answer questions and holds the default mode to
// its measured result. Questions run as labelled (public; staff for the
// restricted q15) and, to see what the status prior does against the
// staff-only ticket that quotes stale terms, as a principal who sees all.
func TestHollinQuestions(t *testing.T) {
	eachBackend(t, hollinQuestions)
}

func hollinQuestions(t *testing.T, which string) {
	qs, err := eval.LoadQuestions(filepath.Join(hollinDir, "questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	an := terms.New()
	got := map[retrieval.Prior]map[retrieval.Mode]int{}
	everyone := []string{"public", "partners", "staff", "finance", "partner:brook-street", "partner:calder-fix"}
	for _, view := range []string{"as-labelled", "sees-all"} {
		for _, prior := range []retrieval.Prior{retrieval.StatusPrior, retrieval.NoPrior} {
			r, ix := hollinOn(t, which, retrieval.Options{Prior: prior})
			if got[prior] == nil {
				got[prior] = map[retrieval.Mode]int{}
			}
			for _, mode := range retrieval.Modes {
				var failed []string
				bestNoAnswer, bestNoAnswerID := 0.0, ""
				for _, q := range qs {
					groups := hollinGroups(q.ID)
					if view == "sees-all" {
						groups = everyone
					}
					res, err := r.Search(context.Background(), retrieval.Request{Query: q.Question, Groups: groups, K: 10, Mode: mode})
					if err != nil {
						t.Fatal(err)
					}
					weak := slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.HasPrefix(w, "weak best score") })
					var pass bool
					if len(q.Relevant) == 0 {
						pass = weak || len(res.Hits) == 0
						if len(res.Hits) > 0 {
							top, _ := ix.Chunks(context.Background(), []string{res.Hits[0].ChunkID})
							if cov := retrieval.Coverage(an, ix.Visible(groups), q.Question, top[0].Title+"\n"+top[0].Text); cov > bestNoAnswer {
								bestNoAnswer, bestNoAnswerID = cov, q.ID
							}
						}
					} else {
						pass = len(res.Hits) > 0 && slices.Contains(q.Relevant, res.Hits[0].DocID)
					}
					switch {
					case !pass:
						failed = append(failed, q.ID+"("+q.Type+")")
					case view == "as-labelled":
						got[prior][mode]++
					}
				}
				t.Logf("%-11s prior %-6s %-14s %d of %d right first; failed %v; best no-answer top-hit coverage %.2f (%s)",
					view, prior, mode, len(qs)-len(failed), len(qs), failed, bestNoAnswer, bestNoAnswerID)
			}
		}
	}
	if want := 22; got[retrieval.DefaultPrior][retrieval.DefaultMode] < want {
		t.Errorf("default mode %s, prior %s: %d of 27 Hollin questions right first, want at least %d",
			retrieval.DefaultMode, retrieval.DefaultPrior, got[retrieval.DefaultPrior][retrieval.DefaultMode], want)
	}
}
