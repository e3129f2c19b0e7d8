package bleveindex

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/embed"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/vectors"
)

const hollinCorpus = "../../../testdata/hollin/corpus.jsonl"

// countingEmbedder wraps the builtin and counts what it embeds; it can be
// told to fail, to test that a failed build leaves the old index alone.
type countingEmbedder struct {
	*embed.Hashed
	mu    sync.Mutex
	texts int
	fail  error
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fail != nil {
		return nil, c.fail
	}
	c.texts += len(texts)
	return c.Hashed.Embed(ctx, texts)
}

func newCounting(t *testing.T) *countingEmbedder {
	h, err := embed.NewHashed(64)
	if err != nil {
		t.Fatal(err)
	}
	return &countingEmbedder{Hashed: h}
}

func hollinChunks(t *testing.T) ([]corpus.Document, []corpus.Chunk) {
	t.Helper()
	docs, err := corpus.LoadJSONL(hollinCorpus)
	if err != nil {
		t.Fatal(err)
	}
	return docs, wholeChunks(docs)
}

func wholeChunks(docs []corpus.Document) []corpus.Chunk {
	out := make([]corpus.Chunk, len(docs))
	for i := range docs {
		out[i] = corpus.NewChunk(&docs[i], 0, docs[i].Text)
	}
	return out
}

func build(t *testing.T, dir string, chunks []corpus.Chunk, e backend.Embedder) backend.BuildStats {
	t.Helper()
	_, st, err := Build(context.Background(), dir, chunks, backend.BuildOptions{Checksum: "x", Embedder: e, Chunking: "whole"})
	if err != nil {
		t.Fatalf("Build error: %v", err)
	}
	return st
}

