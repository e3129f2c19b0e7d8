package assess

import (
	"context"
	"fmt"
	"math"
)

// V53Model names the builtin assessor without Builtin.Situated:
// builtin:coverage-v53, kept selectable.
const V53Model = "builtin:coverage-v53"

// situated is Builtin.Situated's reading (builtin:coverage-v54, round
// 45's a45-sit): once the assessor accepts one chunk, a question stating
// the condition of its situation — a connective of time or condition
// ("before", "after", "until", "while", "during", "without", "unless",
// "once", "whenever") followed by the words of that condition ("keeps
// clicking off before the water boils") — is answered by the chunk that
// states the same condition of one of those words ("may switch off
// before boiling"), not by one that only uses the words ("boils 1.7
// litres"). When the accepted chunk holds no such condition and a chunk
// among the first situatedRank+1 in the assessor's order holds one, that
// chunk, mentioning every entity of the question and judged alone to
// cover at least MinCoverage of the question's weight, is accepted
// instead (the first in order).
//
// Why: the coverage rules weigh the question's words; the situation's
// condition is carried by a connective the analyzer drops as a stop word,
// so a product's manual covering the question's nouns ("smart",
// "kettle", "water", "boils") outscores the service bulletin describing
// the fault ("K50 kettles on firmware 2.1 may switch off before
// boiling"). Design sets: fresh5 k26, fresh6 m63, fresh13 w67, fresh3
// g33, fresh12 v96 (docs/log/round-45-a45-sit.md). It changes only which
// chunk an acceptance rests on: never a refusal into an acceptance.
func (b *Builtin) situated(ctx context.Context, req Request, vocab Vocabulary, question string, res Result) (Result, error) {
	if !res.Assessment.Sufficient || len(res.Accepted) != 1 || len(req.Evidence) < 2 {
		return res, nil
	}
	conds := b.an.Conditions(question)
	if len(conds) == 0 {
		return res, nil
	}
	at := acceptedAt(req, res)
	if at < 0 {
		return res, nil
	}
	if _, ok := b.an.StatesCondition(conds, req.Evidence[at].Text); ok {
		return res, nil
	}
	_, _, ents := b.readQuestion(question, vocab)
	c := *b
	c.lacks, c.recording, c.Alone, c.Rival, c.Situated = nil, false, 0, 0, false
	for i := 0; i <= situatedRank && i < len(req.Evidence); i++ {
		if i == at {
			continue
		}
		e := req.Evidence[i]
		said, ok := b.an.StatesCondition(conds, e.Text)
		if !ok {
			continue
		}
		have := TitledMentions(b.an, e.Title, e.Text)
		covered := true
		for k := range ents {
			covered = covered && ents[k].CoveredBy(have)
		}
		if !covered {
			continue
		}
		r, err := c.assessAlone(ctx, req, i, vocab, question)
		if err != nil {
			return Result{}, err
		}
		if !r.Assessment.Sufficient && r.Assessment.Score < b.MinCoverage {
			continue
		}
		out := res
		out.Accepted = []string{e.ChunkID}
		out.Assessment.Score = math.Max(r.Assessment.Score, b.MinCoverage)
		out.Assessment.Reason = fmt.Sprintf("%q states the question's condition (%q), which %q does not; judged alone it covers %.0f%% of the question's weight",
			e.Title, said, req.Evidence[at].Title, math.Round(100*r.Assessment.Score))
		return out, nil
	}
	return res, nil
}

// situatedRank is the last rank (0 the first) situated reads.
const situatedRank = 3
