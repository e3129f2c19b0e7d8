package thesaurus

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// lineSynset is how lookups read a synset before round 23: the line at
// offset r in data, parsed when asked. It is kept here as the reference
// the parsed table must agree with.
func lineSynset(data []byte, offset int, syms string) ([]string, []pointer) {
	if offset < 0 || offset >= len(data) {
		return nil, nil
	}
	line := data[offset:]
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
			x = x[:j]
		}
		words = append(words, strings.ReplaceAll(x, "_", " "))
	}
	k := 4 + 2*int(wc)
	pc, err := strconv.Atoi(fs[k])
	if err != nil {
		return words, nil
	}
	var ptrs []pointer
	for i := 0; i < pc && k+4+4*i < len(fs); i++ {
		sym, off, pos, st := fs[k+1+4*i], fs[k+2+4*i], fs[k+3+4*i], fs[k+4+4*i]
		if len(sym) != 1 || !strings.Contains(syms, sym) {
			continue
		}
		o, err := strconv.Atoi(off)
		if err != nil || pos == "" {
			continue
		}
		p := pos[0]
		if p == 's' {
			p = 'a'
		}
		src, err1 := strconv.ParseUint(st[:min(2, len(st))], 16, 8)
		tgt, err2 := strconv.ParseUint(st[min(2, len(st)):], 16, 8)
		if len(st) != 4 || err1 != nil || err2 != nil {
			continue
		}
		ptrs = append(ptrs, pointer{synsetRef{p, int32(o)}, uint8(src), uint8(tgt), sym[0]})
	}
	return words, ptrs
}

// sameSynsets checks that every synset line of the data files in dir
// reads the same from w's table as parsed line by line, for each set of
// relations a lookup asks for, and that every offset the index and the
// followed pointers name begins a line (the table answers nothing for
// one that does not, where the line parser read whatever followed).
func sameSynsets(t *testing.T, w *WordNet, dir string) {
	t.Helper()
	lines, bad := 0, 0
	for _, p := range parts {
		data, err := os.ReadFile(filepath.Join(dir, "data."+p.name))
		if err != nil {
			t.Fatal(err)
		}
		for off := 0; off < len(data); {
			end := off + bytes.IndexByte(data[off:], '\n')
			if end < off {
				end = len(data)
			}
			if data[off] != ' ' {
				lines++
				for _, syms := range []string{relations, taxonomic, ""} {
					ww, wp := lineSynset(data, off, syms)
					gw, gp := w.synsetBy(synsetRef{p.pos, int32(off)}, syms)
					if !slices.Equal(ww, gw) || !slices.Equal(wp, gp) {
						if bad++; bad <= 5 {
							t.Errorf("%s at %d, relations %q: table %q %v, line %q %v", p.name, off, syms, gw, gp, ww, wp)
						}
					}
				}
				_, ptrs := w.synsetBy(synsetRef{p.pos, int32(off)}, followed)
				for _, q := range ptrs {
					if _, ok := w.synsets[q.pos].find(q.offset); !ok {
						t.Errorf("%s at %d: pointer %c to %c %d, where no synset begins", p.name, off, q.sym, q.pos, q.offset)
					}
				}
			}
			off = end + 1
		}
	}
	for lem, refs := range w.index {
		for _, r := range refs {
			if _, ok := w.synsets[r.pos].find(r.offset); !ok {
				t.Errorf("index: %q %c %d, where no synset begins", lem, r.pos, r.offset)
			}
		}
	}
	if lines == 0 {
		t.Fatal("no synsets read")
	}
	t.Logf("%d synsets agree", lines)
}

// TestSynsetTable: the table Open parses answers every synset of a tiny
// database as the line parser does, and nothing for an offset no line
// begins at.
func TestSynsetTable(t *testing.T) {
	dir := writeDB(t, [][]string{{"Erase", "rub_out"}, {"big(a)", "large"}, {"delete"}},
		map[int][][2]string{0: {{"@", "2"}, {"+/0102", "1"}, {"!", "1"}, {"@i", "2"}}, 2: {{"~", "0"}}})
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	sameSynsets(t, w, dir)
	off := w.index["erase"][0].offset
	words, ptrs := w.synsetBy(synsetRef{'n', off}, followed)
	if want := []string{"erase", "rub out"}; !slices.Equal(words, want) {
		t.Errorf("words %q, want %q", words, want)
	}
	var syms []byte
	for _, p := range ptrs {
		syms = append(syms, p.sym)
	}
	if string(syms) != "@+" {
		t.Errorf("pointers %q, want the followed ones only, in order: \"@+\"", syms)
	}
	if w, p := w.synsetBy(synsetRef{'n', off + 1}, followed); w != nil || p != nil {
		t.Errorf("an offset inside a line reads %q %v, want nothing", w, p)
	}
	if w, p := w.synsetBy(synsetRef{'v', off}, followed); w != nil || p != nil {
		t.Errorf("an offset of an empty data file reads %q %v, want nothing", w, p)
	}
}

// TestDebianSynsetTable: the same over the real database, every synset.
func TestDebianSynsetTable(t *testing.T) {
	w, err := Open(DefaultDir)
	if err != nil {
		t.Skip("SKIPPED: no WordNet database in " + DefaultDir + "; apt-get install wordnet-base to run")
	}
	sameSynsets(t, w, DefaultDir)
}
