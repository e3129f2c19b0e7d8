package thesaurus

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// followed are the pointer symbols any lookup reads: the relations
// Related follows and the taxonomic ones Taxa does. Open keeps these
// pointers of every synset and no others.
const followed = relations + taxonomic + linked

// linked are the pointer symbols only Links reads, besides those above:
// participle (<), pertainym (\\), also see (^), and meronym (%) and
// holonym (#) of every kind (WordNet's %m %s %p and #m #s #p, kept as
// their first byte).
const linked = "<\\^%#"

// A synsetTable is one data file's synsets as Open parses them, every
// line at once: each synset's words and its pointers of the followed
// relations, in the file's order. A lookup reads them without parsing
// (before round 23 each lookup parsed the lines it reached, which made a
// word's first Taxa cost milliseconds: "person" has hundreds of
// hyponyms). The gloss is not kept, nor the file.
type synsetTable struct {
	starts []int32 // each synset line's byte offset, increasing
	// Synset i's words are words[firstWord[i]:firstWord[i+1]] and its
	// pointers ptrs[firstPtr[i]:firstPtr[i+1]].
	firstWord, firstPtr []int32
	words               []string
	ptrs                []pointer
	// genus is each synset's gloss's head word (see glossPhrase), "" when
	// none: what Defined's index reads (indexDefined; Open drops it then).
	genus []string
	// after is the last word of the phrase each gloss's head opens (see
	// glossPhrase), "" when none: the object of a defining verb, the noun
	// a defining noun's head only modifies (read and dropped as genus).
	after []string
	// frames has bit f set for each of WordNet's generic sentence frames f
	// (1 "Something ----s" … 35 "Something ----s INFINITIVE") a verb
	// synset lists for any of its words, by synset number; nil in a data
	// file without frames (every part of speech but the verb's).
	frames []uint64
	// begins has bit o set when a synset's line begins at byte o: Open's
	// checks of every offset the index and the pointers name read it
	// (a binary search each was a tenth of the load), then drop it.
	begins []uint64
}

// begun reports whether a synset's line begins at offset, while Open
// still holds begins.
func (t *synsetTable) begun(offset int32) bool {
	if t == nil || offset < 0 || int(offset>>6) >= len(t.begins) {
		return false
	}
	return t.begins[offset>>6]&(1<<(offset&63)) != 0
}

// parseSynsets reads data, a data file of part of speech pos: lines
// "offset lex_filenum ss_type w_cnt word lex_id ... p_cnt [ptr_symbol
// offset pos source/target]... | gloss", the licence header's lines
// beginning with a space. A synset is found by its line's byte offset,
// which is what the index and the pointers name. The file is the user's
// (the thesaurus directory is configured), so a line that does not read
// as a synset is an error naming its line and what is wrong: an empty
// file, a line whose offset is not its byte offset (a file whose line
// ends were changed to CRLF, or cut), a word or pointer count the line
// does not hold, a malformed pointer, a lexical pointer from a word number
// past the synset's words. The real database has no such line.
func parseSynsets(data []byte) (*synsetTable, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("empty file")
	}
	if len(data) > 1<<31-1 {
		return nil, fmt.Errorf("data file of %d bytes: offsets beyond 2 GiB are not read", len(data))
	}
	lines := bytes.Count(data, []byte{'\n'}) + 1
	t := &synsetTable{starts: make([]int32, 0, lines), firstWord: make([]int32, 0, lines+1), firstPtr: make([]int32, 0, lines+1)}
	arena := make([]byte, 0, len(data)/8) // every word's text, one after another
	spans := make([][2]int32, 0, 2*lines) // each word's place in arena
	var fs [][2]int                       // the fields of the line being read
	heads := map[string]string{}          // genus words, each kept once
	t.begins = make([]uint64, len(data)/64+1)
	for n, off := 1, 0; off < len(data); n++ {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data) - off
		}
		line := data[off : off+end]
		start := off
		off += end + 1
		if len(line) == 0 || line[0] == ' ' {
			continue // licence header
		}
		bad := func(format string, a ...any) error {
			return fmt.Errorf("line %d (byte %d): %s", n, start, fmt.Sprintf(format, a...))
		}
		g, a := "", ""
		if i := slices.Index(line, '|'); i >= 0 {
			g, a = glossPhrase(line[i+1:], heads)
			line = line[:i]
		}
		t.genus = append(t.genus, g)
		t.after = append(t.after, a)
		t.starts = append(t.starts, int32(start))
		t.begins[start>>6] |= 1 << (start & 63)
		t.firstWord = append(t.firstWord, int32(len(spans)))
		t.firstPtr = append(t.firstPtr, int32(len(t.ptrs)))
		fs = fields(line, fs[:0])
		field := func(i int) []byte { return line[fs[i][0]:fs[i][1]] }
		if len(fs) < 6 {
			return nil, bad("%d fields, a synset has at least 6", len(fs))
		}
		if o, err := strconv.Atoi(string(field(0))); err != nil || o != start {
			crlf := ""
			if bytes.Contains(data, []byte("\r\n")) {
				crlf = " (the file has CRLF line ends; WordNet's offsets count LF ones)"
			}
			return nil, bad("offset %q is not the line's byte offset %d%s", field(0), start, crlf)
		}
		wc, err := strconv.ParseUint(string(field(3)), 16, 8)
		if err != nil || wc == 0 {
			return nil, bad("word count %q is not a hexadecimal number from 1 to ff", field(3))
		}
		k := 4 + 2*int(wc) // p_cnt's field
		if len(fs) <= k {
			return nil, bad("%d words and a pointer count need %d fields, the line has %d", wc, k+1, len(fs))
		}
		for i := 0; i < int(wc); i++ {
			a := len(arena)
			arena = appendWord(arena, field(4+2*i))
			spans = append(spans, [2]int32{int32(a), int32(len(arena))})
		}
		pc, err := strconv.Atoi(string(field(k)))
		if err != nil || pc < 0 || pc > (len(fs)-k-1)/4 {
			return nil, bad("pointer count %q: the line holds %d pointers' fields", field(k), (len(fs)-k-1)/4)
		}
		for i := 0; i < pc; i++ {
			sym, o, pos, st := field(k+1+4*i), field(k+2+4*i), field(k+3+4*i), field(k+4+4*i)
			p, ok := readPointer(o, pos, st)
			if !ok || len(sym) == 0 || len(sym) > 2 {
				return nil, bad("pointer %d %q is malformed", i+1, bytes.Join([][]byte{sym, o, pos, st}, []byte{' '}))
			}
			if int(p.source) > int(wc) {
				return nil, bad("pointer %d %q: source word %d, the synset has %d", i+1, bytes.Join([][]byte{sym, o, pos, st}, []byte{' '}), p.source, wc)
			}
			switch {
			case (len(sym) == 1 || sym[0] == '%' || sym[0] == '#') && strings.IndexByte(followed, sym[0]) >= 0:
				p.sym = sym[0]
				t.ptrs = append(t.ptrs, p)
			case string(sym) == "@i": // an instance's hypernym, kept as instanceOf (Placed)
				p.sym = instanceOf
				t.ptrs = append(t.ptrs, p)
			}
		}
		if f := k + 1 + 4*pc; f < len(fs) { // a verb's frames: f_cnt, then "+ f_num w_num" each
			if fc, err := strconv.Atoi(string(field(f))); err == nil {
				var bits uint64
				for i := 0; i < fc && f+3+3*i < len(fs); i++ {
					if n, err := strconv.Atoi(string(field(f + 2 + 3*i))); err == nil && n > 0 && n < 64 {
						bits |= 1 << n
					}
				}
				if bits != 0 && t.frames == nil {
					t.frames = make([]uint64, len(t.starts)-1, lines)
				}
				if t.frames != nil {
					t.frames = append(t.frames, bits)
				}
			}
		}
		if t.frames != nil && len(t.frames) < len(t.starts) {
			t.frames = append(t.frames, 0)
		}
	}
	t.firstWord = append(t.firstWord, int32(len(spans)))
	t.firstPtr = append(t.firstPtr, int32(len(t.ptrs)))
	all := string(arena)
	t.words = make([]string, len(spans))
	for i, s := range spans {
		t.words[i] = all[s[0]:s[1]]
	}
	return t, nil
}

