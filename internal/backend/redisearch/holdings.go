package redisearch

import (
	"context"
	"math/bits"
	"slices"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
)

// maxPostings is the most postings Holdings reads: the rarest terms,
// while the visible chunks holding them number at most this many in all,
// are answered from which chunks hold them (reading them is cheaper than
// counting their combinations: TestHoldingsCost, SciFact with team ACLs,
// 2.1 against 5.1 ms p50 for a caller who sees half the corpus); the
// other terms, whose posting lists grow with the corpus, are counted.
var maxPostings = 4096

// maxHoldingCounts bounds the count queries one Holdings may send: past
// it (many common question terms that many chunks hold together), it
// cannot tell.
const maxHoldingCounts = 1024

// keepCounts is whether Holdings keeps the engine's counts of common
// terms' combinations for later questions (off: a measurement's baseline).
var keepCounts = true

// Holdings counts the visible chunks that pass f (nil: all of them; its
// groups are the vocabulary's, whatever f says) by which of terms they
// hold (bit i: terms[i]), as the bleve backend does from its postings.
//
// The terms are split by visible document frequency. The rarest, while
// their frequencies add up to at most maxPostings, are read: which
// visible chunks hold each (one NOCONTENT search per term, the filter
// inside the query), and which of those hold each other term (one search
// per other term, limited to chunks holding a rare one), all in one
// pipeline; that gives every chunk holding a rare term its exact mask.
// The chunks holding only common terms are counted from the engine's
// counts (FT.SEARCH LIMIT 0 0, the filter inside the query) of the chunks
// holding each combination of the common terms, less those of the chunks
// read above, level by level — pairs only of terms some chunk holds,
// triples only of pairs some chunk holds together, and so on, each level
// one pipeline — and the counts of chunks holding exactly each
// combination follow by inclusion and exclusion. Those counts do not
// depend on the question's other terms, so they are kept per visible set
// and filter: common words recur across questions. So the searches sent
// grow with the number of terms and the combinations of the common ones
// not yet counted, not with the combinations of every term.
//
// It returns nil when it cannot tell: more than backend.MaxHeld terms,
// more than maxHoldingCounts combinations held together, partial results,
// or Redis did not answer (the assessor then assumes a chunk that would
// suffice may exist).
func (v Vocabulary) Holdings(ctx context.Context, terms []string, f *backend.Filter) map[uint64]int {
	if len(terms) > backend.MaxHeld || v.ix == nil {
		return nil
	}
	filter := backend.Filter{}
	if f != nil {
		filter = *f
	}
	filter.Groups = v.groups
	var rare, common uint64 // term sets; terms no visible chunk holds are in neither
	sum := 0                // the rare terms' visible document frequencies
	if v.s == nil {
		common = 1<<len(terms) - 1
	} else {
		dfs, err := v.ix.docFreqs(ctx, v.s, terms)
		if err != nil {
			return nil
		}
		order := make([]int, len(terms))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return dfs[a] - dfs[b] })
		for _, i := range order {
			switch {
			case dfs[i] == 0:
			case common == 0 && sum+dfs[i] <= maxPostings:
				sum += dfs[i]
				rare |= 1 << i
			default:
				common |= 1 << i
			}
		}
	}
	fq := FilterQuery(filter)
	if common == 0 && rare == 0 {
		return map[uint64]int{}
	}
	var out map[uint64]int
	if rare != 0 {
		if out = v.postings(ctx, terms, rare, common, sum, filter); out == nil || common == 0 {
			return out
		}
	}
	counted := v.counts(ctx, terms, common, fq, out)
	if counted == nil {
		return nil
	}
	if out == nil {
		return counted
	}
	for m, n := range counted {
		out[m] += n
	}
	return out
}

// counts is Holdings over the visible chunks that pass fq and hold no
// term of read (the chunks holding one counted by mask in read), by which
// of the terms of set they hold, from the engine's counts of chunks
// holding each combination (see Holdings) less those of read; nil when it
// cannot tell. The engine's counts are kept per visible set, filter and
// combination (a question's common words are other questions' too).
func (v Vocabulary) counts(ctx context.Context, terms []string, set uint64, fq string, read map[uint64]int) map[uint64]int {
	together := map[uint64]int{} // term set → chunks holding all of it, none of read's
	var level []uint64
	for i := range terms {
		if set&(1<<i) != 0 {
			level = append(level, 1<<i)
		}
	}
	sent := 0
	for len(level) > 0 {
		ns := make([]int, len(level))
		keys := make([]string, len(level))
		pipe := v.ix.rdb.Pipeline()
		cmds := make([]*redis.FTSearchCmd, len(level))
		for j, s := range level {
			keys[j] = fq + "\x00" + strings.Join(slices.Sorted(slices.Values(strings.Fields(termsOf(terms, s)))), " ") // the same combination in any order
			if n, ok := v.cached(keys[j]); ok {
				ns[j] = n
				continue
			}
			if sent++; sent > maxHoldingCounts {
				return nil
			}
			cmds[j] = v.ix.count(ctx, pipe, "@"+fieldContent+":("+termsOf(terms, s)+") "+fq)
		}
		if pipe.Len() > 0 {
			if _, err := pipe.Exec(ctx); err != nil {
				return nil
			}
		}
		var held []uint64
		for j, s := range level {
			if cmds[j] != nil {
				ns[j] = cmds[j].Val().Total
				if v.s != nil {
					v.s.together.Add(keys[j], ns[j])
				}
			}
			for m, c := range read {
				if m&s == s {
					ns[j] -= c
				}
			}
			if ns[j] > 0 {
				together[s] = ns[j]
				held = append(held, s)
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

// cached is the engine's count for key (see counts), if kept.
func (v Vocabulary) cached(key string) (int, bool) {
	if v.s == nil || !keepCounts {
		return 0, false
	}
	return v.s.together.Get(key)
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
func termsOf(terms []string, set uint64) string { return joinSet(terms, set, " ") }

// union is the terms of set, escaped, as alternatives.
func union(terms []string, set uint64) string { return joinSet(terms, set, " | ") }

// joinSet is the terms of set, escaped, joined by sep.
func joinSet(terms []string, set uint64, sep string) string {
	var b strings.Builder
	for i := range terms {
		if set&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteString(sep)
			}
			b.WriteString(Escape(terms[i]))
		}
	}
	return b.String()
}

// postings is Holdings over the visible chunks that pass filter and hold
// a term of rare (sum: their visible document frequencies added, an upper
// bound of those chunks), read from the rare terms' posting lists and,
// for each term of common, the chunks holding it and a rare term.
func (v Vocabulary) postings(ctx context.Context, terms []string, rare, common uint64, sum int, filter backend.Filter) map[uint64]int {
	pipe := v.ix.rdb.Pipeline()
	cmds := make([]*redis.FTSearchCmd, len(terms))
	anyRare := "@" + fieldContent + ":(" + union(terms, rare) + ")"
	fq := FilterQuery(filter)
	for i, t := range terms {
		var q string
		switch {
		case rare&(1<<i) != 0:
			q = TextQuery([]string{t}, filter)
		case common&(1<<i) != 0:
			q = "@" + fieldContent + ":" + Escape(t) + " " + anyRare + " " + fq
		default:
			continue
		}
		cmds[i] = pipe.FTSearchWithArgs(ctx, v.ix.vn, q, &redis.FTSearchOptions{
			Verbatim: true, NoContent: true, Limit: sum, DialectVersion: 2,
		})
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
	out := map[uint64]int{}
	for _, m := range held {
		out[m]++
	}
	return out
}
