// Package assess judges whether retrieved evidence is enough to answer a
// question and, when it is not, proposes a better query.
//
// An Assessment is the contract between the loop and any assessor, builtin
// or model: a score in 0..1 that ranks attempts, a sufficient flag that is
// the assessor's decision, an optional rewrite and a reason. The loop
// accepts evidence only when both sufficient is true and the score reaches
// its threshold.
package assess

import (
	"context"
	"strings"

	"github.com/assay-rag/assay/internal/wire"
)

// Assessment is an assessor's verdict on one attempt's evidence (defined
// in the wire contract, with its Check).
type Assessment = wire.Assessment

// Evidence is one retrieved chunk as the assessor sees it.
type Evidence struct {
	ChunkID string  `json:"chunk_id"`
	Title   string  `json:"title"`
	Text    string  `json:"text"`
	Score   float64 `json:"score"` // the retrieval score
}

// Request asks for an assessment of one attempt.
type Request struct {
	Question string
	Query    string
	// Groups are the principal's ACL groups. Whatever the assessor says
	// (its reason, its rewrite) may use only words of documents these
	// groups can see.
	Groups []string
	// Filters are the run's search filters: a chunk they exclude cannot
	// be found, whatever a rewrite says.
	Filters wire.Filters
	// Queries tried before this one, oldest first, as searched, so a
	// rewriter proposes them only when nothing else is left.
	Previous []string
	// PreviousK is, for each of Previous, the k it asked for when not the
	// run's default (0); missing entries are 0.
	PreviousK []int
	// PreviousChunks are, for each of Previous, the chunk ids its search
	// returned (the asker's own hits; Builtin.Agree reads them).
	PreviousChunks [][]string
	// Tried are the rewrite strategies the run used so far, oldest first;
	// a rewriter tries fresh ones first.
	Tried []string
	// K is how many hits the attempt asked for (0: unknown).
	K        int
	Evidence []Evidence
	// searched is what the search added to Query when the worker
	// expanded it (Builtin.Expanded, expanded.go); nil when it ran Query.
	searched []expanded
	// part is set on the request Builtin.Parts judges one part of a
	// question on (parts.go): a part is never split again.
	part bool
}

// Result is an assessment plus what it cost.
type Result struct {
	Assessment Assessment `json:"assessment"`
	Usage      wire.Spent `json:"usage"`
	// Proposals are the candidate next queries, in the order to try them;
	// the first is the assessment's Rewrite. A model's single rewrite is
	// one proposal of StrategyModel (see Proposals).
	Proposals []Proposal `json:"proposals,omitempty"`
	// Accepted are the chunks a sufficient assessment rests on (ids of
	// Request.Evidence: the one that answers, then any judged with it);
	// empty when the assessor does not say (a model) or refused.
	Accepted []string `json:"accepted,omitempty"`
	// cands computes the retrieved chunks' features, when the builtin
	// assessor records them (Builtin.Candidates, Builtin.Learned,
	// Builtin.Veto): only when they are read (the learned add reads them
	// when the rules refuse, the veto the accepted chunk's when they
	// accept), and only chunk only's when only is not empty (it may return
	// more); never serialised.
	cands func(only string) []Candidate
	// first is what the builtin assessor's reading of all the evidence
	// hands Builtin.Alone (alone.go); never serialised.
	first aloneFirst
	// lone is what the builtin assessor's judgement read of the first
	// chunk, for Builtin.Agree (agree.go); never serialised.
	lone lone
}

// ProposalList returns res's proposals, or its assessment's rewrite as the
// one proposal of StrategyModel when the assessor listed none.
func (res Result) ProposalList() []Proposal {
	if len(res.Proposals) > 0 || strings.TrimSpace(res.Assessment.Rewrite) == "" {
		return res.Proposals
	}
	return []Proposal{{Strategy: StrategyModel, Query: res.Assessment.Rewrite}}
}

// Assessor judges evidence.
type Assessor interface {
	Assess(ctx context.Context, req Request) (Result, error)
}
