package retrievaldev

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/eval/devsets"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// TestOracle bounds what a retrieval or rewrite change can win with the
// builtin assessor as the evaluations run it (WordNet on). For each
// answerable development question whose first attempt's top 5 holds no
// relevant document, the assessor judges the top 5 as retrieved ("asis"),
// with the best-ranked relevant chunk of the top 30 put first in place of
// the fifth ("first") and put fifth ("fifth"); then each proposal that
// oracle first attempt makes, as a rewritten attempt holding the relevant
// chunk first ("rewrite": the first accepted on it). A question is won
// when the assessor accepts on a relevant chunk, which is what right
// source cited comes down to; one that none of first, fifth and rewrite
// wins no search can win with today's assessor and proposals. The
// assessor is the worker's (live.Direct.Assessor: the visible-chunk check
// with the run's filters, spelling lookups, the thesaurus) and a verdict
// is accepted at the loop's default threshold (config.Default), as the
// evaluations run them.
// RETRDEV_ORACLE_TOP5=1 adds the questions whose best-ranked relevant
// chunk is 2nd to 5th (put first, the others keeping their order): what
// reordering the top 5 could win. RETRDEV_BEIR names a BEIR dataset's
// directory to run its test split instead, over its own corpus (as
// `assay eval answers --beir` does).
//
//	RETRDEV=1 go test ./internal/retrieval/retrievaldev -run TestOracle -v | grep -E '^ORACLE'
//	RETRDEV=1 RETRDEV_BEIR=/work/shared/data/scifact go test ./internal/retrieval/retrievaldev -run TestOracle -v | grep TOTAL
func TestOracle(t *testing.T) {
	questions := map[string][]eval.Question{}
	names := sets()
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
	for _, s := range names {
		if beir == "" {
			qs, err := eval.LoadQuestions(devsets.Questions(s))
			if err != nil {
				t.Fatal(err)
			}
			questions[s] = qs
		}
	}
	d := open(t, beir)
	judge := oracleJudge(t, d)
	won := map[string]int{}
	outside, beyond := 0, 0
	for _, s := range names {
		for _, q := range questions[s] {
			if len(q.Relevant) == 0 {
				continue
			}
			chunks := devsets.Search(t, d, retrieval.Request{Query: q.Question, Groups: devsets.Asker(q), K: 30}).Chunks
			rel := slices.IndexFunc(chunks, func(c corpus.Chunk) bool { return slices.Contains(q.Relevant, c.DocID) })
			if rel == 0 || rel > 0 && rel < 5 && os.Getenv("RETRDEV_ORACLE_TOP5") == "" {
				continue
			}
			outside++
			if rel < 0 {
				beyond++
				fmt.Printf("ORACLE %s %s no relevant chunk in the top 30 | %q\n", s, q.ID, q.Question)
				continue
			}
			// the top 5 without the relevant chunk, first 4
			top4 := slices.Clone(chunks[:min(5, len(chunks))])
			if rel < 5 {
				top4 = slices.Delete(top4, rel, rel+1)
			}
			top4 = top4[:min(4, len(top4))]
			asis, _ := judge(q, q.Question, nil, chunks[:min(5, len(chunks))])
			first, fr := judge(q, q.Question, nil, append([]corpus.Chunk{chunks[rel]}, top4...))
			fifth, _ := judge(q, q.Question, nil, append(top4, chunks[rel]))
			rewrite := "none"
			for _, p := range fr.ProposalList() {
				v, _ := judge(q, p.Query, []string{q.Question}, append([]corpus.Chunk{chunks[rel]}, top4...))
				rewrite = p.Strategy + ":" + v
				if v == "RIGHT" {
					break
				}
			}
			wins := map[string]bool{"asis": asis == "RIGHT", "first": first == "RIGHT", "fifth": fifth == "RIGHT", "rewrite": strings.HasSuffix(rewrite, ":RIGHT")}
			for way, w := range wins {
				if w {
					won[way]++
				}
			}
			if wins["first"] || wins["fifth"] || wins["rewrite"] {
				won["any"]++
				if !wins["asis"] {
					won["gain"]++
				}
			}
			fmt.Printf("ORACLE %s %s rank %d asis=%s first=%s fifth=%s rewrite=%s | %q | %s\n", s, q.ID, rel+1, asis, first, fifth, rewrite, q.Question, fr.Assessment.Reason)
		}
	}
	fmt.Printf("ORACLE TOTAL %d answerable questions without a relevant chunk first (top 5 unless RETRDEV_ORACLE_TOP5) (%d not in the top 30); won as retrieved %d; won first %d, fifth %d, rewrite %d, any %d (%d not won as retrieved)\n",
		outside, beyond, won["asis"], won["first"], won["fifth"], won["rewrite"], won["any"], won["gain"])
}

