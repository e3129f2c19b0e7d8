// Package corpus defines assay's document model and loads documents from
// files.
//
// Loading is all-or-nothing: a loader either returns every document of its
// input or an error naming the first bad record as file:line, field and
// reason. Nothing downstream (the index) ever sees a partial corpus.
package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/assay-rag/assay/internal/wire"
)

// Status says whether a document is still in force. It is part of the
// wire contract (hits and filters carry it).
type Status = wire.Status

// Document statuses.
const (
	Current   = wire.Current
	Archived  = wire.Archived
	Withdrawn = wire.Withdrawn
)

// PublicGroup is the ACL group every principal, including the anonymous
// one, belongs to. A document whose record leaves the acl field out is
// public; one whose acl is present but empty ([], null, no value, only
// spaces) is an error in every loader (see errEmptyACL): an ACL that lost
// its groups on the way must not publish the document.
const PublicGroup = wire.PublicGroup

// errEmptyACL is the loaders' error for an acl field present without a
// group.
func errEmptyACL(what string) error {
	return fieldErr("acl", what+": an empty ACL is not public; name the groups that may see the document (e.g. [public]), or leave the field out to make it public")
}

// Document is one source document.
type Document struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Text      string   `json:"text"`
	Type      string   `json:"type,omitempty"`
	Source    string   `json:"source,omitempty"`
	Updated   string   `json:"updated,omitempty"` // YYYY-MM-DD
	Status    Status   `json:"status,omitempty"`
	Authority float64  `json:"authority"` // 0..1
	ACL       []string `json:"acl,omitempty"`
	Products  []string `json:"products,omitempty"`
	Tags      []string `json:"tags,omitempty"`
	URL       string   `json:"url,omitempty"`

	// implicitACL is set by Normalize when the record had no acl field
	// and the document became public by default (see RequireACL).
	implicitACL bool
}

// Normalize fills defaults (status current, ACL public, authority 1 when
// unset by the loader) and trims whitespace. Loaders call it before Validate.
func (d *Document) Normalize() {
	d.ID = strings.TrimSpace(d.ID)
	d.Title = strings.TrimSpace(d.Title)
	d.Text = strings.TrimSpace(d.Text)
	if d.Status == "" {
		d.Status = Current
	}
	if len(d.ACL) == 0 {
		d.ACL = []string{PublicGroup}
		d.implicitACL = true
	}
}

// RequireACL fails on the first document whose record had no acl field,
// so it is public only by default. index.require_acl, on by default, calls
// it, so a document is public only when its record says so: a forgotten
// or mistyped field cannot publish it.
func RequireACL(docs []Document) error {
	for i := range docs {
		if docs[i].implicitACL {
			return &RecordError{File: docs[i].ID, Field: "acl",
				Reason: "missing, and index.require_acl is on (the default): give every document an acl ([public] for public ones), or set index.require_acl to false (ASSAY_INDEX_REQUIRE_ACL=false) for a corpus meant to be wholly public"}
		}
	}
	return nil
}

// aclKey names the ACL part of a document with acl: its groups, sorted.
func aclKey(acl []string) string {
	acl = slices.Clone(acl)
	slices.Sort(acl)
	return "[" + strings.Join(slices.Compact(acl), " ") + "]"
}

// CountACLParts is how many ACL parts (distinct sets of groups) docs
// fall into.
func CountACLParts(docs []Document) int {
	parts := map[string]bool{}
	for i := range docs {
		parts[aclKey(docs[i].ACL)] = true
	}
	return len(parts)
}

// aclPartsShown is how many ACL parts ACLParts names; the rest are
// counted. A corpus with many teams has tens of thousands of parts (the
// 500k scale corpus: over 150,000), which would make a summary line of
// megabytes.
const aclPartsShown = 12

// ACLParts summarises how a corpus is split by access: each distinct ACL
// with its count of documents, largest first, and how many of the public
// ones are public only because their record has no acl field. For the
// build summary: "[public] 30 (2 by default), [staff] 2, [finance staff] 1".
// Past aclPartsShown parts the rest are counted: "..., and 40 more parts
// (95 documents)".
func ACLParts(docs []Document) string {
	type part struct {
		acl           string
		docs, implied int
	}
	byACL := map[string]*part{}
	for i := range docs {
		key := aclKey(docs[i].ACL)
		p := byACL[key]
		if p == nil {
			p = &part{acl: key}
			byACL[key] = p
		}
		p.docs++
		if docs[i].implicitACL {
			p.implied++
		}
	}
	parts := make([]*part, 0, len(byACL))
	for _, p := range byACL {
		parts = append(parts, p)
	}
	sort.Slice(parts, func(i, j int) bool {
		if parts[i].docs != parts[j].docs {
			return parts[i].docs > parts[j].docs
		}
		return parts[i].acl < parts[j].acl
	})
	out := make([]string, 0, min(len(parts), aclPartsShown+1))
	for _, p := range parts[:min(len(parts), aclPartsShown)] {
		s := fmt.Sprintf("%s %d", p.acl, p.docs)
		if p.implied > 0 {
			s += fmt.Sprintf(" (%d by default)", p.implied)
		}
		out = append(out, s)
	}
	if rest := parts[min(len(parts), aclPartsShown):]; len(rest) > 0 {
		n, implied := 0, 0
		for _, p := range rest {
			n += p.docs
			implied += p.implied
		}
		s := fmt.Sprintf("and %d more %s (%d %s", len(rest), plural(len(rest), "part"), n, plural(n, "document"))
		if implied > 0 {
			s += fmt.Sprintf(", %d public by default", implied)
		}
		out = append(out, s+")")
	}
	return strings.Join(out, ", ")
}

