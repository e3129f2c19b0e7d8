package redisearch

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFrontierAdd: the frontier of random (tf, length) points is their
// Pareto set, computed by brute force: every point lies under one of
// it, and none of it lies under another point.
func TestFrontierAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	for trial := range 500 {
		var pts []tfLen
		var f frontier
		for range 1 + rng.IntN(30) {
			tf := 1 + rng.IntN(8)
			p := tfLen{tf, tf + rng.IntN(60)}
			pts = append(pts, p)
			f = f.add(p.tf, p.n)
		}
		var want []tfLen
		for _, p := range pts {
			dominated := slices.ContainsFunc(pts, func(q tfLen) bool { return q != p && q.tf >= p.tf && q.n <= p.n })
			if !dominated && !slices.Contains(want, p) {
				want = append(want, p)
			}
		}
		slices.SortFunc(want, func(a, b tfLen) int { return a.tf - b.tf })
		if !slices.Equal(f, want) {
			t.Fatalf("trial %d: frontier of %v is %v, want %v", trial, pts, f, want)
		}
		g, err := parseFrontier(f.String())
		if err != nil || !slices.Equal(g, f) {
			t.Fatalf("trial %d: %q parses to %v, %v", trial, f.String(), g, err)
		}
	}
	for _, bad := range []string{"1", "0:3", "3:2", "a:b", "2:x"} {
		if _, err := parseFrontier(bad); err == nil {
			t.Errorf("parseFrontier(%q): no error", bad)
		}
	}
}
