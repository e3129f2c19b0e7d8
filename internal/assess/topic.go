package assess

import (
	"strings"
	"unicode"
)

// The focus reading (focus.go) accepts a chunk on the words the clause
// that asks shares with the documents. Two readings of what that clause
// must keep for the acceptance to say the chunk answers it (round 31,
// off by default: "+knownask", "+focustopic"):
//
//   - KnownAsk: a clause that asks holding words no visible document uses
//     and no other known word but the entities' ("what do I tell her",
//     "how do I get my kettle talking to my phone") asks something the
//     documents do not name; a chunk naming the entity and holding an
//     expression of the answer type says nothing of it. Only a clause with
//     no content word at all ("how long do I leave it?") is read through
//     its entities.
//   - FocusTopic: as the wide reading (minTopic), the chunk must cover a
//     word of the clause that asks that is no entity's and no number.

// asksKnown reports whether f keeps a word of the clause that asks
// (KnownAsk): false when that clause holds a word no visible chunk
// holds and every word f reads is an entity's.
func (f *focus) asksKnown() bool {
	if len(f.unknown) == 0 {
		return true
	}
	for _, w := range f.words {
		if !f.entityTerm(w.term) {
			return true
		}
	}
	return false
}

// entityTerm reports whether t is a term of one of f's entities.
func (f *focus) entityTerm(t string) bool {
	for _, e := range f.ents {
		for _, et := range e.Terms {
			if et == t {
				return true
			}
		}
	}
	return false
}

// topicHeld reports whether a chunk holding have covers a word f reads
// that is no entity's and no number (FocusTopic).
func (f *focus) topicHeld(have map[string]bool, covers func(map[string]bool, string) bool) bool {
	for _, w := range f.words {
		if !f.entityTerm(w.term) && !strings.ContainsFunc(w.term, unicode.IsDigit) && covers(have, w.term) {
			return true
		}
	}
	return false
}
