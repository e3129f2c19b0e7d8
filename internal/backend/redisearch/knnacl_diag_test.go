package redisearch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/embed"
)

// TestKNNRestrictedForms measures, on an index already built in a running
// server, the vector leg of a restricted caller (issue 20: its recall
// against the exact neighbours among the chunks it may see, and what it
// costs Redis): for each caller of ASSAY_KNNACL_CALLERS (groups joined
// by "+", callers by ","; default public,team-07), the exact top k
// (HYBRID_POLICY ADHOC_BF), then the forms of ASSAY_KNNACL_FORMS:
//
//	batches-B[-efE]  HYBRID_POLICY BATCHES BATCH_SIZE B (EF_RUNTIME E, default 800)
//	default[-efE]    the ACL clause inside the KNN, the engine's choice of policy
//	adhoc            the ACL clause inside the KNN, HYBRID_POLICY ADHOC_BF named
//	shipped[-efE]    what SearchVector sends (vectorParts)
//	group[-efE]      one KNN per group with an index ASSAY_KNNACL_GROUPINDEX+group
//	                 (group-ef0: no EF_RUNTIME, for a FLAT index), the rest
//	                 through the main index's ACL clause
//	over-K[-efE]     the unfiltered graph's K nearest, the caller's kept (in the
//	                 test, not in the engine: how deep the plain walk must go)
//
// each with recall@100 and recall@10, the mean FT.SEARCH time in Redis
// (INFO commandstats) and the client's p50. ASSAY_KNNACL_PROFILE=n runs
// FT.PROFILE on the first n queries of each batches form and logs the
// hybrid iterator's batch counts. ASSAY_KNNACL_K sets k (100): the
// exact reference's depth, the forms' being k+16.
//
//	ASSAY_KNNACL_REDIS=host:port ASSAY_KNNACL_NAME=index ASSAY_KNNACL_DATA=<data dir>
//	[ASSAY_KNNACL_EVERY=3] [ASSAY_KNNACL_CALLERS=public,team-07] [ASSAY_KNNACL_FORMS=...]
func TestKNNRestrictedForms(t *testing.T) {
	addr, name, dir, every := measureEnv(t, "KNNACL", "DATA", 3)
	k := 100
	if s := os.Getenv("ASSAY_KNNACL_K"); s != "" {
		k, _ = strconv.Atoi(s)
	}
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	texts := sampleQueries(t, filepath.Join(dir, "queries.jsonl"), every)
	emb, _ := embed.NewHashed(ix.Manifest().Dim)
	qvecs, err := emb.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	callers := []string{"public", "team-07"}
	if s := os.Getenv("ASSAY_KNNACL_CALLERS"); s != "" {
		callers = strings.Split(s, ",")
	}
	forms := []string{"default", "batches-232", "batches-464", "batches-928", "batches-1856", "over-232", "over-464", "over-928", "over-1856"}
	if s := os.Getenv("ASSAY_KNNACL_FORMS"); s != "" {
		forms = strings.Split(s, ",")
	}
	profile, _ := strconv.Atoi(os.Getenv("ASSAY_KNNACL_PROFILE"))
	depth := k + vectorMargin
	type reply struct {
		ids   []string
		acls  []string
		dists []float64
	}
	search := func(index, q string, vec []float32, n int, acl bool) (reply, time.Duration, error) {
		ret := []redis.FTSearchReturn{{FieldName: fieldDistance}}
		if acl {
			ret = append(ret, redis.FTSearchReturn{FieldName: fieldACL})
		}
		start := time.Now()
		res, err := ix.rdb.FTSearchWithArgs(ctx, index, q, &redis.FTSearchOptions{
			Return:         ret,
			SortBy:         []redis.FTSearchSortBy{{FieldName: fieldDistance, Asc: true}},
			Limit:          n,
			Params:         map[string]any{"B": vectorBytes(vec, ix.m.vectorType())},
			DialectVersion: 2,
			Timeout:        noTimeout,
		}).Result()
		if err != nil {
			return reply{}, 0, err
		}
		var r reply
		for _, d := range res.Docs {
			r.ids = append(r.ids, strings.TrimPrefix(d.ID, chunkPrefix(ix.vn)))
			r.acls = append(r.acls, d.Fields[fieldACL])
			x, _ := strconv.ParseFloat(d.Fields[fieldDistance], 64)
			r.dists = append(r.dists, x)
		}
		return r, time.Since(start), nil
	}
	// parse reads a form's name: its kind, its number and its EF.
	parse := func(f string) (kind string, n, ef int) {
		ef = vectorEF
		parts := strings.Split(f, "-")
		kind = parts[0]
		for _, p := range parts[1:] {
			if e, ok := strings.CutPrefix(p, "ef"); ok {
				ef, _ = strconv.Atoi(e)
			} else {
				n, _ = strconv.Atoi(p)
			}
		}
		return kind, n, ef
	}
	for _, c := range callers {
		groups := strings.Split(c, "+")
		filter := FilterQuery(backend.Filter{Groups: groups})
		exact := make([][]string, len(qvecs))
		exactDist := make([][]float64, len(qvecs))
		exactForm := "(" + filter + ")=>[KNN " + strconv.Itoa(k) + " @" + fieldVector + " $B HYBRID_POLICY ADHOC_BF AS " + fieldDistance + "]"
		var ex []time.Duration
		c0, u0 := redisUsec(t, ix, "FT.SEARCH")
		for i, v := range qvecs {
			r, d, err := search(ix.vn, exactForm, v, k, false)
			if err != nil {
				t.Fatalf("%s exact: %v", c, err)
			}
			exact[i], exactDist[i], ex = r.ids, r.dists, append(ex, d)
		}
		c1, u1 := redisUsec(t, ix, "FT.SEARCH")
		t.Logf("%-14s %-18s redis %7.2f ms/search  client p50 %7.2f ms  (the reference)", c, "exact ADHOC_BF", (u1-u0)/(c1-c0)/1000, p50ms(ex))
		for _, f := range forms {
			kind, n, ef := parse(f)
			var q string
			limit, acl := depth, false
			// group: one KNN per group of the caller that has an index
			// of its own (ASSAY_KNNACL_GROUPINDEX + group, FT.CREATE …
			// FILTER), the caller's other groups through the main
			// index's ACL clause (the engine's choice), merged by
			// distance.
			type part struct{ index, q string }
			var parts []part
			switch kind {
			case "shipped": // what SearchVector sends
				vs, err := ix.set(ctx, groups)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range vectorParts(ix.vn, ix.m.VectorGroups, ix.m.VectorGroupsFlat, vs, ix.st.Chunks, backend.Filter{Groups: groups}, depth, max(ef, depth)) {
					parts = append(parts, part{p.index, p.query})
				}
			case "group":
				var rest []string
				for _, g := range groups {
					gi := os.Getenv("ASSAY_KNNACL_GROUPINDEX") + g
					if _, err := ix.rdb.Do(ctx, "FT.INFO", gi).Result(); err == nil {
						gef := max(ef, depth)
						if ef == 0 { // group-ef0: a FLAT index, which takes no EF_RUNTIME
							gef = 0
						}
						parts = append(parts, part{gi, vectorQuery("", depth, gef, 0)})
					} else {
						rest = append(rest, g)
					}
				}
				if len(rest) > 0 {
					parts = append(parts, part{ix.vn, vectorQuery(FilterQuery(backend.Filter{Groups: rest}), depth, max(ef, depth), 0)})
				}
			case "default":
				q = vectorQuery(filter, depth, max(ef, depth), 0)
			case "batches":
				q = vectorQuery(filter, depth, max(ef, depth), n)
			case "adhoc":
				q = "(" + filter + ")=>[KNN " + strconv.Itoa(depth) + " @" + fieldVector + " $B HYBRID_POLICY ADHOC_BF AS " + fieldDistance + "]"
			case "over":
				q = vectorQuery("", n, max(ef, n), 0)
				limit, acl = n, true
			default:
				t.Fatalf("form %q: unknown", f)
			}
			if parts == nil {
				parts = []part{{ix.vn, q}}
			}
			var ds []time.Duration
			var r100, r10, got, d100, d10 float64
			c0, u0 := redisUsec(t, ix, "FT.SEARCH")
			for i, v := range qvecs {
				var r reply
				var d time.Duration
				for _, p := range parts {
					pr, pd, err := search(p.index, p.q, v, limit, acl)
					if err != nil {
						t.Fatalf("%s %s: %v", c, f, err)
					}
					r.ids, r.acls, r.dists, d = append(r.ids, pr.ids...), append(r.acls, pr.acls...), append(r.dists, pr.dists...), d+pd
				}
				if len(parts) > 1 {
					r = mergeReplies(r.ids, r.acls, r.dists, depth)
				}
				ids, dists := r.ids, r.dists
				if acl {
					ids, dists = nil, nil
					for j, id := range r.ids {
						if sees(groups, r.acls[j]) && len(ids) < depth {
							ids, dists = append(ids, id), append(dists, r.dists[j])
						}
					}
				}
				d100 += withinDist(exactDist[i], dists, k)
				d10 += withinDist(exactDist[i], dists, 10)
				if i < 2 && os.Getenv("ASSAY_KNNACL_DISTS") != "" {
					for _, n := range []int{1, 10, 50, 100} {
						if n <= len(exactDist[i]) && n <= len(dists) {
							t.Logf("  q%d rank %3d: exact %.6f  form %.6f", i, n, exactDist[i][n-1], dists[n-1])
						}
					}
				}
				ds = append(ds, d)
				got += float64(len(ids))
				r100 += recallAt(exact[i], ids, k)
				r10 += recallAt(exact[i], ids, 10)
			}
			c1, u1 := redisUsec(t, ix, "FT.SEARCH")
			nq := float64(len(qvecs))
			t.Logf("%-14s %-18s redis %7.2f ms/query (%.1f FT.SEARCH)  client p50 %7.2f ms  recall@%d %.4f  recall@10 %.4f  by distance %.4f / %.4f  results %.1f",
				c, f, (u1-u0)/nq/1000, (c1-c0)/nq, p50ms(ds), k, r100/nq, r10/nq, d100/nq, d10/nq, got/nq)
			if kind == "batches" && profile > 0 {
				for i := range min(profile, len(qvecs)) {
					logProfile(t, ix, q, qvecs[i], depth)
				}
			}
		}
	}
	fmt.Fprintln(os.Stderr, "queries:", len(qvecs))
}

