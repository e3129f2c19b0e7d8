package redisearch

import (
	"context"
	"math/bits"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
)

// maxPostings is the most postings Holdings reads: while the visible
// chunks holding the terms number at most this many in all, reading which
// chunks hold each term is cheaper than counting combinations
// (TestHoldingsCost, SciFact with team ACLs: 2.1 against 5.1 ms p50 for
// a caller who sees half the corpus); past it, posting lists grow with
// the corpus and counts do not.
var maxPostings = 4096

// maxHoldingCounts bounds the count queries one Holdings may send: past
// it (many question terms that many chunks hold together), it cannot
// tell.
const maxHoldingCounts = 1024

// Holdings counts the visible chunks that pass f (nil: all of them; its
// groups are the vocabulary's, whatever f says) by which of terms they
// hold (bit i: terms[i]), as the bleve backend does from its postings.
// When the terms' visible document frequencies add up to at most
// maxPostings, it reads which visible chunks hold each term (one
// NOCONTENT search per term, the filter inside the query, in one
// pipeline). Otherwise it reads no posting list: the engine counts the
// chunks holding each combination of terms (FT.SEARCH LIMIT 0 0, the filter inside the
// query), level by level — pairs only of terms some chunk holds, triples
// only of pairs some chunk holds together, and so on, each level one
// pipeline — and the counts of chunks holding exactly each combination
// follow by inclusion and exclusion. It returns nil when it cannot tell:
// more than backend.MaxHeld terms, more than maxHoldingCounts
// combinations held together, or Redis did not answer (the assessor then
// assumes a chunk that would suffice may exist).
func (v Vocabulary) Holdings(ctx context.Context, terms []string, f *backend.Filter) map[uint64]int {
	if len(terms) > backend.MaxHeld || v.ix == nil {
		return nil
	}
	filter := backend.Filter{}
	if f != nil {
		filter = *f
	}
	filter.Groups = v.groups
	fq := FilterQuery(filter)
	if v.s != nil {
		dfs, err := v.ix.docFreqs(ctx, v.s, terms)
		if err != nil {
			return nil
		}
		sum := 0
		for _, n := range dfs {
			sum += n
		}
		if sum <= maxPostings {
			return v.postings(ctx, terms, dfs, filter)
		}
	}
	together := map[uint64]int{} // term set → chunks holding all of it
	var level []uint64
	for i := range terms {
		level = append(level, 1<<i)
	}
	sent := 0
	for len(level) > 0 {
		if sent += len(level); sent > maxHoldingCounts {
			return nil
		}
		pipe := v.ix.rdb.Pipeline()
		cmds := make([]*redis.FTSearchCmd, len(level))
		for j, set := range level {
			cmds[j] = v.ix.count(ctx, pipe, "@"+fieldContent+":("+termsOf(terms, set)+") "+fq)
		}
		if _, err := pipe.Exec(ctx); err != nil {
			return nil
		}
		var held []uint64
		for j, set := range level {
			if n := cmds[j].Val().Total; n > 0 {
				together[set] = n
				held = append(held, set)
			}
		}
		level = extend(held, together, len(terms))
	}
	out := map[uint64]int{}
	for set := range together {
		n := 0
		for sup, c := range together {
			if sup&set == set {
				if bits.OnesCount64(sup^set)%2 == 0 {
					n += c
				} else {
					n -= c
				}
			}
		}
		if n > 0 {
			out[set] = n
		}
	}
	return out
}

// extend returns the sets of one more term than those in held (all of
// one size) whose every subset of that size is held: the only ones some
// chunk may hold together.
func extend(held []uint64, together map[uint64]int, n int) []uint64 {
	var out []uint64
	for _, set := range held {
		top := 63 - bits.LeadingZeros64(set)
		for j := top + 1; j < n; j++ {
			next := set | 1<<j
			ok := true
			for rest := next; rest != 0; rest &= rest - 1 {
				if together[next&^(rest&-rest)] == 0 {
					ok = false
					break
				}
			}
			if ok {
				out = append(out, next)
			}
		}
	}
	return out
}

// termsOf is the terms of set, escaped, space-separated: an intersection.
func termsOf(terms []string, set uint64) string {
	var b strings.Builder
	for i := range terms {
		if set&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(Escape(terms[i]))
		}
	}
	return b.String()
}

// postings is Holdings from the posting lists of terms (dfs their
// visible document frequencies, an upper bound of what passes filter).
func (v Vocabulary) postings(ctx context.Context, terms []string, dfs []int, filter backend.Filter) map[uint64]int {
	pipe := v.ix.rdb.Pipeline()
	cmds := make([]*redis.FTSearchCmd, len(terms))
	for i, t := range terms {
		if dfs[i] == 0 {
			continue
		}
		cmds[i] = pipe.FTSearchWithArgs(ctx, v.ix.vn, TextQuery([]string{t}, filter), &redis.FTSearchOptions{
			Verbatim: true, NoContent: true, Limit: dfs[i], DialectVersion: 2,
		})
	}
	out := map[uint64]int{}
	if pipe.Len() == 0 {
		return out
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil
	}
	held := map[string]uint64{}
	for i, c := range cmds {
		if c == nil {
			continue
		}
		res := c.Val()
		if len(res.Docs) != res.Total {
			return nil // partial results (a timeout?): counting them could refuse wrongly
		}
		for _, d := range res.Docs {
			held[d.ID] |= 1 << i
		}
	}
	for _, m := range held {
		out[m]++
	}
	return out
}
