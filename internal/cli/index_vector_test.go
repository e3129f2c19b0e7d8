package cli

import (
	"cmp"
	"context"

	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend/redisearch"
	"github.com/assay-rag/assay/internal/redistest"
)

// TestIndexVectorDefault: `assay index --backend redisearch` builds with
// hnsw+small-flat unless --vector says otherwise (round 43): by default
// Hollin's groups under an eighth of the chunks (partners, finance, the
// two partner firms) get FLAT indexes of their vectors beside public's and
// staff's, and with --vector hnsw only public and staff have indexes of
// their own, as before round 43.
func TestIndexVectorDefault(t *testing.T) {
	if v := config.Default().Index.Vector; v != "hnsw+small-flat" {
		t.Fatalf("index.vector's default %q, want hnsw+small-flat", v)
	}
	srv := redistest.Start(t)
	rdb := srv.Client(t)
	ctx := context.Background()
	all := []string{"finance", "partner:brook-street", "partner:calder-fix", "partners", "public", "staff"}
	for _, c := range []struct {
		vector           string
		groups, flatOnes []string
	}{
		{"", all, all},
		{"hnsw+small-flat", all, all},
		{"hnsw", []string{"public", "staff"}, []string{"public", "staff"}}, // Hollin's are ≤ flatGroupMax
	} {
		layout := cmp.Or(c.vector, "hnsw+small-flat")
		name := redistest.Name("ivd")
		args := []string{"index", "--backend", "redisearch", "--redis-addr", srv.Addr, "--name", name,
			"--corpus", "../../testdata/hollin/corpus.jsonl", "--quiet"}
		if c.vector != "" {
			args = append(args, "--vector", c.vector)
		}
		out, errOut, err := runCmd(t, args...)
		if err != nil {
			t.Fatalf("--vector %q: %v (%s)", c.vector, err, errOut)
		}
		// The summary names the layout built (the manifest's vector
		// reads HNSW for both).
		if want := fmt.Sprintf("vectors HNSW (%s: %d ACL groups with an index of their own, %d of them FLAT)", layout, len(c.groups), len(c.flatOnes)); !strings.Contains(out, want) {
			t.Errorf("--vector %q: output %q, want it to say %q", c.vector, out, want)
		}
		ix, err := redisearch.Open(ctx, rdb, name, redisearch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m := ix.RedisManifest()
		if m.Vector != redisearch.HNSW || !slices.Equal(m.VectorGroups, c.groups) || !slices.Equal(m.VectorGroupsFlat, c.flatOnes) {
			t.Errorf("--vector %q: vector %s, groups %q, FLAT %q; want HNSW, %q, %q",
				c.vector, m.Vector, m.VectorGroups, m.VectorGroupsFlat, c.groups, c.flatOnes)
		}
	}
}

// TestIndexVectorChecked: an unknown --vector (index.vector) of a
// RediSearch build is a configuration error naming the setting and the
// value, found before the corpus is loaded or Redis asked (here none
// listens), not once the corpus is chunked.
func TestIndexVectorChecked(t *testing.T) {
	_, _, err := runCmd(t, "index", "--backend", "redisearch", "--redis-addr", "127.0.0.1:1", "--name", "x",
		"--corpus", "../../testdata/hollin/corpus.jsonl", "--quiet", "--vector", "hnsw+flat")
	if err == nil || !strings.Contains(err.Error(), "index.vector") || !strings.Contains(err.Error(), `"hnsw+flat"`) {
		t.Errorf("--vector hnsw+flat: %v, want an error naming index.vector and the value", err)
	}
}
