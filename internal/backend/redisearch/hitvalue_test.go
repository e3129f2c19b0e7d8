package redisearch

import (
	"testing"

	"github.com/assay-rag/assay/internal/corpus"
)

// TestHitValue: the hit field reads back as the chunk's result fields
// whatever its document id, date and title hold (the separator, commas,
// digits, nothing), and what is not one reads as none.
func TestHitValue(t *testing.T) {
	for _, c := range []corpus.Chunk{
		{DocID: "d1", Title: "Kettle, descale", Updated: "2024-01-02", Text: "x"},
		{DocID: "d\x1f2", Title: "1\x1f2\x1f3", Updated: "", Text: ""},
		{DocID: "", Title: "", Updated: "2024", Text: "t"},
		{DocID: "é,ü", Title: "\x1f", Updated: "\x1f", Text: ""},
	} {
		h, ok := parseHit(hitValue(&c))
		want := hitEntry{docID: c.DocID, title: c.Title, updated: c.Updated, empty: c.Text == ""}
		if !ok || *h != want {
			t.Errorf("hit field %q reads %+v %v, want %+v", hitValue(&c), h, ok, want)
		}
	}
	for _, v := range []string{"", "0", "0\x1f1\x1f1\x1f", "2\x1f0\x1f0\x1f", "0\x1f-1\x1f0\x1fx", "0\x1fa\x1f0\x1fx"} {
		if h, ok := parseHit(v); ok {
			t.Errorf("parseHit(%q) = %+v, want none", v, h)
		}
	}
}
