package live

import (
	"context"
	"encoding/json"
	"slices"
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
//
// It keeps the texts Naming reads (the class readings' Naming and the
// rewriter's Spellings: the few best-ranked visible chunks holding a
// word) for every question of the index version: the answer depends
// only on the word, the filter (the asker's groups among it) and the
// index version, a question's words recur in other questions ("associ",
// "activ"), and on RediSearch each is a BM25 search of a word many
// chunks may hold, 16 ms of Redis's one thread on the mean at 500,000
// chunks (docs/log/round-32-p32-rcpu.md). The key is the whole filter,
// so an asker reads only answers read for its own groups and filters;
// a rebuild is a new version, whose generation starts a new memo.
//
// A kept answer is a backend.Held: the open sets a later attempt's
// reading asks (Held.Exact) are asked once, and remembered with it.
//
// It keeps the gate's answers (together: builtin:coverage-v41's one
// existence check before reach's count) per question as it keeps
// Holdings': a question the gate does not decide asks it again at every
// attempt.
type heldMemo struct {
	kept     *lru.Cache[string, *backend.Held]
	named    *lru.Cache[string, []string]
	together *lru.Cache[string, bool]
}

func newHeldMemo() *heldMemo {
	kept, _ := lru.New[string, *backend.Held](maxKeptHoldings)
	named, _ := lru.New[string, []string](maxKeptHoldings)
	together, _ := lru.New[string, bool](maxKeptHoldings)
	return &heldMemo{kept: kept, named: named, together: together}
}

// key is the memo's key for the question ctx serves asking parts under
// f; ok is false when there is nothing to keep (no question named).
func (m *heldMemo) key(ctx context.Context, f *backend.Filter, parts []string) (string, bool) {
	q := backend.QuestionOf(ctx)
	if m == nil || q == "" {
		return "", false
	}
	fk, err := json.Marshal(f)
	if err != nil {
		return "", false
	}
	return q + "\x00" + string(fk) + "\x00" + strings.Join(parts, "\x00"), true
}

// holdings is v.Holdings(ctx, terms, f), kept for the question ctx
// serves. An answer that cannot tell (nil: too many terms or term sets)
// is kept too: on one index version the same terms and filter cannot
// tell again, and on RediSearch finding so costs Redis over a thousand
// existence checks, which a question whose attempts the assessor cannot
// rule out (it assumes a sufficient chunk may exist) paid at every
// attempt. Errors are not kept: a later attempt asks again.
func (m *heldMemo) holdings(ctx context.Context, v backend.Vocabulary, terms []string, f *backend.Filter) (map[uint64]int, error) {
	held, err := m.open(ctx, v, terms, f)
	if err != nil || held == nil {
		return nil, err
	}
	return held.All(ctx)
}

// open is backend.OpenHoldingsOf(ctx, v, terms, f), kept as holdings
// keeps its answers (the same key: Holdings' answer is its All).
func (m *heldMemo) open(ctx context.Context, v backend.Vocabulary, terms []string, f *backend.Filter) (*backend.Held, error) {
	key, ok := m.key(ctx, f, terms)
	if !ok {
		return backend.OpenHoldingsOf(ctx, v, terms, f)
	}
	if held, ok := m.kept.Get(key); ok {
		return held, nil
	}
	held, err := backend.OpenHoldingsOf(ctx, v, terms, f)
	if err != nil {
		return nil, err
	}
	m.kept.Add(key, held) // nil stays nil
	return held, nil
}

// togetherOf is backend.TogetherOf(ctx, v, all, anyOf, f), kept for the
// question ctx serves as holdings keeps its answers. Errors are not kept.
func (m *heldMemo) togetherOf(ctx context.Context, v backend.Vocabulary, all, anyOf []string, f *backend.Filter) (bool, error) {
	key, ok := m.key(ctx, f, append(append([]string{"\x01together"}, all...), append([]string{"\x01any"}, anyOf...)...))
	if !ok {
		return backend.TogetherOf(ctx, v, all, anyOf, f)
	}
	if some, ok := m.together.Get(key); ok {
		return some, nil
	}
	some, err := backend.TogetherOf(ctx, v, all, anyOf, f)
	if err != nil {
		return false, err
	}
	m.together.Add(key, some)
	return some, nil
}

// naming is read() (the texts of the visible chunks passing f that hold
// term: filteredVocabulary.Naming), kept for this index version under f
// and term, whatever the question (see heldMemo). Errors are not kept.
func (m *heldMemo) naming(ctx context.Context, term string, f *backend.Filter, read func() ([]string, error)) ([]string, error) {
	if m == nil {
		return read()
	}
	fk, err := json.Marshal(f)
	if err != nil {
		return read()
	}
	key := string(fk) + "\x00" + term
	if texts, ok := m.named.Get(key); ok {
		return slices.Clone(texts), nil
	}
	texts, err := read()
	if err != nil {
		return nil, err
	}
	m.named.Add(key, slices.Clone(texts))
	return texts, nil
}