// mergeReplies is the union of several KNN replies, each chunk once,
// nearest first (ties by id), at most n.
func mergeReplies(ids, acls []string, dists []float64, n int) (r struct {
	ids   []string
	acls  []string
	dists []float64
}) {
	idx := make([]int, len(ids))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if dists[a] != dists[b] {
			if dists[a] < dists[b] {
				return -1
			}
			return 1
		}
		return strings.Compare(ids[a], ids[b])
	})
	seen := map[string]bool{}
	for _, i := range idx {
		if seen[ids[i]] || len(r.ids) == n {
			continue
		}
		seen[ids[i]] = true
		r.ids, r.acls, r.dists = append(r.ids, ids[i]), append(r.acls, acls[i]), append(r.dists, dists[i])
	}
	return r
}

// withinDist is recall@n by distance: the share of got's first n
// distances no larger than exact's n-th (ties with the exact n-th count,
// whichever copy the form returned); 1 when exact is empty.
func withinDist(exact, got []float64, n int) float64 {
	exact, got = exact[:min(n, len(exact))], got[:min(n, len(got))]
	if len(exact) == 0 {
		return 1
	}
	hit := 0
	for _, d := range got {
		if d <= exact[len(exact)-1]+1e-6 {
			hit++
		}
	}
	return float64(min(hit, len(exact))) / float64(len(exact))
}

