package devsets

import (
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/wire"
)

// TestFiles: every development set has its questions and key facts where
// the harnesses look, once each.
func TestFiles(t *testing.T) {
	all := Names()
	for i, name := range all {
		if slices.Contains(all[:i], name) {
			t.Errorf("%s listed twice", name)
		}
		for _, f := range []string{Questions(name), KeyFacts(name)} {
			if _, err := os.Stat(f); err != nil {
				t.Errorf("set %s: %v", name, err)
			}
		}
	}
	if _, err := os.Stat(Corpus()); err != nil {
		t.Error(err)
	}
}

// TestNamesIsACopy: a caller that writes into, appends to or sorts the
// list it got changes nobody else's.
func TestNamesIsACopy(t *testing.T) {
	want := slices.Clone(names)
	got := Names()
	got[0] = "blind"
	_ = append(got[:1], "blind2")
	slices.Reverse(got)
	if again := Names(); !slices.Equal(again, want) {
		t.Fatalf("Names() after a caller changed its copy: %v, want %v", again, want)
	}
	if len(want) == 0 || want[0] != "hollin" {
		t.Fatalf("names starts %v, want hollin first", want)
	}
}

// TestFirstRequest: a question's first search is the question itself as
// its asker, public for a question naming no groups, no filters, top
// wire.DefaultTopK.
func TestFirstRequest(t *testing.T) {
	q := eval.Question{Question: "how do I descale it?"}
	r := FirstRequest(q)
	if r.Query != q.Question || !slices.Equal(r.Groups, []string{corpus.PublicGroup}) || r.K != wire.DefaultTopK || !reflect.DeepEqual(r.Filters, wire.Filters{}) {
		t.Errorf("FirstRequest(%+v) = %+v", q, r)
	}
	q.Groups = []string{"staff"}
	if r := FirstRequest(q); !slices.Equal(r.Groups, []string{"staff"}) {
		t.Errorf("FirstRequest as staff: groups %v", r.Groups)
	}
}

// TestSearch: Search's chunks and evidence are its hits', in the hits'
// order, the evidence carrying each hit's score (the Hollin index; a few
// seconds).
func TestSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Hollin index")
	}
	d := Open(t)
	f := Search(t, d, FirstRequest(eval.Question{Question: "how do I descale my kettle?"}))
	if len(f.Result.Hits) == 0 || len(f.Chunks) != len(f.Result.Hits) || len(f.Evidence) != len(f.Chunks) || len(f.Chunks) > wire.DefaultTopK {
		t.Fatalf("%d hits, %d chunks, %d evidence", len(f.Result.Hits), len(f.Chunks), len(f.Evidence))
	}
	for i, h := range f.Result.Hits {
		c, e := f.Chunks[i], f.Evidence[i]
		if c.ID != h.ChunkID || e.ChunkID != h.ChunkID || e.Score != h.Score || e.Text != c.Text || e.Title != c.Title {
			t.Errorf("hit %d %s (%.3f): chunk %s, evidence %s (%.3f)", i, h.ChunkID, h.Score, c.ID, e.ChunkID, e.Score)
		}
	}
}
