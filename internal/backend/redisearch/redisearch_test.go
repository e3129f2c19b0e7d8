package redisearch_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/bleveindex"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/chunk"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/terms"
)

func hollinChunks(t testing.TB) ([]corpus.Chunk, string) {
	t.Helper()
	docs, err := corpus.LoadJSONL(filepath.Join("../../../testdata/hollin", "corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ch, _ := chunk.New(chunk.Default())
	return ch.SplitAll(docs), corpus.Checksum(docs)
}

func ids(hits []backend.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ChunkID
	}
	return out
}

// buildOpen builds chunks into index name and opens it.
func buildOpen(t testing.TB, rdb *redis.Client, name string, chunks []corpus.Chunk, o redisearch.BuildOptions) *redisearch.Index {
	t.Helper()
	ctx := context.Background()
	if _, _, err := redisearch.Build(ctx, rdb, name, chunks, o); err != nil {
		t.Fatal(err)
	}
	ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func TestBuildOpenSearch(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	name := redistest.Name("hollin")
	chunks, sum := hollinChunks(t)
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	m, st, err := redisearch.Build(ctx, rdb, name, chunks, redisearch.BuildOptions{Checksum: sum, Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	if st.Chunks != len(chunks) || st.Embedded != len(chunks) || m.Version != 1 || m.Vector != redisearch.HNSW {
		t.Fatalf("Build = %+v, %+v; want %d chunks embedded, version 1, HNSW", m, st, len(chunks))
	}
	// The graph is built with the measured parameters, not RediSearch's
	// defaults (M 16, EF_CONSTRUCTION 200: four to five times the
	// insertion time; docs/retrieval.md), and the manifest says which.
	if m.HNSWM != 16 || m.HNSWEFConstruction != 32 || m.VectorType != redisearch.BFloat16 {
		t.Errorf("manifest HNSW M %d, EF_CONSTRUCTION %d, type %q; want 16, 32, BFLOAT16", m.HNSWM, m.HNSWEFConstruction, m.VectorType)
	}
	info, err := rdb.Do(ctx, "FT.INFO", name).Result()
	if err != nil || !strings.Contains(fmt.Sprint(info), "algorithm HNSW data_type BFLOAT16 dim 768 distance_metric IP M 16 ef_construction 32") {
		t.Errorf("FT.INFO %s: want BFLOAT16, M 16, ef_construction 32 in the vector field; got %v, %v", name, info, err)
	}
	ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ix.Len() != len(chunks) || ix.Manifest().Embedder != emb.ID() {
		t.Fatalf("Open: %d chunks, embedder %q; want %d, %q", ix.Len(), ix.Manifest().Embedder, len(chunks), emb.ID())
	}
	pub := backend.Filter{Groups: []string{"public"}}
	hits, err := ix.SearchText(ctx, "X300 Pro motor warranty years", pub, 5)
	if err != nil || len(hits) == 0 {
		t.Fatalf("SearchText = %v, %v", hits, err)
	}
	if !strings.HasPrefix(hits[0].ChunkID, "pol-warranty-2026#") {
		t.Errorf("SearchText(warranty) top = %v, want pol-warranty-2026 first", ids(hits))
	}
	got, err := ix.Chunks(ctx, ids(hits))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range got {
		if !c.VisibleTo(pub.Groups) || c.Text == "" || c.DocID == "" {
			t.Errorf("Chunks returned %+v: want a visible chunk with text", c)
		}
	}
	if fp := ix.Fingerprints(ids(hits)); fp[0] == 0 {
		t.Errorf("Fingerprints after Chunks = %v, want non-zero", fp)
	}
	vec, _ := emb.Embed(ctx, []string{"warranty motor"})
	vh, vs, err := ix.SearchVector(ctx, vec[0], pub, 5)
	if err != nil || len(vh) != 5 || vs.Method == "" {
		t.Fatalf("SearchVector = %v, %+v, %v", vh, vs, err)
	}
	// Every principal's KNN walks the HNSW graph with its ACL filter
	// inside the query (vectors carry no statistics); the hits are
	// visible ones.
	if vs.Method != "RediSearch HNSW KNN" {
		t.Errorf("SearchVector for public: method %q, want the HNSW walk", vs.Method)
	}
	vcs, err := ix.Chunks(ctx, ids(vh))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range vcs {
		if !corpus.Visible(c.ACL, pub.Groups) {
			t.Errorf("SearchVector for public returned %s (ACL %v)", c.ID, c.ACL)
		}
	}
	all := backend.Filter{Groups: []string{"public", "staff", "finance"}}
	if _, vs, err := ix.SearchVector(ctx, vec[0], all, 5); err != nil || vs.Method != "RediSearch HNSW KNN" {
		t.Errorf("SearchVector for a principal who sees all: method %q, %v; want the HNSW walk", vs.Method, err)
	}
	if _, err := ix.SearchText(ctx, "warranty", backend.Filter{}, 5); !errs.Is(errs.Invalid, err) {
		t.Errorf("SearchText without groups: %v, want invalid", err)
	}
	if !ix.HasDocument("pol-warranty-2026") || ix.HasDocument("no-such-doc") {
		t.Errorf("HasDocument is wrong")
	}
}

// TestACLInsideTheQuery: a staff-only document is never a candidate for a
// public principal, in either leg, whatever the question says.
func TestACLInsideTheQuery(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	name := redistest.Name("acl")
	chunks := []corpus.Chunk{
		{ID: "pub#0", DocID: "pub", Title: "Kettle", Text: "The kettle warranty lasts two years.", Status: corpus.Current, Authority: 1, ACL: []string{"public"}},
		{ID: "staff#0", DocID: "staff", Title: "Kettle secret", Text: "The kettle warranty secret is quoxil.", Status: corpus.Current, Authority: 1, ACL: []string{"staff"}},
		{ID: "partner#0", DocID: "partner", Title: "Kettle partner", Text: "kettle warranty for partner brook street.", Status: corpus.Current, Authority: 1, ACL: []string{"partner:brook-street"}},
	}
	emb, _ := embed.NewHashed(64)
	ix := buildOpen(t, rdb, name, chunks, redisearch.BuildOptions{Embedder: emb, Vector: "flat"})
	for _, q := range []string{
		"kettle warranty", "quoxil", "warranty @acl:{staff}", "-x | *", `kettle") | @acl:{staff`,
		"kettle} | @acl:{staff", "* => [KNN 10 @vec $B]", `\ \\ " ' ~ % $ ^ & ;`, "@acl:{staff} quoxil",
	} {
		for _, g := range [][]string{{"public"}, {"public", "partner:brook-street"}} {
			hits, err := ix.SearchText(ctx, q, backend.Filter{Groups: g}, 10)
			if err != nil {
				t.Errorf("SearchText(%q, %v): %v", q, g, err)
				continue
			}
			for _, h := range hits {
				if h.ChunkID == "staff#0" || (h.ChunkID == "partner#0" && len(g) == 1) {
					t.Errorf("SearchText(%q) as %v returned %s", q, g, h.ChunkID)
				}
			}
			vec, _ := emb.Embed(ctx, []string{q})
			vh, _, err := ix.SearchVector(ctx, vec[0], backend.Filter{Groups: g}, 10)
			if err != nil {
				t.Errorf("SearchVector(%q): %v", q, err)
			}
			for _, h := range vh {
				if h.ChunkID == "staff#0" || (h.ChunkID == "partner#0" && len(g) == 1) {
					t.Errorf("SearchVector(%q) as %v returned %s", q, g, h.ChunkID)
				}
			}
		}
	}
	hits, err := ix.SearchText(ctx, "kettle", backend.Filter{Groups: []string{"partner:brook-street"}}, 10)
	if err != nil || !slices.Equal(ids(hits), []string{"partner#0"}) {
		t.Errorf("partner:brook-street search = %v, %v; want only partner#0 (TAG value with : and - escaped)", ids(hits), err)
	}
	hits, err = ix.SearchText(ctx, "quoxil", backend.Filter{Groups: []string{"staff"}}, 10)
	if err != nil || !slices.Equal(ids(hits), []string{"staff#0"}) {
		t.Errorf("staff search = %v, %v; want staff#0", ids(hits), err)
	}
	// Statistics are the principal's: a public caller's BM25 score for
	// "kettle warranty" is the same whether or not the hidden chunks exist.
	v := ix.Visible([]string{"public"})
	if v.Len() != 1 || v.DocFreq("quoxil") != 0 {
		t.Errorf("Visible(public): len %d, df(quoxil) %d; want 1, 0", v.Len(), v.DocFreq("quoxil"))
	}
}

// TestRebuildSwapsVersions: a rebuild is a new version; the alias and
// the current pointer move only when it is complete, the old version and
// its documents go, vectors of unchanged chunks are reused, removed
// documents disappear, and an open Index notices it is stale.
func TestRebuildSwapsVersions(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	name := redistest.Name("swap")
	chunks, _ := hollinChunks(t)
	emb, _ := embed.NewHashed(embed.DefaultHashedDim)
	if _, _, err := redisearch.Build(ctx, rdb, name, chunks, redisearch.BuildOptions{Embedder: emb}); err != nil {
		t.Fatal(err)
	}
	ix1, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if stale, err := ix1.Stale(ctx); stale || err != nil {
		t.Fatalf("a fresh index: Stale = %v, %v; want false", stale, err)
	}
	// Drop one document, change another's ACL to staff.
	var next []corpus.Chunk
	dropped := chunks[0].DocID
	for _, c := range chunks {
		if c.DocID == dropped {
			continue
		}
		if c.DocID == "pol-warranty-2026" {
			c.ACL = []string{"staff"}
		}
		next = append(next, c)
	}
	m, st, err := redisearch.Build(ctx, rdb, name, next, redisearch.BuildOptions{Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != 2 || st.Reused != len(next) || st.Embedded != 0 || st.Removed != len(chunks)-len(next) {
		t.Errorf("rebuild stats %+v (version %d): want all %d vectors reused, %d removed, version 2", st, m.Version, len(next), len(chunks)-len(next))
	}
	if stale, err := ix1.Stale(ctx); !stale || err != nil {
		t.Errorf("the old Index does not notice the new version at once: Stale = %v, %v", stale, err)
	}
	// Version 1 stays whole until the next build (a request in flight on
	// it finishes there): its search and an uncached chunk read work, with
	// its own ACL; before round 49 the build dropped it at once.
	if hits, err := ix1.SearchText(ctx, "X300 Pro motor warranty", backend.Filter{Groups: []string{"public"}}, 10); err != nil || len(hits) == 0 {
		t.Errorf("searching the replaced version before the next build: %d hits, %v; want hits", len(hits), err)
	}
	if cs, err := ix1.Chunks(ctx, []string{"pol-warranty-2026#0"}); err != nil || !cs[0].VisibleTo([]string{"public"}) {
		t.Errorf("reading the replaced version's pol-warranty-2026#0 before the next build: %+v, %v; want its public chunk", cs, err)
	}
	aliased, err := rdb.FTSearchWithArgs(ctx, name, "*", &redis.FTSearchOptions{CountOnly: true, DialectVersion: 2}).Result()
	if err != nil || aliased.Total != len(next) {
		t.Errorf("FT.SEARCH on the alias: %d docs, %v; want %d", aliased.Total, err, len(next))
	}
	ix2, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ix2.HasDocument(dropped) {
		t.Errorf("removed document %s is still there", dropped)
	}
	hits, err := ix2.SearchText(ctx, "X300 Pro motor warranty", backend.Filter{Groups: []string{"public"}}, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if strings.HasPrefix(h.ChunkID, "pol-warranty-2026#") {
			t.Errorf("public search after narrowing the ACL returned %s", h.ChunkID)
		}
	}
	// The next build drops version 1 before it writes, and keeps 2.
	if _, _, err := redisearch.Build(ctx, rdb, name, next, redisearch.BuildOptions{Embedder: emb}); err != nil {
		t.Fatal(err)
	}
	if _, err := ix1.SearchText(ctx, "warranty", backend.Filter{Groups: []string{"public"}}, 5); !errs.Is(errs.Unavailable, err) {
		t.Errorf("searching a dropped version: %v, want unavailable", err)
	}
	if n, _ := rdb.Keys(ctx, "assay:"+name+":v1*").Result(); len(n) != 0 {
		t.Errorf("version 1 left %d keys behind", len(n))
	}
	if _, err := ix2.SearchText(ctx, "warranty", backend.Filter{Groups: []string{"public"}}, 5); err != nil {
		t.Errorf("searching version 2, replaced by version 3: %v", err)
	}
}

func TestOpenFailures(t *testing.T) {
	ctx := context.Background()
	rdb := redisearch.NewClient("127.0.0.1:1", "")
	defer rdb.Close()
	_, err := redisearch.Open(ctx, rdb, "x", redisearch.Options{})
	if !errs.Is(errs.Unavailable, err) || !strings.Contains(err.Error(), "redis.addr") {
		t.Errorf("Open on a closed port: %v; want unavailable naming redis.addr", err)
	}
	srv := redistest.Start(t)
	if _, err := redisearch.Open(ctx, srv.Client(t), redistest.Name("none"), redisearch.Options{}); !errs.Is(errs.NotFound, err) {
		t.Errorf("Open of a missing index: %v, want not found", err)
	}
}

func TestBuildRefusesTagsThatChangeMeaning(t *testing.T) {
	srv := redistest.Start(t)
	// An ASCII control character: RediSearch's query lexer takes no
	// escape of one, so no query could name the value.
	for _, acl := range [][]string{{"staff,public"}, {" staff"}, {""}, nil, {"sta\x01ff"}} {
		c := []corpus.Chunk{{ID: "a#0", DocID: "a", Text: "x", Status: corpus.Current, ACL: acl}}
		_, _, err := redisearch.Build(context.Background(), srv.Client(t), redistest.Name("bad"), c, redisearch.BuildOptions{})
		if !errs.Is(errs.Invalid, err) || !strings.Contains(err.Error(), "acl") {
			t.Errorf("Build with ACL %q: %v; want invalid naming acl", acl, err)
		}
	}
}

// TestFilteredQueryScoresEveryTerm: with the ACL filter in the query, the
// one chunk with every query term ranks first among many filtered
// matches of one term. (The RediSearch 2.10 quirk TextQuery avoids, a
// union skipped through by an intersection scored by its first term,
// does not show at this size; the SciFact measurement in docs/retrieval.md
// does show it: bm25 nDCG@10 0.6386 with it, 0.6840 without.)
func TestFilteredQueryScoresEveryTerm(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	name := redistest.Name("union")
	var chunks []corpus.Chunk
	for i := range 300 {
		// Most kettle chunks are staff-only, so the filter is the smaller
		// side of the intersection and the union is skipped through.
		id, acl := fmt.Sprintf("a%03d", i), "staff"
		if i%5 == 0 {
			acl = "public"
		}
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: "Kettle", Text: "The kettle boils water quickly.", Status: corpus.Current, Authority: 1, ACL: []string{acl}})
	}
	chunks = append(chunks, corpus.Chunk{ID: "zz#0", DocID: "zz", Title: "Kettle care", Text: "Descale the kettle to remove limescale.", Status: corpus.Current, Authority: 1, ACL: []string{"public"}})
	ix := buildOpen(t, rdb, name, chunks, redisearch.BuildOptions{})
	hits, err := ix.SearchText(ctx, "kettle descale limescale", backend.Filter{Groups: []string{"public"}}, 1)
	if err != nil || len(hits) != 1 || hits[0].ChunkID != "zz#0" {
		t.Errorf("SearchText = %v, %v; want zz#0, the only chunk with all three terms", hits, err)
	}
}

// TestHiddenChunksChangeNoVisibleHit: the BM25 leg of a principal who
// sees only public chunks must return the same hits whether or not the
// index also holds staff chunks. Here 200 staff chunks say "alpha", so
// whole-index statistics (BM25STD) rank "beta" chunks above the public
// "alpha alpha" chunks, while the public chunks alone rank them equal in
// document frequency and the "alpha alpha" chunks first by frequency.
func TestHiddenChunksChangeNoVisibleHit(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	var public []corpus.Chunk
	for i := range 20 {
		public = append(public,
			corpus.Chunk{ID: fmt.Sprintf("a%02d#0", i), DocID: fmt.Sprintf("a%02d", i), Title: "t", Text: fmt.Sprintf("alpha alpha filler%d", i), Status: corpus.Current, Authority: 1, ACL: []string{"public"}},
			corpus.Chunk{ID: fmt.Sprintf("b%02d#0", i), DocID: fmt.Sprintf("b%02d", i), Title: "t", Text: fmt.Sprintf("beta filler%d", i), Status: corpus.Current, Authority: 1, ACL: []string{"public"}})
	}
	// Both indexes hold staff chunks, so the public principal is a
	// restricted one in both (a principal who sees every chunk reads only
	// the best k+16 by BM25STD, an approximation of its own).
	alone := append(slices.Clone(public), corpus.Chunk{ID: "s#0", DocID: "s", Title: "t", Text: "gamma", Status: corpus.Current, Authority: 1, ACL: []string{"staff"}})
	withHidden := slices.Clone(alone)
	for i := range 200 {
		withHidden = append(withHidden, corpus.Chunk{ID: fmt.Sprintf("s%03d#0", i), DocID: fmt.Sprintf("s%03d", i), Title: "t", Text: fmt.Sprintf("alpha secret%d", i), Status: corpus.Current, Authority: 1, ACL: []string{"staff"}})
	}
	search := func(chunks []corpus.Chunk) []backend.Hit {
		t.Helper()
		name := redistest.Name("hidden")
		ix := buildOpen(t, rdb, name, chunks, redisearch.BuildOptions{})
		hits, err := ix.SearchText(ctx, "alpha beta", backend.Filter{Groups: []string{"public"}}, 3)
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	a, b := search(alone), search(withHidden)
	if len(a) != 3 || !slices.Equal(a, b) {
		t.Errorf("public hits for %q, k=3:\nwith one staff chunk (gamma) %v\nwith 200 more saying alpha %v\nwant 3 hits, the same", "alpha beta", a, b)
	}
}

// TestHoldingsMatchBleve: which of a question's terms the visible chunks
// hold together is the same from the server as from bleve's postings,
// for principals who see everything and for restricted ones, from the
// server's postings and from its existence checks of term combinations.
func TestHoldingsMatchBleve(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	name := redistest.Name("holdings")
	chunks, sum := hollinChunks(t)
	rix := buildOpen(t, rdb, name, chunks, redisearch.BuildOptions{Checksum: sum})
	dir := filepath.Join(t.TempDir(), "bleve")
	if _, _, err := bleveindex.Build(ctx, dir, chunks, backend.BuildOptions{Checksum: sum, Chunking: "default"}); err != nil {
		t.Fatal(err)
	}
	bix, err := bleveindex.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer bix.Close()
	for _, groups := range [][]string{{"public"}, {"public", "staff"}, {"partner:brook-street"}, {"public", "staff", "partners", "finance", "partner:brook-street", "partner:calder-fix"}} {
		for _, terms := range [][]string{
			{"x300", "pro", "descal"},
			{"warranti", "motor", "year", "x200"},
			{"pmp", "x300", "cost"},
			{"rate", "brook", "street", "hour"},
			{"nosuchterm"},
		} {
			for _, f := range []*backend.Filter{nil, {Types: []string{"faq", "manual"}}, {Products: []string{"X300"}, Statuses: []corpus.Status{corpus.Current}}} {
				var bf *backend.Filter
				if f != nil {
					c := *f
					c.Groups = groups
					bf = &c
				}
				want := held(t, bix.Visible(groups), ctx, terms, bf)
				for _, bound := range []int{4096, 0, 2, 6} { // postings, existence checks, then both (rare terms read, common ones checked)
					old := redisearch.SetMaxPostings(bound)
					got := held(t, rix.Visible(groups), ctx, terms, f)
					redisearch.SetMaxPostings(old)
					// Checking existence gives bleve's term sets (nil is
					// "cannot tell").
					if got == nil || heldSets(got) != heldSets(want) {
						t.Errorf("groups %v, terms %v, filter %+v, postings up to %d: RediSearch %v, bleve %v", groups, terms, f, bound, got, want)
					}
				}
			}
		}
	}
}

// TestAverageLengthIsTheVisibleMean: the average length BM25 divides by
// is the mean length in tokens of the chunks a principal may see, each
// counted once however many of its groups its ACL names, whatever hidden
// chunks hold; it is what backend.Parts counts.
func TestAverageLengthIsTheVisibleMean(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	chunks := []corpus.Chunk{
		{ID: "a#0", DocID: "a", ACL: []string{"public"}, Text: "kettle descale kettle", Status: corpus.Current},
		{ID: "b#0", DocID: "b", ACL: []string{"team-a", "team-b"}, Title: "Rates", Text: "calder rates for the north region", Status: corpus.Current},
		{ID: "c#0", DocID: "c", ACL: []string{"team-b", "team-a", "team-b"}, Text: "brook street", Status: corpus.Current},
		{ID: "d#0", DocID: "d", ACL: []string{"team-b"}, Text: "quoxil quoxil quoxil quoxil quoxil quoxil quoxil", Status: corpus.Current},
		{ID: "e#0", DocID: "e", ACL: []string{"finance"}, Text: strings.Repeat("ledger ", 200), Status: corpus.Current},
		{ID: "f#0", DocID: "f", ACL: []string{"public"}, Status: corpus.Current},
	}
	ix := buildOpen(t, rdb, redistest.Name("avglen"), chunks, redisearch.BuildOptions{})
	parts, _ := analyzedParts(terms.New(), chunks)
	for _, groups := range [][]string{{"public"}, {"team-a"}, {"team-a", "team-b"}, {"team-b", "public"}, {"finance", "public", "team-a", "team-b"}, {"nobody"}} {
		got := ix.Visible(groups).(interface{ AvgLen() float64 }).AvgLen()
		if want := parts.Visible(groups).AvgLen(); got != want {
			t.Errorf("groups %v: average length %v, want %v", groups, got, want)
		}
	}
}

// TestCandidatesKeepEveryTieInOneRead: the BM25 leg re-scores every chunk
// tying the depth-th BM25STD score (the engine orders ties arbitrarily),
// and reads them with the candidates in one FT.SEARCH when the tie fits
// in the margin: a second page evaluates the whole query again.
func TestCandidatesKeepEveryTieInOneRead(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	name := redistest.Name("ties")
	var chunks []corpus.Chunk
	// 150 chunks that tie, written in an order unlike their ids'.
	for i := range 150 {
		id := fmt.Sprintf("a%03d", (i*67)%150)
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: "Kettle", Text: "The kettle boils water.", Status: corpus.Current, Authority: 1, ACL: []string{"public"}})
	}
	for _, id := range []string{"zy", "zz"} {
		chunks = append(chunks, corpus.Chunk{ID: id + "#0", DocID: id, Title: "Kettle care", Text: "Descale the kettle.", Status: corpus.Current, Authority: 1, ACL: []string{"public"}})
	}
	ix := buildOpen(t, rdb, name, chunks, redisearch.BuildOptions{})
	f := backend.Filter{Groups: []string{"public"}}
	want := []string{"zy#0", "zz#0", "a000#0", "a001#0", "a002#0"}
	for _, margin := range []int{0, 1, 32, 200} {
		old := redisearch.SetTieMargin(margin)
		hits, err := ix.SearchText(ctx, "kettle descale", f, 5)
		redisearch.SetTieMargin(old)
		if err != nil || !slices.Equal(ids(hits), want) {
			t.Errorf("margin %d: SearchText = %v, %v; want %v (ties broken by chunk id)", margin, ids(hits), err, want)
		}
	}
	// k 50: depth 50+96 = 146 of the 152 matches (zy, zz and the 150
	// that tie); the shipped margin (8) covers the other 6, so one
	// FT.SEARCH reads the candidates (the ties measured at 500,000 chunks
	// were 1 to 5 long).
	if _, err := ix.SearchText(ctx, "kettle descale", f, 50); err != nil { // statistics cached
		t.Fatal(err)
	}
	if err := rdb.ConfigResetStat(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	hits, err := ix.SearchText(ctx, "kettle descale", f, 50)
	if err != nil || len(hits) != 50 || hits[49].ChunkID != "a047#0" {
		t.Fatalf("SearchText k 50 = %d hits (last %v), %v; want 50, the last a047#0", len(hits), hits[len(hits)-1:], err)
	}
	info, err := rdb.Info(ctx, "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(info, "cmdstat_FT.SEARCH:calls=1,") {
		t.Errorf("one search sent other than one FT.SEARCH:\n%s", info)
	}
}
