// Package thesaurus reads an optional lexical resource, the WordNet 3.0
// database, as a thesaurus: for a word, the words WordNet relates to it.
// The builtin rewriter uses it, when configured, to put a question's
// "bought" into a document's "purchase" (the translate strategy), and the
// builtin assessor to count the rewrite's "purchase" for "bought". Nothing requires it: without it
// the builtin models behave exactly as they do on a fresh machine.
//
// The database is the one Debian packages as wordnet-base
// (/usr/share/wordnet): data.{noun,verb,adj,adv} (synsets at byte offsets),
// index.* (lemma → synset offsets), *.exc (irregular forms) and, when
// present, cntlist.rev (how often each sense was tagged in WordNet's
// semantic concordance: which senses are a word's common ones).
package thesaurus

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// DefaultDir is where Debian's wordnet-base installs the database.
const DefaultDir = "/usr/share/wordnet"

// parts of speech, as WordNet's file names and synset pointers spell them.
var parts = []struct {
	name string
	pos  byte
}{{"noun", 'n'}, {"verb", 'v'}, {"adj", 'a'}, {"adv", 'r'}}

// relations are the pointer symbols followed one hop: derivationally
// related form (+, "purchase" → "purchaser"), attribute (=, "fast" →
// "speed") and similar to (&). Hypernyms and hyponyms are not: they relate
// a word to hundreds of others ("put" to "order"), and a coverage count
// cannot tell which sense a question meant.
//
// A derivation is a lexical pointer: it joins one word of a synset to one
// word of another, and only those two are related ("blender" to "blend",
// not to "go", which shares a sense with "blend"). Attribute and similar
// to join whole synsets.
const relations = "+=&"

// maxSenses is how many of a lemma's senses, most frequent first, are
// used per part of speech.
const maxSenses = 2

type synsetRef struct {
	pos    byte
	offset int32 // of its line in the part of speech's data file
}

// WordNet is a thesaurus over a WordNet database. Safe for concurrent use
// once opened.
type WordNet struct {
	dir     string
	synsets map[byte]*synsetTable // part of speech → its data file's synsets
	index   map[string][]synsetRef
	exc     map[byte]map[string][]string // part of speech → inflected form → lemmas
	// tags counts each sense's tagged uses (cntlist.rev): lemma and part
	// of speech → sense number (1-based, the index's order) → count. Nil
	// when the file is missing.
	tags map[lemma]map[int]int
	// formTags is the sum of tags over every part of speech and sense of
	// a lemma's form ("ask": its noun and verb senses).
	formTags map[string]int
	taxa     sync.Map // word → []Taxon (Taxa)
	defined  definedIndex
}

// Open reads the database in dir: every synset is parsed here
// (synsetTable), so no lookup parses a line.
func Open(dir string) (*WordNet, error) {
	w := &WordNet{dir: dir, synsets: map[byte]*synsetTable{}, exc: map[byte]map[string][]string{}}
	index := make([][]byte, len(parts))
	lines := 0
	for i, p := range parts {
		b, err := readFile(filepath.Join(dir, "index."+p.name))
		if err != nil {
			return nil, fmt.Errorf("thesaurus: WordNet database in %s: %w", dir, err)
		}
		if len(b) == 0 {
			return nil, fmt.Errorf("thesaurus: %s: empty file", filepath.Join(dir, "index."+p.name))
		}
		index[i], lines = b, lines+bytes.Count(b, []byte{'\n'})
	}
	w.index = make(map[string][]synsetRef, lines)
	for i, p := range parts {
		b, err := readFile(filepath.Join(dir, "data."+p.name))
		if err != nil {
			return nil, fmt.Errorf("thesaurus: WordNet database in %s: %w", dir, err)
		}
		if w.synsets[p.pos], err = parseSynsets(b); err != nil {
			return nil, fmt.Errorf("thesaurus: %s: %w", filepath.Join(dir, "data."+p.name), err)
		}
		if err := w.readIndex(filepath.Join(dir, "index."+p.name), index[i], p.pos); err != nil {
			return nil, err
		}
		if err := w.readExceptions(filepath.Join(dir, p.name+".exc"), p.pos); err != nil {
			return nil, err
		}
	}
	if err := w.checkPointers(dir); err != nil {
		return nil, err
	}
	for _, t := range w.synsets {
		t.begins = nil // read by the checks above only
	}
	if err := w.readCounts(filepath.Join(dir, "cntlist.rev")); err != nil {
		return nil, err
	}
	// Defined's index, read now rather than on the first question that
	// asks (≈70 ms: concurrent questions would wait on it).
	w.defined.once.Do(w.indexDefined)
	for _, t := range w.synsets {
		t.genus, t.after = nil, nil // read by indexDefined only (≈4.4 MB kept otherwise)
	}
	return w, nil
}

