package redisearch

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/backend"
)

// TestSplitLegCost measures, on an index already built in a running
// server, what the BM25 leg's split query costs Redis's main thread for
// the end-to-end benchmark's questions (bench-scale's questions.jsonl)
// in variants of its read: as SearchText sends it at the retrieval
// depth (LIMIT 0 424, RETURN content), without the content, at smaller
// depths, and only counted (LIMIT 0 0). ASSAY_LEG_REDIS=host:port
// ASSAY_LEG_NAME=index ASSAY_LEG_QUESTIONS=questions.jsonl
// [ASSAY_LEG_EVERY=1] [ASSAY_LEG_GROUPS=public] [ASSAY_LEG_FETCH=100]
// [ASSAY_LEG_PROFILE=n: FT.PROFILE the first n queries].
func TestSplitLegCost(t *testing.T) {
	addr, name, path, every := measureEnv(t, "LEG", "QUESTIONS", 1)
	ctx := context.Background()
	ix := openBuilt(t, addr, name)
	groups := envGroups("ASSAY_LEG_GROUPS")
	f := backend.Filter{Groups: groups}
	var texts []string
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for i := 0; sc.Scan(); i++ {
		var q struct{ Question string }
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatal(err)
		}
		if i%every == 0 {
			texts = append(texts, q.Question)
		}
	}
	fh.Close()
	type split struct {
		query    string
		whole    string
		split    bool
		nofilter string // the split query without the ACL clause
		noopt    string // its rare terms' branches only, with the filter
		bare     string // its rare terms' branches only, no filter
	}
	// Each question's terms weighed for the caller, once.
	type weighed struct {
		qt     queryTerms
		n      int
		filter string
	}
	var ws []weighed
	for _, text := range texts {
		qterms := ix.an.Terms(text)
		if len(qterms) == 0 {
			continue
		}
		qt, v, err := ix.weigh(ctx, qterms, groups)
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, weighed{qt, v.s.n, filterQuery(f, !v.s.all)})
	}
	var qs []split
	for _, w := range ws {
		qt, filter := w.qt, w.filter
		s := split{whole: textQuery(qt.terms, filter, qt.weights)}
		if common := ix.rare.split(qt.vdf, qt.mass, w.n); common != nil {
			s.query, s.split = ix.rare.query(qt.terms, qt.weights, qt.mass, qt.vdf, w.n, common, filter), true
			s.nofilter = ix.rare.query(qt.terms, qt.weights, qt.mass, qt.vdf, w.n, common, "")
			un := ix.rare
			un.Unscored = true
			s.noopt = un.query(qt.terms, qt.weights, qt.mass, qt.vdf, w.n, common, filter)
			s.bare = un.query(qt.terms, qt.weights, qt.mass, qt.vdf, w.n, common, "")
		} else {
			s.query, s.nofilter, s.noopt = s.whole, textQuery(qt.terms, "", qt.weights), s.whole
			s.bare = s.nofilter
		}
		qs = append(qs, s)
	}
	nsplit := 0
	for _, s := range qs {
		if s.split {
			nsplit++
		}
	}
	t.Logf("%d questions, %d split", len(qs), nsplit)
	if n := envInt(t, "ASSAY_LEG_PROFILE", 0); n > 0 {
		for _, s := range qs[:min(n, len(qs))] {
			raw, err := ix.rdb.Do(ctx, "FT.PROFILE", ix.vn, "SEARCH", "QUERY", s.query, "RETURN", 1, fieldContent,
				"VERBATIM", "WITHSCORES", "SCORER", "BM25STD", "LIMIT", 0, 424, "TIMEOUT", noTimeout, "DIALECT", 2).Slice()
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(raw[1])
			t.Logf("query %s\nprofile %s", s.query, b)
		}
	}
	redisCPU := schedstatReader(t, ix)
	fetch := envInt(t, "ASSAY_LEG_FETCH", 100)
	depth := candidateDepth(fetch)
	type form struct {
		name string
		args func(s split) []any
	}
	search := func(limit int, content bool, which func(s split) string) func(s split) []any {
		return func(s split) []any {
			args := []any{"FT.SEARCH", ix.vn, which(s), "NOCONTENT"}
			if content {
				args = append(args[:3], "RETURN", 1, fieldContent)
			}
			return append(args, "VERBATIM", "WITHSCORES", "SCORER", "BM25STD", "LIMIT", 0, limit, "TIMEOUT", noTimeout, "DIALECT", 2)
		}
	}
	q := func(s split) string { return s.query }
	forms := []form{
		{"shipped", search(2*depth+tieMargin, true, q)},
		{"nocontent", search(2*depth+tieMargin, false, q)},
		{"depth1", search(depth+tieMargin, true, q)},
		{"margin8", search(2*depth+8, true, q)},
		{"of6", search(2*candidateDepthAt(fetch, 6)+tieMargin, true, q)},
		{"of6-margin8", search(2*candidateDepthAt(fetch, 6)+8, true, q)},
		{"limit20", search(20, false, q)},
		{"count", search(0, false, q)},
		{"count-nofilter", search(0, false, func(s split) string { return s.nofilter })},
		{"count-noopt", search(0, false, func(s split) string { return s.noopt })},
		{"count-bare", search(0, false, func(s split) string { return s.bare })},
		{"count-filter", search(0, false, func(s split) string { return filterQuery(f, true) })},
	}
	if s := os.Getenv("ASSAY_LEG_FORMS"); s != "" {
		want := strings.Split(s, ",")
		forms = slices.DeleteFunc(forms, func(f form) bool { return !slices.Contains(want, f.name) })
	}
	// ASSAY_LEG_RULES: split rules (TestRareRuleAgreement's form), each
	// measured as SearchText sends its query.
	for _, r := range parseRareRules(t, "ASSAY_LEG_RULES", os.Getenv("ASSAY_LEG_RULES")) {
		var rq []string
		for _, w := range ws {
			if common := r.split(w.qt.vdf, w.qt.mass, w.n); common != nil {
				rq = append(rq, r.query(w.qt.terms, w.qt.weights, w.qt.mass, w.qt.vdf, w.n, common, w.filter))
			} else {
				rq = append(rq, textQuery(w.qt.terms, w.filter, w.qt.weights))
			}
		}
		i := 0
		limit := r.splitDepth(depth) + tieMargin
		forms = append(forms, form{r.String(), func(s split) []any {
			q := rq[i%len(rq)]
			i++
			return search(limit, true, func(split) string { return q })(s)
		}})
	}
	for round := range 2 {
		for _, fm := range forms {
			var cpu time.Duration
			for _, s := range qs {
				c0 := redisCPU()
				if err := ix.rdb.Do(ctx, fm.args(s)...).Err(); err != nil {
					t.Fatalf("%s: %v", fm.name, err)
				}
				cpu += redisCPU() - c0
			}
			t.Logf("round %d %-10s redis CPU mean %.2f ms a question", round, fm.name, ms(cpu)/float64(len(qs)))
		}
	}
}

// candidateDepthAt is candidateDepth(k) at over-fetch factor of.
func candidateDepthAt(k, of int) int {
	old := swap(&overFetch, of)
	defer func() { overFetch = old }()
	return candidateDepth(k)
}

// envInt is the environment variable name read as an int (intOr).
func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	return intOr(t, name, os.Getenv(name), def)
}

// intOr is s read as an int, def when s is empty; a diagnostic's setting
// that is neither fails the test, naming what.
func intOr(t *testing.T, what, s string, def int) int {
	t.Helper()
	if s == "" {
		return def
	}
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return n
}
