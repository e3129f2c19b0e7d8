package redisearch_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/terms"
)

// maxScoreCorpus is 400 public chunks: alpha and bravo in half of them
// (common), zulu in 60, yankee in 10 (the yankee chunks also hold zulu
// and alpha), filler of varied length, plus extra.
func maxScoreCorpus(extra ...string) []corpus.Chunk {
	var chunks []corpus.Chunk
	add := func(text string) {
		id := fmt.Sprintf("m%03d", len(chunks))
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: "t", Text: text, Status: corpus.Current, Authority: 1, ACL: []string{"public"}})
	}
	fill := func(i int) string { return strings.Repeat("lorem ", 3+i%17) }
	for i := range 400 {
		var w []string
		if i%2 == 0 {
			w = append(w, "alpha", "bravo")
		}
		if i%400 < 60 {
			w = append(w, "zulu")
		}
		if i < 10 {
			w = append(w, "yankee")
		}
		add(strings.Join(w, " ") + " " + fill(i))
	}
	for _, e := range extra {
		add(e)
	}
	return chunks
}

// exactOf is exhaustive exact scoring of chunks for a public caller.
func exactOf(chunks []corpus.Chunk, query string, k int) []backend.Hit {
	an := terms.New()
	parts := backend.NewParts(nil)
	ct := make([][]string, len(chunks))
	for i := range chunks {
		ct[i] = append(an.Terms(chunks[i].Title), an.Terms(chunks[i].Text)...)
		parts.Add(&chunks[i], ct[i])
	}
	return exactTop(parts, an, chunks, ct, []string{"public"}, query, k)
}

// maxScoreSearch searches query as a public caller and reports whether
// the essential read was made and kept.
func maxScoreSearch(t *testing.T, ix *redisearch.Index, query string, k int) (hits []backend.Hit, tried, kept bool) {
	t.Helper()
	t0, a0 := ix.MaxScoreCounts()
	hits, err := ix.SearchText(context.Background(), query, backend.Filter{Groups: []string{"public"}}, k)
	if err != nil {
		t.Fatal(err)
	}
	t1, a1 := ix.MaxScoreCounts()
	return hits, t1 > t0, a1 > a0
}

func sameHits(t *testing.T, got, want []backend.Hit) {
	t.Helper()
	if !slices.Equal(ids(got), ids(want)) {
		t.Fatalf("hits %v, exhaustive exact scoring %v", ids(got), ids(want))
	}
	for i := range got {
		if d := got[i].Score - want[i].Score; d > 1e-9 || d < -1e-9 {
			t.Fatalf("hit %d: score %v, exact %v", i, got[i].Score, want[i].Score)
		}
	}
}

// TestMaxScoreKeepsTheEssentialRead: alpha (half the chunks) is left
// out; the read of zulu and yankee stops at depth 19 of their 60 chunks,
// and the bound on an unread chunk (zulu once, alpha any number of times,
// two of three clauses) is below the third score (the yankee chunks hold
// all three terms): the answer is the essential read's, and exact.
func TestMaxScoreKeepsTheEssentialRead(t *testing.T) {
	defer redisearch.SetOverFetch(redisearch.SetOverFetch(0))
	defer redisearch.SetMaxScore(true, 0.3, 0, 1)() // depth (3 + 16) × 1 = 19
	srv := redistest.Start(t)
	chunks := maxScoreCorpus()
	ix := buildOpen(t, srv.Client(t), redistest.Name("ms"), chunks, redisearch.BuildOptions{})
	hits, tried, kept := maxScoreSearch(t, ix, "alpha zulu yankee", 3)
	if !tried || !kept {
		t.Fatalf("essential read made %v, kept %v: want both", tried, kept)
	}
	sameHits(t, hits, exactOf(chunks, "alpha zulu yankee", 3))
}

