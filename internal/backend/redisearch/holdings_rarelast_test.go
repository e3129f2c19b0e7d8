package redisearch_test

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/terms"
)

// TestRareLastChangesNoAnswer: Holdings reading the rare terms' chunks
// after the common terms' checks (rareLast) answers exactly as reading
// them first: nil (cannot tell) for the same term lists, the same map —
// keys and values — for the others (and the keys of a chunk-by-chunk
// count), with the same FT.AGGREGATEs sent for every answered list; on
// the lists that cannot tell it sends one FT.AGGREGATE fewer when a rare
// term was read (the read itself), never more. It fails if no list
// spared the read (the test would not reach the rule).
func TestRareLastChangesNoAnswer(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	an := terms.New()
	words := strings.Fields("kettle water descale motor warranty pump filter valve brook street calder rate hour ledger")
	vocab := an.Terms(strings.Join(words, " "))
	aggregates := func() int { // FT.AGGREGATE calls the server has served
		info, err := rdb.Info(ctx, "commandstats").Result()
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.SplitSeq(info, "\n") {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "cmdstat_FT.AGGREGATE:calls="); ok {
				n, _ := strconv.Atoi(rest[:strings.Index(rest, ",")])
				return n
			}
		}
		return 0
	}
	defer redisearch.SetRareLast(redisearch.SetRareLast(true))
	// The checks sent, not the common terms' postings read instead, and
	// a sample of a few chunks (as TestForeseeChangesNoAnswer: this small
	// corpus would otherwise answer every check from one read).
	defer redisearch.SetCheckPostings(redisearch.SetCheckPostings(0))
	defer redisearch.SetSampleRows(redisearch.SetSampleRows(8))
	spared, stopped, answered := 0, 0, 0
	for _, seed := range []uint64{3, 11} {
		chunks := wordyCorpus(seed, 300, words)
		ix := buildOpen(t, rdb, redistest.Name("heldrarelast"), chunks, redisearch.BuildOptions{})
		r := rand.New(rand.NewPCG(seed, 29))
		for range 12 {
			var ts []string
			for _, i := range r.Perm(len(vocab))[:6+r.IntN(len(vocab)-5)] {
				ts = append(ts, vocab[i])
			}
			for _, groups := range [][]string{{"public"}, {"team-a"}, {"public", "team-a"}} {
				want := heldByCount(an, chunks, groups, ts)
				v := ix.Visible(groups).(backend.OpenVocabulary)
				for _, bound := range []int{0, 30, 80} {
					for _, most := range []int{16, 48, 128, 384, 1024} {
						oldB, oldM := redisearch.SetMaxPostings(bound), redisearch.SetMaxHoldingCounts(most)
						var got [2]map[uint64]int
						var sent [2]int
						for k, on := range []bool{false, true} {
							redisearch.SetRareLast(on)
							n := aggregates()
							h, err := v.OpenHoldings(ctx, ts, nil)
							if err != nil {
								t.Fatal(err)
							}
							sent[k] = aggregates() - n
							if h != nil {
								if got[k], err = h.All(ctx); err != nil {
									t.Fatal(err)
								}
							}
						}
						redisearch.SetMaxPostings(oldB)
						redisearch.SetMaxHoldingCounts(oldM)
						at := strings.Join(groups, ",") + " " + strings.Join(ts, " ")
						if (got[0] == nil) != (got[1] == nil) {
							t.Errorf("%s, bound %d, %d combinations: read first %v, last %v", at, bound, most, got[0], got[1])
							continue
						}
						if got[1] == nil {
							stopped++
							if sent[1] > sent[0] || sent[0]-sent[1] > 1 {
								t.Errorf("%s, bound %d, %d combinations: cannot tell, %d FT.AGGREGATEs read first, %d last", at, bound, most, sent[0], sent[1])
							}
							spared += sent[0] - sent[1]
							continue
						}
						answered++
						if !maps.Equal(got[0], got[1]) {
							t.Errorf("%s, bound %d, %d combinations: read first %v, last %v", at, bound, most, got[0], got[1])
						}
						if !slices.Equal(slices.Sorted(maps.Keys(got[1])), slices.Sorted(maps.Keys(want))) {
							t.Errorf("%s, bound %d, %d combinations: keys %v, the count's %v", at, bound, most, got[1], want)
						}
						if sent[0] != sent[1] {
							t.Errorf("%s, bound %d, %d combinations: an answer sent %d FT.AGGREGATEs read first, %d last", at, bound, most, sent[0], sent[1])
						}
					}
				}
			}
		}
	}
	t.Logf("%d answers, %d that cannot tell; reading the rare terms last spared %d FT.AGGREGATEs of those", answered, stopped, spared)
	if spared <= 0 {
		t.Fatalf("reading the rare terms last spared %d FT.AGGREGATEs: the test does not reach it", spared)
	}
}
