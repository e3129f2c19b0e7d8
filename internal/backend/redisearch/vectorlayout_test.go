package redisearch

import (
	"testing"

	"github.com/assay-rag/assay/config"
)

// TestVectorLayout: vectorLayout reads BuildOptions.Vector in any case,
// empty as HNSW, the layouts config's index.vector lets through, and an
// unknown value refused with the values it takes.
func TestVectorLayout(t *testing.T) {
	for _, c := range []struct {
		in    string
		algo  string
		small bool
	}{{"", HNSW, false}, {"hnsw", HNSW, false}, {"HNSW+small-flat", HNSW, true}, {"hnsw+small-flat", HNSW, true}, {"flat", FLAT, false},
		{config.VectorHNSW, HNSW, false}, {config.VectorSmallFlat, HNSW, true}, {config.VectorFlat, FLAT, false}} {
		if algo, small, err := vectorLayout(c.in); err != nil || algo != c.algo || small != c.small {
			t.Errorf("vectorLayout(%q) = %q %v %v, want %q %v", c.in, algo, small, err, c.algo, c.small)
		}
	}
	for _, in := range []string{"hnsw+flat", "flat+small-flat", "ivf"} {
		if _, _, err := vectorLayout(in); err == nil {
			t.Errorf("vectorLayout(%q): no error", in)
		}
	}
}