func open(t *testing.T, dir string) *Index {
	t.Helper()
	ix, err := Open(dir)
	if err != nil {
		t.Fatalf("Open(%s) error: %v", dir, err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func TestBuildOpenManifest(t *testing.T) {
	_, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "ix")
	e := newCounting(t)
	st := build(t, dir, chunks, e)
	if st.Documents != 33 || st.Chunks != 33 || st.Embedded != 33 || st.Reused != 0 {
		t.Errorf("Build stats = %+v, want 33 documents, 33 chunks, 33 embedded", st)
	}
	ix := open(t, dir)
	m := ix.Manifest()
	if m.SchemaVersion != SchemaVersion || m.Embedder != e.ID() || m.Dim != 64 || m.BM25 != backend.DefaultBM25 ||
		m.Analyzer != "en" || m.Chunking != "whole" || m.Chunks != 33 || m.Documents != 33 || m.BuiltAt.IsZero() {
		t.Errorf("Manifest = %+v", m)
	}
	if ix.Len() != 33 || len(ix.Check()) != 0 {
		t.Errorf("Len, Check = %d, %q; want 33 and no warnings", ix.Len(), ix.Check())
	}
	if df, err := ix.DocFreq("warranti"); df < 3 || err != nil {
		t.Errorf("DocFreq(warranti) = %d, %v; want >= 3 (an analyzed term) and no error", df, err)
	}
	if _, err := ix.Chunks(context.Background(), []string{"nope#0"}); !errs.Is(errs.NotFound, err) {
		t.Errorf("Chunks(unknown) error = %v, want not_found", err)
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(t.TempDir()); !errs.Is(errs.NotFound, err) {
		t.Errorf("Open(empty dir) error = %v, want not_found", err)
	}
	_, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "ix")
	build(t, dir, chunks, nil)
	os.WriteFile(filepath.Join(dir, manifestFile), []byte(`{"schema_version": 1}`), 0o644)
	if _, err := Open(dir); !errs.Is(errs.Invalid, err) {
		t.Errorf("Open(old schema) error = %v, want invalid", err)
	}
}

func TestBM25ParamsAreProcessWide(t *testing.T) {
	_, chunks := hollinChunks(t)
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	build(t, a, chunks, nil)
	if _, _, err := Build(context.Background(), b, chunks, backend.BuildOptions{BM25: backend.BM25{K1: 1.2, B: 0.75}}); err != nil {
		t.Fatal(err)
	}
	ia := open(t, a)
	if _, err := Open(b); !errs.Is(errs.Conflict, err) {
		t.Errorf("Open(index with other backend.BM25 params) while another is open: error = %v, want conflict", err)
	}
	ia.Close()
	ib, err := Open(b)
	if err != nil {
		t.Fatalf("Open after the other index closed: %v", err)
	}
	ib.Close()
	ib.Close() // a second Close is a no-op and must not unbalance the count
	again, err := Open(a)
	if err != nil {
		t.Fatalf("Open after closing both: %v", err)
	}
	again.Close()
}

// TestIncrementalRebuild: unchanged chunks are not re-embedded, changed
// and new ones are, removed ones disappear from every part of the index.
func TestIncrementalRebuild(t *testing.T) {
	docs, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "ix")
	e := newCounting(t)
	build(t, dir, chunks, e)

	again := newCounting(t)
	if st := build(t, dir, chunks, again); st.Embedded != 0 || st.Reused != 33 || again.texts != 0 {
		t.Errorf("rebuild of the same corpus: stats %+v, embedded %d texts; want 0 embedded, 33 reused", st, again.texts)
	}

	// change one document, remove one, add one
	next := slices.Clone(docs)
	next[0].Text += " Keep your receipt."
	removed := next[1].ID
	next = slices.Delete(next, 1, 2)
	next = append(next, corpus.Document{ID: "new-doc", Title: "New", Text: "A brand new notice about toasters.",
		Status: corpus.Current, Authority: 1, ACL: []string{"public"}})
	third := newCounting(t)
	st := build(t, dir, wholeChunks(next), third)
	if st.Embedded != 2 || st.Reused != 31 || st.Removed != 1 || third.texts != 2 {
		t.Errorf("incremental rebuild: stats %+v, embedded %d texts; want 2 embedded, 31 reused, 1 removed", st, third.texts)
	}
	ix := open(t, dir)
	if _, err := ix.Chunks(context.Background(), []string{removed + "#0"}); !errs.Is(errs.NotFound, err) {
		t.Errorf("removed chunk %s still in the chunk store (err %v)", removed, err)
	}
	f := backend.Filter{Groups: []string{"public"}}
	hits, err := ix.SearchText(context.Background(), "warranty year purchase archived", f, 100)
	if err != nil {
		t.Fatal(err)
	}
	vec, _ := third.Hashed.Embed(context.Background(), []string{"warranty"})
	vhits, _, err := ix.SearchVector(context.Background(), vec[0], f, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range append(hits, vhits...) {
		if h.ChunkID == removed+"#0" {
			t.Errorf("removed document %s is still retrieved", removed)
		}
	}
	// the new document is searchable by both retrievers
	hits, _ = ix.SearchText(context.Background(), "toasters", f, 5)
	vec, _ = third.Hashed.Embed(context.Background(), []string{"a brand new notice about toasters"})
	vhits, _, _ = ix.SearchVector(context.Background(), vec[0], f, 1)
	if len(hits) == 0 || hits[0].ChunkID != "new-doc#0" || vhits[0].ChunkID != "new-doc#0" {
		t.Errorf("new document not found first: bm25 %v, vector %v", hits, vhits)
	}
}

// TestFailedBuildKeepsOldIndex: a build that fails half way leaves the
// previous index complete and openable, and no temporary directory behind.
func TestFailedBuildKeepsOldIndex(t *testing.T) {
	_, chunks := hollinChunks(t)
	parent := t.TempDir()
	dir := filepath.Join(parent, "ix")
	build(t, dir, chunks, newCounting(t))
	before, _ := os.ReadFile(filepath.Join(dir, manifestFile))

	e := newCounting(t)
	e.fail = errs.Errorf("test", errs.Unavailable, "embedding server down")
	changed := slices.Clone(chunks)
	changed[0].Text = "changed"
	_, _, err := Build(context.Background(), dir, changed, backend.BuildOptions{Embedder: e})
	if !errs.Is(errs.Unavailable, err) {
		t.Fatalf("Build with a failing embedder: error = %v, want unavailable", err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, manifestFile))
	if string(before) != string(after) {
		t.Error("a failed build changed the old index's manifest")
	}
	open(t, dir)
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("after a failed build the parent holds %v, want only ix", names)
	}
}

// TestFiltersAgree checks the bleve filter and the vector filter against
// backend.Filter.Allows, the one definition of what passes, over the Hollin corpus.
func TestFiltersAgree(t *testing.T) {
	_, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "ix")
	e := newCounting(t)
	build(t, dir, chunks, e)
	ix := open(t, dir)
	filters := []backend.Filter{
		{Groups: []string{"public"}},
		{Groups: []string{"staff"}},
		{Groups: []string{"partner:brook-street"}},
		{Groups: []string{"finance", "partners"}},
		{Groups: []string{"public", "staff"}, Types: []string{"ticket", "faq"}},
		{Groups: []string{"public"}, Products: []string{"X200"}},
		{Groups: []string{"public"}, Statuses: []corpus.Status{corpus.Archived}},
		{Groups: []string{"public", "staff"}, MinAuthority: 0.8},
		{Groups: []string{"public", "staff"}, UpdatedFrom: "2026-05-01", UpdatedTo: "2026-09-12"},
		{Groups: []string{"nobody"}},
	}
	// every Hollin chunk contains at least one of these terms
	const everything = "hollin warranty x200 x300 k50 repair case parts purchase privacy data"
	vec := make([]float32, 64)
	vec[0] = 1
	for _, f := range filters {
		var want []string
		for i := range chunks {
			if f.Allows(&chunks[i]) {
				want = append(want, chunks[i].ID)
			}
		}
		sort.Strings(want)
		text, err := ix.SearchText(context.Background(), everything, f, 1000)
		if err != nil {
			t.Fatal(err)
		}
		vhits, st, err := ix.SearchVector(context.Background(), vec, f, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if got := sortedIDs(vhits); !slices.Equal(got, want) || st.Allowed != len(want) {
			t.Errorf("SearchVector(%+v) = %v (allowed %d), want exactly %v", f, got, st.Allowed, want)
		}
		if got := sortedIDs(text); !slices.Equal(got, want) {
			t.Errorf("SearchText(%+v) = %v, want exactly %v", f, got, want)
		}
	}
	if _, err := ix.SearchText(context.Background(), "x", backend.Filter{}, 5); !errs.Is(errs.Invalid, err) {
		t.Errorf("SearchText without groups: error = %v, want invalid", err)
	}
	if _, _, err := ix.SearchVector(context.Background(), vec[:3], backend.Filter{Groups: []string{"public"}}, 5); !errs.Is(errs.Invalid, err) {
		t.Errorf("SearchVector with a 3-d vector: error = %v, want invalid", err)
	}
}

func sortedIDs(hits []backend.Hit) []string {
	out := make([]string, 0, len(hits))
	for _, h := range hits {
		out = append(out, h.ChunkID)
	}
	sort.Strings(out)
	return out
}

func TestNearDuplicates(t *testing.T) {
	_, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "ix")
	build(t, dir, chunks, nil)
	ix := open(t, dir)
	p := ix.Fingerprints([]string{"faq-warranty-claim#0", "faq-warranty-claim-copy#0", "pol-repairs#0", "unknown#0"})
	if !backend.NearDuplicate(p[0], p[1]) {
		t.Error("faq-warranty-claim and its copy are not near-duplicates")
	}
	if backend.NearDuplicate(p[0], p[2]) || backend.NearDuplicate(p[3], p[3]) {
		t.Error("unrelated chunks or an unknown id count as near-duplicates")
	}
	// no other pair in the corpus is a near-duplicate
	ids := make([]string, len(chunks))
	for i := range chunks {
		ids[i] = chunks[i].ID
	}
	all := ix.Fingerprints(ids)
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			if backend.NearDuplicate(all[i], all[j]) && !(ids[i] == "faq-warranty-claim#0" && ids[j] == "faq-warranty-claim-copy#0") {
				t.Errorf("%s and %s fingerprint as near-duplicates", ids[i], ids[j])
			}
		}
	}
}

