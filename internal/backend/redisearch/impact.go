package redisearch

// Per-term impacts (schema 5; docs/performance-scale.md, "RediSearch: a
// tight MaxScore bound from impact data").
//
// A build writes, beside the df tables, one HASH assay:N:vV:imp: term →
// the Pareto frontier of (tf, length) over the chunks that hold it, as
// "tf:len tf:len …" by rising tf: every chunk holding the term tf times
// in len tokens has a frontier point (tf', len') with tf' ≥ tf and
// len' ≤ len. bleve's clause rises with tf and falls with the length,
// so for any average length the most a term can give a chunk is read
// off its frontier (impactClause), where the max tf alone has to assume
// the chunk is only as long as that tf (maxClauseTF). That is what
// MaxScore's bound (maxscore.go) uses for the terms an unread chunk may
// hold.
//
// The frontier is the whole index's, not the caller's: a chunk the
// caller may see is a chunk of the index, so it bounds the caller's
// clauses too (the average length and idf are the caller's). It is
// never shown: the bound only decides whether the essential read's
// answer is kept or the full union read, and either way the answer is
// exhaustive exact scoring's top k over the visible chunks, the same
// chunks, scores and order. What a hidden chunk can change is only how
// long a search takes (whether it falls back).

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

func impactKey(vn string) string { return vn + ":imp" }

// tfLen is one frontier point: a chunk holding a term tf times in n tokens.
type tfLen struct{ tf, n int }

// frontier is a term's Pareto frontier of (tf, length) points, by rising
// tf and (so) rising length.
type frontier []tfLen

// add records a chunk holding the term tf times in n tokens.
func (f frontier) add(tf, n int) frontier {
	for _, p := range f {
		if p.tf >= tf && p.n <= n {
			return f // dominated
		}
	}
	out := f[:0:0]
	for _, p := range f {
		if !(tf >= p.tf && n <= p.n) {
			out = append(out, p)
		}
	}
	out = append(out, tfLen{tf, n})
	slices.SortFunc(out, func(a, b tfLen) int { return a.tf - b.tf })
	return out
}

func (f frontier) String() string {
	var b strings.Builder
	for i, p := range f {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d:%d", p.tf, p.n)
	}
	return b.String()
}

func parseFrontier(s string) (frontier, error) {
	var f frontier
	for _, field := range strings.Fields(s) {
		a, b, ok := strings.Cut(field, ":")
		tf, err1 := strconv.Atoi(a)
		n, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || tf < 1 || n < tf {
			return nil, fmt.Errorf("bad impact point %q", field)
		}
		f = append(f, tfLen{tf, n})
	}
	return f, nil
}

// clauseG is bleve's clause without idf²·queryNorm:
// √tf·k1/(√tf + k1·(1 − b + b·ℓ/avg)); no length normalisation without
// an average, as BM25Query.Clause.
func clauseG(k1, b, avg, tf, l float64) float64 {
	lenNorm := 1.0
	if avg > 0 {
		lenNorm = 1 - b + b*l/avg
	}
	s := math.Sqrt(tf)
	return s * k1 / (s + k1*lenNorm)
}

// impactClause is the most a term with frontier f gives a chunk that
// holds it at most capTF times and is at least lo tokens long: every
// such chunk (tf, ℓ) lies under a point (tf', ℓ') with tf' ≥ tf and
// ℓ' ≤ ℓ, so it gives at most g(min(tf', capTF), max(ℓ', lo)). ok is
// false when no point is shorter than hi (no chunk of length at most hi
// holds the term; hi ≤ 0 means no upper limit).
func impactClause(k1, b, avg float64, f frontier, capTF, lo, hi float64) (g float64, ok bool) {
	for _, p := range f {
		if hi > 0 && float64(p.n) > hi {
			continue
		}
		tf := math.Min(float64(p.tf), capTF)
		if hi > 0 {
			tf = math.Min(tf, hi)
		}
		if tf < 1 {
			continue
		}
		g, ok = math.Max(g, clauseG(k1, b, avg, tf, math.Max(float64(p.n), lo))), true
	}
	return g, ok
}

// impacts returns the frontiers of terms (HMGET of the index's table for
// those not cached; the table is the index version's, so the cache is
// the Index's). A term without one (not in the table) is absent.
func (ix *Index) impacts(ctx context.Context, terms []string) (map[string]frontier, error) {
	out := map[string]frontier{}
	var miss []string
	for _, t := range terms {
		if f, ok := ix.impact.Get(t); ok {
			if f != nil {
				out[t] = f
			}
		} else {
			miss = append(miss, t)
		}
	}
	if len(miss) == 0 {
		return out, nil
	}
	vals, err := ix.rdb.HMGet(ctx, impactKey(ix.vn), miss...).Result()
	if err != nil && err != redis.Nil {
		return nil, err
	}
	for i, t := range miss {
		var f frontier
		if s, ok := vals[i].(string); ok {
			if f, err = parseFrontier(s); err != nil {
				return nil, fmt.Errorf("index %s: term %q: %v", ix.vn, t, err)
			}
			out[t] = f
		}
		ix.impact.Add(t, f)
	}
	return out, nil
}

// writeImpacts writes the terms' frontiers to the index's impact table,
// HSET in pipelines of about 4,096 fields.
func writeImpacts(ctx context.Context, rdb *redis.Client, vn string, imp map[string]frontier) error {
	s := make(map[string]string, len(imp))
	for t, f := range imp {
		s[t] = f.String()
	}
	return writeTable(ctx, rdb, impactKey(vn), s)
}
