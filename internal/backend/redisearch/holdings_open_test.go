package redisearch_test

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/terms"
)

// TestOpenHoldingsKeepsTheContract: OpenHoldings' answer (backend.Held)
// is Holdings' with its last checks left open, on generated corpora
// with overlapping ACLs, for callers of one group and of several, with
// and without a filter, at read bounds that make every term rare, some,
// or none, with every check sent or with the defaults (a sample, checks
// that learn, postings read when dearer): the known sets are sets the chunks hold exactly (a
// chunk-by-chunk count), no open set is known, every open set is held
// with more of the terms by a known set's chunk, Exact answers each open
// set as the count does, and the known sets with those Exact finds are
// the count's sets. Asking the open sets sends FT.AGGREGATEs; OpenHoldings
// itself sends fewer than Holdings.
func TestOpenHoldingsKeepsTheContract(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	an := terms.New()
	vocab := strings.Fields("kettl water descal motor warranti pump filter valv brook street calder rate hour ledger north region quoxil zorbex nosuchterm")
	opened, asked, spared := 0, 0, 0
	rec := &aggregateRecorder{}
	rdb.AddHook(rec)
	calls := func(run func()) int { // the FT.AGGREGATEs run sends in pipelines (the checks)
		_, n := rec.count(func() map[uint64]int { run(); return nil })
		return n
	}
	for _, seed := range []uint64{3, 11} {
		chunks := matchedCorpus(seed, 400)
		ix := buildOpen(t, rdb, redistest.Name("heldopen"), chunks, redisearch.BuildOptions{})
		r := rand.New(rand.NewPCG(seed, 7))
		for range 12 {
			var ts []string
			for _, i := range r.Perm(len(vocab))[:3+r.IntN(8)] {
				ts = append(ts, vocab[i])
			}
			for _, groups := range [][]string{{"public"}, {"team-a", "team-b"}, {"public", "staff", "team-c"}} {
				want := heldByCount(an, chunks, groups, ts)
				for _, f := range []*backend.Filter{nil, {Statuses: []corpus.Status{corpus.Current}}} {
					if f != nil {
						want = heldByCount(an, slices.DeleteFunc(slices.Clone(chunks), func(c corpus.Chunk) bool { return c.Status != corpus.Current }), groups, ts)
					}
					for k, bound := range []int{0, 30, 4096, 0, 30} {
						old := redisearch.SetMaxPostings(bound)
						restore := func() {}
						if k < 3 { // every check sent: no sample, nothing learned, no postings read instead
							rows, learn, price := redisearch.SetSampleRows(0), redisearch.SetLearnMasks(false), redisearch.SetCheckPostings(0)
							restore = func() {
								redisearch.SetSampleRows(rows)
								redisearch.SetLearnMasks(learn)
								redisearch.SetCheckPostings(price)
							}
						}
						v := ix.Visible(groups).(backend.OpenVocabulary)
						var h *backend.Held
						open := calls(func() {
							var err error
							if h, err = v.OpenHoldings(ctx, ts, f); err != nil {
								t.Fatal(err)
							}
						})
						whole := calls(func() { held(t, v, ctx, ts, f) })
						redisearch.SetMaxPostings(old)
						restore()
						at := func() string { return strings.Join(groups, ",") + " " + strings.Join(ts, " ") }
						if h == nil {
							t.Fatalf("%s: cannot tell", at())
						}
						known, opens := h.Sets(), h.Open()
						for m := range known {
							if want[m] == 0 {
								t.Errorf("%s: known set %b is no chunk's", at(), m)
							}
						}
						for _, s := range opens {
							if _, ok := known[s]; ok || s == 0 {
								t.Errorf("%s: open set %b is known, or empty", at(), s)
							}
							if !slices.ContainsFunc(slices.Collect(maps.Keys(known)), func(m uint64) bool { return m&s == s && m != s }) {
								t.Errorf("%s: open set %b is held with more of the terms by no known set (%v)", at(), s, known)
							}
						}
						var found []bool
						sent := calls(func() {
							var err error
							if found, err = h.Exact(ctx, opens); err != nil {
								t.Fatal(err)
							}
						})
						all := known
						for i, s := range opens {
							if found[i] != (want[s] > 0) {
								t.Errorf("%s: Exact(%b) = %v, the count %d", at(), s, found[i], want[s])
							}
							if found[i] {
								all[s] = 1
							}
						}
						if heldSets(all) != heldSets(want) {
							t.Errorf("%s: known and found %v, want the sets of %v", at(), all, want)
						}
						opened += len(opens)
						asked += sent
						spared += whole - open
					}
				}
			}
		}
	}
	t.Logf("%d open sets, %d FT.AGGREGATE to ask them all; OpenHoldings sent %d fewer than Holdings", opened, asked, spared)
	if opened < 50 || asked == 0 || spared <= 0 {
		t.Errorf("%d open sets, %d asked, %d spared: the test tests little", opened, asked, spared)
	}
}
