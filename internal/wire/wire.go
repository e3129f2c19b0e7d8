// Package wire is assay's contract: the types that cross the boundary
// between the workflows and their activities, that workflow histories
// record, and that the gateway serves as JSON. It holds data and the few
// rules that belong to the data (limits, defaults, labels), nothing that
// searches, prompts or calls a model, so that everything on either side
// of the contract can import it cheaply.
//
// The JSON names are part of recorded workflow histories and of the HTTP
// API: do not change them.
package wire

import "strconv"

// Status says whether a document is still in force.
type Status string

// The document statuses.
const (
	Current   Status = "current"
	Archived  Status = "archived"
	Withdrawn Status = "withdrawn"
)

// PublicGroup is the ACL group every principal, including the anonymous
// one, belongs to. Documents with no ACL are public.
const PublicGroup = "public"

// Principal is the caller a question is asked for.
type Principal struct {
	ID     string   `json:"id"`
	Groups []string `json:"groups"`
}

// Filters narrow the candidates beyond the principal's groups. Empty
// fields do not filter.
type Filters struct {
	Types    []string `json:"types,omitempty"`
	Products []string `json:"products,omitempty"`
	Statuses []Status `json:"statuses,omitempty"`
	// MinAuthority keeps sources with at least this authority (0..1).
	MinAuthority float64 `json:"min_authority,omitempty"`
	// UpdatedFrom and UpdatedTo (YYYY-MM-DD, inclusive) bound the
	// sources' update dates; a source with no date fails a date filter.
	UpdatedFrom string `json:"updated_from,omitempty"`
	UpdatedTo   string `json:"updated_to,omitempty"`
}

// IsZero reports whether f filters nothing (omitzero uses it too).
func (f Filters) IsZero() bool {
	return len(f.Types) == 0 && len(f.Products) == 0 && len(f.Statuses) == 0 && f.MinAuthority == 0 && f.UpdatedFrom == "" && f.UpdatedTo == ""
}

// Hit is one ranked chunk. It carries ids and metadata, never the text.
// Score's scale depends on the mode that produced it: BM25 score, cosine,
// fused reciprocal-rank score, or reranker score.
type Hit struct {
	ChunkID   string  `json:"chunk_id"`
	DocID     string  `json:"doc_id"`
	Title     string  `json:"title"`
	Score     float64 `json:"score"`
	Status    Status  `json:"status"`
	Authority float64 `json:"authority"`
	Updated   string  `json:"updated,omitempty"`
}

// Stage is the record one retrieval stage leaves in the trace.
type Stage struct {
	Name       string  `json:"name"`
	Millis     float64 `json:"ms"`
	Candidates int     `json:"candidates"`
	// Top are the stage's best chunk ids, a bounded few: enough to see
	// where a document was lost without bloating workflow history.
	Top []string `json:"top,omitempty"`
	// Note says what the stage did beyond ranking (what it collapsed,
	// which model ran).
	Note string `json:"note,omitempty"`
}

// Label returns the request-scoped label of the i-th source (0-based) of
// a prompt: "1", "2", ... Citations in an answer name labels, and the
// trace maps each label to its chunk.
func Label(i int) string { return strconv.Itoa(i + 1) }
