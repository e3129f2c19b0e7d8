package redisearch_test

import (
	"context"
	"fmt"
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

// matchedCorpus is overlappingACLs(seed, n) with two more kinds of
// chunk: some only the group "secret" may see, holding the word
// "zorbex" that no other chunk holds, and some public ones naming the
// word "public" (a group's name, which matched_terms() would report
// for every public chunk as if it held it).
func matchedCorpus(seed uint64, n int) []corpus.Chunk {
	chunks := overlappingACLs(seed, n)
	r := rand.New(rand.NewPCG(seed, 7))
	words := strings.Fields("kettle water descale motor warranty pump filter valve")
	for i := range 12 {
		id := fmt.Sprintf("s%03d", i)
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: "zorbex " + words[r.IntN(len(words))],
			Text: words[r.IntN(len(words))] + " " + words[r.IntN(len(words))], Status: corpus.Current, Authority: 1, ACL: []string{"secret"}})
	}
	for i := range 8 {
		id := fmt.Sprintf("p%03d", i)
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: "public " + words[r.IntN(len(words))],
			Text: words[r.IntN(len(words))], Status: corpus.Current, Authority: 1, ACL: []string{"public"}})
	}
	return chunks
}

// reindexed is chunks after a re-index: every third document deleted,
// every fifth rewritten (its words shuffled, one replaced), and the
// first two secret chunks made public (so "zorbex" becomes visible to
// public callers).
func reindexed(seed uint64, chunks []corpus.Chunk) []corpus.Chunk {
	r := rand.New(rand.NewPCG(seed, 9))
	var out []corpus.Chunk
	for i, c := range chunks {
		switch {
		case strings.HasPrefix(c.ID, "s000") || strings.HasPrefix(c.ID, "s001"):
			c.ACL = []string{"public"}
		case i%3 == 0:
			continue
		case i%5 == 0:
			ws := strings.Fields(c.Text)
			r.Shuffle(len(ws), func(a, b int) { ws[a], ws[b] = ws[b], ws[a] })
			ws[0] = "brook"
			c.Text = strings.Join(ws, " ")
		}
		out = append(out, c)
	}
	return out
}

// TestHoldingsMatchedTermsAgree: Holdings reading which chunks hold which
// terms with one FT.AGGREGATE (matched_terms()) answers as it does with
// a search a term, held set for held set and count for count, and both
// give the sets a chunk-by-chunk count gives: on generated corpora with
// overlapping ACLs, for callers of one group, of several, and of the
// secret group, with and without a filter, at read bounds that make
// every term rare, some, or none, and at check prices that make it read
// the common terms' postings at once or never, with a sample of the
// chunks' common terms before the checks or without; then again after a
// re-index that deletes, rewrites and re-shares documents. A word only
// secret chunks hold is never held for a caller who cannot see them.
func TestHoldingsMatchedTermsAgree(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	an := terms.New()
	vocab := strings.Fields("kettl water descal motor warranti pump filter valv brook street calder rate hour ledger north region quoxil zorbex public nosuchterm")
	views := [][]string{{"public"}, {"team-a", "team-b"}, {"public", "staff", "team-c"}, {"secret"}, {"staff", "secret"}}
	defer redisearch.SetMatchedTerms(redisearch.SetMatchedTerms(true))
	defer redisearch.SetCheckPostings(redisearch.SetCheckPostings(128))
	for _, seed := range []uint64{5, 13} {
		chunks := matchedCorpus(seed, 300)
		name := redistest.Name("matched")
		for round, cs := range [][]corpus.Chunk{chunks, reindexed(seed, chunks)} {
			ix := buildOpen(t, rdb, name, cs, redisearch.BuildOptions{})
			r := rand.New(rand.NewPCG(seed, uint64(round)))
			compared, zorbexHeld := 0, 0
			for q := range 10 {
				var ts []string
				for _, i := range r.Perm(len(vocab))[:3+r.IntN(8)] {
					ts = append(ts, vocab[i])
				}
				if q%2 == 0 && !slices.Contains(ts, "zorbex") {
					ts = append(ts, "zorbex")
				}
				for _, groups := range views {
					want := heldByCount(an, cs, groups, ts)
					z := slices.Index(ts, "zorbex")
					for _, f := range []*backend.Filter{nil, {Statuses: []corpus.Status{corpus.Current}}} {
						for _, bound := range []int{0, 30, 4096} {
							for _, price := range []int{0, 1, 128} {
								oldBound := redisearch.SetMaxPostings(bound)
								redisearch.SetCheckPostings(price)
								redisearch.SetMatchedTerms(false)
								searched := held(t, ix.Visible(groups), ctx, ts, f)
								redisearch.SetMatchedTerms(true)
								var matched map[uint64]int
								for _, rows := range []int{0, 3, 256} { // no sample before the checks, a small one, the default's
									oldRows := redisearch.SetSampleRows(rows)
									matched = held(t, ix.Visible(groups), ctx, ts, f)
									redisearch.SetSampleRows(oldRows)
									if fmt.Sprint(sortedPairs(matched)) != fmt.Sprint(sortedPairs(searched)) {
										t.Errorf("seed %d, round %d, groups %v, terms %v, filter %v, bound %d, price %d, sample %d: matched_terms %v, searches %v",
											seed, round, groups, ts, f, bound, price, rows, matched, searched)
									}
								}
								redisearch.SetMaxPostings(oldBound)
								at := fmt.Sprintf("seed %d, round %d, groups %v, terms %v, filter %v, bound %d, price %d", seed, round, groups, ts, f, bound, price)
								if heldSets(matched) != heldSets(want) {
									t.Errorf("%s: held %v, want the sets of %v", at, matched, want)
								}
								compared++
								for m := range matched {
									if z >= 0 && m&(1<<z) != 0 {
										zorbexHeld++
										if !slices.Contains(groups, "secret") && (round == 0 || !slices.Contains(groups, "public")) {
											t.Errorf("%s: held %b names zorbex, which only secret chunks hold", at, m)
										}
									}
								}
							}
						}
					}
				}
			}
			if zorbexHeld == 0 {
				t.Errorf("seed %d, round %d: zorbex never held, not even for the secret group (the test tests nothing)", seed, round)
			}
			t.Logf("seed %d, round %d: %d answers compared, %d held sets with zorbex", seed, round, compared, zorbexHeld)
		}
	}
}

