package redisearch_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/terms"
)

// TestTogetherIsHoldings: Together (the assessor's gate, one FT.AGGREGATE)
// answers whether some visible chunk passing the filter holds every term
// of all and one of anyOf exactly as a chunk-by-chunk count does, and as
// backend.TogetherOf reads it from Holdings (bleve's way), for random
// lists over overlapping ACLs, with and without a status filter; it fails
// if the lists never find a chunk, or always do.
func TestTogetherIsHoldings(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	an := terms.New()
	vocab := strings.Fields("kettl water descal motor warranti pump filter valv brook street calder rate hour ledger north region quoxil nosuchterm")
	found, none := 0, 0
	for _, seed := range []uint64{3, 11} {
		chunks := overlappingACLs(seed, 400)
		ix := buildOpen(t, rdb, redistest.Name("together"), chunks, redisearch.BuildOptions{})
		r := rand.New(rand.NewPCG(seed, 38))
		for range 40 {
			perm := r.Perm(len(vocab))
			nAll, nAny := r.IntN(4), 1+r.IntN(3)
			all, anyOf := slicesOf(vocab, perm[:nAll]), slicesOf(vocab, perm[nAll:nAll+nAny])
			for _, groups := range [][]string{{"public"}, {"team-a", "team-b"}, {"public", "staff", "team-c"}} {
				for _, f := range []*backend.Filter{nil, {Statuses: []corpus.Status{corpus.Current}}} {
					ts := append(append([]string{}, all...), anyOf...)
					want := false
					for m := range heldByCount(an, chunks, groups, ts) {
						every := uint64(1)<<len(all) - 1
						if m&every == every && m>>len(all) != 0 {
							want = true
						}
					}
					v := ix.Visible(groups)
					got, err := v.(backend.TogetherVocabulary).Together(ctx, all, anyOf, f)
					if err != nil {
						t.Fatal(err)
					}
					read, err := backend.TogetherOf(ctx, holdingsOnly{v}, all, anyOf, f)
					if err != nil {
						t.Fatal(err)
					}
					if got != want || read != want {
						t.Errorf("seed %d, groups %v, filter %v, all %v, any of %v: Together %v, from Holdings %v, want %v", seed, groups, f, all, anyOf, got, read, want)
					}
					if want {
						found++
					} else {
						none++
					}
				}
			}
		}
	}
	if found == 0 || none == 0 {
		t.Errorf("found %d, none %d: the lists test one answer only", found, none)
	}
}

// holdingsOnly hides a Vocabulary's Together: backend.TogetherOf then
// reads Holdings.
type holdingsOnly struct{ backend.Vocabulary }

func slicesOf(words []string, idx []int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, words[i])
	}
	return out
}
