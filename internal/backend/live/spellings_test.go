package live

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/terms"
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

// TestSpellings: the visible vocabulary spells an index term with the
// words of the chunks the groups may see, most used first, and never with
// a word only another group's chunks use; a term no visible chunk holds
// has no spelling. The rewriter then corrects "kettel" into "kettle".
func TestSpellings(t *testing.T) {
	body := `{"id":"a","title":"Kettle care","text":"Descale the kettle monthly. Kettles need it.","acl":["public"]}
{"id":"b","title":"K50","text":"The kettle boils in four minutes.","acl":["public"]}
{"id":"s","title":"Staff","text":"Kettling notes, kettled stock, descaling kit.","acl":["staff"]}
`
	l := openCorpus(t, body)
	g := l.cur.Load()
	lex := lexicon{g.ix, newHeldMemo(), terms.New()}
	pub := lex.Visible([]string{"public"}).(assess.SpellingVocabulary)
	if got := strings.Join(pub.Spellings("kettl"), ","); got != "kettle,kettles" {
		t.Errorf("public Spellings(kettl) = %q, want kettle,kettles (most used first, no staff word)", got)
	}
	if got := pub.Spellings("descal"); strings.Join(got, ",") != "descale" {
		t.Errorf("public Spellings(descal) = %v, want [descale] (descaling is only in a staff chunk)", got)
	}
	if got := pub.Spellings("stock"); got != nil {
		t.Errorf("public Spellings(stock) = %v, want none: only a staff chunk holds it", got)
	}
	r := assess.NewRewriter(lex.an, lex)
	if got, _ := r.Spell("descale the kettel", pub, nil); got != "descale the kettle" {
		t.Errorf("Spell = %q, want %q", got, "descale the kettle")
	}
}

// TestSpellingsUnstableTerm: a term the analyzer would stem again when
// searched as text ("coffe" → "coff", "purchas" → "purcha") is still
// spelt from the visible chunks holding it, not left without a spelling.
func TestSpellingsUnstableTerm(t *testing.T) {
	body := `{"id":"a","title":"Coffee maker","text":"Descale the coffee maker after each purchase.","acl":["public"]}
`
	l := openCorpus(t, body)
	g := l.cur.Load()
	lex := lexicon{g.ix, newHeldMemo(), terms.New()}
	pub := lex.Visible([]string{"public"}).(assess.SpellingVocabulary)
	for term, want := range map[string]string{"coffe": "coffee", "purchas": "purchase"} {
		if ts := lex.an.Terms(term); len(ts) == 1 && ts[0] == term {
			t.Fatalf("the analyzer keeps %q: the test needs a term it stems again", term)
		}
		if got := strings.Join(pub.Spellings(term), ","); got != want {
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
	l := openCorpus(t, body)
	g := l.cur.Load()
	lex := lexicon{g.ix, newHeldMemo(), terms.New()}
	pub := lex.Visible([]string{"public"}).(assess.SpellingVocabulary)
	ts := lex.an.Terms("parts.hollin.example")
	if len(ts) != 1 {
		t.Fatalf("the analyzer splits parts.hollin.example into %v; this test expects one term", ts)
	}
	if got := strings.Join(pub.Spellings(ts[0]), ","); got != "parts.hollin.example" {
		t.Errorf("Spellings(%s) = %q, want parts.hollin.example", ts[0], got)
	}
}