// sortedPairs lists a Holdings answer's sets with their counts, in order.
func sortedPairs(m map[uint64]int) []string {
	if m == nil {
		return nil
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, fmt.Sprintf("%b:%d", k, m[k]))
	}
	return out
}

// TestHoldingsSampleSparesHeldChecks: 20 chunks hold all of six common
// words and six hold one word each, so every combination is held and
// only the six words alone are some chunk's exact set besides the whole.
// Without a sample Holdings checks the 57 combinations of two words or
// more (all held) and asks of the 62 with a held extension whether a
// chunk holds them and no other word; with the sample of the chunks'
// common terms (one FT.AGGREGATE, not pipelined, so not in the count)
// the 57 held checks and the six words' exact-set checks are answered
// and not sent: only the 56 the sample cannot answer (nothing found)
// are. The answer is the same.
func TestHoldingsSampleSparesHeldChecks(t *testing.T) {
	count := sixWordsAlone(t, "sample")
	defer redisearch.SetLearnMasks(redisearch.SetLearnMasks(false)) // the sample alone (TestHoldingsLearnsFromFoundChunks)
	answer := func(rows int) (map[uint64]int, int) {
		defer redisearch.SetSampleRows(redisearch.SetSampleRows(rows))
		return count()
	}
	without, sent := answer(0)
	with, sampled := answer(256)
	if heldSets(with) != heldSets(without) || len(with) != 7 {
		t.Fatalf("with the sample %v, without %v (want the six words alone and all six together)", with, without)
	}
	if sent != 57+62 || sampled != 56 {
		t.Errorf("FT.AGGREGATE checks sent: %d without the sample (want 119), %d with it (want 56)", sent, sampled)
	}
	t.Logf("FT.AGGREGATE: %d without the sample, %d with it", sent, sampled)
}

// TestHoldingsLearnsFromFoundChunks: an existence check that finds a
// chunk reads which of the common terms that chunk holds (learnMasks),
// and the checks that chunk answers are not sent. Six words, twenty
// chunks holding all six and one chunk holding each alone, every word
// common, no sample: without learning, Holdings sends the 57 checks of
// the levels of two to six words and the 62 asking whether a set is held
// with no other word; with it, the 15 pairs' checks each find a chunk
// holding all six, which answers every larger set, and only the 62 last
// checks are sent (the six words alone found, the rest not). The held
// sets are the same: the six words alone and all six together.
func TestHoldingsLearnsFromFoundChunks(t *testing.T) {
	count := sixWordsAlone(t, "learn")
	defer redisearch.SetSampleRows(redisearch.SetSampleRows(0))
	answer := func(learn bool) (map[uint64]int, int) {
		defer redisearch.SetLearnMasks(redisearch.SetLearnMasks(learn))
		return count()
	}
	without, sent := answer(false)
	with, learned := answer(true)
	if heldSets(with) != heldSets(without) || len(with) != 7 {
		t.Fatalf("learning %v, without %v (want the six words alone and all six together)", with, without)
	}
	if sent != 57+62 || learned != 15+62 {
		t.Errorf("FT.AGGREGATE checks sent: %d without learning (want 119), %d with it (want 77)", sent, learned)
	}
	t.Logf("FT.AGGREGATE: %d without learning, %d with it", sent, learned)
}

