package redisearch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/percentile"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestLegReplyCost splits what the BM25 leg's candidates' read costs
// Redis on an index already built in a running server: for each claim,
// the query SearchText sends (the split query, or every term), asked
// as SearchText asks it (RETURN 1 content) and NOCONTENT, same depth;
// per query Redis's main-thread CPU (schedstat) and the reply's bytes.
// ASSAY_REPLY_REDIS, ASSAY_REPLY_NAME, ASSAY_REPLY_DATA as TestEngineFloor.
func TestLegReplyCost(t *testing.T) {
	addr, name, dir, every := measureEnv(t, "REPLY", "DATA", 1)
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	texts := sampleQueries(t, filepath.Join(dir, "queries.jsonl"), every)
	redisCPU := schedstatReader(t, ix)
	const k = 100
	for _, c := range []struct {
		name   string
		groups []string
	}{{"all", scaleGroups()}, {"public", []string{"public"}}} {
		type q struct {
			query string
			depth int
		}
		var qs []q
		for _, text := range texts {
			qterms := ix.an.Terms(text)
			qt, v, err := ix.weigh(ctx, qterms, c.groups)
			if err != nil {
				t.Fatal(err)
			}
			if len(qt.terms) == 0 {
				continue
			}
			filter := filterQuery(backend.Filter{Groups: c.groups}, !v.s.all)
			depth := candidateDepth(k)
			if common := ix.rare.split(qt.vdf, qt.mass, v.s.n); common != nil {
				qs = append(qs, q{ix.rare.query(qt.terms, qt.weights, qt.mass, qt.vdf, v.s.n, common, filter), ix.rare.splitDepth(depth) + tieMargin})
			} else {
				qs = append(qs, q{textQuery(qt.terms, filter, qt.weights), depth + tieMargin})
			}
		}
		forms := []string{"content", "nocontent", "content", "nocontent"}
		if f := os.Getenv("ASSAY_REPLY_FORMS"); f != "" {
			forms = strings.Split(f, ",")
		}
		for _, form := range forms {
			var cpu []time.Duration
			var bytes, rows int
			for _, x := range qs {
				ft := ix.vn
				if o := os.Getenv("ASSAY_REPLY_FT"); o != "" {
					ft = o
				}
				args := []any{"FT.SEARCH", ft, x.query, "NOCONTENT"}
				switch form {
				case "content":
					args = append(args[:3], "RETURN", 1, fieldContent)
				case "status":
					args = append(args[:3], "RETURN", 1, fieldStatus)
				case "id":
					args = append(args[:3], "RETURN", 1, "id")
				}
				args = append(args, "VERBATIM", "WITHSCORES", "SCORER", "BM25STD", "LIMIT", 0, x.depth, "TIMEOUT", noTimeout, "DIALECT", 2)
				c0 := redisCPU()
				raw, err := ix.rdb.Do(ctx, args...).Slice()
				c1 := redisCPU()
				if err != nil {
					t.Fatal(err)
				}
				cpu = append(cpu, c1-c0)
				bytes += replyBytes(raw)
				rows += (len(raw) - 1)
			}
			var sum time.Duration
			for _, d := range cpu {
				sum += d
			}
			slices.Sort(cpu)
			t.Logf("%-7s %-9s %d queries: redis CPU p50 %.2f mean %.2f ms; reply %.1f KB a query",
				c.name, form, len(qs), ms(percentile.NearestRank(cpu, 50)), ms(sum/time.Duration(len(cpu))), float64(bytes)/1024/float64(len(qs)))
		}
	}
}

// replyBytes is about the size of a RESP reply's strings.
func replyBytes(v any) int {
	switch x := v.(type) {
	case string:
		return len(x) + 8
	case []any:
		n := 4
		for _, e := range x {
			n += replyBytes(e)
		}
		return n
	default:
		return 8
	}
}

// schedstatReader returns a reader of the CPU time of ix's Redis main
// thread (redistest.MainThreadCPU).
func schedstatReader(t testing.TB, ix *Index) func() time.Duration {
	t.Helper()
	return redistest.MainThreadCPU(t, ix.rdb)
}