// TestStatsMatchDocFreq: the statistics a build computes before the index
// exists equal what the opened index reports.
func TestStatsMatchDocFreq(t *testing.T) {
	_, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "ix")
	build(t, dir, chunks, nil)
	ix := open(t, dir)
	st := backend.NewStats(chunks)
	if st.Len() != ix.Len() {
		t.Errorf("Stats.Len = %d, index Len = %d", st.Len(), ix.Len())
	}
	for _, term := range []string{"warranti", "x200", "kettl", "cleckheaton", "absent"} {
		if df, err := ix.DocFreq(term); st.DocFreq(term) != df || err != nil {
			t.Errorf("Stats.DocFreq(%s) = %d, index DocFreq = %d, %v", term, st.DocFreq(term), df, err)
		}
	}
}

// TestVisibleVocabulary: statistics for a principal count only the chunks
// it may see, each once, and all groups together give the whole index.
func TestVisibleVocabulary(t *testing.T) {
	_, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "ix")
	build(t, dir, chunks, nil)
	ix := open(t, dir)
	public := ix.Visible([]string{"public"})
	if got := public.DocFreq("calder"); got != 0 {
		t.Errorf("public DocFreq(calder) = %d, want 0: only a partner agreement says it", got)
	}
	if got := ix.Visible([]string{"partner:calder-fix"}).DocFreq("calder"); got != 1 {
		t.Errorf("calder-fix DocFreq(calder) = %d, want 1", got)
	}
	all := ix.Visible([]string{"public", "partners", "staff", "finance", "partner:brook-street", "partner:calder-fix"})
	if df, err := ix.DocFreq("warranti"); all.Len() != ix.Len() || all.DocFreq("warranti") != df || err != nil {
		t.Errorf("every group: Len %d DocFreq(warranti) %d; want the index's %d and %d (%v)", all.Len(), all.DocFreq("warranti"), ix.Len(), df, err)
	}
	if public.Len() >= ix.Len() || public.Len() == 0 {
		t.Errorf("public Len = %d of %d", public.Len(), ix.Len())
	}
	if n := ix.Visible(nil).Len(); n != 0 {
		t.Errorf("no groups: Len = %d, want 0", n)
	}
}

