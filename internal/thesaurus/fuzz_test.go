package thesaurus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeNoun writes a database whose nouns are data and index (the other
// parts of speech hold only a licence header) and returns its directory.
func writeNoun(t *testing.T, data, index string) string {
	t.Helper()
	dir := t.TempDir()
	header := "  1 This is a test database.\n"
	files := map[string]string{"data.noun": data, "index.noun": index, "noun.exc": ""}
	for _, p := range []string{"verb", "adj", "adv"} {
		files["data."+p], files["index."+p], files[p+".exc"] = header, header, ""
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// FuzzOpen: Open of any noun data and index files either fails or gives a
// thesaurus whose lookups answer (Defined and Placed too, since rv44),
// never a panic; a failure names the file.
func FuzzOpen(f *testing.F) {
	good := "  1 header\n00000011 05 n 02 Erase 0 rub_out 0 002 @ 00000011 n 0000 + 00000011 n 0102 | gloss\n"
	f.Add(good, "  1 header\nerase n 1 0 1 0 00000011\nrub_out n 1 0 1 0 00000011\n")
	f.Add("00000000 05 n -3 x 0 | g\n", "x n 1 0 1 0 00000000\n")
	f.Add("00000000 05 n 01 x 0 999 @ 00000000 n 0000\n", "x n 1 0 1 0 00000000\n")
	f.Add(good, "erase n 1 9223372036854775801 1 0 00000011\n")
	f.Add(good, "erase n 1 0 1 0 99999999\n")
	f.Add("00000000 05 n 01 x 0 000 | g\r\n", "x n 1 0 1 0 00000000\r\n")
	f.Add("  1 header\n00000011 05 n 02 erase 0 rub_out 0 003 %p 00000011 n 0000 ^ 00000011 n 0201 #m 00000011 n 0000 | g\n", "erase n 1 0 1 0 00000011\n")
	// an instance's hypernym (Placed, round 44), to itself and to none
	f.Add("  1 header\n00000011 05 n 02 Spain 0 country 0 002 @i 00000011 n 0000 @ 00000011 n 0000 | a country\n", "spain n 1 0 1 0 00000011\ncountry n 1 0 1 0 00000011\n")
	f.Add("  1 header\n00000011 05 n 01 Spain 0 001 @i 00000099 n 0000 | a country\n", "spain n 1 0 1 0 00000011\n")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, data, index string) {
		dir := writeNoun(t, data, index)
		w, err := Open(dir)
		if err != nil {
			if msg := err.Error(); !strings.Contains(msg, "data.noun") && !strings.Contains(msg, "index.noun") {
				t.Errorf("error %q names no file", msg)
			}
			return
		}
		for word := range w.index {
			w.Related(word)
			w.CommonRelated(word)
			w.Taxa(word)
			w.Links(word, followed)
			w.Senses(word)
			w.Defined(word)
			w.Placed(word)
		}
	})
}

// TestOpenRejects: a malformed noun data or index file is an error naming
// the file and the problem; none panics (before rv23b a negative word
// count panicked, a p_cnt near the largest int panicked in slices.Grow, and
// the other files below opened, their lookups silently finding nothing).
func TestOpenRejects(t *testing.T) {
	const good = "  1 header\n00000011 05 n 01 erase 0 001 @ 00000011 n 0000 | gloss\n"
	const idx = "erase n 1 0 1 0 00000011\n"
	for _, tt := range []struct{ name, data, index, want string }{
		{"negative word count", "00000000 05 n -3 x 0 000\n", idx, "data.noun: line 1 (byte 0): word count \"-3\""},
		{"word count past the line", "00000000 05 n 09 x 0 000\n", idx, "data.noun: line 1 (byte 0): 9 words"},
		{"non-numeric word count", "00000000 05 n zz x 0 000\n", idx, "word count \"zz\""},
		{"pointer count past the line", "  1 header\n00000011 05 n 01 erase 0 999 @ 00000011 n 0000\n", idx, "data.noun: line 2 (byte 11): pointer count \"999\": the line holds 1"},
		{"non-numeric pointer count", "  1 header\n00000011 05 n 01 erase 0 x @ 00000011 n 0000\n", idx, "pointer count \"x\""},
		{"malformed pointer", "  1 header\n00000011 05 n 01 erase 0 001 @ 0000001x n 0000\n", idx, "pointer 1 \"@ 0000001x n 0000\" is malformed"},
		{"pointer to no synset", "  1 header\n00000011 05 n 01 erase 0 001 @ 00000099 n 0000\n", idx, "data.noun: synset at byte 11: pointer @ to n 99: no synset begins there"},
		// a lexical pointer's word numbers (source/target, hexadecimal)
		// past its synsets' words: Links and Related skipped it silently
		// (round-24 rv24b)
		{"pointer source past the words", "  1 header\n00000011 05 n 01 erase 0 001 ^ 00000011 n 0201\n", idx, "data.noun: line 2 (byte 11): pointer 1 \"^ 00000011 n 0201\": source word 2, the synset has 1"},
		{"pointer target past the words", "  1 header\n00000011 05 n 01 erase 0 001 + 00000011 n 0103\n", idx, "data.noun: synset at byte 11: pointer + to n 11: target word 3, that synset has 1"},
		{"offset not the line's", "  1 header\n00000012 05 n 01 erase 0 000\n", idx, "offset \"00000012\" is not the line's byte offset 11"},
		{"CRLF", "  1 header\r\n00000011 05 n 01 erase 0 000\r\n", idx, "CRLF"},
		{"short line", "  1 header\n00000011 05 n\n", idx, "data.noun: line 2 (byte 11): 3 fields"},
		{"empty data file", "", idx, "data.noun: empty file"},
		{"empty index file", good, "", "index.noun: empty file"},
		{"index offset past the end", good, "erase n 1 0 1 0 00099999\n", "index.noun:1: offset 99999: no synset"},
		{"index offset inside a line", good, "erase n 1 0 1 0 00000012\n", "index.noun:1: offset 12: no synset"},
		{"index counts overflowing", good, "erase n 1 9223372036854775801 1 0 00000011\n", "index.noun:1: malformed counts"},
		{"index count past the line", good, "erase n 5 0 1 0 00000011\n", "index.noun:1: malformed counts"},
		{"non-numeric index offset", good, "erase n 1 0 1 0 abc\n", "index.noun:1: offset \"abc\""},
	} {
		_, err := Open(writeNoun(t, tt.data, tt.index))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	if _, err := Open(writeNoun(t, good, idx)); err != nil {
		t.Errorf("the well-formed database: %v", err)
	}
	dir := writeNoun(t, good, idx)
	if err := os.Remove(filepath.Join(dir, "data.verb")); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "data.verb") {
		t.Errorf("a missing data.verb: error %v, want one naming it", err)
	}
}

// TestOpenEndless: a database file that never ends (here data.noun a
// link to /dev/zero) is an error naming it once maxFile bytes are read;
// before rv23b os.ReadFile read until memory ran out.
func TestOpenEndless(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	defer func(n int) { maxFile = n }(maxFile)
	maxFile = 1 << 20
	dir := writeNoun(t, "x", "x")
	path := filepath.Join(dir, "data.noun")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", path); err != nil {
		t.Skip(err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "data.noun: larger than 1 MiB") {
		t.Errorf("error %v, want one naming data.noun as too large", err)
	}
}
