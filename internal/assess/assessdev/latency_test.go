package assessdev

import (
	"context"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestV34ActLatency times builtin:coverage-v34 (Act on) against v33 (Act
// off) per question, on every development set but those SKIP_SETS names:
// one pass (the first attempt's Assess) and the loop (loop: its searches
// and assessments), ACT_REPS times each (default 3), the two alternated
// question by question; each question's time is its fastest repetition.
// It logs p50, p95, the largest and the total of each (round 32, rv32b).
func TestV34ActLatency(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	b.Frame, b.Kind, b.Tagged = false, false, false // v34 against v33
	reps := 3
	if n, err := strconv.Atoi(os.Getenv("ACT_REPS")); err == nil && n > 0 {
		reps = n
	}
	ctx := context.Background()
	var one, full [2][]time.Duration // [off, on]
	for i, a := range qs {
		best := [2][2]time.Duration{}
		for r := 0; r < reps; r++ {
			for k := range 2 {
				on := (k+i+r)%2 == 1
				b.Act = on
				x := 0
				if on {
					x = 1
				}
				start := time.Now()
				if _, err := b.Assess(ctx, a.req); err != nil {
					t.Fatal(err)
				}
				d := time.Since(start)
				if r == 0 || d < best[x][0] {
					best[x][0] = d
				}
				start = time.Now()
				loop(t, b, a)
				d = time.Since(start)
				if r == 0 || d < best[x][1] {
					best[x][1] = d
				}
			}
		}
		for x := range 2 {
			one[x] = append(one[x], best[x][0])
			full[x] = append(full[x], best[x][1])
		}
	}
	for _, w := range []struct {
		way string
		d   [2][]time.Duration
	}{{"one pass (Assess)", one}, {"loop (search + assess)", full}} {
		for x, name := range []string{"v33 (Act off)", "v34 (Act on)"} {
			ds := slices.Clone(w.d[x])
			slices.Sort(ds)
			var sum time.Duration
			for _, d := range ds {
				sum += d
			}
			q := func(p float64) time.Duration { return ds[int(p*float64(len(ds)-1))] }
			t.Logf("%s %s: %d questions, p50 %v p95 %v max %v total %v", w.way, name, len(ds), q(0.5), q(0.95), ds[len(ds)-1], sum)
		}
	}
}