// checkPointers is an error naming the data file and line of the first
// followed pointer that names no synset (a lookup would find nothing
// there: a data file cut short, or one from another database), or a
// lexical pointer's target word past that synset's words (Links and
// Related would skip it silently).
func (w *WordNet) checkPointers(dir string) error {
	for _, p := range parts {
		t := w.synsets[p.pos]
		for i := range t.starts {
			for _, q := range t.ptrs[t.firstPtr[i]:t.firstPtr[i+1]] {
				if !w.synsets[q.pos].begun(q.offset) {
					return fmt.Errorf("thesaurus: %s: synset at byte %d: pointer %c to %c %d: no synset begins there", filepath.Join(dir, "data."+p.name), t.starts[i], q.sym, q.pos, q.offset)
				}
				if q.target == 0 {
					continue
				}
				to := w.synsets[q.pos]
				if j, _ := to.find(q.offset); int(q.target) > int(to.firstWord[j+1]-to.firstWord[j]) {
					return fmt.Errorf("thesaurus: %s: synset at byte %d: pointer %c to %c %d: target word %d, that synset has %d", filepath.Join(dir, "data."+p.name), t.starts[i], q.sym, q.pos, q.offset, q.target, to.firstWord[j+1]-to.firstWord[j])
				}
			}
		}
	}
	return nil
}

// maxFile is the largest database file read (WordNet 3.0's largest,
// data.noun, is 15 MB): the directory is the user's, and a file that
// never ends (a link to /dev/zero) must not take the process's memory.
var maxFile = 256 << 20 // a variable for the test of a file that never ends

// readFile is os.ReadFile of a file of at most maxFile bytes; a larger
// one is an error naming it.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 0 // the buffer is sized for a regular file, as os.ReadFile's is
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() <= int64(maxFile) {
		size = int(st.Size())
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, int64(maxFile)+1)); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	if len(b) > maxFile {
		return nil, fmt.Errorf("%s: larger than %d MiB, not a WordNet 3.0 file", path, maxFile>>20)
	}
	return b, nil
}

// senseKeyPos is a sense key's ss_type as a part of speech.
var senseKeyPos = map[byte]byte{'1': 'n', '2': 'v', '3': 'a', '4': 'r', '5': 'a'}

// readCounts reads cntlist.rev's lines "sense_key sense_number tag_cnt",
// a sense key being "lemma%ss_type:lex_filenum:lex_id:head:head_id"
// (ss_type 1 noun, 2 verb, 3 adjective, 4 adverb, 5 adjective satellite).
// A missing file leaves no counts (CommonRelated then reads each part of
// speech's first sense as its common one).
func (w *WordNet) readCounts(path string) error {
	b, err := readFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("thesaurus: %w", err)
	}
	w.tags = map[lemma]map[int]int{}
	w.formTags = map[string]int{}
	for _, line := range strings.Split(string(b), "\n") {
		fs := strings.Fields(line)
		if len(fs) != 3 {
			continue
		}
		lem, rest, ok := strings.Cut(fs[0], "%")
		n, err1 := strconv.Atoi(fs[1])
		c, err2 := strconv.Atoi(fs[2])
		if !ok || rest == "" || err1 != nil || err2 != nil {
			continue
		}
		pos := senseKeyPos[rest[0]]
		if pos == 0 {
			continue
		}
		l := lemma{strings.ToLower(lem), pos}
		if w.tags[l] == nil {
			w.tags[l] = map[int]int{}
		}
		w.tags[l][n] += c
		w.formTags[l.form] += c
	}
	return nil
}

// Name identifies the resource in model ids and reports.
func (w *WordNet) Name() string { return "wordnet-3.0" }

