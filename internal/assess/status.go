package assess

import (
	"context"
	"fmt"
	"slices"
)

// V65Model names the builtin assessor without Builtin.Status:
// builtin:coverage-v65 (round 48, docs/log/round-48-a48-veto.md), kept
// selectable.
const V65Model = "builtin:coverage-v65"

// status is Builtin.Status's reading (builtin:coverage-v68, round 49's
// a49-yesno): a yes/no question the coverage rules accepted on a chunk
// that states no status of the asked action is answered by a retrieved
// chunk that does.
//
// The coverage rules accept a yes/no question on the chunk that covers its
// words and holds any yes/no expression ("may", "can", "not", "free") near
// them: "Are blunt blades something the guarantee will replace?" on the
// blade manual's "replace the blade assembly", not on the warranty terms'
// "It does not cover blade wear". Ruled (ruled.go) and Covered (covered.go)
// read the question as a decision about an action — a rule of the asked
// action (a prohibition, a requirement, a permission, a statement of cost
// or cover) said of the question's thing, or a statement of what the cover
// takes in or leaves out naming its scene — but only once every other
// reading refused, and only on a chunk covering much of the question.
// Status asks their sentence test of an accepted yes/no question:
//
//  1. the acceptance stands when the accepted chunk states a status: a
//     rule (Ruled's reRule, an instruction with "only") naming a thing or
//     an asked verb of the question, whatever its kind, or a statement of
//     what the cover takes in naming a scene word (Covered's);
//  2. otherwise the first chunk among the first statusRank+1 retrieved
//     that Ruled or Covered decides the question on (naming every entity
//     of the question, covering statusCoverage of its weight, the rule of
//     the asked action said of its most specific thing, or the cover
//     statement of its scene) is accepted instead, its statement the
//     reason;
//  3. when no chunk does, the acceptance stands.
//
// It never turns a refusal into an acceptance or the reverse: it changes
// which chunk an accepted yes/no question rests on. The moved result is
// scored as Ruled or Covered score it (the chunk's coverage), so a loop
// whose threshold is above that score does not accept the attempt (round
// 49's blind fresh48 aw91: 0.43 against the default 0.5). With Status, a cover
// noun before a modal or an auxiliary ("the guarantee will replace") is
// the clause's subject, not the kind of a noun after it (kindBefore): the
// question asks of cover.
func (b *Builtin) status(ctx context.Context, req Request, vocab Vocabulary, question string, res Result) (Result, error) {
	if req.part || len(res.Accepted) == 0 {
		return res, nil
	}
	a := slices.IndexFunc(req.Evidence, func(e Evidence) bool { return e.ChunkID == res.Accepted[0] })
	if a < 0 {
		return res, nil
	}
	rank, cov := statusRank, statusCoverage
	cr, cover := b.coverReading(question, vocab)
	// Does the accepted chunk state a rule naming a thing or an asked
	// verb of the question, or what the cover takes in about its scene?
	if _, ok, err := b.ruledBy(req, vocab, question, ruledScope{rank: max(rank, a), at: a, loose: true}); err != nil || ok {
		return res, err
	}
	if cover {
		if _, ok := b.coverFound(req, cr, max(rank, a), 0, a); ok {
			return res, nil
		}
	}
	var k Result
	at := rank + 1
	if r, ok, err := b.ruledBy(req, vocab, question, ruledScope{rank: rank, coverage: cov, keyed: true, at: -1}); err != nil {
		return res, err
	} else if ok {
		k, at = r, slices.IndexFunc(req.Evidence, func(e Evidence) bool { return e.ChunkID == r.Accepted[0] })
	}
	if cover {
		if f, ok := b.coverFound(req, cr, rank, cov, -1); ok && f.at < at {
			k, at = b.coverResult(req, f), f.at
		}
	}
	if at > rank {
		return res, nil
	}
	k.cands = res.cands
	k.Assessment.Reason = clipReason(fmt.Sprintf("%s (the coverage rules accepted %s, which states no status of the asked action)", k.Assessment.Reason, res.Accepted[0]))
	return k, nil
}

// statusRank and statusCoverage bound Status's search: the last rank read
// (0 the first) and the share of the question's weight a chunk must cover
// (Ruled's: of its known content words; Covered's: of its scene words).
const (
	statusRank     = 4
	statusCoverage = 0.3
)