// fields appends to fs the start and end of each of line's fields: runs of
// bytes other than ASCII white space (the database is ASCII; strings.Fields
// splits it the same way).
func fields(line []byte, fs [][2]int) [][2]int {
	start := -1
	for i, c := range line {
		space := c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n'
		switch {
		case space && start >= 0:
			fs = append(fs, [2]int{start, i})
			start = -1
		case !space && start < 0:
			start = i
		}
	}
	if start >= 0 {
		fs = append(fs, [2]int{start, len(line)})
	}
	return fs
}

// appendWord appends a synset's word as lookups spell it: lower case,
// without an adjective's marker ("big(a)"), spaces for underscores.
func appendWord(arena, word []byte) []byte {
	if !slices.ContainsFunc(word, func(c byte) bool { return c >= 0x80 }) {
		for _, c := range word {
			switch {
			case c == '(':
				return arena
			case c == '_':
				c = ' '
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			}
			arena = append(arena, c)
		}
		return arena
	}
	x := strings.ToLower(string(word))
	if j := strings.IndexByte(x, '('); j >= 0 {
		x = x[:j]
	}
	return append(arena, strings.ReplaceAll(x, "_", " ")...)
}

// readPointer reads a pointer's "offset pos source/target" fields; ok is
// false when one is malformed. The pointer's symbol is the caller's to set.
func readPointer(off, pos, st []byte) (pointer, bool) {
	o, err := strconv.Atoi(string(off))
	if err != nil || len(pos) != 1 || strings.IndexByte("nvasr", pos[0]) < 0 || len(st) != 4 || o < 0 || o > 1<<31-1 {
		return pointer{}, false
	}
	p := pos[0]
	if p == 's' {
		p = 'a' // adjective satellites live in data.adj
	}
	src, err1 := strconv.ParseUint(string(st[:2]), 16, 8)
	tgt, err2 := strconv.ParseUint(string(st[2:]), 16, 8)
	if err1 != nil || err2 != nil {
		return pointer{}, false
	}
	return pointer{synsetRef: synsetRef{p, int32(o)}, source: uint8(src), target: uint8(tgt)}, true
}

// find is the number of the synset whose line begins at offset, if one
// does.
func (t *synsetTable) find(offset int32) (int, bool) {
	if t == nil {
		return 0, false
	}
	return slices.BinarySearch(t.starts, offset)
}