// readIndex reads b, the index file at path: lines "lemma pos synset_cnt
// p_cnt [ptr...] sense_cnt tagsense_cnt offset...".
func (w *WordNet) readIndex(path string, b []byte, pos byte) error {
	var fs [][2]int
	for n, off := 1, 0; off < len(b); n++ {
		end := bytes.IndexByte(b[off:], '\n')
		if end < 0 {
			end = len(b) - off
		}
		line := b[off : off+end]
		off += end + 1
		if len(line) > 0 && line[0] == ' ' {
			continue // licence header
		}
		fs = fields(line, fs[:0])
		field := func(i int) string { return string(line[fs[i][0]:fs[i][1]]) }
		if len(fs) < 6 {
			return fmt.Errorf("thesaurus: %s:%d: too few fields", path, n)
		}
		cnt, err1 := strconv.Atoi(field(2))
		pc, err2 := strconv.Atoi(field(3))
		// Each count is bounded by the line before they are summed: a
		// hostile count near the largest int would overflow the sum.
		if err1 != nil || err2 != nil || cnt < 0 || pc < 0 || pc > len(fs) || cnt > len(fs) || len(fs) < 6+pc+cnt {
			return fmt.Errorf("thesaurus: %s:%d: malformed counts: synset_cnt %q and p_cnt %q, the line has %d fields", path, n, field(2), field(3), len(fs))
		}
		lem := line[fs[0][0]:fs[0][1]]
		refs := slices.Grow(w.index[string(lem)], cnt)
		for i := 6 + pc; i < 6+pc+cnt; i++ {
			off, err := strconv.ParseInt(field(i), 10, 32)
			if err != nil {
				return fmt.Errorf("thesaurus: %s:%d: offset %q: %w", path, n, field(i), err)
			}
			if !w.synsets[pos].begun(int32(off)) {
				return fmt.Errorf("thesaurus: %s:%d: offset %d: no synset of the data file begins there (a data file cut short, or not this index's)", path, n, off)
			}
			refs = append(refs, synsetRef{pos, int32(off)})
		}
		w.index[string(lem)] = refs
	}
	return nil
}

func (w *WordNet) readExceptions(path string, pos byte) error {
	b, err := readFile(path)
	if err != nil {
		return fmt.Errorf("thesaurus: %w", err)
	}
	exc := map[string][]string{}
	w.exc[pos] = exc
	for _, line := range strings.Split(string(b), "\n") {
		fs := strings.Fields(line)
		if len(fs) >= 2 {
			exc[fs[0]] = append(exc[fs[0]], fs[1:]...)
		}
	}
	return nil
}

