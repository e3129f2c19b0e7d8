package names

import (
	"encoding/json"
	"slices"

	"github.com/assay-rag/assay/internal/terms"
)

// Table is the (code, name word) pairs the chunks of an index write, per
// ACL group: a pair is under every group of the ACL of a chunk whose
// title or text, read alone, names the code with the word (In). An index
// builds it with its chunks (a build replaces the whole index: neither
// backend updates chunks in place, so the table is never older than the
// chunks it is served with) and keeps it beside them.
//
// It answers one question for the builtin assessor's class reading: can
// a chunk the asker may see name a product of code with word? Only such
// a chunk's name can credit word (assess.ProductNames reads at most the
// pairs In reads in each text it is given), so when the table of none of
// the asker's groups holds the pair, the search for word's chunks can
// change nothing and is not made. A pair too many costs a search; a pair
// missing would change a decision. Being per group, whether a search is
// made depends only on the chunks the asker may see.
//
// The zero value is an empty table; a nil *Table holds no pair.
type Table struct {
	groups map[string]map[string]map[string]bool // group → code → words
}

// NewTable returns an empty table.
func NewTable() *Table { return &Table{groups: map[string]map[string]map[string]bool{}} }

// Add adds the pairs title and text each write (In, analysed with an)
// under each group of acl.
func (t *Table) Add(an *terms.Analyzer, acl []string, title, text string) {
	pairs := map[string]map[string]bool{}
	In(an, title, pairs)
	In(an, text, pairs)
	if len(pairs) == 0 {
		return
	}
	for _, g := range acl {
		t.add(g, pairs)
	}
}

// Merge adds o's pairs to t (builds that read chunks in parallel).
func (t *Table) Merge(o *Table) {
	if o == nil {
		return
	}
	for g, codes := range o.groups {
		t.add(g, codes)
	}
}

// add adds pairs (code → words) under group g.
func (t *Table) add(g string, pairs map[string]map[string]bool) {
	if t.groups == nil {
		t.groups = map[string]map[string]map[string]bool{}
	}
	into := t.groups[g]
	if into == nil {
		into = map[string]map[string]bool{}
		t.groups[g] = into
	}
	for c, ws := range pairs {
		if into[c] == nil {
			into[c] = map[string]bool{}
		}
		for w := range ws {
			into[c][w] = true
		}
	}
}

// Len is the number of (group, code, word) entries.
func (t *Table) Len() int {
	if t == nil {
		return 0
	}
	n := 0
	for _, codes := range t.groups {
		for _, ws := range codes {
			n += len(ws)
		}
	}
	return n
}

// Visible returns the pairs of the chunks groups may see (an ACL naming
// one of groups, as corpus.Visible).
func (t *Table) Visible(groups []string) Pairs {
	var p Pairs
	if t == nil {
		return p
	}
	for _, g := range slices.Compact(slices.Sorted(slices.Values(groups))) {
		if codes := t.groups[g]; codes != nil {
			p.groups = append(p.groups, codes)
		}
	}
	return p
}

// Pairs are the (code, name word) pairs of the chunks one asker may see.
type Pairs struct {
	groups []map[string]map[string]bool
}

// PairsOf returns the pairs In found (each map In's out), read as Pairs'
// methods read a table's: for the names of texts at hand, such as the
// evidence or a search's chunks, rather than an index's.
func PairsOf(found ...map[string]map[string]bool) Pairs {
	return Pairs{groups: found}
}

// Code reports whether a visible chunk writes a name after code.
func (p Pairs) Code(code string) bool {
	for _, codes := range p.groups {
		if codes[code] != nil {
			return true
		}
	}
	return false
}

// Has reports whether a visible chunk writes word in a name after code.
func (p Pairs) Has(code, word string) bool {
	for _, codes := range p.groups {
		if codes[code][word] {
			return true
		}
	}
	return false
}

// Word reports whether a visible chunk writes word in a name after some
// code.
func (p Pairs) Word(word string) bool {
	for _, codes := range p.groups {
		for _, ws := range codes {
			if ws[word] {
				return true
			}
		}
	}
	return false
}

// MarshalJSON writes the table as {group: {code: [words]}}, each list
// sorted (encoding/json sorts the keys): the same table, the same bytes.
func (t *Table) MarshalJSON() ([]byte, error) {
	out := make(map[string]map[string][]string, len(t.groups))
	for g, codes := range t.groups {
		m := make(map[string][]string, len(codes))
		for c, ws := range codes {
			var list []string
			for w := range ws {
				list = append(list, w)
			}
			slices.Sort(list)
			m[c] = list
		}
		out[g] = m
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (t *Table) UnmarshalJSON(b []byte) error {
	var in map[string]map[string][]string
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	t.groups = make(map[string]map[string]map[string]bool, len(in))
	for g, codes := range in {
		m := make(map[string]map[string]bool, len(codes))
		for c, ws := range codes {
			set := make(map[string]bool, len(ws))
			for _, w := range ws {
				set[w] = true
			}
			m[c] = set
		}
		t.groups[g] = m
	}
	return nil
}
