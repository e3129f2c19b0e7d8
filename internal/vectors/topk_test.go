package vectors

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTopKKeepsTheBest offers shuffled ordinals with heavily tied scores
// and checks that topK keeps exactly the k best by better (sorting every
// offer and taking k is the oracle), that its root is the worst kept,
// and that every node is no better than its parent (the heap holds
// between offers, so the skip test on the root stays exact).
func TestTopKKeepsTheBest(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	for trial := range 300 {
		n := 1 + rng.IntN(3000)
		k := []int{1, 2, 3, 4, 5, 6, 17, 64, 300, 2000}[trial%10]
		levels := 1 + rng.IntN(50) // few distinct scores: many ties
		all := make([]scored, n)
		for i := range all {
			sc := float32(rng.IntN(levels)-levels/2) / 7
			if sc == 0 && rng.IntN(2) == 0 {
				sc = float32(math.Copysign(0, -1)) // -0 ties with +0
			}
			all[i] = scored{i: uint32(i), score: sc}
		}
		rng.Shuffle(n, func(i, j int) { all[i], all[j] = all[j], all[i] })
		top := newTopK(k)
		for x, s := range all {
			top.offer(s.i, s.score)
			h := top.items
			if len(h) != min(x+1, k) {
				t.Fatalf("trial %d: %d items after %d offers, k %d", trial, len(h), x+1, k)
			}
			if x%97 == 0 || x == n-1 {
				for c := 1; c < len(h); c++ {
					if better(h[(c-1)/2], h[c]) {
						t.Fatalf("trial %d: node %d is worse than its child %d", trial, (c-1)/2, c)
					}
				}
			}
		}
		want := slices.Clone(all)
		slices.SortFunc(want, bestFirst)
		want = want[:min(k, n)]
		got := slices.Clone(top.items)
		slices.SortFunc(got, bestFirst)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (n %d, k %d): kept another set than the k best", trial, n, k)
		}
		if top.items[0] != want[len(want)-1] {
			t.Fatalf("trial %d: root %v, want the worst kept %v", trial, top.items[0], want[len(want)-1])
		}
	}
}

// TestRankOrdersAsBetter: rank, the heap's integer key, orders any two
// results as better does: scores of every sign and magnitude, ±0 (equal
// as floats), subnormals, the largest finite floats, equal scores with
// different ordinals.
func TestRankOrdersAsBetter(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	special := []float32{0, float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32,
		math.MaxFloat32, -math.MaxFloat32, 1, -1, 1e-30, -1e-30, 0.5, -0.5}
	pick := func() scored {
		i := uint32(rng.IntN(4))
		if rng.IntN(3) == 0 {
			i = rng.Uint32()
		}
		switch rng.IntN(3) {
		case 0:
			return scored{i, special[rng.IntN(len(special))]}
		case 1:
			return scored{i, math.Float32frombits(rng.Uint32() &^ (0xff << 23))} // subnormal or zero, either sign
		}
		f := float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10)))
		return scored{i, f}
	}
	for range 200_000 {
		a, b := pick(), pick()
		if a.i == b.i && a.score != b.score {
			continue // no two offers share an ordinal
		}
		if got, want := rank(a.i, a.score) > rank(b.i, b.score), better(a, b); got != want {
			t.Fatalf("rank says %v better than %v: %v, better says %v", a, b, got, want)
		}
	}
}

// BenchmarkTopK is the 1-bit scan's use of topK (heap) and of bestSet,
// which replaced it there: the best 2,000 of 250k estimates (random, so
// about k·(1+ln(n/k)) ≈ 11,600 are offered past the heap's root test),
// the scan's skip test in front of each offer.
func BenchmarkTopK(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, keep = 250_000, 2000
	scores := make([]float32, n)
	for i := range scores {
		scores[i] = float32(rng.NormFloat64())
	}
	for _, k := range []int{300, keep} {
		b.Run(fmt.Sprintf("k=%d/heap", k), func(b *testing.B) {
			for b.Loop() {
				top := newTopK(k)
				for i, s := range scores {
					if len(top.items) == top.k && s <= top.items[0].score {
						continue
					}
					top.offer(uint32(i), s)
				}
			}
		})
		b.Run(fmt.Sprintf("k=%d/bestset", k), func(b *testing.B) {
			for b.Loop() {
				top := newBestSet(k)
				for i, s := range scores {
					if top.full && s <= top.floorScore {
						continue
					}
					top.offer(uint32(i), s)
				}
				top.ords()
			}
		})
	}
}

// TestBestSetKeepsTheBest: bestSet keeps the k best offers by better
// (sorting every offer and taking k is the oracle), with heavily tied
// scores and ±0, offered in increasing ordinal order through the scans'
// skip test (score ≤ floorScore once full) or shuffled through offer
// alone; and selectBest on inputs in order, reversed and random.
func TestBestSetKeepsTheBest(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 14))
	for trial := range 400 {
		n := 1 + rng.IntN(5000)
		k := []int{1, 2, 3, 4, 5, 6, 17, 64, 300, 2000}[trial%10]
		levels := 1 + rng.IntN(50)
		all := make([]scored, n)
		for i := range all {
			sc := float32(rng.IntN(levels)-levels/2) / 7
			switch {
			case trial%4 == 1:
				sc = float32(i) // increasing: every offer beats the floor
			case trial%4 == 2:
				sc = -float32(i)
			}
			if sc == 0 && rng.IntN(2) == 0 {
				sc = float32(math.Copysign(0, -1))
			}
			all[i] = scored{i: uint32(i), score: sc}
		}
		b := newBestSet(k)
		if trial%2 == 0 { // the scans' way: increasing ordinals, skip test first
			for _, s := range all {
				if b.full && s.score <= b.floorScore {
					if rank(s.i, s.score) > b.floor {
						t.Fatalf("trial %d: skip test dropped %v above the floor", trial, s)
					}
					continue
				}
				b.offer(s.i, s.score)
			}
		} else {
			shuffled := slices.Clone(all)
			rng.Shuffle(n, func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			for _, s := range shuffled {
				b.offer(s.i, s.score)
			}
		}
		want := slices.Clone(all)
		slices.SortFunc(want, bestFirst)
		want = want[:min(k, n)]
		wantOrds := make([]uint32, len(want))
		for j, s := range want {
			wantOrds[j] = s.i
		}
		slices.Sort(wantOrds)
		got := b.ords()
		slices.Sort(got)
		if !slices.Equal(got, wantOrds) {
			t.Fatalf("trial %d (n %d, k %d): kept another set than the k best", trial, n, k)
		}
	}
	for _, n := range []int{1, 2, 3, 10, 1000, 4001} {
		for _, order := range []string{"increasing", "decreasing", "random"} {
			keys := make([]uint64, n)
			for i := range keys {
				switch order {
				case "increasing":
					keys[i] = uint64(i)
				case "decreasing":
					keys[i] = uint64(n - i)
				default:
					keys[i] = rng.Uint64()
				}
			}
			for _, k := range []int{1, 2, n / 2, n - 1, n} {
				if k < 1 || k > n {
					continue
				}
				x := slices.Clone(keys)
				selectBest(x, k)
				s := slices.Clone(keys)
				slices.Sort(s)
				slices.Reverse(s)
				top := slices.Clone(x[:k])
				slices.Sort(top)
				slices.Reverse(top)
				if !slices.Equal(top, s[:k]) || x[k-1] != s[k-1] {
					t.Fatalf("selectBest(%s, n %d, k %d): kept %v…, want %v…", order, n, k, top[:min(3, k)], s[:min(3, k)])
				}
			}
		}
	}
}