// suffixes are WordNet's detachment rules (morphy) for regular forms, by
// part of speech: "makers" is a noun's plural, "stopped" a verb's past,
// "bigger" an adjective's comparative, and "maker" is not "make".
var suffixes = map[byte][][2]string{
	'n': {{"s", ""}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"}, {"men", "man"}, {"ies", "y"}},
	'v': {{"s", ""}, {"ies", "y"}, {"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""}},
	'a': {{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"}},
}

// A lemma is a base form of a word in one part of speech.
type lemma struct {
	form string
	pos  byte
}

// lemmas returns the base forms WordNet knows for word, by part of speech,
// as its morphy does: the word itself, its listed irregular forms, and the
// forms its part of speech's suffix rules give.
func (w *WordNet) lemmas(word string) []lemma {
	var out []lemma
	for _, p := range parts {
		cands := append([]string{word}, w.exc[p.pos][word]...)
		for _, s := range suffixes[p.pos] {
			if strings.HasSuffix(word, s[0]) && len(word) > len(s[0])+1 {
				cands = append(cands, strings.TrimSuffix(word, s[0])+s[1])
			}
		}
		for _, c := range cands {
			l := lemma{c, p.pos}
			if slices.Contains(out, l) {
				continue
			}
			if slices.ContainsFunc(w.index[c], func(r synsetRef) bool { return r.pos == p.pos }) {
				out = append(out, l)
			}
		}
	}
	return out
}

// BaseForms returns the base forms WordNet knows for word (lower-cased,
// multi-word ones with spaces), each once: "bought" gives "bought" and
// "buy". An unknown word has none.
func (w *WordNet) BaseForms(word string) []string {
	var out []string
	for _, l := range w.lemmas(strings.ToLower(strings.TrimSpace(word))) {
		f := strings.ReplaceAll(l.form, "_", " ")
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// Senses counts the senses WordNet knows for word: the synsets of its
// base forms, over every part of speech ("put" has dozens, "warranty"
// one). An unknown word has none.
func (w *WordNet) Senses(word string) int {
	n := 0
	for _, l := range w.lemmas(strings.ToLower(strings.TrimSpace(word))) {
		for _, r := range w.index[strings.ReplaceAll(l.form, " ", "_")] {
			if r.pos == l.pos {
				n++
			}
		}
	}
	return n
}

// Related returns the words WordNet relates to word: the other words of
// the synsets of its base forms' two most frequent senses per part of
// speech, the words of the synsets one attribute or similar-to pointer
// away, and the words its own derivation pointers name.
// Words come lower-cased, multi-word ones with spaces, sorted, without
// word itself. An unknown word has none.
func (w *WordNet) Related(word string) []string {
	return w.related(word, false)
}

// minCommonShare is the least share of a word's tagged uses a sense must
// have to be one of its common senses (CommonRelated).
const minCommonShare = 0.1

// CommonRelated is Related through the word's common senses only: of the
// senses Related reads (the two most frequent per part of speech), those
// that hold at least a tenth of the uses WordNet's semantic concordance
// tagged for the word's base forms over every part of speech. "Number" is
// related to "total" through a verb sense ("the bills number in the
// thousands") that holds 6 of its 220 tagged uses: a passage's "batch
// number" is not a total. A word none of whose senses were tagged
// ("warranty") keeps the first sense of each part of speech, as a word
// does when the database has no counts.
func (w *WordNet) CommonRelated(word string) []string {
	return w.related(word, true)
}

// related is Related, or CommonRelated when common.
func (w *WordNet) related(word string, common bool) []string {
	word = strings.ToLower(strings.TrimSpace(word))
	seen := map[string]bool{}
	type cand struct {
		s     sense
		n     int // sense number of its lemma in its part of speech
		count int
	}
	var cands []cand
	total := 0
	for _, l := range w.lemmas(word) {
		seen[l.form] = true
		n := 0
		for _, r := range w.index[l.form] {
			if r.pos != l.pos {
				continue
			}
			n++
			c := w.tags[l][n]
			total += c
			if n <= maxSenses {
				cands = append(cands, cand{sense{r, strings.ReplaceAll(l.form, "_", " ")}, n, c})
			}
		}
	}
	var refs []sense
	for _, c := range cands {
		switch {
		case !common:
		case total == 0:
			if c.n > 1 {
				continue
			}
		case float64(c.count) < minCommonShare*float64(total):
			continue
		}
		refs = append(refs, c.s)
	}
	out := map[string]bool{}
	for _, r := range refs {
		words, ptrs := w.synset(r.synsetRef)
		for _, x := range words {
			out[x] = true
		}
		for _, p := range ptrs {
			if p.source > 0 && (int(p.source) > len(words) || words[p.source-1] != r.lemma) {
				continue // a lexical pointer from another word of the synset
			}
			nw, _ := w.synset(p.synsetRef)
			switch {
			case p.target == 0:
				for _, x := range nw {
					out[x] = true
				}
			case int(p.target) <= len(nw):
				out[nw[p.target-1]] = true
			}
		}
	}
	var list []string
	for x := range out {
		if !seen[x] && x != word {
			list = append(list, x)
		}
	}
	slices.Sort(list)
	return list
}

// A sense is a synset one lemma was found in.
type sense struct {
	synsetRef
	lemma string // as synset spells its words: lower case, spaces
}

// A pointer is a followed relation to another synset. Source and target
// are 1-based word numbers in the two synsets for a lexical pointer, 0 for
// a semantic one (the whole synsets).
type pointer struct {
	synsetRef
	source, target uint8
	sym            byte // the pointer symbol ('@', '+', ...; the followed ones are one byte)
}

// synset is the synset at r: its words and the pointers it has of the
// followed relations; a bad offset (no synset's line begins there) yields
// nothing.
func (w *WordNet) synset(r synsetRef) ([]string, []pointer) {
	return w.synsetBy(r, relations)
}

// synsetBy is synset, returning the pointers of the relations syms (their
// symbols, one byte each), in the file's order. Nothing is parsed: Open
// read every synset (synsetTable).
func (w *WordNet) synsetBy(r synsetRef, syms string) ([]string, []pointer) {
	t := w.synsets[r.pos]
	i, ok := t.find(r.offset)
	if !ok {
		return nil, nil
	}
	a, b := t.firstWord[i], t.firstWord[i+1]
	words := t.words[a:b:b]
	var ptrs []pointer
	for _, p := range t.ptrs[t.firstPtr[i]:t.firstPtr[i+1]] {
		if strings.IndexByte(syms, p.sym) >= 0 {
			ptrs = append(ptrs, p)
		}
	}
	return words, ptrs
}
