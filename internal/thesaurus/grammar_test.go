package thesaurus

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeGrammar writes a database of verb synsets, each a word and its
// frames (the verb data file's "f_cnt + f_num w_num" fields), one noun
// synset ("stop") and one adverb synset ("anyway"), and returns its
// directory.
func writeGrammar(t *testing.T, verbs [][2]string) string {
	t.Helper()
	dir := t.TempDir()
	header := "  1 This is a test database.\n"
	files := map[string]string{}
	lines := func(pos byte, entries [][2]string) (data, index string) {
		var d, ix strings.Builder
		d.WriteString(header)
		ix.WriteString(header)
		for _, e := range entries {
			off := d.Len()
			fmt.Fprintf(&d, "%08d 02 %c 01 %s 0 000%s | a gloss\n", off, pos, e[0], e[1])
			fmt.Fprintf(&ix, "%s %c 1 0 1 0 %08d\n", e[0], pos, off)
		}
		return d.String(), ix.String()
	}
	files["data.verb"], files["index.verb"] = lines('v', verbs)
	files["data.noun"], files["index.noun"] = lines('n', [][2]string{{"stop", ""}})
	files["data.adj"], files["index.adj"] = header, header
	files["data.adv"], files["index.adv"] = lines('r', [][2]string{{"anyway", ""}, {"flat_out", ""}})
	for _, p := range []string{"noun", "verb", "adj", "adv"} {
		files[p+".exc"] = ""
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestGrammar: Parts names the parts of speech a word's base forms have,
// a collocation's too; VerbFrames the frames its verb senses list.
func TestGrammar(t *testing.T) {
	w, err := Open(writeGrammar(t, [][2]string{
		{"stop", " 03 + 08 00 + 28 00 + 33 00"},
		{"fit", " 02 + 01 00 + 10 00"},
		{"go", ""}, // no frames field at all
	}))
	if err != nil {
		t.Fatal(err)
	}
	for word, want := range map[string]string{"stop": "nv", "Stops": "nv", "anyway": "r", "flat out": "r", "fit": "v", "zorb": ""} {
		if got := w.Parts(word); got != want {
			t.Errorf("Parts(%q) = %q, want %q", word, got, want)
		}
	}
	for word, want := range map[string]uint64{"stop": 1<<8 | 1<<28 | 1<<33, "stops": 1<<8 | 1<<28 | 1<<33, "fit": 1<<1 | 1<<10, "go": 0, "anyway": 0, "zorb": 0} {
		if got := w.VerbFrames(word); got != want {
			t.Errorf("VerbFrames(%q) = %b, want %b", word, got, want)
		}
	}
}

// TestGrammarWordNet reads the real database's frames: "stop" takes "to
// INFINITIVE" and "VERB-ing" (28, 33), "fit" neither.
func TestGrammarWordNet(t *testing.T) {
	w, err := Open(DefaultDir)
	if err != nil {
		t.Skip("SKIPPED: no WordNet database in " + DefaultDir + "; apt-get install wordnet-base to run")
	}
	if f := w.VerbFrames("stop"); f&(1<<28) == 0 || f&(1<<33) == 0 {
		t.Errorf("VerbFrames(stop) = %b, want frames 28 and 33", f)
	}
	if f := w.VerbFrames("fit"); f&(1<<24|1<<26|1<<28|1<<33) != 0 {
		t.Errorf("VerbFrames(fit) = %b, want no complement frame", f)
	}
	for word, want := range map[string]string{"anyway": "r", "top": "nva", "flat out": "r", "expect": "v"} {
		if got := w.Parts(word); got != want {
			t.Errorf("Parts(%q) = %q, want %q", word, got, want)
		}
	}
}