// plural is word with an "s" unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// Validate checks one document. The error names the field.
func (d *Document) Validate() error {
	switch {
	case d.ID == "":
		return fieldErr("id", "must not be empty")
	case strings.ContainsAny(d.ID, " \t\n#"):
		return fieldErr("id", fmt.Sprintf("%q must not contain spaces or '#'", d.ID))
	case d.Text == "" && d.Title == "":
		return fieldErr("text", "title and text are both empty")
	case d.Status != Current && d.Status != Archived && d.Status != Withdrawn:
		return fieldErr("status", fmt.Sprintf("want current, archived or withdrawn, got %q", d.Status))
	case d.Authority < 0 || d.Authority > 1:
		return fieldErr("authority", fmt.Sprintf("want 0..1, got %g", d.Authority))
	}
	if d.Updated != "" {
		if _, err := time.Parse(time.DateOnly, d.Updated); err != nil {
			return fieldErr("updated", fmt.Sprintf("want YYYY-MM-DD, got %q", d.Updated))
		}
	}
	for _, g := range d.ACL {
		if strings.TrimSpace(g) == "" {
			return fieldErr("acl", "contains an empty group")
		}
	}
	return nil
}

// VisibleTo reports whether a principal in groups may see d.
func (d *Document) VisibleTo(groups []string) bool { return Visible(d.ACL, groups) }

// Visible reports whether a principal in groups may see something guarded
// by acl: they must share at least one group.
func Visible(acl, groups []string) bool {
	for _, g := range acl {
		if slices.Contains(groups, g) {
			return true
		}
	}
	return false
}

// Hash is a stable digest of everything about d that the index stores.
func (d *Document) Hash() string {
	b, _ := json.Marshal(d) // a struct of strings and numbers always marshals
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Checksum is a digest of a whole corpus, independent of document order.
func Checksum(docs []Document) string {
	var d Digest
	for i := range docs {
		d.Add(&docs[i])
	}
	return d.Sum()
}

// Digest computes Checksum one document at a time (with Stream), keeping
// each document's id and hash but not the document.
type Digest struct{ lines []string }

// Add adds d to the digest.
func (g *Digest) Add(d *Document) { g.lines = append(g.lines, d.ID+" "+d.Hash()) }

// Sum is the Checksum of the documents added.
func (g *Digest) Sum() string {
	sort.Strings(g.lines)
	h := sha256.New()
	for _, s := range g.lines {
		h.Write([]byte(s))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// RecordError reports a bad input record.
type RecordError struct {
	File   string
	Line   int // 1-based; 0 when the input has no lines (a whole file)
	Field  string
	Reason string
}

func (e *RecordError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Field == "" {
		return fmt.Sprintf("%s: %s", loc, e.Reason)
	}
	return fmt.Sprintf("%s: field %s: %s", loc, e.Field, e.Reason)
}

type fieldError struct{ field, reason string }

func (e *fieldError) Error() string { return e.field + ": " + e.reason }

func fieldErr(field, reason string) error { return &fieldError{field, reason} }

// recordErr places a document validation error at file:line.
func recordErr(file string, line int, err error) error {
	if fe, ok := err.(*fieldError); ok {
		return &RecordError{File: file, Line: line, Field: fe.field, Reason: fe.reason}
	}
	return &RecordError{File: file, Line: line, Reason: err.Error()}
}

// checkUnique fails on the second document with an id already seen.
func checkUnique(docs []Document, where func(i int) (string, int)) error {
	seen := make(map[string]int, len(docs))
	for i := range docs {
		if j, dup := seen[docs[i].ID]; dup {
			file, line := where(i)
			_, first := where(j)
			return &RecordError{File: file, Line: line, Field: "id",
				Reason: fmt.Sprintf("duplicate id %q (first at line %d)", docs[i].ID, first)}
		}
		seen[docs[i].ID] = i
	}
	return nil
}