var everyGroup = []string{"public", "partners", "staff", "finance", "partner:brook-street", "partner:calder-fix"}

// TestScoringIsBM25Query checks the postings' top-k scores against
// backend.BM25Query over every visible chunk that passes the filter, its
// statistics counted independently (backend.Parts: chunk count, document
// frequencies, and the mean length in tokens), for a principal who sees
// everything and for restricted ones.
func TestScoringIsBM25Query(t *testing.T) {
	_, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "ix")
	build(t, dir, chunks, nil)
	ix := open(t, dir)
	ctx := context.Background()
	if n := ix.Visible(everyGroup).Len(); n != ix.Len() {
		t.Fatalf("every group sees %d of %d chunks", n, ix.Len())
	}
	parts := backend.NewParts(nil)
	chunkTerms := make([][]string, len(chunks))
	for i := range chunks {
		chunkTerms[i] = ix.terms(chunks[i].Title + "\n" + chunks[i].Text)
		parts.Add(&chunks[i], chunkTerms[i])
	}
	filters := []backend.Filter{
		{Groups: everyGroup},
		{Groups: everyGroup, Statuses: []corpus.Status{corpus.Current}, Types: []string{"policy", "manual", "faq"}},
		{Groups: everyGroup, MinAuthority: 0.8, UpdatedFrom: "2025-01-01"},
		{Groups: []string{"public"}},
		{Groups: []string{"staff", "partner:calder-fix"}},
	}
	for i, q := range []string{"warranty motor X300 Pro", "E7 error", "descale descaling hard water water", "repair centre moved", "quoxil", "the a of", "E12 seal part", "warranty claim proof of purchase abroad", "warranty warranty claim"} {
		f := filters[i%len(filters)]
		vis := parts.Visible(f.Groups)
		if got, want := ix.Visible(f.Groups).(Vocabulary).AvgLen(), vis.AvgLen(); got != want {
			t.Errorf("groups %v: average length %v, want the mean %v", f.Groups, got, want)
		}
		bq := backend.NewBM25Query(vis, ix.manifest.BM25, ix.terms(q))
		var want []backend.Hit
		for j := range chunks {
			if !corpus.Visible(chunks[j].ACL, f.Groups) || !f.Allows(&chunks[j]) {
				continue
			}
			var sum float64
			matched := 0
			for c, term := range bq.Terms {
				if tf := countOf(chunkTerms[j], term); tf > 0 {
					sum += bq.Clause(c, tf, float64(len(chunkTerms[j])))
					matched++
				}
			}
			if matched > 0 {
				want = append(want, backend.Hit{ChunkID: chunks[j].ID, Score: bq.Score(sum, matched)})
			}
		}
		want = backend.SortHits(want, 40)
		got, err := ix.SearchText(ctx, q, f, 40)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Errorf("%q: %d hits from the postings, exhaustive scoring %d", q, len(got), len(want))
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%q hit %d: postings %s %.17g, exhaustive %s %.17g", q, i, got[i].ChunkID, got[i].Score, want[i].ChunkID, want[i].Score)
			}
		}
	}
}

