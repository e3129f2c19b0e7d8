package redisearch_test

import (
	"testing"

	"github.com/assay-rag/assay/internal/backend/redisearch"
)

// TestRareLastChangesNoAnswer: Holdings reading the rare terms' chunks
// after the common terms' checks (rareLast) answers exactly as reading
// them first (sameAnswers: the same nils, the same maps, the same
// FT.AGGREGATEs for every answered list); on a list that cannot tell it
// spares at most the one read. Rare bounds 0 (no read), 30 and 80.
func TestRareLastChangesNoAnswer(t *testing.T) {
	sameAnswers(t, "rarelast", redisearch.SetRareLast, []uint64{3, 11}, 29, []int{0, 30, 80}, []int{16, 48, 128, 384, 1024}, 1, true)
}
