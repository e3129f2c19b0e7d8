package redisearch_test

import (
	"testing"

	"github.com/assay-rag/assay/internal/backend/redisearch"
)

// TestSampleRowsChangesNoAnswer: Holdings sampling more chunks' common
// terms before its checks (sampleRows) answers exactly as with fewer
// (sameAnswers: the same nils, the same maps, the keys of a
// chunk-by-chunk count): a sampled chunk's set is exact, so a check it
// answers is answered as Redis would, and the sets it holds count
// against maxHoldingCounts only as the levels would (foresee). It sends
// fewer FT.AGGREGATEs in all (the test fails if it spares none).
func TestSampleRowsChangesNoAnswer(t *testing.T) {
	orig := redisearch.SetSampleRows(8)
	defer redisearch.SetSampleRows(orig)
	set := func(more bool) bool {
		n := 8
		if more {
			n = 40
		}
		return redisearch.SetSampleRows(n) == 40
	}
	sameAnswers(t, "sampleRows", set, []uint64{3, 11}, 31, []int{0, 30}, []int{16, 48, 128, 384, 1024}, 0, false)
}
