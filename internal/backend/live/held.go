package live

import (
	"context"
	"encoding/json"
	"maps"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/assay-rag/assay/internal/backend"
)

// maxKeptHoldings bounds the Holdings answers one index version keeps:
// a question's are reused only by the same question's later attempts,
// which follow within seconds, so a few hundred cover every question in
// flight.
const maxKeptHoldings = 512

// heldMemo keeps Holdings answers per question (backend.WithQuestion).
// The builtin assessor asks the same Holdings again at every attempt of
// a question (its terms come from the question, not the attempt's
// query), and on RediSearch one costs Redis tens of milliseconds at
// 500,000 chunks. An answer is kept only for the question that asked
// it, so a benchmark repeating its questions, or another principal's
// question with the same words, never reads it; and a memo belongs to
// one index version (generation), so a rebuild starts a new one.
type heldMemo struct {
	kept *lru.Cache[string, map[uint64]int]
}

func newHeldMemo() *heldMemo {
	kept, _ := lru.New[string, map[uint64]int](maxKeptHoldings)
	return &heldMemo{kept: kept}
}

// holdings is v.Holdings(ctx, terms, f), kept for the question ctx
// serves. An answer that cannot tell (nil: too many terms or term sets)
// is kept too: on one index version the same terms and filter cannot
// tell again, and on RediSearch finding so costs Redis over a thousand
// existence checks, which a question whose attempts the assessor cannot
// rule out (it assumes a sufficient chunk may exist) paid at every
// attempt. Errors are not kept: a later attempt asks again.
func (m *heldMemo) holdings(ctx context.Context, v backend.Vocabulary, terms []string, f *backend.Filter) (map[uint64]int, error) {
	q := backend.QuestionOf(ctx)
	if m == nil || q == "" {
		return v.Holdings(ctx, terms, f)
	}
	fk, err := json.Marshal(f)
	if err != nil {
		return v.Holdings(ctx, terms, f)
	}
	key := q + "\x00" + string(fk) + "\x00" + strings.Join(terms, "\x00")
	if held, ok := m.kept.Get(key); ok {
		return maps.Clone(held), nil
	}
	held, err := v.Holdings(ctx, terms, f)
	if err != nil {
		return nil, err
	}
	m.kept.Add(key, maps.Clone(held)) // nil stays nil
	return held, nil
}
