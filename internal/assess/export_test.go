package assess

import "context"

// VetoChunkFeatures is, for the external tests (cands_only_test.go), what
// Assess hands the veto (builtin:coverage-v65, veto.go): the rules'
// verdict on req (Opposite not applied) and, when they accept, the
// accepted chunk's features as the veto computes them (Result.cands of
// that chunk: featureInput.only) and every chunk's (Result.cands of "",
// what Candidates and the learned add read).
func VetoChunkFeatures(ctx context.Context, b *Builtin, req Request) (rules Result, alone, all []Candidate, err error) {
	on := *b
	on.recording = true
	rules, err = on.assessOn(ctx, req, b.corpus.Visible(req.Groups))
	if err != nil || !rules.Assessment.Sufficient || len(rules.Accepted) == 0 || rules.cands == nil {
		return rules, nil, nil, err
	}
	alone = rules.cands(rules.Accepted[0])
	all = rules.cands("")
	rules.cands = nil
	return rules, alone, all, nil
}
