package backend

import (
	"testing"

	"github.com/assay-rag/assay/internal/corpus"
)

// TestAllows: the in-process predicate compiled from Conditions keeps
// exactly the chunks each restriction names.
func TestAllows(t *testing.T) {
	chunk := corpus.Chunk{ID: "a#0", ACL: []string{"staff", "partner:x"}, Type: "manual", Products: []string{"K50", "X300"},
		Status: corpus.Current, Authority: 0.6, Updated: "2025-03-01"}
	undated := chunk
	undated.Updated = ""
	for _, tc := range []struct {
		name string
		f    Filter
		c    corpus.Chunk
		want bool
	}{
		{"a group of the ACL", Filter{Groups: []string{"public", "staff"}}, chunk, true},
		{"no group of the ACL", Filter{Groups: []string{"public"}}, chunk, false},
		{"no groups at all", Filter{}, chunk, false},
		{"type", Filter{Groups: []string{"staff"}, Types: []string{"faq", "manual"}}, chunk, true},
		{"other type", Filter{Groups: []string{"staff"}, Types: []string{"faq"}}, chunk, false},
		{"one product", Filter{Groups: []string{"staff"}, Products: []string{"X300"}}, chunk, true},
		{"other product", Filter{Groups: []string{"staff"}, Products: []string{"X200"}}, chunk, false},
		{"status", Filter{Groups: []string{"staff"}, Statuses: []corpus.Status{corpus.Current}}, chunk, true},
		{"other status", Filter{Groups: []string{"staff"}, Statuses: []corpus.Status{corpus.Archived}}, chunk, false},
		{"authority at its limit", Filter{Groups: []string{"staff"}, MinAuthority: 0.6}, chunk, true},
		{"authority above", Filter{Groups: []string{"staff"}, MinAuthority: 0.61}, chunk, false},
		{"date range inclusive", Filter{Groups: []string{"staff"}, UpdatedFrom: "2025-03-01", UpdatedTo: "2025-03-01"}, chunk, true},
		{"date before", Filter{Groups: []string{"staff"}, UpdatedTo: "2025-02-28"}, chunk, false},
		{"date after", Filter{Groups: []string{"staff"}, UpdatedFrom: "2025-03-02"}, chunk, false},
		{"no date fails a date filter", Filter{Groups: []string{"staff"}, UpdatedFrom: "2000-01-01"}, undated, false},
		{"no date passes without one", Filter{Groups: []string{"staff"}}, undated, true},
	} {
		if got := tc.f.Allows(&tc.c); got != tc.want {
			t.Errorf("%s: Allows = %v, want %v (conditions %+v)", tc.name, got, tc.want, tc.f.Conditions())
		}
	}
}

// TestPartsVisible: a principal's statistics are the sum of the ACL parts
// it may see, and nothing of the others.
func TestPartsVisible(t *testing.T) {
	ps := NewParts(nil)
	add := func(id string, acl []string, text string, terms ...string) (int, int) {
		return ps.Add(&corpus.Chunk{ID: id, ACL: acl, Text: text}, terms)
	}
	if p, o := add("a", []string{"public"}, "x", "kettle", "descale", "kettle"); p != 0 || o != 0 {
		t.Errorf("first chunk in part %d ordinal %d", p, o)
	}
	add("b", []string{"staff", "public"}, "x", "kettle", "quoxil")
	if p, o := add("c", []string{"public", "staff"}, "", "quoxil"); p != 1 || o != 1 {
		t.Errorf("same ACL in another order: part %d ordinal %d, want 1, 1", p, o)
	}
	add("d", []string{"finance"}, "x", "calder")

	pub := ps.Visible([]string{"public"})
	if pub.Len() != 3 || pub.DocFreq("kettle") != 2 || pub.DocFreq("calder") != 0 || pub.All() {
		t.Errorf("public: len %d, df(kettle) %d, df(calder) %d, all %v; want 3, 2, 0, false", pub.Len(), pub.DocFreq("kettle"), pub.DocFreq("calder"), pub.All())
	}
	// 3 + 2 + 1 tokens over 3 chunks; finance's chunk is not counted
	if got := pub.AvgLen(); got != 6.0/3 {
		t.Errorf("public AvgLen = %g, want 2", got)
	}
	if w := pub.EmptyWarning(); len(w) != 1 || w[0] != "1 chunks you can see have no text (an empty parse?)" {
		t.Errorf("public warnings %q", w)
	}
	if w := ps.Visible([]string{"finance"}).EmptyWarning(); w != nil {
		t.Errorf("finance sees no empty chunk, warned %q", w)
	}
	if n := ps.Visible(nil).Len(); n != 0 {
		t.Errorf("no groups see %d chunks", n)
	}
	all := ps.Visible([]string{"public", "finance"})
	if !all.All() || all.Len() != ps.Len() || all.DocFreq("calder") != ps.DocFreq("calder") {
		t.Errorf("every group: all %v, len %d of %d", all.All(), all.Len(), ps.Len())
	}
	sum := map[string]int{}
	ps.EachTerm(func(term string, df int) { sum[term] += df })
	if sum["kettle"] != 2 || sum["quoxil"] != 2 || sum["calder"] != 1 || len(sum) != 4 {
		t.Errorf("EachTerm = %v", sum)
	}
	// Stored and reopened parts give the same statistics.
	again := NewParts(ps.List()).Visible([]string{"public"})
	if again.Len() != pub.Len() || again.DocFreq("quoxil") != pub.DocFreq("quoxil") {
		t.Errorf("reopened parts: len %d df(quoxil) %d", again.Len(), again.DocFreq("quoxil"))
	}
}
