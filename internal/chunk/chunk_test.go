package chunk

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/golden"
)

func doc(text string) corpus.Document {
	return corpus.Document{
		ID: "guide", Title: "Care guide", Text: text, Type: "manual", Updated: "2026-05-01",
		Status: corpus.Current, Authority: 0.9, ACL: []string{"public", "staff"}, Products: []string{"K50"},
	}
}

func mustNew(t *testing.T, s Settings) *Chunker {
	t.Helper()
	c, err := New(s)
	if err != nil {
		t.Fatalf("New(%+v) error: %v", s, err)
	}
	return c
}

// TestSplitGolden chunks a structured guide with a small window and
// compares the chunks with a golden file (go test -update rewrites it).
func TestSplitGolden(t *testing.T) {
	src, err := os.ReadFile("testdata/guide.md")
	if err != nil {
		t.Fatal(err)
	}
	d := doc(string(src))
	chunks := mustNew(t, Settings{MaxTokens: 48, Overlap: 12}).Split(&d)
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("=== " + c.ID + "\n" + c.Text + "\n")
	}
	golden.Check(t, "testdata/guide.golden", []byte(b.String()))
}

// TestSplitProperties checks the chunker's contract over several window
// sizes: windows are bounded, ids are document id + ordinal, metadata is
// kept, no word of the document is lost, and size cuts overlap.
func TestSplitProperties(t *testing.T) {
	src, err := os.ReadFile("testdata/guide.md")
	if err != nil {
		t.Fatal(err)
	}
	d := doc(string(src))
	for _, s := range []Settings{{16, 0}, {24, 6}, {48, 12}, {100, 20}, {400, 40}} {
		chunks := mustNew(t, s).Split(&d)
		seen := map[string]bool{}
		for i, c := range chunks {
			if n := countWords(c.Text); n > s.MaxTokens || n == 0 {
				t.Errorf("%v: chunk %s has %d words, want 1..%d", s, c.ID, n, s.MaxTokens)
			}
			if want := corpus.ChunkID("guide", i); c.ID != want || c.Ordinal != i || c.DocID != "guide" {
				t.Errorf("%v: chunk %d id = %q ordinal %d doc %q, want %q %d guide", s, i, c.ID, c.Ordinal, c.DocID, want, i)
			}
			if c.Title != d.Title || c.Authority != d.Authority || c.Status != d.Status || c.Updated != d.Updated ||
				!cmp.Equal(c.ACL, d.ACL) || !cmp.Equal(c.Products, d.Products) || c.Type != d.Type {
				t.Errorf("%v: chunk %s lost its document's metadata: %+v", s, c.ID, c)
			}
			for _, w := range strings.Fields(c.Text) {
				seen[w] = true
			}
		}
		for _, w := range strings.Fields(d.Text) {
			if !seen[w] {
				t.Errorf("%v: word %q of the document is in no chunk", s, w)
				break
			}
		}
		if s.MaxTokens >= 400 && len(chunks) != 1 {
			t.Errorf("%v: a %d-word document gave %d chunks, want it whole", s, countWords(d.Text), len(chunks))
		}
	}
}

func TestSplitShortDocumentStaysWhole(t *testing.T) {
	d := doc("Blender motors are covered for 5 years.\n\nBlade wear is not covered.")
	got := mustNew(t, Default()).Split(&d)
	if len(got) != 1 || got[0].Text != d.Text || got[0].ID != "guide#0" {
		t.Errorf("Split(short) = %+v, want one chunk guide#0 with the whole text", got)
	}
	empty := doc("")
	if got := mustNew(t, Default()).Split(&empty); len(got) != 1 || got[0].Text != "" {
		t.Errorf("Split(no text) = %+v, want one empty chunk", got)
	}
}

func TestSplitOverlapAndStability(t *testing.T) {
	var sb strings.Builder
	for i := 0; i < 30; i++ {
		sb.WriteString("Sentence number " + strings.Repeat("x", i%5+1) + " has six words. ")
	}
	d := doc(sb.String())
	c := mustNew(t, Settings{MaxTokens: 30, Overlap: 12})
	a, b := c.Split(&d), c.Split(&d)
	if !cmp.Equal(a, b) {
		t.Fatal("Split is not deterministic")
	}
	if len(a) < 2 {
		t.Fatalf("Split gave %d chunks, want several", len(a))
	}
	for i := 1; i < len(a); i++ {
		prev := strings.Fields(a[i-1].Text)
		tail := strings.Join(prev[len(prev)-6:], " ")
		if !strings.Contains(a[i].Text, tail) || !strings.Contains(a[i-1].Text, a[i].Text[:30]) {
			t.Errorf("chunk %d = %q, want it to start inside the previous chunk and repeat its last sentence %q", i, a[i].Text, tail)
		}
	}
}

func TestSentences(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"One. Two! Three? four", []string{"One.", "Two!", "Three? four"}},
		{"See Fig. 2 for e.g. the rate. It rose.", []string{"See Fig. 2 for e.g. the rate.", "It rose."}},
		{"J. Smith et al. found it. (Later work agreed.)", []string{"J. Smith et al. found it.", "(Later work agreed.)"}},
		{"Version 2.3 fixed it. 30 units sold.", []string{"Version 2.3 fixed it.", "30 units sold."}},
		{`He said "stop." Then left.`, []string{`He said "stop."`, "Then left."}},
		{"no terminal punctuation", []string{"no terminal punctuation"}},
	}
	for _, tt := range tests {
		if got := sentences(tt.in); !cmp.Equal(got, tt.want) {
			t.Errorf("sentences(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSettingsValidate(t *testing.T) {
	tests := []struct {
		s     Settings
		field string
	}{
		{Settings{MaxTokens: 8, Overlap: 0}, "max_tokens"},
		{Settings{MaxTokens: 100000, Overlap: 0}, "max_tokens"},
		{Settings{MaxTokens: 100, Overlap: 50}, "overlap"},
		{Settings{MaxTokens: 100, Overlap: -1}, "overlap"},
	}
	for _, tt := range tests {
		_, err := New(tt.s)
		if err == nil || !strings.Contains(err.Error(), tt.field) {
			t.Errorf("New(%+v) error = %v, want one naming %s", tt.s, err, tt.field)
		}
	}
	if _, err := New(Default()); err != nil {
		t.Errorf("New(Default()) error: %v", err)
	}
}
