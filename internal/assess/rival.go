package assess

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// V42Model names the builtin assessor without Builtin.Rival:
// builtin:coverage-v42, kept selectable.
const V42Model = "builtin:coverage-v42"

// rival (Builtin.Rival; builtin:coverage-v43, round 39) reads, once the
// judgement of all the evidence accepts one chunk, every other chunk down
// to a rank in the assessor's order judged alone — the question with that
// one chunk as the evidence, as alone (alone.go) judges a chunk below the
// first — and the accepted chunk judged alone too. When another chunk's
// judgement accepts it with a higher score than the accepted chunk's
// own, that chunk is accepted instead (the highest; among equal scores
// the one ranked first).
//
// Why: the judgement of all the evidence takes the first chunk that
// would suffice in its order (the coverage rules take the best only
// among chunks each read with every other chunk's product names beside
// it, and the focus, wide, sentence and states readings read the first
// chunk), so a page ranked first that covers the question's frequent
// words and holds an expression of the asked type ("descale it" for a
// kettle that switches off early, a recall notice's "may" for a
// warranty question) wins over a page ranked below it that covers more
// of the question when read on its own. It changes only which chunk an
// accepted assessment rests on (and its score, to the higher one): never
// a refusal into an acceptance, so no no-answer question is answered that
// was not. Design sets, first attempt: 48 answerable questions were
// accepted on a page of no relevant document with a relevant one among
// the hits (docs/log/round-39-a39-acc.md).
//
// The low four bits of Rival are the rank (the last rank read, 0 the
// first); the bits above them guard what a rival may be accepted on:
//
//   - rivalWhole: only by a reading of the whole question (the coverage
//     rules and their thesaurus tries, the wide reading), not by one of
//     the clause that asks or of one sentence (the focus, sentence and
//     states readings), as alone's aloneWhole.
//   - rivalOwn: not through the thesaurus tries of the coverage rules
//     (Kin, Hyp), as alone's aloneOwn.
//   - rivalMargin: only with a score more than rivalBy (0.2) above the
//     accepted chunk's: a rival must cover clearly more of the question,
//     not as much in other words.
func (b *Builtin) rival(ctx context.Context, req Request, vocab Vocabulary, question string, res Result) (Result, error) {
	if !res.Assessment.Sufficient || len(res.Accepted) != 1 || len(req.Evidence) < 2 {
		return res, nil // a refusal, or chunks judged together (a comparison)
	}
	rank := b.Rival & rivalRankMask
	c := *b
	c.lacks, c.recording, c.Alone, c.Rival = nil, false, 0, 0
	if b.Rival&rivalWhole != 0 {
		c.FocusCoverage = math.Inf(1)
		c.Sentence, c.States = false, false
	}
	if b.Rival&rivalOwn != 0 {
		c.Kin, c.Hyp = false, false
	}
	margin := 0.0
	if b.Rival&rivalMargin != 0 {
		margin = rivalBy
	}
	judge := func(i int) (Result, error) { return c.assessAlone(ctx, req, i, vocab, question) }
	if margin > 0 && res.Assessment.Score+margin >= 1 {
		return res, nil // no score is above 1: nothing can rival it (and nothing is judged)
	}
	at := acceptedAt(req, res)
	if at < 0 {
		return res, nil
	}
	// The accepted chunk's own judgement alone can only raise the bar
	// (own is the higher of the two scores): it is read only when some
	// chunk clears the accepted score's, the common case judging none.
	own := res.Assessment.Score
	best, bestAt := Result{}, -1
	for i := 0; i <= rank && i < len(req.Evidence); i++ {
		if i == at {
			continue
		}
		r, err := judge(i)
		if err != nil {
			return Result{}, err
		}
		if !r.Assessment.Sufficient || !clears(r.Assessment.Score, own, margin) || bestAt >= 0 && r.Assessment.Score <= best.Assessment.Score {
			continue
		}
		best, bestAt = r, i
	}
	if bestAt < 0 {
		return res, nil
	}
	if r, err := judge(at); err != nil {
		return Result{}, err
	} else if r.Assessment.Sufficient && r.Assessment.Score > own {
		// best is the first of the highest scores above the accepted
		// one's; above the higher bar it still is, or nothing is.
		if own = r.Assessment.Score; !clears(best.Assessment.Score, own, margin) {
			return res, nil
		}
	}
	best.Usage = res.Usage
	best.Usage.Model = b.Model()
	best.cands, best.first = res.cands, res.first
	best.Assessment.Reason = fmt.Sprintf("judged alone, the chunk ranked %d covers more of the question than %q (%.2f): %s",
		bestAt+1, req.Evidence[at].Title, own, best.Assessment.Reason)
	return best, nil
}

// assessAlone judges question on req's chunk i alone, as the readings
// that weigh one chunk against the accepted one do (alone, rival,
// situated) with their copy b of the assessor.
func (b *Builtin) assessAlone(ctx context.Context, req Request, i int, vocab Vocabulary, question string) (Result, error) {
	one := req
	one.Evidence = req.Evidence[i : i+1]
	return b.assess(ctx, one, vocab, question, true)
}

// acceptedAt is the rank in req.Evidence of res's one accepted chunk, -1
// when it is none of them.
func acceptedAt(req Request, res Result) int {
	return slices.IndexFunc(req.Evidence, func(e Evidence) bool { return e.ChunkID == res.Accepted[0] })
}

// clears reports whether a rival's score is more than margin above own.
// Scores are rounded to thousandths, and own+margin in floating point
// may fall either side of the thousandth it should equal (0.555+0.2 is
// above 0.755, 0.6+0.2 is not 0.8's double): a rival exactly margin
// above was taken in 71 of the 801 such pairs and not in the others. The
// tolerance makes "more than" hold for every pair.
func clears(score, own, margin float64) bool {
	return score > own+margin+1e-9
}

// Builtin.Rival's bits above its rank (see rival).
const (
	rivalRankMask = 15
	rivalWhole    = 16
	rivalOwn      = 32
	rivalMargin   = 64
	// rivalBy is how much higher rivalMargin wants a rival's score.
	rivalBy = 0.2
	// rivalV43 is builtin:coverage-v43's Rival: every chunk of a first
	// page (ranks 0 to 4), with every guard.
	rivalV43 = 4 | rivalWhole | rivalOwn | rivalMargin
)
