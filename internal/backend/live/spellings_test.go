package live

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// openCorpus indexes body (corpus JSONL) with the default configuration
// and opens it as a worker does, without a thesaurus.
func openCorpus(t *testing.T, body string) *Index {
	t.Helper()
	dir := t.TempDir()
	corpus := filepath.Join(dir, "c.jsonl")
	if err := os.WriteFile(corpus, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.DataDir = dir
	cfg.Index.Corpus = corpus
	l, err := Open(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// openLexicon is the builtin assessor's view (lexicon) of body's index,
// opened as a worker does.
func openLexicon(t *testing.T, body string) lexicon {
	t.Helper()
	return lexicon{openCorpus(t, body).cur.Load().ix, newHeldMemo(), terms.New()}
}

// TestSpellings: the visible vocabulary spells an index term with the
// words of the chunks the groups may see, most used first, and never with
// a word only another group's chunks use; a term no visible chunk holds
// has no spelling. The rewriter then corrects "kettel" into "kettle".
func TestSpellings(t *testing.T) {
	body := `{"id":"a","title":"Kettle care","text":"Descale the kettle monthly. Kettles need it.","acl":["public"]}
{"id":"b","title":"K50","text":"The kettle boils in four minutes.","acl":["public"]}
{"id":"s","title":"Staff","text":"Kettling notes, kettled stock, descaling kit.","acl":["staff"]}
`
	lex := openLexicon(t, body)
	pub := lex.Visible([]string{"public"}).(assess.SpellingVocabulary)
	if got := strings.Join(pub.Spellings(context.Background(), "kettl", wire.Filters{}), ","); got != "kettle,kettles" {
		t.Errorf("public Spellings(kettl) = %q, want kettle,kettles (most used first, no staff word)", got)
	}
	if got := pub.Spellings(context.Background(), "descal", wire.Filters{}); strings.Join(got, ",") != "descale" {
		t.Errorf("public Spellings(descal) = %v, want [descale] (descaling is only in a staff chunk)", got)
	}
	if got := pub.Spellings(context.Background(), "stock", wire.Filters{}); got != nil {
		t.Errorf("public Spellings(stock) = %v, want none: only a staff chunk holds it", got)
	}
	r := assess.NewRewriter(lex.an, termList{lex, new(error)})
	if got, _ := r.Spell(context.Background(), "descale the kettel", pub, nil, wire.Filters{}); got != "descale the kettle" {
		t.Errorf("Spell = %q, want %q", got, "descale the kettle")
	}
}

// TestSpellingsUnstableTerm: a term the analyzer would stem again when
// searched as text ("coffe" → "coff", "purchas" → "purcha") is still
// spelt from the visible chunks holding it, not left without a spelling.
func TestSpellingsUnstableTerm(t *testing.T) {
	body := `{"id":"a","title":"Coffee maker","text":"Descale the coffee maker after each purchase.","acl":["public"]}
`
	lex := openLexicon(t, body)
	pub := lex.Visible([]string{"public"}).(assess.SpellingVocabulary)
	for term, want := range map[string]string{"coffe": "coffee", "purchas": "purchase"} {
		if ts := lex.an.Terms(term); len(ts) == 1 && ts[0] == term {
			t.Fatalf("the analyzer keeps %q: the test needs a term it stems again", term)
		}
		if got := strings.Join(pub.Spellings(context.Background(), term, wire.Filters{}), ","); got != want {
			t.Errorf("Spellings(%s) = %q, want %q", term, got, want)
		}
	}
}

// TestSpellingsWholeToken: a term the analyzer reads from a token with
// inner punctuation ("parts.hollin.example") is spelt as that token, as
// the rewriter's evidence words are (assess.SurfaceWords).
func TestSpellingsWholeToken(t *testing.T) {
	body := `{"id":"a","title":"Spares","text":"Order spares at parts.hollin.example.","acl":["public"]}
`
	lex := openLexicon(t, body)
	pub := lex.Visible([]string{"public"}).(assess.SpellingVocabulary)
	ts := lex.an.Terms("parts.hollin.example")
	if len(ts) != 1 {
		t.Fatalf("the analyzer splits parts.hollin.example into %v; this test expects one term", ts)
	}
	if got := strings.Join(pub.Spellings(context.Background(), ts[0], wire.Filters{}), ","); got != "parts.hollin.example" {
		t.Errorf("Spellings(%s) = %q, want parts.hollin.example", ts[0], got)
	}
}

// deadlineSearcher records the context of the searches made through it.
type deadlineSearcher struct {
	backend.Searcher
	seen *[]context.Context
}

func (s deadlineSearcher) SearchText(ctx context.Context, text string, f backend.Filter, k int) ([]backend.Hit, error) {
	*s.seen = append(*s.seen, ctx)
	return s.Searcher.SearchText(ctx, text, f, k)
}

type askerKey struct{}

// TestSpellingsCallerContext: Spellings searches under the caller's
// context (its values, deadline and cancellation), bound by its own
// timeout: a cancelled request spells nothing, and a request without a
// deadline still gets one of at most spellingTimeout.
func TestSpellingsCallerContext(t *testing.T) {
	body := `{"id":"a","title":"Kettle care","text":"Descale the kettle monthly.","acl":["public"]}
`
	lex := openLexicon(t, body)
	pub := lex.Visible([]string{"public"}).(filteredVocabulary)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if got := pub.Spellings(cancelled, "kettl", wire.Filters{}); got != nil {
		t.Errorf("Spellings under a cancelled context = %v, want none", got)
	}
	if got := pub.Spellings(context.Background(), "kettl", wire.Filters{}); strings.Join(got, ",") != "kettle" {
		t.Fatalf("Spellings(kettl) = %v, want [kettle] (the cancelled search was not kept)", got)
	}
	lex = openLexicon(t, body) // a memo of its own: the next Spellings searches
	pub = lex.Visible([]string{"public"}).(filteredVocabulary)
	var seen []context.Context
	pub.ix = deadlineSearcher{lex.Index, &seen}
	ctx := context.WithValue(context.Background(), askerKey{}, "run-1")
	if got := pub.Spellings(ctx, "kettl", wire.Filters{}); strings.Join(got, ",") != "kettle" {
		t.Fatalf("Spellings(kettl) = %v, want [kettle]", got)
	}
	end := time.Now()
	if len(seen) != 1 {
		t.Fatalf("%d searches, want 1", len(seen))
	}
	if seen[0].Value(askerKey{}) != "run-1" {
		t.Error("the search did not run under the caller's context")
	}
	if d, ok := seen[0].Deadline(); !ok || d.Sub(end) > spellingTimeout {
		t.Errorf("the search's deadline %v (set %v), want one within %v", d, ok, spellingTimeout)
	}
}

// TestSpellingsFilters: Spellings reads only the visible chunks that pass
// the run's filters, as the run's retrieval does: a word only a chunk the
// filters leave out uses is no spelling.
func TestSpellingsFilters(t *testing.T) {
	body := `{"id":"a","title":"K50 care","text":"Descale the kettle monthly.","acl":["public"],"products":["K50"]}
{"id":"b","title":"K70 care","text":"Kettles: descale them weekly. Kettles scale fast.","acl":["public"],"products":["K70"]}
`
	lex := openLexicon(t, body)
	pub := lex.Visible([]string{"public"}).(assess.SpellingVocabulary)
	if got := strings.Join(pub.Spellings(context.Background(), "kettl", wire.Filters{}), ","); got != "kettles,kettle" {
		t.Fatalf("unfiltered Spellings(kettl) = %q, want kettles,kettle", got)
	}
	if got := strings.Join(pub.Spellings(context.Background(), "kettl", wire.Filters{Products: []string{"K50"}}), ","); got != "kettle" {
		t.Errorf("Spellings(kettl) for product K50 = %q, want kettle (kettles is only in the K70 chunk)", got)
	}
	r := assess.NewRewriter(lex.an, termList{lex, new(error)})
	if got, _ := r.Spell(context.Background(), "descale the kettel", pub, nil, wire.Filters{Products: []string{"K70"}}); got != "descale the kettles" {
		t.Errorf("Spell for product K70 = %q, want %q", got, "descale the kettles")
	}
}

// TestNamingVisibleAndFiltered: Naming (the class reading's search) reads
// only the chunks the asker's groups may see that pass the run's
// filters: a product name written only in a staff chunk, or only in a
// chunk of a product the run leaves out, is never read.
func TestNamingVisibleAndFiltered(t *testing.T) {
	body := `{"id":"a","title":"K50 app","text":"Pair the K50 Smart Kettle with the app.","acl":["public"],"products":["K50"]}
{"id":"b","title":"K70","text":"The K70 Travel Kettle folds flat.","acl":["public"],"products":["K70"]}
{"id":"s","title":"K90","text":"The K90 Prototype Kettle ships next year.","acl":["staff"],"products":["K90"]}
`
	lex := openLexicon(t, body)
	read := func(groups []string, f wire.Filters) string {
		t.Helper()
		texts, err := lex.Visible(groups).(assess.NamingVocabulary).Naming(context.Background(), "kettl", f)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(texts, " | ")
	}
	if got := read([]string{"public"}, wire.Filters{}); strings.Contains(got, "K90") || !strings.Contains(got, "K50") || !strings.Contains(got, "K70") {
		t.Errorf("public Naming(kettl) = %q, want the K50 and K70 chunks and never the staff K90 one", got)
	}
	if got := read([]string{"public"}, wire.Filters{Products: []string{"K50"}}); strings.Contains(got, "K70") || !strings.Contains(got, "K50") {
		t.Errorf("Naming(kettl) for product K50 = %q, want the K50 chunk only", got)
	}
	if got := read([]string{"public", "staff"}, wire.Filters{}); !strings.Contains(got, "K90") {
		t.Errorf("staff Naming(kettl) = %q, want the K90 chunk too", got)
	}
}
