package evalrun

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/percentile"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/retrieval"
)

// TestSearchCost measures where the time of `assay search` goes on a
// RediSearch index already built in a running server, for one mode and
// caller: the retriever the CLI wires (live.OpenDirect), one unmeasured
// pass over the queries, then a measured one, as `assay search --warmup
// 1` times it. Per query: the wall time of Retriever.Search, its legs'
// stage times, the client process's CPU (getrusage), Redis's main-thread
// CPU (/proc schedstat) and, over the pass, the commands Redis served and
// the bytes it sent (INFO commandstats, INFO stats). Run the test binary
// with -test.cpuprofile for the client's profile.
//
//	ASSAY_COST_REDIS=host:port ASSAY_COST_NAME=index ASSAY_COST_QUERIES=queries.jsonl
//	[ASSAY_COST_MODE=bm25] [ASSAY_COST_AS=all|public|group,…] [ASSAY_COST_PASSES=1]
func TestSearchCost(t *testing.T) {
	addr, name, qpath := os.Getenv("ASSAY_COST_REDIS"), os.Getenv("ASSAY_COST_NAME"), os.Getenv("ASSAY_COST_QUERIES")
	if addr == "" || name == "" || qpath == "" {
		t.Skip("SKIPPED: measurement on a built index; set ASSAY_COST_REDIS, ASSAY_COST_NAME, ASSAY_COST_QUERIES")
	}
	mode, err := retrieval.ParseMode(os.Getenv("ASSAY_COST_MODE"))
	if err != nil {
		t.Fatal(err)
	}
	groups := []string{"public"}
	switch as := os.Getenv("ASSAY_COST_AS"); as {
	case "", "public":
	case "all":
		groups = []string{"public", "staff"}
		for i := range 100 {
			groups = append(groups, fmt.Sprintf("team-%02d", i))
		}
	default:
		groups = strings.Split(as, ",")
	}
	passes := 1
	if s := os.Getenv("ASSAY_COST_PASSES"); s != "" {
		passes, _ = strconv.Atoi(s)
	}
	ctx := context.Background()
	cfg := config.Default()
	for k, v := range map[string]string{"index.backend": "redisearch", "index.name": name, "redis.addr": addr} {
		if err := cfg.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	d, err := live.OpenDirect(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	qs, err := eval.LoadQueries(qpath)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2})
	defer rdb.Close()
	redisCPU := redistest.MainThreadCPU(t, rdb)
	self := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			t.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	req := func(q eval.Query) retrieval.Request {
		return retrieval.Request{Query: q.Text, Groups: groups, K: 100, Mode: mode}
	}
	for range passes {
		for _, q := range qs {
			if _, err := d.Retriever.Search(ctx, req(q)); err != nil {
				t.Fatal(err)
			}
		}
	}
	before, out0 := commandStats(t, rdb)
	var wall, cpu, rcpu []time.Duration
	legs := map[string][]time.Duration{}
	for _, q := range qs {
		c0, r0 := self(), redisCPU()
		start := time.Now()
		res, err := d.Retriever.Search(ctx, req(q))
		took := time.Since(start)
		c1, r1 := self(), redisCPU()
		if err != nil {
			t.Fatal(err)
		}
		wall, cpu, rcpu = append(wall, took), append(cpu, c1-c0), append(rcpu, r1-r0)
		for _, st := range res.Stages {
			legs[st.Name] = append(legs[st.Name], time.Duration(st.Millis*float64(time.Millisecond)))
		}
	}
	after, out1 := commandStats(t, rdb)
	p := func(ds []time.Duration, q float64) float64 {
		return float64(percentile.NearestRank(ds, q).Microseconds()) / 1000
	}
	mean := func(ds []time.Duration) float64 {
		var s time.Duration
		for _, d := range ds {
			s += d
		}
		return float64(s.Microseconds()) / 1000 / float64(len(ds))
	}
	n := float64(len(qs))
	t.Logf("%s as %d groups, %d queries: wall p50 %.2f p99 %.2f mean %.2f ms; client CPU p50 %.2f mean %.2f ms; redis CPU p50 %.2f mean %.2f ms; redis sent %.0f bytes a query",
		mode, len(groups), len(qs), p(wall, 50), p(wall, 99), mean(wall), p(cpu, 50), mean(cpu), p(rcpu, 50), mean(rcpu), float64(out1-out0)/n)
	names := make([]string, 0, len(legs))
	for k := range legs {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		t.Logf("  stage %-8s p50 %.2f mean %.2f ms (%d)", k, p(legs[k], 50), mean(legs[k]), len(legs[k]))
	}
	cmds := make([]string, 0, len(after))
	for k := range after {
		cmds = append(cmds, k)
	}
	slices.Sort(cmds)
	for _, k := range cmds {
		a, b := after[k], before[k]
		if a[0] == b[0] {
			continue
		}
		t.Logf("  %-14s %.2f calls, %.3f ms a query", k, (a[0]-b[0])/n, (a[1]-b[1])/1000/n)
	}
}

// commandStats reads INFO commandstats (command → calls, usec) and the
// bytes Redis has sent (total_net_output_bytes).
func commandStats(t *testing.T, rdb *redis.Client) (map[string][2]float64, int64) {
	t.Helper()
	info, err := rdb.Info(context.Background(), "commandstats", "stats").Result()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][2]float64{}
	var sent int64
	for line := range strings.SplitSeq(info, "\n") {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		if name == "total_net_output_bytes" {
			sent, _ = strconv.ParseInt(rest, 10, 64)
			continue
		}
		cmd, ok := strings.CutPrefix(name, "cmdstat_")
		if !ok {
			continue
		}
		var v [2]float64
		for kv := range strings.SplitSeq(rest, ",") {
			k, s, _ := strings.Cut(kv, "=")
			x, _ := strconv.ParseFloat(s, 64)
			switch k {
			case "calls":
				v[0] = x
			case "usec":
				v[1] = x
			}
		}
		out[cmd] = v
	}
	return out, sent
}
