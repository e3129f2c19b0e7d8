package backend

import (
	"slices"

	"github.com/assay-rag/assay/internal/corpus"
)

// Filter restricts candidates before scoring. Groups is required: a chunk
// is a candidate only if its ACL shares a group with it. Other empty fields
// do not filter.
//
// Conditions is the one description of what a filter means; each backend
// compiles it (a bleve query, a RediSearch query string) and Allows
// evaluates it in process.
type Filter struct {
	Groups   []string
	Types    []string
	Products []string
	Statuses []corpus.Status
	// MinAuthority keeps chunks with at least this authority.
	MinAuthority float64
	// UpdatedFrom and UpdatedTo (YYYY-MM-DD, inclusive) keep chunks updated
	// in that range; a chunk with no date fails a date filter.
	UpdatedFrom, UpdatedTo string
}

// Field is a chunk field a filter may restrict.
type Field int

// The fields a Filter restricts.
const (
	FieldACL       Field = iota // keywords: the chunk's groups
	FieldType                   // one keyword
	FieldProducts               // keywords
	FieldStatus                 // one keyword
	FieldAuthority              // a number, 0..1
	FieldUpdated                // a date, YYYY-MM-DD, possibly empty
)

// Kind says how a Condition tests its field.
type Kind int

const (
	// AnyOf: one of the chunk's keywords in Field is one of Values.
	AnyOf Kind = iota
	// AtLeast: the number in Field is at least Min.
	AtLeast
	// DateRange: the date in Field is within [From, To] (either may be
	// empty: unbounded); a chunk with no date fails.
	DateRange
)

// Condition is one clause of a filter; a chunk passes a filter when it
// passes every clause.
type Condition struct {
	Field    Field
	Kind     Kind
	Values   []string // AnyOf
	Min      float64  // AtLeast
	From, To string   // DateRange
}

// Conditions is f as clauses: the groups on acl, always; then each other
// restriction that is set, in a fixed order.
func (f Filter) Conditions() []Condition {
	out := []Condition{{Field: FieldACL, Kind: AnyOf, Values: f.Groups}}
	if len(f.Types) > 0 {
		out = append(out, Condition{Field: FieldType, Kind: AnyOf, Values: f.Types})
	}
	if len(f.Products) > 0 {
		out = append(out, Condition{Field: FieldProducts, Kind: AnyOf, Values: f.Products})
	}
	if len(f.Statuses) > 0 {
		s := make([]string, len(f.Statuses))
		for i, st := range f.Statuses {
			s[i] = string(st)
		}
		out = append(out, Condition{Field: FieldStatus, Kind: AnyOf, Values: s})
	}
	if f.MinAuthority > 0 {
		out = append(out, Condition{Field: FieldAuthority, Kind: AtLeast, Min: f.MinAuthority})
	}
	if f.UpdatedFrom != "" || f.UpdatedTo != "" {
		out = append(out, Condition{Field: FieldUpdated, Kind: DateRange, From: f.UpdatedFrom, To: f.UpdatedTo})
	}
	return out
}

// Allows reports whether c passes f. A loop over many chunks compiles
// the filter once with Predicate.
func (f *Filter) Allows(c *corpus.Chunk) bool { return f.Predicate().Allows(c) }

// Predicate is a filter compiled for evaluation in process.
type Predicate []Condition

// Predicate compiles f's Conditions for evaluation in process (the bleve
// backend's vector scan, restricted BM25 and Holdings).
func (f Filter) Predicate() Predicate { return f.Conditions() }

// Allows reports whether c passes every condition.
func (p Predicate) Allows(c *corpus.Chunk) bool {
	for _, cond := range p {
		if !cond.allows(c) {
			return false
		}
	}
	return true
}

func (cond Condition) allows(c *corpus.Chunk) bool {
	switch cond.Kind {
	case AtLeast:
		return c.Authority >= cond.Min
	case DateRange:
		return c.Updated != "" && (cond.From == "" || c.Updated >= cond.From) && (cond.To == "" || c.Updated <= cond.To)
	}
	switch cond.Field {
	case FieldACL:
		return corpus.Visible(c.ACL, cond.Values)
	case FieldProducts:
		return corpus.Visible(c.Products, cond.Values)
	case FieldType:
		return slices.Contains(cond.Values, c.Type)
	case FieldStatus:
		return slices.Contains(cond.Values, string(c.Status))
	}
	return false
}