// sees reports whether a chunk whose acl field is acl is visible to a
// caller of groups.
func sees(groups []string, acl string) bool {
	for _, g := range strings.Split(acl, tagSeparator) {
		if slices.Contains(groups, g) {
			return true
		}
	}
	return false
}

// logProfile runs FT.PROFILE on one KNN query and logs the lines of its
// iterators' profile that name the vector iterator's batches.
func logProfile(t *testing.T, ix *Index, q string, vec []float32, depth int) {
	t.Helper()
	res, err := ix.rdb.Do(context.Background(), "FT.PROFILE", ix.vn, "SEARCH", "QUERY", q, "PARAMS", "2", "B", vectorBytes(vec, ix.m.vectorType()),
		"SORTBY", fieldDistance, "ASC", "LIMIT", "0", strconv.Itoa(depth), "RETURN", "1", fieldDistance, "DIALECT", "2").Result()
	if err != nil {
		t.Fatalf("FT.PROFILE: %v", err)
	}
	s := fmt.Sprint(res)
	i := strings.Index(s, "Vector search mode")
	if i < 0 {
		i = strings.Index(s, "VECTOR")
	}
	if i < 0 {
		t.Logf("  profile: %.400s", s)
		return
	}
	t.Logf("  profile: %.300s", s[i:])
}
