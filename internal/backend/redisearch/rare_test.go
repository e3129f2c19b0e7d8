package redisearch_test

import (
	"context"
	"fmt"
	"math"
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

// TestRareQueryForm: in the rare-term form (rare.go) the candidates are
// exactly the visible chunks holding a rare term, a common term adds to a
// candidate's BM25STD score, and a candidate holding two rare terms is
// scored by both (RediSearch 2.10 scores a union inside an intersection,
// `(r1 | r2) ~c`, with one of them for some chunks). All chunks are six
// tokens long, so scores differ only by the terms held.
func TestRareQueryForm(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	chunk := func(id, text string, acl ...string) corpus.Chunk {
		return corpus.Chunk{ID: id + "#0", DocID: id, Title: "", Text: text, Status: corpus.Current, Authority: 1, ACL: acl}
	}
	chunks := []corpus.Chunk{
		chunk("a", "rarex commonq padaa padab padac padad", "public"),
		chunk("b", "rarex padba padbb padbc padbd padbe", "public"),
		chunk("c", "rarex rarez padca padcb padcc padcd", "public"),
		chunk("d", "rarez padda paddb paddc paddd padde", "public"),
		chunk("e", "rarex commonq rarez padea padeb padec", "staff"),
	}
	for i := range 30 {
		chunks = append(chunks, chunk(fmt.Sprintf("q%02d", i), fmt.Sprintf("commonq fill%02da fill%02db fill%02dc fill%02dd fill%02de", i, i, i, i, i), "public"))
	}
	ix := buildOpen(t, rdb, redistest.Name("rareform"), chunks, redisearch.BuildOptions{})
	got, scores, total, err := ix.RareCandidates(ctx, []string{"rarex", "commonq", "rarez"}, []bool{false, true, false}, nil, []string{"public"}, 50)
	if err != nil {
		t.Fatal(err)
	}
	score := map[string]float64{}
	for i, id := range got {
		score[id] = scores[i]
	}
	slices.Sort(got)
	if total != 4 || !slices.Equal(got, []string{"a#0", "b#0", "c#0", "d#0"}) {
		t.Fatalf("candidates %v (%d matched), want a, b, c, d: the public chunks holding a rare term", got, total)
	}
	if !(score["a#0"] > score["b#0"]) {
		t.Errorf("a (rarex commonq) scored %v, b (rarex) %v: the common term must add to the score", score["a#0"], score["b#0"])
	}
	if !(score["c#0"] > score["b#0"]) {
		t.Errorf("c (rarex rarez) scored %v, b (rarex) %v: both rare terms must be scored", score["c#0"], score["b#0"])
	}
	// With the optional clause on rarex's branch only (rareRule.OptShare),
	// the candidates are the same; commonq still adds to a chunk holding
	// rarex (a), and rarez's branch reads rarez alone.
	got, scores, total, err = ix.RareCandidates(ctx, []string{"rarex", "commonq", "rarez"}, []bool{false, true, false}, []bool{true, false, false}, []string{"public"}, 50)
	if err != nil {
		t.Fatal(err)
	}
	clear(score)
	for i, id := range got {
		score[id] = scores[i]
	}
	slices.Sort(got)
	if total != 4 || !slices.Equal(got, []string{"a#0", "b#0", "c#0", "d#0"}) {
		t.Fatalf("rarex's branch scored only: candidates %v (%d matched), want a, b, c, d", got, total)
	}
	if !(score["a#0"] > score["b#0"] && score["c#0"] > score["b#0"]) {
		t.Errorf("rarex's branch scored only: a %v, b %v, c %v: commonq and rarez must add to a chunk holding rarex", score["a#0"], score["b#0"], score["c#0"])
	}

	// 800 chunks of six tokens, each term at most once: chunks holding
	// the same query terms must score the same, whatever their place in
	// the postings (the union-in-intersection form scored some chunks
	// holding two rare terms by one).
	chunks = chunks[:0]
	holds := map[string]string{}
	for i := range 800 {
		ws := []string{}
		key := ""
		for j, w := range []string{"rarex", "rarez", "commonq"} {
			if (i>>j)&1 == 1 || (j == 2 && i%5 == 0) {
				ws = append(ws, w)
				key += w + " "
			}
		}
		for len(ws) < 6 {
			ws = append(ws, fmt.Sprintf("pad%03dx%d", i, len(ws)))
		}
		id := fmt.Sprintf("m%03d", i)
		holds[id+"#0"] = key
		chunks = append(chunks, chunk(id, strings.Join(ws, " "), "public"))
	}
	ix = buildOpen(t, rdb, redistest.Name("rareform"), chunks, redisearch.BuildOptions{})
	got, scores, _, err = ix.RareCandidates(ctx, []string{"rarex", "commonq", "rarez"}, []bool{false, true, false}, nil, []string{"public"}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string]float64{}
	for i, id := range got {
		k := holds[id]
		if !strings.Contains(k, "rare") {
			t.Fatalf("candidate %s holds no rare term (%q)", id, k)
		}
		if s, ok := byKey[k]; ok && math.Abs(s-scores[i]) > 1e-9*s {
			t.Fatalf("chunks holding %q scored %v and %v: a term was left out of one", k, s, scores[i])
		}
		byKey[k] = scores[i]
	}
	if !(byKey["rarex rarez "] > byKey["rarex "] && byKey["rarex rarez commonq "] > byKey["rarex rarez "] && byKey["rarex commonq "] > byKey["rarex "]) {
		t.Errorf("scores by terms held %v: every term held must add", byKey)
	}
}

// rareCorpus is a generated corpus whose words follow a Zipf-like law
// (log-uniform ranks over a 400-word vocabulary), so that a query of
// 6–10 words holds common and rare words, with ACLs public (half),
// staff (a quarter) and team-0N.
func rareCorpus(rng *rand.Rand, n int) ([]corpus.Chunk, func() string) {
	word := func() string {
		r := int(math.Pow(401, rng.Float64())) - 1 // 0..399, low ranks most often
		const cons, vows = "bdfgklmnprtv", "aeiou"
		return fmt.Sprintf("%c%c%c%c%c%co", cons[r%12], vows[(r/12)%5], cons[(r/60)%12], vows[r%5], cons[(r/7)%12], vows[(r/3)%5])
	}
	var chunks []corpus.Chunk
	for i := range n {
		ws := make([]string, 8+rng.IntN(40))
		for j := range ws {
			ws[j] = word()
		}
		var acl []string
		switch {
		case i%2 == 0:
			acl = []string{"public"}
		case i%4 == 1:
			acl = []string{"staff"}
		default:
			acl = []string{fmt.Sprintf("team-%02d", i%5)}
		}
		id := fmt.Sprintf("g%05d", i)
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: "", Text: strings.Join(ws, " "), Status: corpus.Current, Authority: 1, ACL: acl})
	}
	query := func() string {
		ws := make([]string, 6+rng.IntN(5))
		for j := range ws {
			ws[j] = word()
		}
		return strings.Join(ws, " ")
	}
	return chunks, query
}