func countOf(ts []string, t string) int {
	n := 0
	for _, x := range ts {
		if x == t {
			n++
		}
	}
	return n
}

// TestHiddenWordsLeaveNoTrace checks that a public search's hits and
// scores are the same whether the query holds a word only a hidden
// document has or a word no document has, and that restricted scores
// match an index built from the visible chunks alone.
func TestHiddenWordsLeaveNoTrace(t *testing.T) {
	_, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "ix")
	build(t, dir, chunks, nil)
	ix := open(t, dir)
	var public []corpus.Chunk
	for _, c := range chunks {
		if c.VisibleTo([]string{"public"}) {
			public = append(public, c)
		}
	}
	pdir := filepath.Join(t.TempDir(), "public")
	build(t, pdir, public, nil)
	pix := open(t, pdir)
	ctx := context.Background()
	f := backend.Filter{Groups: []string{"public"}}
	for _, pair := range [][2]string{{"warranty calder", "warranty quoxil"}, {"repair rates brook", "repair rates zzyzx"}, {"parts cost", "parts cost"}} {
		a, err := ix.SearchText(ctx, pair[0], f, 10)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := ix.SearchText(ctx, pair[1], f, 10)
		if !slices.Equal(a, b) {
			t.Errorf("public %q vs %q: hits differ:\n%v\n%v", pair[0], pair[1], a, b)
		}
		only, _ := pix.SearchText(ctx, pair[0], f, 10)
		if len(only) != len(a) {
			t.Fatalf("%q: %d hits, an index of public chunks only %d", pair[0], len(a), len(only))
		}
		for i := range a {
			if a[i].ChunkID != only[i].ChunkID || math.Abs(a[i].Score-only[i].Score) > 1e-9*a[i].Score {
				t.Errorf("%q hit %d: %v, an index of public chunks only %v", pair[0], i, a[i], only[i])
			}
		}
	}
	if w := ix.Warnings([]string{"public"}); len(w) != 0 {
		t.Errorf("Warnings(public) = %q, want none", w)
	}
}

// TestWarningsShowOnlyWhatGroupsSee: a chunk with no text counts in the
// warnings of the principals who may see it only, and no warning states
// whole-index counts; Check keeps them for operators.
func TestWarningsShowOnlyWhatGroupsSee(t *testing.T) {
	docs, chunks := hollinChunks(t)
	empty := corpus.Document{ID: "staff-empty", Title: "Empty staff note", ACL: []string{"staff"}, Status: corpus.Current}
	docs = append(docs, empty)
	chunks = append(chunks, corpus.NewChunk(&docs[len(docs)-1], 0, ""))
	dir := filepath.Join(t.TempDir(), "ix")
	build(t, dir, chunks, nil)
	ix := open(t, dir)
	if w := ix.Warnings([]string{"public"}); len(w) != 0 {
		t.Errorf("Warnings(public) = %q, want none: the empty chunk is staff-only", w)
	}
	if w := ix.Warnings([]string{"staff"}); len(w) != 1 || !strings.HasPrefix(w[0], "1 chunks you can see have no text") {
		t.Errorf("Warnings(staff) = %q, want the one empty chunk staff may see", w)
	}
	if c := ix.Check(); len(c) != 1 || !strings.Contains(c[0], "1 chunks have no text") {
		t.Errorf("Check() = %q, want the operator's count", c)
	}
}

