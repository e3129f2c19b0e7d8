package redisearch

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/assay-rag/assay/internal/backend"
)

// Escape makes s one literal token of the RediSearch query language: every
// ASCII rune that is not a letter, digit or underscore gets a backslash,
// so `@ { } | - * ( ) ~ : " $ % ...` and spaces are data, never syntax.
// Other runes are written as they are: RediSearch's query lexer reads
// bytes, escapes only the one byte after a backslash, and takes every
// byte of a multi-byte rune for part of a term, so a backslash before
// one ("caf\é" with a combining accent, a zero-width joiner, an en dash
// in a group's name) would end the term there and start another one,
// intersected with the query (a word with such a rune then matched
// nothing, and one FT.AGGREGATE holding it, Holdings' matchedSets,
// nothing at all: TestHoldingsNonASCIIRunes). The query's terms and TAG
// values go through it; the content field stores escapeStored's form.
func Escape(s string) string { return escape(s, false) }

// escapeStored is how the content field stores a term (escapeTerms): a
// backslash before every rune that is not a letter, digit or underscore,
// multi-byte ones included. RediSearch's document tokenizer drops a
// backslash and keeps the byte after it, so it indexes the same token as
// Escape's form would; the field keeps this form so that indexes built
// before Escape left multi-byte runes alone read as they did (termCounter
// matches a field's terms as stored).
func escapeStored(s string) string { return escape(s, true) }

// escape puts a backslash before every rune of s that is not a letter,
// digit or underscore: the ASCII ones only, unless multiByte.
func escape(s string, multiByte bool) string {
	var b strings.Builder
	b.Grow(len(s) + 4)
	for _, r := range s {
		if (multiByte || r < utf8.RuneSelf) && !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
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

// filterFields are the HASH fields the FT schema indexes for the filter's
// fields.
var filterFields = map[backend.Field]string{
	backend.FieldACL: fieldACL, backend.FieldType: fieldType, backend.FieldProducts: fieldProducts,
	backend.FieldStatus: fieldStatus, backend.FieldAuthority: fieldAuthority, backend.FieldUpdated: fieldUpdated,
}

// FilterQuery compiles f's conditions into RediSearch clauses: TAG
// clauses for keywords, NUMERIC ranges for authority and the update date
// (stored as YYYYMMDD).
func FilterQuery(f backend.Filter) string { return filterQuery(f, true) }

// filterQuery is FilterQuery, without the ACL clause unless acl.
func filterQuery(f backend.Filter, acl bool) string {
	var parts []string
	for _, c := range f.Conditions() {
		if c.Field == backend.FieldACL && !acl {
			continue
		}
		field := filterFields[c.Field]
		switch c.Kind {
		case backend.AnyOf:
			parts = append(parts, tagClause(field, c.Values))
		case backend.AtLeast:
			parts = append(parts, "@"+field+":["+strconv.FormatFloat(c.Min, 'g', -1, 64)+" +inf]")
		case backend.DateRange:
			lo, hi := "-inf", "+inf"
			if n, ok := dateNumber(c.From); ok {
				lo = strconv.Itoa(n)
			}
			if n, ok := dateNumber(c.To); ok {
				hi = strconv.Itoa(n)
			}
			parts = append(parts, "@"+field+":["+lo+" "+hi+"]")
		}
	}
	return strings.Join(parts, " ")
}

// TextQuery is the BM25 leg's query: a union of one branch per analyzed
// term, each branch the term in the content field intersected with the
// whole filter: (@content:t1 F) | (@content:t2 F) | ... terms must be
// non-empty. weights, when given (one per term), scale each branch's
// BM25STD score ($weight); the filter's clauses always weigh 0, so a
// chunk's score is its terms' alone (a TAG match would otherwise add its
// own IDF, more for a chunk in several of the principal's groups).
//
// Not @content:(t1 | t2) F: RediSearch 2.10 scores a union that is
// skipped through by an intersection with only its first matching term
// (on SciFact the best BM25STD match of a query fell to rank 172). A
// union of intersections is read in full and scored by every term.
func TextQuery(terms []string, f backend.Filter, weights ...float64) string {
	return textQuery(terms, FilterQuery(f), weights)
}

// textQuery is TextQuery with the filter compiled; an empty filter
// (a principal who sees every chunk, no other restriction) is left out.
func textQuery(terms []string, filter string, weights []float64) string {
	if filter != "" {
		filter = " (" + filter + ")=>{$weight: 0}"
	}
	var b strings.Builder
	for i, t := range terms {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString("(@" + fieldContent + ":")
		b.WriteString(Escape(t))
		b.WriteString(filter + ")")
		if i < len(weights) {
			b.WriteString("=>{$weight: " + strconv.FormatFloat(weights[i], 'g', 6, 64) + "}")
		}
	}
	return b.String()
}

// vectorQuery is the vector leg's query: the k nearest chunks among those
// that pass filter (a pre-filter, not a post-filter; every chunk when
// filter is empty), through the HNSW graph with EF_RUNTIME ef (0: the
// index's default). batch > 0 asks for HYBRID_POLICY BATCHES with that
// BATCH_SIZE: the graph walked in batches of that many neighbours, each
// intersected with the filter. Otherwise RediSearch chooses per query
// between that and computing the distance of every chunk that passes the
// filter (HYBRID_ADHOC_BF); vectorForm makes the choice when it knows the
// caller's visible share.
func vectorQuery(filter string, k, ef, batch int) string {
	var b strings.Builder
	if filter == "" {
		b.WriteString("*")
	} else {
		b.WriteString("(" + filter + ")")
	}
	b.WriteString("=>[KNN " + strconv.Itoa(k) + " @" + fieldVector + " $B")
	if batch > 0 {
		b.WriteString(" HYBRID_POLICY BATCHES BATCH_SIZE " + strconv.Itoa(batch))
	}
	if ef > 0 {
		b.WriteString(" EF_RUNTIME " + strconv.Itoa(ef))
	}
	b.WriteString(" AS " + fieldDistance + "]")
	return b.String()
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
// (RediSearch trims them), not empty, and no ASCII control character
// (the query lexer takes no escape of one, so no query could name the
// value: a backslash and byte 1 between "a" and "b" read as two values).
func tagValueOK(v string) bool {
	return v != "" && !strings.Contains(v, tagSeparator) && strings.TrimSpace(v) == v &&
		!strings.ContainsFunc(v, func(r rune) bool { return r < ' ' || r == 0x7f })
}
