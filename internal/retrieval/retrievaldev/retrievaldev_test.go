// Package retrievaldev measures first-attempt retrieval on the Hollin
// development sets: each answerable question searched as its asker by the
// service's retriever (default configuration, hybrid+rerank) and the rank
// of its first relevant document, per stage, printed; per set, how many
// have one in the top 5 (the loop's k). RETRDEV_VARIANT rewrites the
// query first (see variant) to measure a query expansion before building
// it into the loop. TestOracle (oracle_test.go) bounds what any search
// could win: the builtin assessor's verdict with the relevant chunk put
// where the search missed it. Skipped unless RETRDEV=1:
//
//	RETRDEV=1 go test ./internal/retrieval/retrievaldev -run TestRanks -v | grep -E '^(SET|TOTAL)'
//	RETRDEV=1 RETRDEV_VARIANT=synunk go test ./internal/retrieval/retrievaldev -run TestRanks -v
//	RETRDEV=1 go test ./internal/retrieval/retrievaldev -run TestOracle -v | grep -E '^ORACLE'
//
// The synonym variants need WordNet in /usr/share/wordnet.
// RETRDEV_SKIP leaves out the sets it names (space-separated), e.g. a
// round's validation set: RETRDEV_SKIP=fresh18.
package retrievaldev

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/eval/devsets"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// variant rewrites a question into the query searched (RETRDEV_VARIANT):
// "" the question; "noframe" without its frame words; "syn" plus up to two
// visible related words per content word the thesaurus knows; "noframe+syn";
// "unk" in the name: only for words no visible chunk has; "one": only
// one-word related words.
func variant(v string, q string, an *terms.Analyzer, vocab interface{ DocFreq(string) int }, th *thesaurus.WordNet) string {
	if v == "" {
		return q
	}
	frame := map[string]bool{}
	for _, w := range answertype.Classify(q).Frame {
		frame[w] = true
	}
	var out, extra []string
	for _, w := range strings.Fields(q) {
		core := strings.ToLower(strings.TrimFunc(w, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }))
		if strings.Contains(v, "noframe") && frame[core] {
			continue
		}
		out = append(out, w)
		if strings.Contains(v, "syn") && th != nil && core != "" {
			ts := an.Terms(core)
			if len(ts) != 1 || terms.IsQuestionWord(ts[0]) || frame[core] || strings.Contains(v, "unk") && vocab.DocFreq(ts[0]) > 0 {
				continue
			}
			n := 0
			for _, r := range th.Related(core) {
				rt := an.Terms(r)
				if strings.Contains(v, "one") && strings.Contains(r, " ") {
					continue
				}
				if len(rt) == 1 && rt[0] != ts[0] && vocab.DocFreq(rt[0]) > 0 && n < 2 {
					extra = append(extra, r)
					n++
				}
			}
		}
	}
	return strings.Join(append(out, extra...), " ")
}

// sets is devsets.Names without the sets RETRDEV_SKIP names.
func sets() []string {
	skip := strings.Fields(os.Getenv("RETRDEV_SKIP"))
	return slices.DeleteFunc(devsets.Names(), func(s string) bool { return slices.Contains(skip, s) })
}

// open opens the Hollin index as a worker does (devsets.Open) when corpus
// is "", and otherwise builds corpus's index, a BEIR one (no ACLs, every
// document public), with the default configuration; skipped unless
// RETRDEV=1.
func open(t *testing.T, corpus string) *live.Direct {
	t.Helper()
	if os.Getenv("RETRDEV") == "" {
		t.Skip("RETRDEV=1")
	}
	if corpus == "" {
		return devsets.Open(t)
	}
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.Index.Corpus, cfg.Index.RequireACL = corpus, false
	d, err := live.OpenDirect(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// TestRanks prints, per answerable question, the rank of the first relevant
// document in the final hits (0: none in the top 10), and per set how many
// have one in the top 5.
func TestRanks(t *testing.T) {
	d := open(t, "")
	ctx := context.Background()
	an := terms.New()
	var th *thesaurus.WordNet
	if strings.Contains(os.Getenv("RETRDEV_VARIANT"), "syn") {
		var err error
		th, err = thesaurus.Open("/usr/share/wordnet") // a visible word's related words, kept only when the asker's chunks use them
		if err != nil {
			t.Fatal(err)
		}
	}
	tot, totN := 0, 0
	for _, s := range sets() {
		qs, err := eval.LoadQuestions(devsets.Questions(s))
		if err != nil {
			t.Fatal(err)
		}
		in5, n := 0, 0
		for _, q := range qs {
			if len(q.Relevant) == 0 {
				continue
			}
			groups := devsets.Asker(q)
			query := variant(os.Getenv("RETRDEV_VARIANT"), q.Question, an, d.Index.Visible(groups), th)
			found := devsets.Search(t, d, retrieval.Request{Query: query, Groups: groups, K: 10})
			res, chunks := found.Result, found.Chunks
			rank := 0
			var docs []string
			for i, c := range chunks {
				docs = append(docs, c.DocID)
				if rank == 0 && slices.Contains(q.Relevant, c.DocID) {
					rank = i + 1
				}
			}
			n++
			if rank >= 1 && rank <= 5 {
				in5++
			}
			stages := ""
			for _, st := range res.Stages {
				r := 0
				for i, id := range st.Top {
					c, _ := d.Index.Chunks(ctx, []string{id})
					if len(c) == 1 && slices.Contains(q.Relevant, c[0].DocID) {
						r = i + 1
						break
					}
				}
				stages += fmt.Sprintf(" %s:%d", st.Name, r)
			}
			fmt.Printf("RANK %s %s %d |%s | %q top=%v\n", s, q.ID, rank, stages, query, docs[:min(5, len(docs))])
		}
		fmt.Printf("SET %s %d/%d\n", s, in5, n)
		tot += in5
		totN += n
	}
	fmt.Printf("TOTAL %d/%d\n", tot, totN)
}