// sixWordsAlone builds six words in twenty chunks holding all six and
// one chunk holding each alone, public, every word common and checked
// (no postings read instead), Holdings reading matched_terms(), and
// returns what Holdings answers for the six words with the FT.AGGREGATE
// commands it pipelined.
func sixWordsAlone(t *testing.T, name string) func() (map[uint64]int, int) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	checks, postings, matched := redisearch.SetCheckPostings(0), redisearch.SetMaxPostings(0), redisearch.SetMatchedTerms(true)
	t.Cleanup(func() {
		redisearch.SetCheckPostings(checks)
		redisearch.SetMaxPostings(postings)
		redisearch.SetMatchedTerms(matched)
	})
	counter := &aggregateRecorder{}
	rdb.AddHook(counter)
	words, chunks := denseChunks(6, 20)
	for i := range 6 { // one chunk holding one word alone each
		chunks = append(chunks, corpus.Chunk{ID: fmt.Sprintf("e%d#0", i), DocID: fmt.Sprintf("e%d", i), Title: "t", Text: words[i], Status: corpus.Current, Authority: 1, ACL: []string{"public"}})
	}
	ix := buildOpen(t, rdb, redistest.Name(name), chunks, redisearch.BuildOptions{})
	v := ix.Visible([]string{"public"})
	return func() (map[uint64]int, int) {
		return counter.count(func() map[uint64]int { return held(t, v, ctx, words, nil) })
	}
}

// TestHoldingsNonASCIIRunes: words holding a rune that is neither a
// letter nor a digit (a combining accent, a zero-width joiner, a
// Devanagari vowel sign), and a group whose name holds one (✓), reach
// RediSearch whole. Escape once put a backslash before such a rune,
// which RediSearch's lexer does not read as an escape: it ended the term
// there and intersected the query with the rest, so one such word made
// Holdings' single FT.AGGREGATE find no chunk at all ("nothing held",
// where a chunk-by-chunk count finds them), the text search miss the
// word, and a member of group "team✓" see none of its chunks. Holdings
// answers as a chunk-by-chunk count does, both ways of reading, every
// term rare or every term common, and the text search finds each word.
func TestHoldingsNonASCIIRunes(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	an := terms.New()
	words := []string{"cafe\u0301", "a\u200db", "\u0939\u093f\u0902\u0926\u0940"} // café with a combining accent, a joined word, हिंदी
	chunk := func(id, text string, acl ...string) corpus.Chunk {
		return corpus.Chunk{ID: id + "#0", DocID: id, Title: "t", Text: text, Status: corpus.Current, Authority: 1, ACL: acl}
	}
	chunks := []corpus.Chunk{
		chunk("c1", words[0]+" kettle", "public"),
		chunk("c2", "kettle water", "public"),
		chunk("c3", words[2]+" water", "public"),
		chunk("c4", words[1]+" kettle "+words[0], "team\u2713"),
		chunk("c5", "kettle "+words[1], "team"),
	}
	ix := buildOpen(t, rdb, redistest.Name("runes"), chunks, redisearch.BuildOptions{})
	ts := an.Terms(strings.Join(words, " ") + " kettle water")
	if len(ts) != 5 {
		t.Fatalf("terms %q: want the three words, kettle and water", ts)
	}
	defer redisearch.SetMatchedTerms(redisearch.SetMatchedTerms(true))
	for _, groups := range [][]string{{"public"}, {"team\u2713"}, {"team"}, {"public", "team\u2713"}} {
		want := heldByCount(an, chunks, groups, ts)
		for _, matched := range []bool{true, false} {
			for _, bound := range []int{4096, 0} {
				redisearch.SetMatchedTerms(matched)
				old := redisearch.SetMaxPostings(bound)
				got := held(t, ix.Visible(groups), ctx, ts, nil)
				redisearch.SetMaxPostings(old)
				if heldSets(got) != heldSets(want) {
					t.Errorf("groups %q, matched_terms %v, bound %d: held %v, want the sets of %v", groups, matched, bound, got, want)
				}
			}
		}
		for i, w := range ts[:3] {
			hits, err := ix.SearchText(ctx, w, backend.Filter{Groups: groups}, 10)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, c := range chunks {
				if corpus.Visible(c.ACL, groups) && an.Set(c.Title + " " + c.Text)[w] {
					n++
				}
			}
			if len(hits) != n {
				t.Errorf("groups %q: SearchText(%q) found %d chunks, want %d", groups, words[i], len(hits), n)
			}
		}
	}
}
