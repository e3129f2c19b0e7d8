package assessdev

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/eval/devsets"
	"github.com/assay-rag/assay/internal/retrieval"
)

// TestA35Classify (round 35, a35-open) runs every question of the sets
// SKIP_SETS does not name through the loop with the default assessor and,
// for an answerable question the loop refuses, judges each chunk of a
// relevant document that any of its searches retrieved alone (the
// question, that one chunk as the evidence): what the assessor's reading
// says that chunk lacks. For a no-answer question the loop refuses it
// judges every retrieved chunk alone the same way, so a class of the
// answerable ones can be read against the no-answer questions that share
// it. ASSESSDEV_OUT receives one line per chunk judged: group (A:
// answerable, its relevant chunk; N: no-answer), set, id, chunk's
// document, verdict, score, the Lack's coverage, typed, key, entities,
// and each term (+ held, - lacked, ~ dropped; ? unknown; E entity; V
// asked verb), then the reason.
func TestA35Classify(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	ctx := context.Background()
	var out []string
	judgeAlone := func(group string, a asked, e assess.Evidence, doc string) {
		res, lack := aloneLack(ctx, t, b, a, e)
		acc := res.Assessment.Sufficient && res.Assessment.Score >= threshold
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%v\t%.2f", group, a.set, a.id, doc, acc, res.Assessment.Score)
		out = append(out, line+lack+"\t"+res.Assessment.Reason)
	}
	for _, a := range qs {
		l := loop(t, b, a)
		if l.accepted {
			continue
		}
		seen := map[string]bool{}
		for i, q := range l.queries {
			ev, chunkDoc := a.req.Evidence, a.chunkDoc
			if i > 0 {
				k := a.req.K
				if k == 0 {
					k = 5
				}
				found := devsets.Search(t, devDirect, retrieval.Request{Query: q, Groups: a.req.Groups, Filters: a.req.Filters, K: k})
				ev, chunkDoc = found.Evidence, map[string]string{}
				for _, c := range found.Chunks {
					chunkDoc[c.ID] = c.DocID
				}
			}
			for _, e := range ev {
				if seen[e.ChunkID] {
					continue
				}
				seen[e.ChunkID] = true
				doc := chunkDoc[e.ChunkID]
				switch {
				case a.answerable && slices.Contains(a.q.Relevant, doc):
					judgeAlone("A", a, e, doc)
				case !a.answerable:
					judgeAlone("N", a, e, doc)
				}
			}
		}
	}
	writeOut(t, out)
	t.Logf("%d chunks judged alone", len(out))
}

// aloneLack judges e alone for a's question (no earlier attempts) and
// returns the result with the last Lack's columns, each led by a tab:
// coverage, typed, key held, entities, fit and the terms (+ held, -
// lacked, ~ dropped, ? unknown), empty columns when there is none.
func aloneLack(ctx context.Context, t *testing.T, b *assess.Builtin, a asked, e assess.Evidence) (assess.Result, string) {
	t.Helper()
	req := a.req
	req.Evidence = []assess.Evidence{e}
	req.Previous = nil
	res, ls, err := b.Lacks(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) == 0 {
		return res, "\t\t\t\t\t\t"
	}
	l := ls[len(ls)-1]
	var ts []string
	for _, x := range l.Terms {
		ts = append(ts, fmt.Sprintf("%s%s:%.1f", termMarks(x), x.Word, x.Weight))
	}
	return res, fmt.Sprintf("\t%.2f\t%v\t%v\t%d/%d\t%v\t%s", l.Coverage, l.Typed, l.HasKey, l.Entities, l.Ents, l.Fit, strings.Join(ts, " "))
}

// writeOut writes lines, one a line, to the file ASSESSDEV_OUT names.
func writeOut(t *testing.T, lines []string) {
	t.Helper()
	if p := os.Getenv("ASSESSDEV_OUT"); p != "" {
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
