package assessdev

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/terms"
)

// TestDiag (temporary diagnostic) prints, for each lost question, the
// relevant retrieved chunk's coverage of each question term.
func TestDiag(t *testing.T) {
	b, qs := collect(t)
	if os.Getenv("DIAG_RANK") != "" {
		b.ReadRank = 1
	}
	an := terms.New()
	set := os.Getenv("DIAG_SET")
	var lines []string
	for _, a := range qs {
		if set != "" && a.set != set {
			continue
		}
		b.Read = false
		r9, _ := b.Assess(context.Background(), a.req)
		b.Read = true
		r, _ := b.Assess(context.Background(), a.req)
		if os.Getenv("DIAG_NEW") != "" {
			if r.Assessment.Sufficient && !r9.Assessment.Sufficient {
				lines = append(lines, fmt.Sprintf("%s %s [%v right=%v] %s\n   on %v: %s", a.set, a.id, a.answerable, a.retrieved && a.answerable && slices.Contains(a.q.Relevant, a.chunkDoc[r.Accepted[0]]), a.q.Question, a.chunkDoc[r.Accepted[0]], r.Assessment.Reason))
			}
			continue
		}
		if !(a.answerable && a.retrieved && !r.Assessment.Sufficient) && !(!a.answerable && r.Assessment.Sufficient) {
			continue
		}
		vocab := devCorpus.Visible(a.req.Groups)
		asked := answertype.Classify(a.q.Question)
		lines = append(lines, fmt.Sprintf("== %s %s [%v] %s\n   type %s frame %v", a.set, a.id, a.answerable, a.q.Question, asked.Describe(), asked.Frame))
		for i, e := range a.req.Evidence {
			rel := slices.Contains(a.q.Relevant, a.docs[i])
			if !rel && a.answerable {
				continue
			}
			have := assess.Mentions(an, e.Title, e.Text)
			var cells []string
			for _, q := range an.Content(a.q.Question) {
				df := vocab.DocFreq(q)
				mark := "-"
				if have[q] {
					mark = "+"
				}
				cells = append(cells, fmt.Sprintf("%s%s(%d,%.1f)", mark, q, df, backend.IDF(vocab.Len(), df)))
			}
			lines = append(lines, fmt.Sprintf("   #%d %s %q: %s\n      %s", i, a.docs[i], e.Title, strings.Join(cells, " "), strings.ReplaceAll(e.Text, "\n", " ")))
		}
		lines = append(lines, "   reason: "+r.Assessment.Reason)
	}
	os.WriteFile(os.Getenv("DIAG_OUT"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}
