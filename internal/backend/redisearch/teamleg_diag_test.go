package redisearch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/embed"
)

// TestTeamLegProfile dumps FT.PROFILE of a team caller's vector leg in
// the forms of ASSAY_TEAMLEG_FORMS (index|query, query with $B; "_"
// in the query stands for the caller's ACL clause) and times each form
// (INFO commandstats: use a server of your own) over the sampled claims.
//
//	ASSAY_TEAMLEG_REDIS=host:port ASSAY_TEAMLEG_NAME=index ASSAY_TEAMLEG_DATA=<data dir>
//	ASSAY_TEAMLEG_FORMS='main|_=>[KNN 116 @vec $B AS dist];…' [ASSAY_TEAMLEG_EVERY=3]
func TestTeamLegProfile(t *testing.T) {
	addr, name, dir, every := measureEnv(t, "TEAMLEG", "DATA", 3)
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	texts := sampleQueries(t, filepath.Join(dir, "queries.jsonl"), every)
	emb, _ := embed.NewHashed(ix.Manifest().Dim)
	qvecs, err := emb.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for _, form := range strings.Split(os.Getenv("ASSAY_TEAMLEG_FORMS"), ";") {
		index, q, ok := strings.Cut(form, "|")
		if !ok {
			t.Fatalf("form %q: want index|query", form)
		}
		if index == "main" {
			index = ix.vn
		}
		args := func(cmd ...any) []any {
			return append(cmd, "PARAMS", "2", "B", vectorBytes(qvecs[0], ix.m.vectorType()),
				"SORTBY", fieldDistance, "ASC", "LIMIT", "0", "116", "RETURN", "1", fieldDistance, "DIALECT", "2", "TIMEOUT", "0")
		}
		res, err := ix.rdb.Do(ctx, args("FT.PROFILE", index, "SEARCH", "QUERY", q)...).Result()
		if err != nil {
			t.Fatalf("%s: FT.PROFILE: %v", form, err)
		}
		s := fmt.Sprint(res)
		if i := strings.LastIndex(s, "Total profile time"); i >= 0 {
			s = s[i:]
		}
		t.Logf("%s\n  profile: %s", form, s)
		c0, u0 := redisUsec(t, ix, "FT.SEARCH")
		var ds []time.Duration
		for _, v := range qvecs {
			start := time.Now()
			_, err := ix.rdb.Do(ctx, "FT.SEARCH", index, q, "PARAMS", "2", "B", vectorBytes(v, ix.m.vectorType()),
				"SORTBY", fieldDistance, "ASC", "LIMIT", "0", "116", "RETURN", "1", fieldDistance, "DIALECT", "2", "TIMEOUT", "0").Result()
			if err != nil {
				t.Fatalf("%s: %v", form, err)
			}
			ds = append(ds, time.Since(start))
		}
		c1, u1 := redisUsec(t, ix, "FT.SEARCH")
		t.Logf("%s: redis %.3f ms/search, client p50 %.3f ms", form, (u1-u0)/(c1-c0)/1000, p50ms(ds))
	}
}
