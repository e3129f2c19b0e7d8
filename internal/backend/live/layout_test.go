package live

import (
	"testing"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend/redisearch"
)

// TestOtherLayout (rv44): otherLayout compares the layout a manifest
// records with index.vector as a build reads it: in any case, an empty
// index.vector as the hnsw Build makes of it (a Config not from
// config.Load: before rv44 a worker building for itself with one rebuilt
// its index at every start, each build recording "hnsw"), and a manifest
// recording none (no vectors, or built before round 44) as agreeing.
func TestOtherLayout(t *testing.T) {
	for _, c := range []struct{ recorded, want, other string }{
		{"", config.VectorSmallFlat, ""},
		{"", "", ""},
		{config.VectorSmallFlat, config.VectorSmallFlat, ""},
		{config.VectorSmallFlat, "HNSW+Small-Flat", ""},
		{config.VectorHNSW, "", ""},
		{config.VectorFlat, "FLAT", ""},
		{config.VectorHNSW, config.VectorSmallFlat, config.VectorHNSW},
		{config.VectorSmallFlat, "", config.VectorSmallFlat},
		{config.VectorSmallFlat, config.VectorHNSW, config.VectorSmallFlat},
		{config.VectorFlat, config.VectorHNSW, config.VectorFlat},
	} {
		m := redisearch.Manifest{VectorLayout: c.recorded}
		if got := otherLayout(m, c.want); got != c.other {
			t.Errorf("otherLayout(recorded %q, index.vector %q) = %q, want %q", c.recorded, c.want, got, c.other)
		}
	}
}
