package backend

import "context"

type questionKey struct{}

// WithQuestion marks ctx as serving one question, named by id (its
// workflow's id and run): answers about the index that depend only on
// the call's arguments (Holdings) may then be kept for the other calls
// made for the same question, and only for them. An empty id marks
// nothing.
func WithQuestion(ctx context.Context, id string) context.Context {
	if id == "" {
		return ctx
	}
	return context.WithValue(ctx, questionKey{}, id)
}

// QuestionOf is the question ctx serves (see WithQuestion); "" when it
// names none.
func QuestionOf(ctx context.Context) string {
	id, _ := ctx.Value(questionKey{}).(string)
	return id
}

type evidenceKey struct{}

// WithEvidence marks ctx as a call made about chunks the caller has
// already read and may see (an attempt's evidence), by id. A backend
// that must ask a server whether some visible chunk holds a set of
// terms (Holdings) may take one of them, when it is in memory and passes
// the call's filter, as that answer instead of asking: the answer is the
// same, only its cost differs.
func WithEvidence(ctx context.Context, ids []string) context.Context {
	if len(ids) == 0 {
		return ctx
	}
	return context.WithValue(ctx, evidenceKey{}, ids)
}

// EvidenceOf is the chunk ids ctx names (see WithEvidence); nil when none.
func EvidenceOf(ctx context.Context) []string {
	ids, _ := ctx.Value(evidenceKey{}).([]string)
	return ids
}
