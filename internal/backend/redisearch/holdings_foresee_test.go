package redisearch_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/terms"
)

// TestForeseeChangesNoAnswer: Holdings stopping its checks as soon as
// the sets its sampled and learned chunks hold take it past
// maxHoldingCounts (foresee) answers exactly as without: nil (cannot
// tell) for the same term lists, the same keys for the others, at
// bounds on the combinations from a few to the default, with every
// term checked (no read) or the rare ones read. It reports how many
// FT.AGGREGATEs foresee spared, and fails if it spared none (the test
// would not reach the rule).
func TestForeseeChangesNoAnswer(t *testing.T) {
	// Five corpora, not two: which chunks the sample and the checks find
	// first varies from run to run (each run builds a fresh index), and
	// with it whether foresee stops a list early; with seeds 3 and 11
	// alone it spared nothing in 3 of 11 runs (round 36, rv36), each of
	// the five spared in 1 to 6 of 6.
	sameAnswers(t, "foresee", redisearch.SetForesee, []uint64{3, 11, 5, 7, 13}, 13, []int{0, 30}, []int{16, 48, 128, 384, 1024, 4096}, 0, true)
}

// sameAnswers builds a wordyCorpus of each seed and asks OpenHoldings
// (then Held.All) for 12 term lists of 6–14 words each, as three
// callers, at each rare bound (maxPostings) and each maxHoldingCounts,
// with a switch of Holdings off and on (set): nil (cannot tell) for the
// same lists, the same answer otherwise (keys and values) with the keys
// of a chunk-by-chunk count, and the same FT.AGGREGATEs sent (server
// commandstats; sameSent false: the switch may send fewer or more for
// an answered list too, counted with those spared). On the lists that
// cannot tell, the switch may only
// spare FT.AGGREGATEs — at most most of them a list (0: no bound) —
// and the test fails if it spared none (it would not reach the rule).
// The checks are sent, not the common terms' postings read instead (as
// this small corpus would; at 500,000 chunks they are sent), and the
// sample is of a few chunks, not of the whole small corpus (which would
// answer every check): the rest is learned from the checks.
func sameAnswers(t *testing.T, name string, set func(bool) bool, seeds []uint64, stream uint64, bounds, mosts []int, most int, sameSent bool) {
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
	defer set(set(true))
	defer redisearch.SetCheckPostings(redisearch.SetCheckPostings(0))
	defer redisearch.SetSampleRows(redisearch.SetSampleRows(8))
	spared, stopped, answered := 0, 0, 0
	for _, seed := range seeds {
		chunks := wordyCorpus(seed, 300, words)
		ix := buildOpen(t, rdb, redistest.Name("held"+name), chunks, redisearch.BuildOptions{})
		r := rand.New(rand.NewPCG(seed, stream))
		for range 12 {
			var ts []string
			for _, i := range r.Perm(len(vocab))[:6+r.IntN(len(vocab)-5)] {
				ts = append(ts, vocab[i])
			}
			for _, groups := range [][]string{{"public"}, {"team-a"}, {"public", "team-a"}} {
				want := heldByCount(an, chunks, groups, ts)
				v := ix.Visible(groups).(backend.OpenVocabulary)
				for _, bound := range bounds {
					for _, combos := range mosts {
						oldB, oldM := redisearch.SetMaxPostings(bound), redisearch.SetMaxHoldingCounts(combos)
						var got [2]map[uint64]int
						var sent [2]int
						for k, on := range []bool{false, true} {
							set(on)
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
						at := fmt.Sprintf("%s, bound %d, %d combinations", strings.Join(groups, ",")+" "+strings.Join(ts, " "), bound, combos)
						if (got[0] == nil) != (got[1] == nil) {
							t.Errorf("%s: without %s %v, with %v", at, name, got[0], got[1])
							continue
						}
						if got[1] == nil {
							stopped++
							if sameSent && (sent[1] > sent[0] || most > 0 && sent[0]-sent[1] > most) {
								t.Errorf("%s: cannot tell, %d FT.AGGREGATEs without %s, %d with", at, sent[0], name, sent[1])
							}
							spared += sent[0] - sent[1]
							continue
						}
						answered++
						if !maps.Equal(got[0], got[1]) {
							t.Errorf("%s: without %s %v, with %v", at, name, got[0], got[1])
						}
						if !slices.Equal(slices.Sorted(maps.Keys(got[1])), slices.Sorted(maps.Keys(want))) {
							t.Errorf("%s: keys %v, the count's %v", at, got[1], want)
						}
						if !sameSent {
							spared += sent[0] - sent[1]
						} else if sent[0] != sent[1] {
							t.Errorf("%s: an answer sent %d FT.AGGREGATEs without %s, %d with", at, sent[0], name, sent[1])
						}
					}
				}
			}
		}
	}
	t.Logf("%d answers, %d that cannot tell; %s spared %d FT.AGGREGATEs of those", answered, stopped, name, spared)
	if spared <= 0 {
		t.Fatalf("%s spared %d FT.AGGREGATEs: the test does not reach it", name, spared)
	}
}

// wordyCorpus is n chunks each holding a random set of words, most a
// few of them and one in wideEvery nearly all (so that a chunk's set has
// many subsets), visible to "public", "team-a" or both.
func wordyCorpus(seed uint64, n int, words []string) []corpus.Chunk {
	r := rand.New(rand.NewPCG(seed, 17))
	acls := [][]string{{"public"}, {"team-a"}, {"public", "team-a"}}
	var out []corpus.Chunk
	for i := range n {
		k := 1 + r.IntN(4)
		if r.IntN(wideEvery) == 0 {
			k = len(words) - r.IntN(5)
		}
		var ws []string
		for _, j := range r.Perm(len(words))[:k] {
			ws = append(ws, words[j])
		}
		id := fmt.Sprintf("w%04d", i)
		out = append(out, corpus.Chunk{ID: id + "#0", DocID: id, Title: "note", Text: strings.Join(ws, " "),
			Status: corpus.Current, Authority: 1, ACL: acls[r.IntN(len(acls))]})
	}
	return out
}

// TestForeseeNextChangesNoAnswer: foresee counting, with the known
// chunks' sets, the part of the next level the checks so far give
// (foreseeNext) answers exactly as without (sameAnswers), and spares
// FT.AGGREGATEs only on lists that cannot tell. Batches of 4 checks:
// the count matters inside a level (after its last batch the next
// level is counted whole), and this corpus's levels are short.
func TestForeseeNextChangesNoAnswer(t *testing.T) {
	defer redisearch.SetCheckBatch(redisearch.SetCheckBatch(4))
	defer func(old int) { wideEvery = old }(wideEvery)
	wideEvery = 1 << 20 // no chunk holds nearly every word: the known sets are small
	sameAnswers(t, "foreseeNext", redisearch.SetForeseeNext, []uint64{3, 11, 5, 7, 13}, 41, []int{0, 30}, []int{16, 48, 128, 384, 1024, 4096}, 0, true)
}

// wideEvery: one chunk in wideEvery of wordyCorpus holds nearly every
// word.
var wideEvery = 10
