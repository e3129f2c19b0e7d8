package assess

import (
	"fmt"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// V24Model names the builtin assessor with v25's reading of a kind's
// modifier through its WordNet relatives off (Builtin.Alike):
// builtin:coverage-v24, kept selectable.
const V24Model = "builtin:coverage-v24"

// V25Model names the builtin assessor with v26's reading of value
// questions (Builtin.Valued, answertype.Valued) off: builtin:coverage-v25,
// kept selectable.
const V25Model = "builtin:coverage-v25"

// A Linker is a thesaurus that follows WordNet's other pointers
// (thesaurus.WordNet.Links): similar to, also see, derivations ...
type Linker interface {
	Links(word, syms string) []thesaurus.Taxon
}

// alikeSyms are the pointers alike follows: similar to (&) and also see
// (^), which join adjectives of one meaning ("normal" → "standard",
// "top" → "high").
const alikeSyms = "&^"

// alike (builtin:coverage-v25, Builtin.Alike) is the terms of the words
// WordNet relates to word, a kind's modifier (see kind), as the same
// kind: one similar-to or also-see pointer from one of its common
// senses, reaching one of the other word's common senses (thesaurus.Taxon's
// Common and ItsCommon), single words. "normal" → "standard": "normal
// delivery" is the page's "Standard delivery", not another kind of it.
// Without a thesaurus that follows them, none. Measured against looser
// relations (any sense, attributes, every relative): the same decisions
// on the development sets (docs/log/round-24-a24-wn.md).
func (b *Builtin) alike(word string) []string {
	lk, ok := b.Thesaurus.(Linker)
	if !b.Alike || !ok {
		return nil
	}
	var out []string
	// every mark around the word trimmed (bareWord), as taxa and kin
	// read it: "*normal*" is "normal" (round-24 rv24b, TestAlike)
	for _, x := range lk.Links(strings.ToLower(bareWord(word)), alikeSyms) {
		if !x.Common || !x.ItsCommon || strings.Contains(x.Word, " ") {
			continue
		}
		if ts := b.an.Terms(x.Word); len(ts) == 1 && !slices.Contains(out, ts[0]) {
			out = append(out, ts[0])
		}
	}
	return out
}

// alikeRead names the kinds text names in another word WordNet relates
// to the question's (kind.alike), for the reason: ` (reading "normal
// delivery" as "Standard delivery")`, or "" when it names none. Both
// are the asker's words: the question's, and the chunk's as written.
func (b *Builtin) alikeRead(question, text string, kinds []kind) string {
	var out []string
	for _, k := range kinds {
		if len(k.alike) == 0 {
			continue
		}
		if mod, head, ok := b.alikeIn(text, k); ok {
			out = append(out, fmt.Sprintf("%q as %q", wordFor(b.an, question, k.mod)+" "+wordFor(b.an, question, k.head), mod+" "+head))
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " (reading " + strings.Join(out, ", ") + ")"
}

// alikeIn finds the first place text names kind k's head after one of
// its alike modifiers, and returns the two words as written.
func (b *Builtin) alikeIn(text string, k kind) (mod, head string, ok bool) {
	for _, s := range citation.Sentences(text) {
		fields := strings.Fields(s)
		for i := 1; i < len(fields); i++ {
			if ts := b.an.Terms(fields[i]); len(ts) != 1 || ts[0] != k.head {
				continue
			}
			if prev := b.an.Terms(fields[i-1]); len(prev) == 1 && slices.Contains(k.alike, prev[0]) {
				return plainWord(fields[i-1]), plainWord(fields[i]), true
			}
		}
	}
	return "", "", false
}
