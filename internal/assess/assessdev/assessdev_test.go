package assessdev

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

type corpusOf struct{ backend.Index }

func (c corpusOf) Visible(groups []string) assess.Vocabulary { return c.Index.Visible(groups) }

var sets = []string{"hollin", "heldout", "fresh", "fresh2", "fresh3", "fresh4"}

func path(s string) string {
	if s == "hollin" {
		return "../../../testdata/eval/hollin.jsonl"
	}
	return "../../../testdata/eval/hollin-" + s + ".jsonl"
}

func TestDump(t *testing.T) {
	if os.Getenv("ASSESSDEV") == "" {
		t.Skip("set ASSESSDEV=1")
	}
	ctx := context.Background()
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.Index.Corpus = "../../../testdata/hollin/corpus.jsonl"
	d, err := live.OpenDirect(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), true)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	an := terms.New()
	b := assess.NewBuiltin(an, corpusOf{d.Index})
	b.Rewriter = assess.NewRewriter(an, corpusOf{d.Index})
	if v := os.Getenv("FOCUS_COV"); v != "" {
		b.FocusCoverage, _ = strconv.ParseFloat(v, 64)
	}
	if v := os.Getenv("FOCUS_RANK"); v != "" {
		b.FocusRank, _ = strconv.Atoi(v)
	}
	if os.Getenv("FOCUS_OFF") != "" {
		b.Focus = false
	}
	out, _ := os.Create(os.Getenv("ASSESSDEV_OUT"))
	defer out.Close()
	feat, _ := os.Create(os.Getenv("ASSESSDEV_OUT") + ".tsv")
	defer feat.Close()
	verbose := os.Getenv("ASSESSDEV_V") != ""
	for _, s := range sets {
		qs, err := eval.LoadQuestions(path(s))
		if err != nil {
			t.Fatal(err)
		}
		var right, ans, refused, noans int
		for _, q := range qs {
			groups := q.Groups
			if len(groups) == 0 {
				groups = []string{"public"}
			}
			res, err := d.Retriever.Search(ctx, retrieval.Request{Query: q.Question, Groups: groups, K: 5})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, h := range res.Hits {
				ids = append(ids, h.ChunkID)
			}
			chunks, err := d.Index.Chunks(ctx, ids)
			if err != nil {
				t.Fatal(err)
			}
			req := assess.Request{Question: q.Question, Query: q.Question, Groups: groups, K: 5}
			rank := -1
			var docs []string
			for i, c := range chunks {
				req.Evidence = append(req.Evidence, assess.Evidence{ChunkID: c.ID, Title: c.Title, Text: c.Text, Score: res.Hits[i].Score})
				if rank < 0 && slices.Contains(q.Relevant, c.DocID) {
					rank = i
				}
				docs = append(docs, c.DocID)
			}
			r, err := b.Assess(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			ok := r.Assessment.Sufficient
			answerable := len(q.Relevant) > 0
			verdict := ""
			switch {
			case answerable && ok && rank >= 0:
				right++
				verdict = "RIGHT"
			case answerable && ok:
				verdict = "ACCEPT-NOREL"
			case answerable && rank >= 0:
				verdict = "LOST"
			case answerable:
				verdict = "NOTRETR"
			case ok:
				verdict = "LEAK-ANSWER"
			default:
				refused++
				verdict = "REFUSED"
			}
			if answerable {
				ans++
			} else {
				noans++
			}
			vocab0 := corpusOf{d.Index}.Visible(groups)
			for i, c := range chunks {
				fc := focusJudge(an, vocab0, q.Question, c.Title, c.Text)
				rel := slices.Contains(q.Relevant, c.DocID)
				fmt.Fprintf(feat, "%s\t%s\t%v\t%d\t%v\t%.3f\t%v\t%v\t%v\n", s, q.ID, answerable, i, rel, fc.askCov, fc.entities, fc.typed, ok)
			}
			if os.Getenv("FOCUSDBG") != "" {
				fmt.Printf("Q %s %s %s rank=%d %q\n", s, q.ID, verdict, rank, q.Question)
			}
			fmt.Fprintf(out, "%s %s %s rank=%d score=%.3f q=%q\n   reason: %s\n   docs: %s\n", s, q.ID, verdict, rank, r.Assessment.Score, q.Question, r.Assessment.Reason, strings.Join(docs, " "))
			if verbose {
				vocab := corpusOf{d.Index}.Visible(groups)
				asked := answertype.Classify(q.Question)
				frame := an.Set(strings.Join(asked.Frame, " "))
				askSet := an.Set(answertype.Asking(q.Question))
				show := func(label string, i int) {
					have := assess.Mentions(an, chunks[i].Title, chunks[i].Text)
					var parts []string
					for _, t := range an.Content(q.Question) {
						if frame[t] {
							continue
						}
						mark := "-"
						if have[t] {
							mark = "+"
						}
						where := "s"
						if askSet[t] {
							where = "a"
						}
						parts = append(parts, fmt.Sprintf("%s%s%s:%d", mark, where, t, vocab.DocFreq(t)))
					}
					fmt.Fprintf(out, "   %s[%s] type=%s: %s\n", label, chunks[i].DocID, asked.Type, strings.Join(parts, " "))
				}
				show("top", 0)
				if rank > 0 {
					show("rel", rank)
				}
			}
			if verbose && rank >= 0 {
				fmt.Fprintf(out, "   relevant text: %s\n", strings.ReplaceAll(chunks[rank].Title+" | "+chunks[rank].Text, "\n", " "))
			}
		}
		fmt.Fprintf(out, "SUMMARY %s right %d/%d refusal %d/%d\n", s, right, ans, refused, noans)
		t.Logf("%s right %d/%d refusal %d/%d", s, right, ans, refused, noans)
	}
}
