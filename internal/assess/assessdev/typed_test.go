package assessdev

import (
	"context"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
)

// TestTypedShapes is a diagnostic (round 29, a29-det): for every
// development question but those of the sets SKIP_SETS names that the
// default assessor accepts on its first attempt, the expressions the typed
// finders take for the expected type in the accepted chunk's sentences,
// counted by the expected type, the expression's shape (for a yes/no
// question: a modal, a negation, an instruction or another polarity word;
// for a place: a web or mail address, or a word after a preposition) and
// whether the accepted chunk is a relevant document's. ASSESSDEV_OUT
// receives one line per expression of the shapes read.
func TestTypedShapes(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	count := map[string][2]int{} // type/shape → [relevant, not relevant]
	var lines []string
	for _, a := range qs {
		r, err := b.Assess(context.Background(), a.req)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Assessment.Sufficient || r.Assessment.Score < threshold || len(r.Accepted) == 0 {
			continue
		}
		q := answertype.Valued(a.q.Question)
		if q.Type == answertype.Description {
			continue
		}
		doc := a.chunkDoc[r.Accepted[0]]
		rel := slices.Contains(a.q.Relevant, doc)
		if m := reDecided.FindStringSubmatch(r.Assessment.Reason); m != nil {
			sh := "decides: " + string(q.Type) + " / " + shapeOf(q, m[1], m[1])
			countShape(count, sh, rel)
			lines = append(lines, fmt.Sprintf("%s %s rel=%v %s %q on %s (q: %s)", a.set, a.id, rel, sh, m[1], doc, a.q.Question))
		}
		for _, e := range a.req.Evidence {
			if e.ChunkID != r.Accepted[0] {
				continue
			}
			for _, s := range citation.Sentences(e.Text) {
				for _, ex := range q.Find(s) {
					sh := string(q.Type) + " / " + shapeOf(q, s, ex)
					countShape(count, sh, rel)
					if q.Type == answertype.YesNo || q.Type == answertype.Place {
						lines = append(lines, fmt.Sprintf("%s %s rel=%v %s %q in %q (q: %s)", a.set, a.id, rel, sh, ex, s, a.q.Question))
					}
				}
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(count)) {
		t.Logf("%-40s relevant %4d  not relevant %4d", k, count[k][0], count[k][1])
	}
	if p := os.Getenv("ASSESSDEV_OUT"); p != "" {
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// countShape counts one expression of shape sh in count, on a relevant
// page's chunk (rel) or not.
func countShape(count map[string][2]int, sh string, rel bool) {
	c := count[sh]
	if rel {
		c[0]++
	} else {
		c[1]++
	}
	count[sh] = c
}

var (
	reModal    = regexp.MustCompile(`(?i)^(?:can|may|must|should|shall|need|needs)$`)
	reNegation = regexp.MustCompile(`(?i)^(?:not|never|no|n't|cannot)$`)
	reAddress  = regexp.MustCompile(`[.@/]`)
	reDecided  = regexp.MustCompile(`near it: "([^"]*)"`)
)

// shapeOf names the shape of ex, an expression of q's type found in
// sentence (TestTypedShapes).
func shapeOf(q answertype.Question, sentence, ex string) string {
	switch q.Type {
	case answertype.YesNo:
		switch {
		case reModal.MatchString(ex):
			return "modal"
		case reNegation.MatchString(ex):
			return "negation"
		case strings.Contains(ex, " "):
			return "instruction"
		}
		return "other (" + strings.ToLower(ex) + ")"
	case answertype.Place:
		if reAddress.MatchString(ex) {
			return "address"
		}
		low := strings.ToLower(sentence)
		if strings.Contains(low, strings.ToLower(ex)+".") || strings.Contains(low, strings.ToLower(ex)+"@") {
			return "address word"
		}
		return "word after a preposition"
	}
	return "any"
}

// TestV31Typed compares the default assessor (v31 since a29-noans's merge;
// the branch measured it on v30) with round 29's reading of a yes/no
// question's evidence turned on (Builtin.Decides, "+decides", see
// assess/decides.go; V31_RULES "decides", the default) on every
// development set but those SKIP_SETS names, first attempt and loop: it
// logs each changed verdict and the totals; the reading must refuse as
// many no-answer questions on every set.
func TestV31Typed(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	rules := os.Getenv("V31_RULES")
	compareVersions(t, b, qs, "v31", "+decides", func(on bool) {
		b.Decides = on && (rules == "" || strings.Contains(rules, "decides"))
	}, func(way string, o, n map[string]*score, a, z score) {
		refusesNoFewer(t, way, "v31", "+decides", o, n)
		t.Logf("%s total: v31 %s | +decides %s", way, a, z)
	})
}
