package redisearch_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/names"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/terms"
)

var _ backend.NameSource = (*redisearch.Index)(nil)

// TestNamesKeptPerGroup: a build keeps, per ACL group, the (code, name
// word) pairs its chunks' titles and texts write, beside the version's
// statistics; Open reads them; a staff chunk's pair is not a public
// asker's; the next version, built without the chunk, has no pair of it
// and the version it replaced leaves no table behind; a version built
// before the table opens without one.
func TestNamesKeptPerGroup(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	chunk := func(id, title, text string, acl ...string) corpus.Chunk {
		return corpus.NewChunk(&corpus.Document{ID: id, Title: title, Text: text, ACL: acl, Type: "manual", Status: corpus.Current}, 0, text)
	}
	chunks := []corpus.Chunk{
		chunk("k50", "K50 Smart Kettle", "The K50 boils fast.", "public"),
		chunk("z90", "Roadmap", "The Z90 Prototype Toaster ships next year.", "staff"),
		chunk("app", "Pairing the K50", "Hold the dial for 5 seconds.", "public"),
	}
	name := redistest.Name("names")
	open := func() *redisearch.Index {
		t.Helper()
		ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	m1, _, err := redisearch.Build(ctx, rdb, name, chunks, redisearch.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ix := open()
	if ix.Names() == nil {
		t.Fatal("a new version keeps no name pairs")
	}
	if want := tableOf(chunks); !reflect.DeepEqual(ix.Names(), want) || ix.Names().Visible([]string{"public"}).Code("z90") {
		t.Errorf("name pairs %v, want those the chunks write by group (%v)", ix.Names(), want)
	}

	m2, _, err := redisearch.Build(ctx, rdb, name, chunks[1:], redisearch.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ix := open(); ix.Names().Visible([]string{"public"}).Code("k50") {
		t.Error("a version built without the K50's name page still holds its pair")
	}
	// The replaced version keeps its pairs (requests in flight on it
	// finish there) until the next build drops it.
	if n, err := rdb.Exists(ctx, fmt.Sprintf("assay:%s:v%d:names", name, m1.Version)).Result(); err != nil || n != 1 {
		t.Errorf("the replaced version's name pairs are gone before the next build (%d, %v)", n, err)
	}
	if m2, _, err = redisearch.Build(ctx, rdb, name, chunks[1:], redisearch.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	if n, err := rdb.Exists(ctx, fmt.Sprintf("assay:%s:v%d:names", name, m1.Version)).Result(); err != nil || n != 0 {
		t.Errorf("the name pairs of a version replaced two builds ago are still there (%d, %v)", n, err)
	}
	if err := rdb.Del(ctx, fmt.Sprintf("assay:%s:v%d:names", name, m2.Version)).Err(); err != nil {
		t.Fatal(err)
	}
	if ix := open(); ix.Names() != nil {
		t.Error("a version without name pairs opens with a table")
	}
	if err := rdb.Set(ctx, fmt.Sprintf("assay:%s:v%d:names", name, m2.Version), "{", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := redisearch.Open(ctx, rdb, name, redisearch.Options{}); err == nil {
		t.Error("a version with damaged name pairs opened")
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
