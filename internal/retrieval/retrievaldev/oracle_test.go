package retrievaldev

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// visible adapts the index to the assessor's vocabulary, as the service does.
type visible struct{ backend.Index }

func (v visible) Visible(groups []string) assess.Vocabulary { return v.Index.Visible(groups) }

// TestOracle bounds what a retrieval or rewrite change can win on the
// development sets with today's builtin assessor (WordNet on, as the
// evaluations run it). For each answerable question whose first attempt's
// top 5 holds no relevant document, it hands the assessor that top 5 with
// the best-ranked relevant chunk (from the top 30) put first ("first"), and
// put fifth ("fifth"); then, as a rewritten attempt, each of the proposals
// of that oracle first attempt with the relevant chunk first ("rewrite",
// the first proposal accepted on it). A question counts as won when the
// assessor accepts on the relevant chunk: what right source cited comes
// down to. Nothing a search can do wins a question none of the three wins.
// RETRDEV_BEIR names a BEIR dataset's directory to bound its test split's
// questions instead, over its own corpus (as `assay eval answers --beir`).
//
//	RETRDEV=1 go test ./internal/retrieval/retrievaldev -run TestOracle -v | grep -E '^ORACLE'
//	RETRDEV=1 RETRDEV_BEIR=/work/shared/data/scifact go test ./internal/retrieval/retrievaldev -run TestOracle -v | grep TOTAL
func TestOracle(t *testing.T) {
	questions := map[string][]eval.Question{}
	names := sets
	beir := os.Getenv("RETRDEV_BEIR")
	if beir != "" {
		ds, err := eval.LoadBEIR(beir, eval.SplitTest)
		if err != nil {
			t.Fatal(err)
		}
		names = []string{"beir"}
		questions["beir"] = eval.BEIRQuestions(ds)
		beir = filepath.Join(beir, "corpus.jsonl")
	}
	for _, s := range sets {
		if beir == "" {
			qs, err := eval.LoadQuestions(path(s))
			if err != nil {
				t.Fatal(err)
			}
			questions[s] = qs
		}
	}
	d := open(t, beir)
	ctx := context.Background()
	an := terms.New()
	b := assess.NewBuiltin(an, visible{d.Index})
	b.Rewriter = assess.NewRewriter(an, visible{d.Index})
	th, err := thesaurus.Open("/usr/share/wordnet")
	if err != nil {
		t.Fatal(err)
	}
	b.UseThesaurus(th)
	judge := func(q eval.Question, query string, prev []string, ev []corpus.Chunk, rel string) (string, assess.Result) {
		req := assess.Request{Question: q.Question, Query: query, Previous: prev, Groups: groups(q), K: 5}
		for i, c := range ev {
			req.Evidence = append(req.Evidence, assess.Evidence{ChunkID: c.ID, Title: c.Title, Text: c.Text, Score: 1 - 0.1*float64(i)})
		}
		r, err := b.Assess(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case !r.Assessment.Sufficient || r.Assessment.Score < 0.5: // the loop's default threshold
			return fmt.Sprintf("rejected(%.2f)", r.Assessment.Score), r
		case len(r.Accepted) > 0 && r.Accepted[0] == rel:
			return "RIGHT", r
		case len(r.Accepted) > 0:
			return "wrong:" + r.Accepted[0], r
		}
		return "accepted", r
	}
	won := map[string]int{}
	outside, beyond := 0, 0
	for _, s := range names {
		for _, q := range questions[s] {
			if len(q.Relevant) == 0 {
				continue
			}
			res, err := d.Retriever.Search(ctx, retrieval.Request{Query: q.Question, Groups: groups(q), K: 30})
			if err != nil {
				t.Fatal(err)
			}
			chunks, err := d.Index.Chunks(ctx, hitIDs(res))
			if err != nil {
				t.Fatal(err)
			}
			rel := slices.IndexFunc(chunks, func(c corpus.Chunk) bool { return slices.Contains(q.Relevant, c.DocID) })
			if rel >= 0 && rel < 5 {
				continue
			}
			outside++
			if rel < 0 {
				beyond++
				fmt.Printf("ORACLE %s %s no relevant chunk in the top 30 | %q\n", s, q.ID, q.Question)
				continue
			}
			top4 := slices.Clone(chunks[:4])
			first, fr := judge(q, q.Question, nil, append([]corpus.Chunk{chunks[rel]}, top4...), chunks[rel].ID)
			fifth, _ := judge(q, q.Question, nil, append(top4, chunks[rel]), chunks[rel].ID)
			rewrite := "none"
			for _, p := range fr.ProposalList() {
				v, _ := judge(q, p.Query, []string{q.Question}, append([]corpus.Chunk{chunks[rel]}, top4...), chunks[rel].ID)
				rewrite = p.Strategy + ":" + v
				if v == "RIGHT" {
					break
				}
			}
			wins := map[string]bool{"first": first == "RIGHT", "fifth": fifth == "RIGHT", "rewrite": strings.HasSuffix(rewrite, ":RIGHT")}
			for way, w := range wins {
				if w {
					won[way]++
				}
			}
			if wins["first"] || wins["fifth"] || wins["rewrite"] {
				won["any"]++
			}
			fmt.Printf("ORACLE %s %s rank %d first=%s fifth=%s rewrite=%s | %q | %s\n", s, q.ID, rel+1, first, fifth, rewrite, q.Question, fr.Assessment.Reason)
		}
	}
	fmt.Printf("ORACLE TOTAL %d answerable questions without a relevant chunk in the top 5 (%d not in the top 30); won first %d, fifth %d, rewrite %d, any %d\n",
		outside, beyond, won["first"], won["fifth"], won["rewrite"], won["any"])
}
