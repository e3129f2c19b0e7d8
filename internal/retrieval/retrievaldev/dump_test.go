package retrievaldev

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/eval/devsets"
	"github.com/assay-rag/assay/internal/rerank"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

// recorder wraps a reranker and keeps what it was given.
type recorder struct {
	retrieval.Reranker
	an    *terms.Analyzer
	q     retrieval.QueryWeights
	cands []retrieval.Candidate
	score []float64
}

func (r *recorder) Rerank(ctx context.Context, query string, vocab retrieval.Vocabulary, cands []retrieval.Candidate) ([]float64, error) {
	r.q = retrieval.WeighQuery(r.an, vocab, query)
	r.cands = append([]retrieval.Candidate(nil), cands...)
	s, err := r.Reranker.Rerank(ctx, query, vocab, cands)
	r.score = s
	return s, err
}

// TestDumpCandidates writes, for each answerable question's first search,
// the reranker's candidates with their scores, analyzed title, text and
// sentences, the status and authority the prior reads, and the question's
// weighed terms and answer type, to RETRDEV_DUMP (JSON lines): the input
// of an offline look at where the relevant chunk ranks and why.
func TestDumpCandidates(t *testing.T) {
	out := os.Getenv("RETRDEV_DUMP")
	if out == "" {
		t.Skip("RETRDEV_DUMP=FILE")
	}
	d := open(t, "")
	ctx := context.Background()
	an := terms.New()
	rec := &recorder{Reranker: rerank.NewBuiltin(terms.New(), rerank.DefaultWeights), an: an}
	emb, err := live.QueryEmbedder(d.Index, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	r, err := retrieval.NewWithOptions(d.Index, retrieval.Options{Reranker: rec, Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	type cand struct {
		Chunk, Doc                 string
		BM25, Cosine, Fused, Score float64
		BM25Rank, VectorRank       int
		Status                     string
		Authority                  float64
		Products                   []string
		Title                      string
		TitleTerms, Terms          []string
		Sentences                  []string
		SentTerms                  [][]string
		Typed                      []bool
	}
	type rec1 struct {
		Set, ID, Question string
		Groups, Relevant  []string
		Type              string
		Frame             []string
		QTerms            []string
		IDF               []float64
		Hits              []string
		Cands             []cand
	}
	for _, s := range sets() {
		qs, err := eval.LoadQuestions(devsets.Questions(s))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			req := devsets.FirstRequest(q)
			rec.cands = nil
			res, err := r.Search(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			at := answertype.Classify(q.Question)
			o := rec1{Set: s, ID: q.ID, Question: q.Question, Groups: req.Groups, Relevant: q.Relevant,
				Type: string(at.Type), Frame: at.Frame, QTerms: rec.q.Terms, IDF: rec.q.IDF}
			for _, h := range res.Hits {
				o.Hits = append(o.Hits, h.ChunkID)
			}
			ids := []string{}
			for _, c := range rec.cands {
				ids = append(ids, c.ChunkID)
			}
			chunks, err := d.Index.Chunks(ctx, ids)
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range rec.cands {
				ch := chunks[i]
				x := cand{Chunk: c.ChunkID, Doc: ch.DocID, BM25: c.BM25, Cosine: c.Cosine, Fused: c.Fused, Score: rec.score[i],
					BM25Rank: c.BM25Rank, VectorRank: c.VectorRank, Status: string(ch.Status), Authority: ch.Authority, Products: ch.Products,
					Title: c.Title, TitleTerms: an.Terms(c.Title), Terms: an.Terms(c.Title + "\n" + c.Text)}
				for _, sn := range citation.Sentences(c.Text) {
					x.Sentences = append(x.Sentences, sn)
					x.SentTerms = append(x.SentTerms, an.Terms(sn))
					x.Typed = append(x.Typed, at.Type != answertype.Description && len(at.Find(sn)) > 0)
				}
				o.Cands = append(o.Cands, x)
			}
			if err := enc.Encode(o); err != nil {
				t.Fatal(err)
			}
		}
	}
}