// TestHoldings: which of a question's terms chunks hold together is
// counted over the visible chunks only.
func TestHoldings(t *testing.T) {
	_, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "ix")
	build(t, dir, chunks, nil)
	ix := open(t, dir)
	public := ix.Visible([]string{"public"})
	held := func(v backend.Vocabulary, terms []string, f *backend.Filter) map[uint64]int {
		t.Helper()
		h, err := v.Holdings(context.Background(), terms, f)
		if err != nil {
			t.Fatalf("Holdings(%q): %v", terms, err)
		}
		return h
	}
	// together counts the chunks holding every one of terms.
	together := func(v backend.Vocabulary, terms ...string) int {
		n := 0
		for mask, c := range held(v, terms, nil) {
			if mask == 1<<len(terms)-1 {
				n += c
			}
		}
		return n
	}
	for _, tc := range []struct {
		vocab backend.Vocabulary
		terms []string
		want  int
	}{
		{public, []string{"k50", "pair"}, 1},         // the K50 app page; a staff ticket too, unseen
		{public, []string{"pmp", "x300", "cost"}, 0}, // only finance's cost sheet
		{ix.Visible([]string{"public", "finance"}), []string{"pmp", "x300", "cost"}, 1},
		{public, []string{"x200", "warranti", "nosuchterm"}, 0},
		{public, []string{"warranti"}, public.DocFreq("warranti")},
	} {
		if got := together(tc.vocab, tc.terms...); got != tc.want {
			t.Errorf("chunks holding all of %v: %d, want %d", tc.terms, got, tc.want)
		}
	}
	n := 0
	for _, c := range held(public, []string{"x200", "warranti"}, nil) {
		n += c
	}
	if want := public.DocFreq("x200") + public.DocFreq("warranti") - together(public, "x200", "warranti"); n != want {
		t.Errorf("chunks holding x200 or warranti: %d, want %d", n, want)
	}
	// A filter narrows them to what a search could return: the K50
	// manual says "descale", the FAQ pages do not.
	for _, tc := range []struct {
		f    *backend.Filter
		want int
	}{{nil, 1}, {&backend.Filter{Groups: []string{"public"}, Types: []string{"faq"}}, 0}, {&backend.Filter{Groups: []string{"public"}, Products: []string{"K50"}}, 1}} {
		n := 0
		for mask, c := range held(public, []string{"k50", "descal"}, tc.f) {
			if mask == 3 {
				n += c
			}
		}
		if n != tc.want {
			t.Errorf("chunks holding k50 and descal, filter %+v: %d, want %d", tc.f, n, tc.want)
		}
	}
	if held(public, make([]string, backend.MaxHeld+1), nil) != nil {
		t.Errorf("Holdings of %d terms: not nil", backend.MaxHeld+1)
	}
}

// TestChunksComeBackFromDisk: every chunk reads back as it was indexed,
// whatever order the ids are asked in, and its fingerprint is its text's.
func TestChunksComeBackFromDisk(t *testing.T) {
	_, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "ix")
	build(t, dir, chunks, nil)
	ix := open(t, dir)
	ids := make([]string, len(chunks))
	for i := range chunks {
		ids[len(chunks)-1-i] = chunks[i].ID
	}
	got, err := ix.Chunks(context.Background(), ids)
	if err != nil {
		t.Fatal(err)
	}
	prints := ix.Fingerprints(ids)
	an := terms.New()
	for i := range got {
		want := chunks[len(chunks)-1-i]
		// As JSON: an empty list reads back as none.
		if a, b := jsonOf(t, got[i]), jsonOf(t, want); a != b {
			t.Errorf("chunk %s: read back %+v, indexed %+v", want.ID, got[i], want)
		}
		if p := backend.Fingerprint(an.Terms(want.Text)); prints[i] != p {
			t.Errorf("chunk %s: fingerprint %x, want %x", want.ID, prints[i], p)
		}
		if !ix.HasDocument(want.DocID) {
			t.Errorf("HasDocument(%s) = false", want.DocID)
		}
	}
	if ix.HasDocument("nope") {
		t.Error("HasDocument(nope) = true")
	}
}

func jsonOf(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestVectorsWithoutCodes: an index whose quantized codes are gone scans
// its float32 vectors exactly, finds what the index with codes finds, and
// says so.
func TestVectorsWithoutCodes(t *testing.T) {
	_, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "ix")
	e := newCounting(t)
	build(t, dir, chunks, e)
	vec, err := e.Embed(context.Background(), []string{"warranty claim abroad"})
	if err != nil {
		t.Fatal(err)
	}
	f := backend.Filter{Groups: []string{"public", "staff"}}
	search := func() ([]backend.Hit, backend.VectorStats) {
		ix, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		hits, st, err := ix.SearchVector(context.Background(), vec[0], f, 5)
		if err != nil {
			t.Fatal(err)
		}
		return hits, st
	}
	want, _ := search()
	path := filepath.Join(dir, vectorsFile)
	for _, p := range []string{vectors.BitPath(path), vectors.Int8Path(path)} {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	got, st := search()
	if !slices.Equal(got, want) || len(got) != 5 {
		t.Errorf("without codes: %v, with them %v", got, want)
	}
	if !strings.HasPrefix(st.Method, "exact float32 scan") {
		t.Errorf("Method = %q, want an exact float32 scan", st.Method)
	}
}
