package assess

import (
	"fmt"
	"hash/maphash"
	"maps"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/assay-rag/assay/internal/terms"
)

// The mentions memo: TitledMentions keeps the maps it made for the chunks
// read last. A question's chunks are read for their mentions by the Assess
// activity at each attempt (assess), again by the statement reading
// (states.go), and by the extractive generator for its sources, the same
// chunks in the same process (round 29: the generator's were ≈1% of `assay
// dev`'s CPU at 500,000 chunks, the assessor's repeats as much again). The
// maps are shared, read only: every caller that adds to a chunk's mentions
// clones them first (withNames, withGeneral, the generator's withName), and
// TestMentionsMemoUnchanged runs the assessor and the generator over the
// design sets and checks each kept map against its chunk's mentions made
// anew.

// maxMentioned bounds the chunks the memo keeps: a few questions in
// flight's evidence (tens of chunks each). A chunk's map holds about four
// keys a term: measured (round 30, rv30) 21 KiB kept for a 1 KiB text,
// 84 KiB for 4 KiB, 264 KiB for 16 KiB.
const maxMentioned = 256

// maxMentionedText is the longest title and text the memo keeps, so the
// memo holds at most about 21 MiB (256 maps of a 4 KiB text; a default
// chunk of 256 words is about 1.5 KiB): a longer chunk's or a document's
// mentions are made every time.
const maxMentionedText = 4 << 10

// mentioned is one kept map, with the title and text it is of (a key's
// hash is not proof of them).
type mentioned struct {
	title, text string
	m           map[string]bool
}

type mentionsMemo struct {
	seed maphash.Seed
	kept *lru.Cache[uint64, mentioned]
}

var titledMemo = newMentionsMemo(maxMentioned)

func newMentionsMemo(n int) *mentionsMemo {
	kept, err := lru.New[uint64, mentioned](n)
	if err != nil {
		panic(err) // n is a positive constant
	}
	return &mentionsMemo{seed: maphash.MakeSeed(), kept: kept}
}

// key hashes title and text, title's length first, so that no other title
// and text joined the same way share it by construction.
func (c *mentionsMemo) key(title, text string) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	var n [8]byte
	for i := range n {
		n[i] = byte(len(title) >> (8 * i))
	}
	h.Write(n[:])
	h.WriteString(title)
	h.WriteString(text)
	return h.Sum64()
}

// get returns the kept map of title and text.
func (c *mentionsMemo) get(title, text string) (map[string]bool, uint64, bool) {
	if len(title)+len(text) > maxMentionedText {
		return nil, 0, false
	}
	k := c.key(title, text)
	e, ok := c.kept.Get(k)
	if !ok || e.title != title || e.text != text {
		return nil, k, false
	}
	return e.m, k, true
}

// put keeps m as title and text's mentions under key k (get's); m must not
// be changed afterwards.
func (c *mentionsMemo) put(k uint64, title, text string, m map[string]bool) {
	if len(title)+len(text) > maxMentionedText {
		return
	}
	// The texts are copied: they may be slices of a larger string that
	// the memo must not keep alive.
	c.kept.Add(k, mentioned{title: strings.Clone(title), text: strings.Clone(text), m: m})
}

// check returns an error naming the first kept map that differs from its
// title and text's mentions made anew by an: some caller changed a shared
// map.
func (c *mentionsMemo) check(an *terms.Analyzer) error {
	for _, k := range c.kept.Keys() {
		e, ok := c.kept.Peek(k)
		if !ok {
			continue
		}
		tt, xt := an.Titled(e.title, e.text)
		if want := mentionsOf([][]string{tt, xt}); !maps.Equal(e.m, want) {
			return fmt.Errorf("the kept mentions of %.60q were changed: %d keys, made anew %d", e.title, len(e.m), len(want))
		}
	}
	return nil
}

// CheckKeptMentions returns an error when a map TitledMentions handed out
// and keeps for later callers has been changed since (nil when none has):
// a check for tests running the assessor and the generator.
func CheckKeptMentions(an *terms.Analyzer) error { return titledMemo.check(an) }

// KeptMentions is how many chunks' mentions TitledMentions keeps: a check
// for tests.
func KeptMentions() int { return titledMemo.kept.Len() }
