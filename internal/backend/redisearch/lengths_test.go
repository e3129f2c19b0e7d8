package redisearch_test

import (
	"fmt"
	"testing"

	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/redistest"
	"github.com/assay-rag/assay/internal/terms"
)

// TestLengthTablesSplitAcrossHSETs: a group's length table is written in
// HSETs of up to 4,096 fields (round 22, r22-build); a group named by
// 9,000 ACL parts takes three, and the average length each caller reads
// is still the mean over the chunks it may see (the group's, one part's,
// both, every chunk, a group no chunk names). A pair left out of a full
// HSET fails it.
func TestLengthTablesSplitAcrossHSETs(t *testing.T) {
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	var chunks []corpus.Chunk
	for i := range 9000 {
		text := "kettle"
		for range i % 7 {
			text += " descale"
		}
		chunks = append(chunks, corpus.Chunk{ID: fmt.Sprintf("c%04d#0", i), DocID: fmt.Sprintf("c%04d", i), ACL: []string{"big", fmt.Sprintf("u%04d", i)}, Text: text, Status: corpus.Current})
	}
	// chunks "big" does not name, so that its callers read its table
	// (a caller who sees every chunk reads the stored mean)
	for i := range 3 {
		chunks = append(chunks, corpus.Chunk{ID: fmt.Sprintf("o%d#0", i), DocID: fmt.Sprintf("o%d", i), ACL: []string{"other"}, Text: "ledger ledger ledger ledger ledger ledger ledger ledger ledger ledger ledger", Status: corpus.Current})
	}
	ix := buildOpen(t, rdb, redistest.Name("lens"), chunks, redisearch.BuildOptions{})
	parts, _ := analyzedParts(terms.New(), chunks)
	for _, groups := range [][]string{{"big"}, {"u0000"}, {"u4097"}, {"u8999"}, {"u0001", "u8998"}, {"big", "u0003"}, {"big", "other"}, {"other", "u0005"}, {"nobody"}} {
		got := ix.Visible(groups).(interface{ AvgLen() float64 }).AvgLen()
		if want := parts.Visible(groups).AvgLen(); got != want {
			t.Errorf("groups %v: average length %v, want %v", groups, got, want)
		}
	}
}
