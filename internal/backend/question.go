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
