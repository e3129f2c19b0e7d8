package bleveindex

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/names"
	"github.com/assay-rag/assay/internal/terms"
)

var _ backend.NameSource = (*Index)(nil)

// TestNamesKeptPerGroup: a build keeps, per ACL group, the (code, name
// word) pairs its chunks' titles and texts write; they are read back at
// Open; a staff chunk's pair is not a public asker's; a rebuild without
// the chunk drops its pair (a build replaces the whole index, so the table
// is never older than the chunks); an index built before the table opens
// without one (nil: the assessor searches every word).
func TestNamesKeptPerGroup(t *testing.T) {
	chunk := func(id, title, text string, acl ...string) corpus.Chunk {
		return corpus.NewChunk(&corpus.Document{ID: id, Title: title, Text: text, ACL: acl, Type: "manual", Status: corpus.Current}, 0, text)
	}
	chunks := []corpus.Chunk{
		chunk("k50", "K50 Smart Kettle", "The K50 boils fast.", "public"),
		chunk("z90", "Roadmap", "The Z90 Prototype Toaster ships next year.", "staff"),
		chunk("app", "Pairing the K50", "Hold the dial for 5 seconds.", "public"),
	}
	dir := filepath.Join(t.TempDir(), "ix")
	build(t, dir, chunks, nil)
	ix := open(t, dir)
	if ix.Names() == nil {
		t.Fatal("a new index keeps no name pairs")
	}
	if want := tableOf(chunks); !reflect.DeepEqual(ix.Names(), want) || ix.Names().Visible([]string{"public"}).Code("z90") {
		t.Errorf("name pairs %v, want those the chunks write by group (%v)", ix.Names(), want)
	}

	build(t, dir, chunks[1:], nil) // the K50's name page is gone
	ix = open(t, dir)
	if ix.Names().Visible([]string{"public"}).Code("k50") {
		t.Error("a rebuild without the K50's name page still holds its pair")
	}
	ix.Close()

	if err := os.Remove(filepath.Join(dir, namesFile)); err != nil {
		t.Fatal(err)
	}
	ix = open(t, dir)
	if ix.Names() != nil {
		t.Error("an index without names.json opens with a table")
	}
	ix.Close()
	if err := os.WriteFile(filepath.Join(dir, namesFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ix, err := Open(dir); err == nil {
		ix.Close()
		t.Error("an index with a damaged names.json opened")
	}
}

// TestNamesHoldEveryPair: the table of the Hollin corpus holds, under each
// group of a chunk's ACL, every pair names.In reads in its title and in
// its text (a pair missing would change a decision), and nothing else.
func TestNamesHoldEveryPair(t *testing.T) {
	_, chunks := hollinChunks(t)
	dir := filepath.Join(t.TempDir(), "ix")
	build(t, dir, chunks, nil)
	ix := open(t, dir)
	an := terms.New()
	n := 0
	for i := range chunks {
		c := &chunks[i]
		for _, s := range []string{c.Title, c.Text} {
			pairs := map[string]map[string]bool{}
			names.In(an, s, pairs)
			for _, g := range c.ACL {
				p := ix.Names().Visible([]string{g})
				for code, ws := range pairs {
					for w := range ws {
						n++
						if !p.Has(code, w) {
							t.Errorf("%s (group %s) writes %s after %s: not in the table", c.ID, g, w, code)
						}
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("the Hollin corpus writes no name: the test tests nothing")
	}
	if got, w := ix.Names().Len(), tableOf(chunks).Len(); got != w {
		t.Errorf("the table holds %d entries, the chunks write %d", got, w)
	}
}

// tableOf is the name pairs chunks write, by group.
func tableOf(chunks []corpus.Chunk) *names.Table {
	an, t := terms.New(), names.NewTable()
	for i := range chunks {
		t.Add(an, chunks[i].ACL, chunks[i].Title, chunks[i].Text)
	}
	return t
}