// TestMaxScoreFallsBack: k = 20 with 10 chunks holding the one essential
// term (yankee): a chunk holding only alpha could be 11th, so the full
// union is read.
func TestMaxScoreFallsBack(t *testing.T) {
	defer redisearch.SetMaxScore(true, 0.3, 0, 1)()
	srv := redistest.Start(t)
	chunks := maxScoreCorpus()
	ix := buildOpen(t, srv.Client(t), redistest.Name("ms"), chunks, redisearch.BuildOptions{})
	hits, tried, kept := maxScoreSearch(t, ix, "alpha yankee", 20)
	if !tried || kept {
		t.Fatalf("essential read made %v, kept %v: want made, not kept", tried, kept)
	}
	want := exactOf(chunks, "alpha yankee", 20)
	sameHits(t, hits[:10], want[:10]) // the yankee chunks; past them, alpha's ties
	if len(hits) != 20 {
		t.Fatalf("%d hits, want 20", len(hits))
	}
}

// TestMaxScoreBoundCountsCommonTerms: the best chunk for "alpha bravo
// yankee" holds only the two common terms, 30 times each (two of three
// clauses), while the yankee chunks are long (one clause). The essential
// read (yankee) never sees it; only a bound that counts what the left-out
// terms can give, at any term frequency, sends the search to the full
// union. Fails with a bound that leaves them out, and with one that
// counts them at tf 1 only.
func TestMaxScoreBoundCountsCommonTerms(t *testing.T) {
	defer redisearch.SetMaxScore(true, 0.3, 0, 1)()
	srv := redistest.Start(t)
	long := strings.Repeat("ipsum ", 150)
	var chunks []corpus.Chunk
	for _, c := range maxScoreCorpus(strings.Repeat("alpha bravo ", 30)) {
		if strings.Contains(c.Text, "yankee") {
			c.Text = "yankee " + long
		}
		chunks = append(chunks, c)
	}
	want := exactOf(chunks, "alpha bravo yankee", 1)
	if want[0].ChunkID != "m400#0" {
		t.Fatalf("test corpus: exact top 1 is %s, want the common-terms chunk m400#0", want[0].ChunkID)
	}
	ix := buildOpen(t, srv.Client(t), redistest.Name("ms"), chunks, redisearch.BuildOptions{})
	hits, tried, kept := maxScoreSearch(t, ix, "alpha bravo yankee", 1)
	if !tried {
		t.Fatal("the essential read was not made")
	}
	if kept {
		t.Error("the essential read's answer was kept")
	}
	sameHits(t, hits, want)
}

// TestMaxScoreBoundCountsUnreadEssentialTerms: the read of zulu and
// yankee stops at depth 19, inside zulu's 60 chunks, which all score the
// same there; the best chunks for "alpha bravo zulu yankee" are three of
// zulu's that also hold the common terms three times each, past the read.
// A bound that forgets an unread chunk may still hold an essential term
// (at most cut/weight times) keeps the read's answer and misses them.
func TestMaxScoreBoundCountsUnreadEssentialTerms(t *testing.T) {
	defer redisearch.SetOverFetch(redisearch.SetOverFetch(0))
	defer redisearch.SetMaxScore(true, 0.3, 0, 1)()
	srv := redistest.Start(t)
	chunks := maxScoreCorpus()
	for i := range chunks {
		switch {
		case i < 10:
			chunks[i].Text = "yankee zulu " + strings.Repeat("ipsum ", 150)
		case i >= 57 && i < 60:
			chunks[i].Text = "zulu " + strings.Repeat("alpha bravo ", 3)
		}
	}
	const query = "alpha bravo zulu yankee"
	want := exactOf(chunks, query, 3)
	if got := ids(want); !slices.Equal(got, []string{"m057#0", "m058#0", "m059#0"}) {
		t.Fatalf("test corpus: exact top 3 %v, want m057..m059", got)
	}
	ix := buildOpen(t, srv.Client(t), redistest.Name("ms"), chunks, redisearch.BuildOptions{})
	hits, tried, _ := maxScoreSearch(t, ix, query, 3)
	if !tried {
		t.Fatal("the essential read was not made")
	}
	sameHits(t, hits, want)
}

