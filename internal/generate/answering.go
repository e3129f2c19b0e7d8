// Experiment of round 28 (g28-gen), reverted in the next commit: v31 is no
// named model. G28V selects the variants measured (docs/log/round-28-g28-gen.md),
// G28DIAG logs each question's opening and every source's best typed sentence.

package generate

import (
	"fmt"
	"os"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
)

var g28v = os.Getenv("G28V")

func vv(k string) bool { return strings.Contains(g28v, k) }

// answeringRank bounds the sources the sentence-level choice reads (v31):
// the first five, as the assessor's sentence reading does.
const answeringRank = 5

// answering returns the opening sentence by the sentence-level reading
// (v31), or nil to keep best: among the first answeringRank sources, the
// sentence that holds an expression of the expected type and, read with
// its page's title, the largest share of the question's weight (its
// score without the rank discount), when it is another source's and holds
// more of the question than best does read with its own title. The
// page-level choice (bearing) weighs every word a page holds anywhere; a
// page that names the question's words across the page can open though
// another page says the answer about them in one sentence.
func (g *Extractive) answering(all []*sentence, best *sentence, asked answertype.Question) *sentence {
	if asked.Type == answertype.Description || best == nil {
		return nil
	}
	raw := func(s *sentence) float64 { return s.score / g.rankWeight(s.source) }
	var pick *sentence
	for _, s := range all {
		if s.source >= answeringRank || s.source == best.source || !s.typed || len(s.own) == 0 || s.score <= 0 {
			continue
		}
		if pick == nil || raw(s) > raw(pick)+1e-9 { // ties keep the earlier: rank, then position
			pick = s
		}
	}
	if pick == nil || raw(pick) <= raw(best)+1e-9 {
		return nil
	}
	if vv("b") && asked.Type == answertype.YesNo {
		return nil
	}
	if vv("d") && best.typed {
		return nil
	}
	if vv("e") && raw(pick) < 1.5*raw(best) {
		return nil
	}
	if vv("f") {
		for t := range best.own {
			if !pick.own[t] {
				return nil
			}
		}
	}
	return pick
}

func (g *Extractive) diag(q string, all []*sentence, best *sentence, asked answertype.Question, once bool) {
	raw := func(s *sentence) float64 { return s.score / g.rankWeight(s.source) }
	m := map[int]float64{}
	for _, s := range all {
		if s.typed && len(s.own) > 0 && s.score > 0 && raw(s) > m[s.source] {
			m[s.source] = raw(s)
		}
	}
	fmt.Fprintf(os.Stderr, "G28DIAG\t%s\t%v\t%v\t%s\t%d\t%.3f\t%v\n", q, asked.Type, once, "", best.source, raw(best), m)
}

var g28diag = os.Getenv("G28DIAG") != ""
