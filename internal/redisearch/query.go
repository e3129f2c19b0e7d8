package redisearch

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/assay-rag/assay/internal/index"
)

// Escape makes s one literal token of the RediSearch query language (and
// of its document tokenizer): every rune that is not a letter, digit or
// underscore gets a backslash, so `@ { } | - * ( ) ~ : " $ % ...` and
// spaces are data, never syntax. Both the terms of the content field and
// TAG values go through it.
func Escape(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 4)
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// tagClause is `@field:{v1 | v2}` with every value escaped.
func tagClause(field string, values []string) string {
	var b strings.Builder
	b.WriteString("@" + field + ":{")
	for i, v := range values {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(Escape(v))
	}
	b.WriteString("}")
	return b.String()
}

// FilterQuery is f as RediSearch clauses: the principal's groups as a TAG
// clause on acl, always; then type, product and status TAG clauses and
// the NUMERIC ranges of authority and update date, each only when set. It
// is the same filter as index.Filter.Allows and bleve's filter query.
func FilterQuery(f index.Filter) string {
	parts := []string{tagClause(fieldACL, f.Groups)}
	if len(f.Types) > 0 {
		parts = append(parts, tagClause(fieldType, f.Types))
	}
	if len(f.Products) > 0 {
		parts = append(parts, tagClause(fieldProducts, f.Products))
	}
	if len(f.Statuses) > 0 {
		s := make([]string, len(f.Statuses))
		for i, st := range f.Statuses {
			s[i] = string(st)
		}
		parts = append(parts, tagClause(fieldStatus, s))
	}
	if f.MinAuthority > 0 {
		parts = append(parts, "@"+fieldAuthority+":["+strconv.FormatFloat(f.MinAuthority, 'g', -1, 64)+" +inf]")
	}
	if f.UpdatedFrom != "" || f.UpdatedTo != "" {
		lo, hi := "-inf", "+inf"
		if n, ok := dateNumber(f.UpdatedFrom); ok {
			lo = strconv.Itoa(n)
		}
		if n, ok := dateNumber(f.UpdatedTo); ok {
			hi = strconv.Itoa(n)
		}
		parts = append(parts, "@"+fieldUpdated+":["+lo+" "+hi+"]")
	}
	return strings.Join(parts, " ")
}

// TextQuery is the BM25 leg's query: a union of one branch per analyzed
// term, each branch the term in the content field intersected with the
// whole filter: (@content:t1 F) | (@content:t2 F) | ... terms must be
// non-empty.
//
// Not @content:(t1 | t2) F: RediSearch 2.10 scores a union that is
// skipped through by an intersection with only its first matching term
// (on SciFact the best BM25STD match of a query fell to rank 172). A
// union of intersections is read in full and scored by every term.
func TextQuery(terms []string, f index.Filter) string {
	filter := FilterQuery(f)
	var b strings.Builder
	for i, t := range terms {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString("(@" + fieldContent + ":")
		b.WriteString(Escape(t))
		b.WriteString(" " + filter + ")")
	}
	return b.String()
}

// VectorQuery is the vector leg's query: the k nearest chunks among those
// that pass the filter (a pre-filter, not a post-filter). With exact, the
// distances are computed for every chunk that passes the filter
// (HYBRID_POLICY ADHOC_BF) instead of walking the HNSW graph, whose
// approximate walk passes through chunks the filter excludes.
func VectorQuery(f index.Filter, k int, exact bool) string {
	policy := ""
	if exact {
		policy = " HYBRID_POLICY ADHOC_BF"
	}
	return "(" + FilterQuery(f) + ")=>[KNN " + strconv.Itoa(k) + " @" + fieldVector + " $B" + policy + " AS " + fieldDistance + "]"
}

// dateNumber turns YYYY-MM-DD into the number YYYYMMDD the NUMERIC field
// holds, so that date order is number order.
func dateNumber(s string) (int, bool) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return 0, false
	}
	return t.Year()*10000 + int(t.Month())*100 + t.Day(), true
}

// tagValuesOK reports whether values can be stored in a TAG field without
// changing meaning: no separator inside a value, no surrounding spaces
// (RediSearch trims them), not empty.
func tagValueOK(v string) bool {
	return v != "" && !strings.Contains(v, tagSeparator) && strings.TrimSpace(v) == v
}