// TestMaxScoreBoundReadsImpacts: "alpha yankee", k = 10; alpha (in 91
// of 311 chunks) is left out, and the ten yankee chunks, all read, are
// long (301 tokens). alpha's most frequent chunk holds it 60 times in
// 6,061 tokens; every other holds it once in a short chunk. With its
// max tf only, the bound must assume a chunk of 60 tokens holding it 60
// times, above the tenth score, and the search falls back; with the
// impact table the bound knows that chunk is long and keeps the essential
// read's answer, which is exact.
func TestMaxScoreBoundReadsImpacts(t *testing.T) {
	defer redisearch.SetOverFetch(redisearch.SetOverFetch(0))
	defer redisearch.SetMaxScore(true, 0.2, 0, 1)()
	srv := redistest.Start(t)
	var chunks []corpus.Chunk
	add := func(text string) {
		id := fmt.Sprintf("i%03d", len(chunks))
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: "t", Text: text, Status: corpus.Current, Authority: 1, ACL: []string{"public"}})
	}
	for i := range 300 {
		text := strings.Repeat("lorem ", 5+i%10)
		if i%10 < 3 {
			text = "alpha " + text
		}
		add(text)
	}
	for range 10 {
		add("yankee " + strings.Repeat("ipsum ", 300))
	}
	add(strings.Repeat("alpha ", 60) + strings.Repeat("ipsum ", 6000))
	const query = "alpha yankee"
	want := exactOf(chunks, query, 10)
	ix := buildOpen(t, srv.Client(t), redistest.Name("ms"), chunks, redisearch.BuildOptions{})
	old := redisearch.SetMaxScoreImpacts(false)
	hits, tried, kept := maxScoreSearch(t, ix, query, 10)
	redisearch.SetMaxScoreImpacts(old)
	if !tried || kept {
		t.Fatalf("max tf only: essential read made %v, kept %v: want made, not kept", tried, kept)
	}
	sameHits(t, hits, want)
	hits, tried, kept = maxScoreSearch(t, ix, query, 10)
	if !tried || !kept {
		t.Fatalf("with impacts: essential read made %v, kept %v: want both", tried, kept)
	}
	sameHits(t, hits, want)
	for _, h := range want {
		if !strings.HasPrefix(h.ChunkID, "i30") && !strings.HasPrefix(h.ChunkID, "i31") {
			t.Fatalf("test corpus: exact top 10 %v, want the yankee chunks", ids(want))
		}
	}
}

// TestImpactTableIsExact: the build's impact table holds, for every
// term, the Pareto frontier of (tf, length) over the chunks holding it,
// counted chunk by chunk here.
func TestImpactTableIsExact(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	chunks := maxScoreCorpus("alpha alpha bravo", strings.Repeat("alpha ", 7)+strings.Repeat("ipsum ", 40), "zulu zulu zulu")
	name := redistest.Name("imp")
	m, _, err := redisearch.Build(context.Background(), rdb, name, chunks, redisearch.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	an := terms.New()
	type pt struct{ tf, n int }
	pts := map[string][]pt{}
	for i := range chunks {
		all := append(an.Terms(chunks[i].Title), an.Terms(chunks[i].Text)...)
		tf := map[string]int{}
		for _, w := range all {
			tf[w]++
		}
		for w, f := range tf {
			pts[w] = append(pts[w], pt{f, len(all)})
		}
	}
	got, err := rdb.HGetAll(context.Background(), fmt.Sprintf("assay:%s:v%d:imp", name, m.Version)).Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(pts) {
		t.Errorf("impact table has %d terms, the chunks %d", len(got), len(pts))
	}
	for w, ps := range pts {
		var front []pt
		for _, p := range ps {
			if !slices.ContainsFunc(ps, func(q pt) bool { return q != p && q.tf >= p.tf && q.n <= p.n }) && !slices.Contains(front, p) {
				front = append(front, p)
			}
		}
		slices.SortFunc(front, func(a, b pt) int { return a.tf - b.tf })
		var s []string
		for _, p := range front {
			s = append(s, fmt.Sprintf("%d:%d", p.tf, p.n))
		}
		if want := strings.Join(s, " "); got[w] != want {
			t.Errorf("term %q: impact %q, want %q", w, got[w], want)
		}
	}
}