// TestOracleDemote bounds what a reranker could win by changing which
// chunks make the top 5 rather than their order (the builtin assessor
// judges in its own order since builtin:coverage-v18): for each answerable
// question the first attempt does not win as retrieved and whose relevant
// chunk is in the top 30, the relevant chunk is put in the top 5 (in place
// of the fifth when it is lower) and each other chunk of that top 5 in
// turn is replaced by the best-ranked chunk below it that is neither
// relevant nor already there ("demote one"); then, from that top 5, the
// wrong chunk the assessor accepts is replaced likewise until it accepts
// the relevant one or refuses, at most four times ("demote accepted").
//
//	RETRDEV=1 RETRDEV_SKIP=fresh18 go test ./internal/retrieval/retrievaldev -run TestOracleDemote -v | grep -E '^DEMOTE'
func TestOracleDemote(t *testing.T) {
	d := open(t, "")
	j := oracleJudge(t, d)
	judge := func(q eval.Question, ev []corpus.Chunk) string {
		v, _ := j(q, q.Question, nil, ev)
		if strings.HasPrefix(v, "rejected") {
			return "rejected"
		}
		return v
	}
	n, wonOne, wonChain, wonEither := 0, 0, 0, 0
	for _, s := range sets() {
		qs, err := eval.LoadQuestions(devsets.Questions(s))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			if len(q.Relevant) == 0 {
				continue
			}
			chunks := devsets.Search(t, d, retrieval.Request{Query: q.Question, Groups: devsets.Asker(q), K: 30}).Chunks
			isRel := func(c corpus.Chunk) bool { return slices.Contains(q.Relevant, c.DocID) }
			rel := slices.IndexFunc(chunks, isRel)
			if rel < 0 {
				continue
			}
			top := chunks[:min(5, len(chunks))]
			asis := judge(q, top)
			if asis == "RIGHT" {
				continue
			}
			n++
			base := slices.Clone(top)
			if rel >= 5 {
				base[len(base)-1] = chunks[rel]
			}
			// next is the best-ranked chunk not relevant and not in ev.
			next := func(ev []corpus.Chunk) (corpus.Chunk, bool) {
				for _, c := range chunks {
					if !isRel(c) && !slices.ContainsFunc(ev, func(e corpus.Chunk) bool { return e.ID == c.ID }) {
						return c, true
					}
				}
				return corpus.Chunk{}, false
			}
			one := ""
			for i, c := range base {
				if isRel(c) {
					continue
				}
				ev := slices.Clone(base)
				r, ok := next(ev)
				if !ok {
					continue
				}
				ev[i] = r
				if judge(q, ev) == "RIGHT" {
					one = c.ID
					break
				}
			}
			chain, steps := "", 0
			ev := slices.Clone(base)
			for ; steps < 4; steps++ {
				v := judge(q, ev)
				if v == "RIGHT" {
					chain = fmt.Sprintf("RIGHT after %d", steps)
					break
				}
				if !strings.HasPrefix(v, "wrong:") {
					chain = v
					break
				}
				i := slices.IndexFunc(ev, func(c corpus.Chunk) bool { return c.ID == strings.TrimPrefix(v, "wrong:") })
				r, ok := next(ev)
				if i < 0 || !ok {
					chain = v
					break
				}
				ev[i] = r
			}
			if one != "" {
				wonOne++
			}
			if strings.HasPrefix(chain, "RIGHT") && steps > 0 {
				wonChain++
			}
			if one != "" || strings.HasPrefix(chain, "RIGHT") {
				wonEither++
			}
			fmt.Printf("DEMOTE %s %s rank %d asis=%s one=%q chain=%s | %q\n", s, q.ID, rel+1, asis, one, chain, q.Question)
		}
	}
	fmt.Printf("DEMOTE TOTAL %d answerable questions not won as retrieved with a relevant chunk in the top 30; won by demoting one chunk %d, by demoting accepted wrong chunks %d, either %d\n", n, wonOne, wonChain, wonEither)
}

// oracleJudge is the builtin assessor of d's index, with WordNet, as the
// oracles ask it: question q, searched as query after prev, judging ev
// in that order (scores falling by rank). It says RIGHT when the chunk
// it accepts first is one of q's relevant documents, wrong:ID when
// another, rejected(score) when it refuses.
func oracleJudge(t *testing.T, d *live.Direct) func(q eval.Question, query string, prev []string, ev []corpus.Chunk) (string, assess.Result) {
	t.Helper()
	th, err := thesaurus.Open("/usr/share/wordnet")
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.Assessor(th)
	if err != nil {
		t.Fatal(err)
	}
	threshold := config.Default().Loop.Threshold
	return func(q eval.Question, query string, prev []string, ev []corpus.Chunk) (string, assess.Result) {
		req := assess.Request{Question: q.Question, Query: query, Previous: prev, Groups: devsets.Asker(q), K: 5}
		for i, c := range ev {
			req.Evidence = append(req.Evidence, assess.Evidence{ChunkID: c.ID, Title: c.Title, Text: c.Text, Score: 1 - 0.1*float64(i)})
		}
		r, err := b.Assess(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case !r.Assessment.Sufficient || r.Assessment.Score < threshold:
			return fmt.Sprintf("rejected(%.2f)", r.Assessment.Score), r
		case len(r.Accepted) > 0 && slices.ContainsFunc(ev, func(c corpus.Chunk) bool { return c.ID == r.Accepted[0] && slices.Contains(q.Relevant, c.DocID) }):
			return "RIGHT", r
		case len(r.Accepted) > 0:
			return "wrong:" + r.Accepted[0], r
		}
		return "accepted", r
	}
}