// TestRareTermsAgreeWithExactScoring: with common terms only scoring, the
// BM25 leg's top 10 agrees with exhaustive exact scoring over the visible
// chunks (≥ 0.99 of it, per caller), returns only visible chunks, and the
// rule does split most queries here (else the test would test nothing:
// it fails with the rule off). A public caller's hits are the same when
// the index also holds staff chunks full of the query's words: the split
// is made from visible document frequencies only.
func TestRareTermsAgreeWithExactScoring(t *testing.T) {
	// The shipped rule, but for a corpus of 3,000 chunks: a common term
	// needs 40 visible chunks, not 1,000.
	defer redisearch.SetRareRule(true, 0.01, redisearch.DefaultRareMassShare, 4, 40, redisearch.DefaultRareDeeper, redisearch.DefaultRareOptShare, redisearch.DefaultRareOptKeep)()
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(6, 20))
	chunks, query := rareCorpus(rng, 3000)
	an := terms.New()
	parts, chunkTerms := analyzedParts(an, chunks)
	ix := buildOpen(t, rdb, redistest.Name("rare"), chunks, redisearch.BuildOptions{})
	queries := make([]string, 80)
	for i := range queries {
		queries[i] = query()
	}
	callers := []struct {
		name   string
		groups []string
	}{
		{"all", []string{"public", "staff", "team-00", "team-01", "team-02", "team-03", "team-04"}},
		{"public", []string{"public"}},
		{"team-03", []string{"team-03"}},
		{"public+team-01", []string{"public", "team-01"}},
	}
	for _, c := range callers {
		agree, total, split := 0, 0, 0
		for _, q := range queries {
			ok, err := ix.RareSplits(ctx, q, c.groups)
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				split++
			}
			hits, err := ix.SearchText(ctx, q, backend.Filter{Groups: c.groups}, 10)
			if err != nil {
				t.Fatal(err)
			}
			in := map[string]bool{}
			for _, h := range hits {
				in[h.ChunkID] = true
				var ch *corpus.Chunk
				for i := range chunks {
					if chunks[i].ID == h.ChunkID {
						ch = &chunks[i]
					}
				}
				if ch == nil || !corpus.Visible(ch.ACL, c.groups) {
					t.Fatalf("%s, %q: hit %s is not visible to %v", c.name, q, h.ChunkID, c.groups)
				}
			}
			want := exactTop(parts, an, chunks, chunkTerms, c.groups, q, 10)
			for _, h := range want {
				if in[h.ChunkID] {
					agree++
				}
			}
			total += len(want)
		}
		t.Logf("%-15s %d of %d queries split, top-10 agreement with exhaustive exact scoring %.4f (%d/%d)", c.name, split, len(queries), float64(agree)/float64(total), agree, total)
		if float64(agree) < 0.99*float64(total) {
			t.Errorf("%s: top-10 agreement %.4f, want at least 0.99", c.name, float64(agree)/float64(total))
		}
		if c.name != "team-03" && split < len(queries)/2 {
			t.Errorf("%s: the rule split %d of %d queries; the test needs most of them split", c.name, split, len(queries))
		}
	}

	// Hidden chunks: 1,500 staff chunks made of the queries' words.
	withHidden := slices.Clone(chunks)
	for i := range 1500 {
		id := fmt.Sprintf("h%05d", i)
		withHidden = append(withHidden, corpus.Chunk{ID: id + "#0", DocID: id, Title: "", Text: queries[i%len(queries)] + " " + queries[(i*7)%len(queries)], Status: corpus.Current, Authority: 1, ACL: []string{"staff"}})
	}
	hx := buildOpen(t, rdb, redistest.Name("rarehidden"), withHidden, redisearch.BuildOptions{})
	pub := backend.Filter{Groups: []string{"public"}}
	for _, q := range queries {
		a, err := ix.SearchText(ctx, q, pub, 10)
		if err != nil {
			t.Fatal(err)
		}
		b, err := hx.SearchText(ctx, q, pub, 10)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a, b) {
			t.Errorf("public hits for %q:\nwithout the hidden chunks %v\nwith them %v", q, a, b)
		}
	}
}

