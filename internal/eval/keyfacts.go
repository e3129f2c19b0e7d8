package eval

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// KeyFacts maps a question id to the facts a right answer must contain.
// A fact matches as a case-insensitive substring of the answer; an answer
// has the reference's key facts when it contains every one.
type KeyFacts map[string][]string

// keyFactsRecord distinguishes a missing field from an empty one.
type keyFactsRecord struct {
	ID    *string   `json:"id"`
	Facts *[]string `json:"facts"`
}

// LoadKeyFacts reads a key-facts file; see ReadKeyFacts.
func LoadKeyFacts(path string) (KeyFacts, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadKeyFacts(f, path)
}

// ReadKeyFacts reads one {"id", "facts": [...]} object per line. Unknown
// fields, a missing or empty id, an empty fact list, a blank fact and a
// repeated id are errors naming file:line and the field.
func ReadKeyFacts(r io.Reader, name string) (KeyFacts, error) {
	out := KeyFacts{}
	lines := map[string]int{}
	err := scanLines(r, name, func(n int, line string) error {
		var rec keyFactsRecord
		if err := decodeStrict([]byte(line), &rec); err != nil {
			return lineErr(name, n, jsonField(err), jsonReason(err))
		}
		if rec.ID == nil || strings.TrimSpace(*rec.ID) == "" {
			return lineErr(name, n, "id", "missing or empty")
		}
		id := strings.TrimSpace(*rec.ID)
		if rec.Facts == nil || len(*rec.Facts) == 0 {
			return lineErr(name, n, "facts", "missing or empty")
		}
		if first, dup := lines[id]; dup {
			return lineErr(name, n, "id", fmt.Sprintf("duplicate id %q (first at line %d)", id, first))
		}
		facts := make([]string, 0, len(*rec.Facts))
		for i, f := range *rec.Facts {
			if strings.TrimSpace(f) == "" {
				return lineErr(name, n, fmt.Sprintf("facts[%d]", i), "blank fact")
			}
			facts = append(facts, strings.TrimSpace(f))
		}
		lines[id] = n
		out[id] = facts
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Missing returns the facts of question id that answer does not contain,
// compared case-insensitively; nil when it contains them all or the
// question has no key facts.
func (kf KeyFacts) Missing(id, answer string) []string {
	var out []string
	low := strings.ToLower(answer)
	for _, f := range kf[id] {
		if !holds(low, f) {
			out = append(out, f)
		}
	}
	return out
}

// HoldsAny reports whether text contains at least one key fact of
// question id, matched as Missing matches them; false when the question
// has none.
func (kf KeyFacts) HoldsAny(id, text string) bool {
	low := strings.ToLower(text)
	for _, f := range kf[id] {
		if holds(low, f) {
			return true
		}
	}
	return false
}

// holds is the one key-fact match: fact as a case-insensitive substring
// of low, the lower-cased text.
func holds(low, fact string) bool { return strings.Contains(low, strings.ToLower(fact)) }
