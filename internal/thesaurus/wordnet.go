// Package thesaurus reads an optional lexical resource, the WordNet 3.0
// database, as a thesaurus: for a word, the words WordNet relates to it.
// The builtin rewriter uses it, when configured, to put a question's
// "bought" into a document's "purchase" (the translate strategy), and the
// builtin assessor to count the rewrite's "purchase" for "bought". Nothing requires it: without it
// the builtin models behave exactly as they do on a fresh machine.
//
// The database is the one Debian packages as wordnet-base
// (/usr/share/wordnet): data.{noun,verb,adj,adv} (synsets at byte offsets),
// index.* (lemma → synset offsets) and *.exc (irregular forms).
package thesaurus

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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
var relations = []string{"+", "=", "&"}

// maxSenses is how many of a lemma's senses, most frequent first, are
// used per part of speech.
const maxSenses = 2

type synsetRef struct {
	pos    byte
	offset int
}

// WordNet is a thesaurus over a WordNet database. Safe for concurrent use
// once opened.
type WordNet struct {
	dir   string
	data  map[byte][]byte // part of speech → data file
	index map[string][]synsetRef
	exc   map[string][]string // inflected form → lemmas
}

// Open reads the database in dir.
func Open(dir string) (*WordNet, error) {
	w := &WordNet{dir: dir, data: map[byte][]byte{}, index: map[string][]synsetRef{}, exc: map[string][]string{}}
	for _, p := range parts {
		b, err := os.ReadFile(filepath.Join(dir, "data."+p.name))
		if err != nil {
			return nil, fmt.Errorf("thesaurus: WordNet database in %s: %w", dir, err)
		}
		w.data[p.pos] = b
		if err := w.readIndex(filepath.Join(dir, "index."+p.name), p.pos); err != nil {
			return nil, err
		}
		if err := w.readExceptions(filepath.Join(dir, p.name+".exc")); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// Name identifies the resource in model ids and reports.
func (w *WordNet) Name() string { return "wordnet-3.0" }

// readIndex reads lines "lemma pos synset_cnt p_cnt [ptr...] sense_cnt
// tagsense_cnt offset...".
func (w *WordNet) readIndex(path string, pos byte) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("thesaurus: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, " ") {
			continue // licence header
		}
		fs := strings.Fields(line)
		if len(fs) < 6 {
			return fmt.Errorf("thesaurus: %s:%d: too few fields", path, n)
		}
		cnt, err1 := strconv.Atoi(fs[2])
		pc, err2 := strconv.Atoi(fs[3])
		if err1 != nil || err2 != nil || len(fs) < 6+pc+cnt {
			return fmt.Errorf("thesaurus: %s:%d: malformed counts", path, n)
		}
		for _, o := range fs[6+pc : 6+pc+cnt] {
			off, err := strconv.Atoi(o)
			if err != nil {
				return fmt.Errorf("thesaurus: %s:%d: offset %q: %w", path, n, o, err)
			}
			w.index[fs[0]] = append(w.index[fs[0]], synsetRef{pos, off})
		}
	}
	return sc.Err()
}

func (w *WordNet) readExceptions(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("thesaurus: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		fs := strings.Fields(line)
		if len(fs) >= 2 {
			w.exc[fs[0]] = append(w.exc[fs[0]], fs[1:]...)
		}
	}
	return nil
}

// suffixes are WordNet's detachment rules (morphy) for regular forms.
var suffixes = [][2]string{
	{"s", ""}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"}, {"men", "man"}, {"ies", "y"},
	{"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""}, {"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"},
}

// lemmas returns the base forms WordNet knows for word.
func (w *WordNet) lemmas(word string) []string {
	cands := []string{word}
	cands = append(cands, w.exc[word]...)
	for _, s := range suffixes {
		if strings.HasSuffix(word, s[0]) && len(word) > len(s[0])+1 {
			cands = append(cands, strings.TrimSuffix(word, s[0])+s[1])
		}
	}
	var out []string
	for _, c := range cands {
		if _, ok := w.index[c]; ok && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// Related returns the words WordNet relates to word: the other words of
// the synsets of its base forms' two most frequent senses per part of
// speech, and of the synsets one derivation, attribute or similar-to
// pointer away.
// Words come lower-cased, multi-word ones with spaces, sorted, without
// word itself. An unknown word has none.
func (w *WordNet) Related(word string) []string {
	word = strings.ToLower(strings.TrimSpace(word))
	seen := map[string]bool{}
	var refs []synsetRef
	for _, l := range w.lemmas(word) {
		seen[l] = true
		perPOS := map[byte]int{}
		for _, r := range w.index[l] {
			if perPOS[r.pos] < maxSenses {
				perPOS[r.pos]++
				refs = append(refs, r)
			}
		}
	}
	out := map[string]bool{}
	for _, r := range refs {
		words, ptrs := w.synset(r)
		for _, x := range words {
			out[x] = true
		}
		for _, p := range ptrs {
			nw, _ := w.synset(p)
			for _, x := range nw {
				out[x] = true
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

// synset parses the synset at r: "offset lex_filenum ss_type w_cnt word
// lex_id ... p_cnt [ptr_symbol offset pos source/target]... | gloss". It
// returns its words and the synsets its followed pointers name; a bad
// offset yields nothing.
func (w *WordNet) synset(r synsetRef) ([]string, []synsetRef) {
	data := w.data[r.pos]
	if r.offset < 0 || r.offset >= len(data) {
		return nil, nil
	}
	line := data[r.offset:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	if i := bytes.IndexByte(line, '|'); i >= 0 {
		line = line[:i]
	}
	fs := strings.Fields(string(line))
	if len(fs) < 4 {
		return nil, nil
	}
	wc, err := strconv.ParseInt(fs[3], 16, 32)
	if err != nil || len(fs) < 5+2*int(wc) {
		return nil, nil
	}
	var words []string
	for i := 0; i < int(wc); i++ {
		x := strings.ToLower(fs[4+2*i])
		if j := strings.IndexByte(x, '('); j >= 0 {
			x = x[:j] // adjective markers: "big(a)"
		}
		words = append(words, strings.ReplaceAll(x, "_", " "))
	}
	k := 4 + 2*int(wc)
	pc, err := strconv.Atoi(fs[k])
	if err != nil {
		return words, nil
	}
	var ptrs []synsetRef
	for i := 0; i < pc && k+4+4*i < len(fs); i++ {
		sym, off, pos := fs[k+1+4*i], fs[k+2+4*i], fs[k+3+4*i]
		if !slices.Contains(relations, sym) {
			continue
		}
		o, err := strconv.Atoi(off)
		if err != nil || pos == "" {
			continue
		}
		p := pos[0]
		if p == 's' {
			p = 'a' // adjective satellites live in data.adj
		}
		ptrs = append(ptrs, synsetRef{p, o})
	}
	return words, ptrs
}
