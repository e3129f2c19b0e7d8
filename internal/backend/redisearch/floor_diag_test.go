package redisearch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/percentile"
)

// TestEngineFloor measures what the engine itself costs for a scale
// benchmark's claims on an index already built in a running server
// (docs/log/round-15-r15-redis.md): each claim as a plain RediSearch
// query with none of assay's additions — no ACL clause, no per-term
// weights, no split into rare and common terms, no re-scoring, no chunk
// loading — so that what assay's searches cost above it is assay's, and
// what the engine costs at least is the floor any search on this server
// pays:
//
//   - bm25: FT.SEARCH idx "(t1 | t2 | …)" NOCONTENT VERBATIM WITHSCORES
//     SCORER BM25STD LIMIT 0 k, the terms as assay's analyzer gives them
//     (the index is NOSTEM; VERBATIM keeps RediSearch from expanding
//     them again);
//   - knn: FT.SEARCH idx "*=>[KNN k @vec $B]" NOCONTENT LIMIT 0 k, the
//     claim embedded by the index's builtin embedder, RediSearch's own
//     EF_RUNTIME; knn-ef: the same with assay's EF_RUNTIME for k.
//
// Then, for comparison, assay's own BM25 leg (SearchText, what `assay
// search --mode bm25` runs) for a caller who sees every group, `public`
// and team-07.
//
// Each form runs one unmeasured pass over the claims, then a measured
// one; per query: the CPU time of Redis's main thread, which runs every
// command (/proc/PID/task/PID/schedstat, nanoseconds: unlike a latency it
// does not grow when other work on the machine keeps the thread waiting
// for a core), the time Redis counted inside its commands (INFO
// commandstats, which does), the client's wall time, and for the assay
// forms the client process's CPU time (getrusage). ASSAY_FLOOR_REDIS=host:port
// ASSAY_FLOOR_NAME=index ASSAY_FLOOR_DATA=<bench-scale data dir of one
// size> [ASSAY_FLOOR_EVERY=1] [ASSAY_FLOOR_FORMS=bm25,knn,knn-ef]
// [ASSAY_FLOOR_ASSAY=0: without assay's own searches]. The server must run
// on this machine, and nothing else should send it commands meanwhile.
func TestEngineFloor(t *testing.T) {
	addr, name, dir, every := measureEnv(t, "FLOOR", "DATA", 1)
	const k = 100 // the scale benchmark's k
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	texts := sampleQueries(t, filepath.Join(dir, "queries.jsonl"), every)
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	if got := ix.Manifest().Embedder; got != emb.ID() {
		t.Fatalf("index %s was built with embedder %q, this test embeds with %q", name, got, emb.ID())
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	bm25 := make([]string, len(texts))
	for i, text := range texts {
		var esc []string
		for _, term := range ix.an.Terms(text) {
			if e := Escape(term); !slices.Contains(esc, e) {
				esc = append(esc, e)
			}
		}
		bm25[i] = "(" + strings.Join(esc, " | ") + ")"
	}
	ef := max(vectorEF, k)
	type form struct {
		name string
		args func(i int) []any
	}
	knn := func(tail string) func(int) []any {
		return func(i int) []any {
			return []any{"FT.SEARCH", ix.vn, "*=>[KNN " + strconv.Itoa(k) + " @" + fieldVector + " $B" + tail + "]",
				"NOCONTENT", "LIMIT", 0, k, "PARAMS", 2, "B", vectorBytes(vecs[i], ix.m.vectorType()), "DIALECT", 2}
		}
	}
	forms := []form{
		{"bm25", func(i int) []any {
			return []any{"FT.SEARCH", ix.vn, bm25[i], "NOCONTENT", "VERBATIM", "WITHSCORES", "SCORER", "BM25STD",
				"LIMIT", 0, k, "DIALECT", 2}
		}},
		{"knn", knn("")},
		{"knn-ef", knn(" EF_RUNTIME " + strconv.Itoa(ef))},
	}
	if s := os.Getenv("ASSAY_FLOOR_FORMS"); s != "" {
		want := strings.Split(s, ",")
		forms = slices.DeleteFunc(forms, func(f form) bool { return !slices.Contains(want, f.name) })
	}
	redisCPU := schedstatReader(t, ix)
	inCommands := func() time.Duration {
		_, u := redisUsec(t, ix, "FT.SEARCH", "HMGET", "HGETALL", "HGET", "GET", "FT.AGGREGATE")
		return time.Duration(u * float64(time.Microsecond))
	}
	selfCPU := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			t.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	measure := func(name string, n int, one func(i int) (int64, error)) {
		var cpu, in, wall, self []time.Duration
		var totals []int64
		for pass := range 2 { // pass 0 warms up
			for i := range n {
				c0, u0, s0 := redisCPU(), inCommands(), selfCPU()
				start := time.Now()
				total, err := one(i)
				took := time.Since(start)
				if err != nil {
					t.Fatalf("%s, claim %d: %v", name, i, err)
				}
				c1, u1, s1 := redisCPU(), inCommands(), selfCPU()
				if pass == 0 {
					continue
				}
				cpu, in, wall, self = append(cpu, c1-c0), append(in, u1-u0), append(wall, took), append(self, s1-s0)
				totals = append(totals, total)
			}
		}
		slices.Sort(totals)
		p := func(ds []time.Duration, q float64) float64 { return ms(percentile.NearestRank(ds, q)) }
		mean := func(ds []time.Duration) float64 {
			var sum time.Duration
			for _, d := range ds {
				sum += d
			}
			return ms(sum / time.Duration(len(ds)))
		}
		t.Logf("%-14s %d claims: redis CPU p50 %.2f p99 %.2f mean %.2f ms; in commands p50 %.2f ms; client wall p50 %.2f p99 %.2f ms; client CPU p50 %.2f mean %.2f ms; matches p50 %d",
			name, len(cpu), p(cpu, 50), p(cpu, 99), mean(cpu), p(in, 50), p(wall, 50), p(wall, 99), p(self, 50), mean(self), totals[len(totals)/2])
	}
	for _, f := range forms {
		measure(f.name, len(texts), func(i int) (int64, error) {
			raw, err := ix.rdb.Do(ctx, f.args(i)...).Slice()
			if err != nil {
				return 0, err
			}
			return raw[0].(int64), nil
		})
	}
	if os.Getenv("ASSAY_FLOOR_ASSAY") == "0" {
		return
	}
	all := scaleGroups()
	for _, c := range []struct {
		name   string
		groups []string
	}{{"all", all}, {"public", []string{"public"}}, {"team-07", []string{"team-07"}}} {
		measure("assay-bm25 "+c.name, len(texts), func(i int) (int64, error) {
			hits, err := ix.SearchText(ctx, texts[i], backend.Filter{Groups: c.groups}, k)
			return int64(len(hits)), err
		})
	}
	fmt.Fprintln(os.Stderr, "claims:", len(texts))
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
