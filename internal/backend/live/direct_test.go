package live

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/router"
)

// plainCorpus is the index's visible statistics as they come, without the
// worker's adapter: no Holdings with the run's filters, no Spellings. It
// is what the offline harnesses judged with before Direct.Assessor.
type plainCorpus struct{ backend.Index }

func (p plainCorpus) Visible(groups []string) assess.Vocabulary { return p.Index.Visible(groups) }
func (p plainCorpus) EachTerm(fn func(term string, df int))     { _ = p.Index.EachTerm(fn) }

// TestDirectAssessorIsTheWorkers: the assessor the offline harnesses get
// from Direct.Assessor judges every question of three Hollin sets (their
// first attempt's top 5, as retrieved) exactly as a worker's does —
// verdict, score, reason, accepted chunks and proposals. The plain
// statistics (plainCorpus) change some of those judgements, so the
// comparison can tell a harness that judges without the worker's
// vocabulary from one that judges with it.
func TestDirectAssessorIsTheWorkers(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.Index.Corpus = filepath.Join(root, "testdata", "hollin", "corpus.jsonl")
	cfg.Loop.Thesaurus = ""
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	worker, err := Open(ctx, cfg, log, true)
	if err != nil {
		t.Fatal(err)
	}
	defer worker.Close()
	d, err := OpenDirect(ctx, cfg, log, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	direct, err := d.Assessor(nil)
	if err != nil {
		t.Fatal(err)
	}
	an := terms.New()
	plain := assess.NewBuiltin(an, plainCorpus{d.Index})
	plain.Rewriter = assess.NewRewriter(an, plainCorpus{d.Index})

	asked, plainDiffers := 0, 0
	for _, set := range []string{"hollin.jsonl", "hollin-fresh.jsonl", "hollin-fresh5.jsonl"} {
		qs, err := eval.LoadQuestions(filepath.Join(root, "testdata", "eval", set))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			groups := q.Groups
			if len(groups) == 0 {
				groups = []string{"public"}
			}
			req := searchedRequest(t, d, q.Question, groups, 5)
			want, err := worker.Assess(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := direct.Assess(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: Direct.Assessor judged %+v, the worker %+v", set, q.ID, got, want)
			}
			p, err := plain.Assess(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p, want) {
				plainDiffers++
			}
			asked++
		}
	}
	t.Logf("%d questions; the plain statistics judged %d of them otherwise", asked, plainDiffers)
	if plainDiffers == 0 {
		t.Errorf("the plain statistics judged all %d questions as the worker does: this test cannot tell the two vocabularies apart", asked)
	}
}

// TestLoopRewriterSelects: loop.rewriter picks the builtin rewriter a
// worker's assessor proposes with, and Direct.Assessor wires the same:
// builtin:strategies-v5 by default, v4 when named.
func TestLoopRewriterSelects(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	dataDir := t.TempDir()
	for i, c := range []struct{ rewriter, want string }{
		{"", router.BuiltinRewriteModel},
		{router.BuiltinRewriteModelV4, router.BuiltinRewriteModelV4},
	} {
		cfg := config.Default()
		cfg.DataDir = dataDir
		cfg.Index.Corpus = filepath.Join(root, "testdata", "hollin", "corpus.jsonl")
		cfg.Loop.Thesaurus = ""
		cfg.Loop.Rewriter = c.rewriter
		worker, err := Open(ctx, cfg, log, i == 0)
		if err != nil {
			t.Fatal(err)
		}
		b, ok := worker.cur.Load().assessor.(*assess.Builtin)
		if !ok || b.Rewriter == nil {
			t.Fatalf("the worker's assessor is %T, want a builtin with a rewriter", worker.cur.Load().assessor)
		}
		if got := b.Rewriter.Model(); got != c.want {
			t.Errorf("loop.rewriter %q: the worker's rewriter is %s, want %s", c.rewriter, got, c.want)
		}
		worker.Close()
		d, err := OpenDirect(ctx, cfg, log, false)
		if err != nil {
			t.Fatal(err)
		}
		direct, err := d.Assessor(nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := direct.Rewriter.Model(); got != c.want {
			t.Errorf("loop.rewriter %q: Direct.Assessor's rewriter is %s, want %s", c.rewriter, got, c.want)
		}
		d.Close()
	}
}

// TestRerankerSelected: loop.reranker picks the builtin reranker the
// retriever runs, as the rerank stage's note records it: the default
// (builtin:features-v3) when empty, builtin:features-v4 when named, and
// an unknown id is refused rather than served by the default.
func TestRerankerSelected(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.Index.Corpus = filepath.Join(root, "testdata", "hollin", "corpus.jsonl")
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	d, err := OpenDirect(ctx, cfg, log, true)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for id, want := range map[string]string{"": "builtin:features-v3", "builtin:features-v3": "builtin:features-v3", "builtin:features-v4": "builtin:features-v4"} {
		c := cfg
		c.Loop.Reranker = id
		r, err := NewRetriever(d.Index, c)
		if err != nil {
			t.Fatal(err)
		}
		res, err := r.Search(ctx, retrieval.Request{Query: "how often should I descale the K50", Groups: []string{"public"}, K: 5})
		if err != nil {
			t.Fatal(err)
		}
		note := ""
		for _, st := range res.Stages {
			if st.Name == "rerank" {
				note = st.Note
			}
		}
		if note != want {
			t.Errorf("loop.reranker %q: rerank stage note %q, want %q", id, note, want)
		}
	}
	c := cfg
	c.Loop.Reranker = "builtin:features-v2"
	if _, err := NewRetriever(d.Index, c); err == nil {
		t.Error("NewRetriever with loop.reranker builtin:features-v2 = nil error, want refused")
	}
}
