package bleveindex

import (
	"os"
	"path/filepath"
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
	pub, staff := ix.Names().Visible([]string{"public"}), ix.Names().Visible([]string{"staff"})
	if !pub.Has("k50", "kettl") || !pub.Has("k50", "smart") || pub.Code("z90") {
		t.Errorf("public pairs: k50 kettle %v, z90 %v; want the K50's only", pub.Has("k50", "kettl"), pub.Code("z90"))
	}
	if !staff.Has("z90", "toaster") || staff.Code("k50") {
		t.Errorf("staff pairs: z90 toaster %v, k50 %v; want the Z90's only", staff.Has("z90", "toaster"), staff.Code("k50"))
	}
	ix.Close()

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
	want := names.NewTable()
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
		want.Add(an, c.ACL, c.Title, c.Text)
	}
	if n == 0 {
		t.Fatal("the Hollin corpus writes no name: the test tests nothing")
	}
	if got, w := ix.Names().Len(), want.Len(); got != w {
		t.Errorf("the table holds %d entries, the chunks write %d", got, w)
	}
}
