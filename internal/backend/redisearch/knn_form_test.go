package redisearch

import (
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/backend"
)

// TestVectorFormChoice: the vector leg's query form follows the caller's
// visible share (docs/log/performance-scale.md, "the vector leg"): no ACL
// clause only for a caller who sees every chunk, the graph walked in
// batches for a large share with no other condition, the engine's
// choice otherwise; the ACL clause is in every form but the first.
func TestVectorFormChoice(t *testing.T) {
	const chunks, depth, ef = 1000, 116, 800
	acl := func(g ...string) string { return tagClause(fieldACL, g) }
	cases := []struct {
		name string
		s    *visibleStats
		f    backend.Filter
		want string
	}{
		{"sees every chunk", &visibleStats{all: true, n: chunks}, backend.Filter{Groups: []string{"public", "staff"}},
			"*=>[KNN 116 @vec $B EF_RUNTIME 800 AS dist]"},
		{"sees every chunk, one type", &visibleStats{all: true, n: chunks}, backend.Filter{Groups: []string{"public", "staff"}, Types: []string{"faq"}},
			"(@type:{faq})=>[KNN 116 @vec $B EF_RUNTIME 800 AS dist]"},
		{"half", &visibleStats{n: chunks / 2}, backend.Filter{Groups: []string{"public"}},
			"(" + acl("public") + ")=>[KNN 116 @vec $B HYBRID_POLICY BATCHES BATCH_SIZE 232 EF_RUNTIME 800 AS dist]"},
		{"a quarter", &visibleStats{n: chunks / 4}, backend.Filter{Groups: []string{"team-07", "team-08"}},
			"(" + acl("team-07", "team-08") + ")=>[KNN 116 @vec $B HYBRID_POLICY BATCHES BATCH_SIZE 232 EF_RUNTIME 800 AS dist]"},
		{"half, one type", &visibleStats{n: chunks / 2}, backend.Filter{Groups: []string{"public"}, Types: []string{"faq"}},
			"(" + acl("public") + " @type:{faq})=>[KNN 116 @vec $B EF_RUNTIME 800 AS dist]"},
		{"a few", &visibleStats{n: chunks/4 - 1}, backend.Filter{Groups: []string{"team-07"}},
			"(" + acl("team-07") + ")=>[KNN 116 @vec $B EF_RUNTIME 800 AS dist]"},
	}
	for _, c := range cases {
		got := vectorForm(c.s, chunks, c.f, depth, ef)
		if got != c.want {
			t.Errorf("%s: %s\nwant %s", c.name, got, c.want)
		}
		if !c.s.all && !strings.Contains(got, "@acl:") {
			t.Errorf("%s: no ACL clause in %s", c.name, got)
		}
	}
	// A FLAT index (ef 0) is exact whatever the form: no batches.
	if got := vectorForm(&visibleStats{n: chunks / 2}, chunks, backend.Filter{Groups: []string{"public"}}, depth, 0); strings.Contains(got, "BATCHES") {
		t.Errorf("FLAT: %s, want no HYBRID_POLICY", got)
	}
}

// TestVectorParts: a restricted caller with no other condition each of
// whose groups has a graph walks those graphs without an ACL clause; a
// caller with a group without one, a caller who sees every chunk, one
// with another condition, and a FLAT index ask vectorForm's one query.
func TestVectorParts(t *testing.T) {
	const vn, chunks, depth, ef = "assay:x:v3", 1000, 116, 800
	vg := []string{"public", "staff"}
	walk := "*=>[KNN 116 @vec $B EF_RUNTIME 800 AS dist]"
	one := func(s *visibleStats, f backend.Filter, ef int) []knnPart {
		return []knnPart{{vn, vectorForm(s, chunks, f, depth, ef)}}
	}
	half := &visibleStats{n: chunks / 2}
	cases := []struct {
		name   string
		s      *visibleStats
		f      backend.Filter
		groups []string
		flat   []string
		ef     int
		want   []knnPart
	}{
		{"public", half, backend.Filter{Groups: []string{"public"}}, vg, nil, ef,
			[]knnPart{{vn + ":vg:0", walk}}},
		{"staff and public, public twice", half, backend.Filter{Groups: []string{"staff", "public", "public"}}, vg, nil, ef,
			[]knnPart{{vn + ":vg:0", walk}, {vn + ":vg:1", walk}}},
		{"public and two teams", half, backend.Filter{Groups: []string{"team-08", "public", "team-07"}}, vg, nil, ef,
			one(half, backend.Filter{Groups: []string{"team-08", "public", "team-07"}}, ef)},
		{"a team", &visibleStats{n: 20}, backend.Filter{Groups: []string{"team-07"}}, vg, nil, ef,
			one(&visibleStats{n: 20}, backend.Filter{Groups: []string{"team-07"}}, ef)},
		{"every chunk", &visibleStats{all: true, n: chunks}, backend.Filter{Groups: []string{"public", "staff", "team-07"}}, vg, nil, ef,
			one(&visibleStats{all: true, n: chunks}, backend.Filter{Groups: []string{"public", "staff", "team-07"}}, ef)},
		{"public, one type", half, backend.Filter{Groups: []string{"public"}, Types: []string{"faq"}}, vg, nil, ef,
			one(half, backend.Filter{Groups: []string{"public"}, Types: []string{"faq"}}, ef)},
		{"no vector groups", half, backend.Filter{Groups: []string{"public"}}, nil, nil, ef,
			one(half, backend.Filter{Groups: []string{"public"}}, ef)},
		{"staff FLAT, public a graph", half, backend.Filter{Groups: []string{"staff", "public"}}, vg, []string{"staff"}, ef,
			[]knnPart{{vn + ":vg:0", walk}, {vn + ":vg:1", "*=>[KNN 116 @vec $B AS dist]"}}},
		{"FLAT", half, backend.Filter{Groups: []string{"public"}}, vg, nil, 0,
			one(half, backend.Filter{Groups: []string{"public"}}, 0)},
	}
	for _, c := range cases {
		got := vectorParts(vn, c.groups, c.flat, c.s, chunks, c.f, depth, c.ef)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q\nwant %q", c.name, got, c.want)
		}
	}
}