// TestRareScoredBranches: the optional clauses go on the branches of the
// rarest terms while their visible dfs add up to at most the share of
// the visible chunks, the rarest always; common terms never have a
// branch; share 0 means every branch (nil).
func TestRareScoredBranches(t *testing.T) {
	//             0     1      2    3     4
	vdf := []int{900, 50000, 100, 300, 60000}
	common := []bool{false, true, false, false, true}
	for _, c := range []struct {
		share float64
		want  []bool
	}{
		{0, nil},
		{0.0001, []bool{false, false, true, false, false}}, // budget 10: the rarest alone
		{0.004, []bool{false, false, true, true, false}},   // budget 400: 100 + 300
		{0.013, []bool{true, false, true, true, false}},    // budget 1,300: all three rare
		{1, []bool{true, false, true, true, false}},
	} {
		got := redisearch.RareScored(c.share, vdf, 100000, common)
		if !slices.Equal(got, c.want) {
			t.Errorf("share %v: scored %v, want %v", c.share, got, c.want)
		}
	}
}

// TestRareKeptClauses: the branches left without every optional clause
// keep those of the heaviest common terms (by weight), and the rarest
// branches carry all of them.
func TestRareKeptClauses(t *testing.T) {
	weights := []float64{5, 0.4, 3, 0.9, 0.2}
	common := []bool{false, true, false, true, true}
	// The common terms weigh 0.4, 0.9 and 0.2: the two heaviest are 3 and 1.
	if got, want := redisearch.RareKept(0.01, 2, weights, common), []bool{false, true, false, true, false}; !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v (the two heaviest common terms)", got, want)
	}
	if got := redisearch.RareKept(0, 2, weights, common); got != nil {
		t.Errorf("kept %v without OptShare, want nil", got)
	}
	terms := []string{"ra", "ca", "rb", "cb", "cc"}
	q := redisearch.RareQuery(terms, common, []bool{true, false, false, false, false}, []bool{false, true, false, true, false})
	want := "((@content:ra)=>{$weight: 1} (~@content:ca)=>{$weight: 1} (~@content:cb)=>{$weight: 1} (~@content:cc)=>{$weight: 1}) | " +
		"((@content:rb)=>{$weight: 1} (~@content:ca)=>{$weight: 1} (~@content:cb)=>{$weight: 1})"
	if q != want {
		t.Errorf("query\n%s\nwant\n%s", q, want)
	}
}
