package vectors

import (
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/redistest"
)

// TestRediSearchVectorTypes records which vector types the RediSearch
// server supports, for choosing what the redisearch backend may store:
// FLOAT32, FLOAT64 and the half-precision FLOAT16 and BFLOAT16 exist in
// RediSearch 2.10 (../shared/redisearch), with KNN working on them; INT8
// and UINT8 need Redis 8's Query Engine. It runs only against a server
// (ASSAY_TEST_REDISEARCH or ASSAY_TEST_REDIS_URL).
func TestRediSearchVectorTypes(t *testing.T) {
	srv := redistest.Start(t)
	c := srv.Client(t)
	version := searchModuleVersion(t, srv)
	t.Logf("search module version %d", version)
	// Each type's little-endian encoding of 1; the vectors are (1, 0) and
	// (0, 1).
	one := map[string][]byte{
		"FLOAT32":  {0, 0, 0x80, 0x3f},
		"FLOAT64":  {0, 0, 0, 0, 0, 0, 0xf0, 0x3f},
		"FLOAT16":  {0, 0x3c},
		"BFLOAT16": {0x80, 0x3f},
		"INT8":     {1},
		"UINT8":    {1},
	}
	for _, typ := range []string{"FLOAT32", "FLOAT64", "FLOAT16", "BFLOAT16", "INT8", "UINT8"} {
		name := redistest.Name("vtypes-" + strings.ToLower(typ) + "-")
		err := c.Do(ctx, "FT.CREATE", name, "ON", "HASH", "PREFIX", "1", name+":", "SCHEMA",
			"v", "VECTOR", "HNSW", "6", "TYPE", typ, "DIM", "2", "DISTANCE_METRIC", "IP").Err()
		wantSupported := version >= 80000 || (typ != "INT8" && typ != "UINT8")
		t.Logf("%-8s HNSW: %v", typ, errOrOK(err))
		if (err == nil) != wantSupported {
			t.Errorf("%s: FT.CREATE %v, want supported=%v on search %d", typ, errOrOK(err), wantSupported, version)
		}
		if err != nil {
			continue
		}
		zero := make([]byte, len(one[typ]))
		vec := func(a, b []byte) string { return string(append(append([]byte{}, a...), b...)) }
		c.HSet(ctx, name+":x", "v", vec(one[typ], zero))
		c.HSet(ctx, name+":y", "v", vec(zero, one[typ]))
		res, err := c.Do(ctx, "FT.SEARCH", name, "*=>[KNN 2 @v $B AS d]", "PARAMS", "2", "B", vec(zero, one[typ]),
			"SORTBY", "d", "RETURN", "1", "d", "DIALECT", "2").Slice()
		if err != nil {
			t.Errorf("%s: KNN: %v", typ, err)
			continue
		}
		if len(res) < 2 || res[1] != name+":y" {
			t.Errorf("%s: KNN for (0, 1) answered %v, want %s:y first", typ, res, name)
		}
	}
}

func errOrOK(err error) string {
	if err == nil {
		return "OK"
	}
	return err.Error()
}

// searchModuleVersion is the search module's version from MODULE LIST
// (21032 is 2.10.32), or 80000 and above for Redis 8's built-in engine.
func searchModuleVersion(t *testing.T, srv *redistest.Server) int64 {
	mods, err := srv.Client(t).Do(ctx, "MODULE", "LIST").Slice()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mods {
		fields, _ := m.([]any)
		var name string
		var ver int64
		for i := 0; i+1 < len(fields); i += 2 {
			switch fields[i] {
			case "name":
				name, _ = fields[i+1].(string)
			case "ver":
				ver, _ = fields[i+1].(int64)
			}
		}
		if name == "search" {
			return ver
		}
	}
	t.Fatal("no search module in MODULE LIST")
	return 0
}
