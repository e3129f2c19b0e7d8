package thesaurus

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeDB writes a tiny WordNet database: synsets with the given words and
// pointers (by synset number), at real byte offsets. A pointer symbol may
// carry its source/target word numbers after a slash ("+/0102": word 1 of
// this synset to word 2 of that one); without them it joins the synsets.
func writeDB(t *testing.T, synsets [][]string, ptrs map[int][][2]string) string {
	t.Helper()
	dir := t.TempDir()
	header := "  1 This is a test database.\n"
	// Offsets depend on line lengths, which depend on offsets: fix their
	// width at 8 digits, as WordNet does.
	offsets := make([]int, len(synsets))
	var lines []string
	for pass := 0; pass < 2; pass++ {
		lines = lines[:0]
		pos := len(header)
		for i, words := range synsets {
			offsets[i] = pos
			var b strings.Builder
			fmt.Fprintf(&b, "%08d 05 n %02x", offsets[i], len(words))
			for _, w := range words {
				fmt.Fprintf(&b, " %s 0", w)
			}
			fmt.Fprintf(&b, " %03d", len(ptrs[i]))
			for _, p := range ptrs[i] {
				var to int
				fmt.Sscan(p[1], &to)
				sym, st, ok := strings.Cut(p[0], "/")
				if !ok {
					st = "0000"
				}
				fmt.Fprintf(&b, " %s %08d n %s", sym, offsets[to], st)
			}
			b.WriteString(" | a gloss\n")
			lines = append(lines, b.String())
			pos += b.Len()
		}
	}
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("data.noun", header+strings.Join(lines, ""))
	idx := map[string][]int{}
	for i, words := range synsets {
		for _, w := range words {
			idx[strings.ToLower(w)] = append(idx[strings.ToLower(w)], offsets[i])
		}
	}
	var ib strings.Builder
	ib.WriteString(header)
	for _, w := range slices.Sorted(func(yield func(string) bool) {
		for k := range idx {
			if !yield(k) {
				return
			}
		}
	}) {
		fmt.Fprintf(&ib, "%s n %d 0 %d 0", w, len(idx[w]), len(idx[w]))
		for _, o := range idx[w] {
			fmt.Fprintf(&ib, " %08d", o)
		}
		ib.WriteString("\n")
	}
	write("index.noun", ib.String())
	write("noun.exc", "mice mouse\n")
	for _, p := range []string{"verb", "adj", "adv"} {
		write("data."+p, header)
		write("index."+p, header)
		write(p+".exc", "")
	}
	return dir
}

func TestRelated(t *testing.T) {
	dir := writeDB(t, [][]string{
		{"purchase", "buy"},   // 0
		{"acquisition"},       // 1: hypernym of 0
		{"mouse", "rodent_x"}, // 2
		{"receipt"},           // 3: unrelated
		{"blender", "mixer"},  // 4: "blender" derives from word 1 of 5
		{"blend", "go"},       // 5
	}, map[int][][2]string{0: {{"+", "1"}, {"@", "3"}}, 4: {{"+/0101", "5"}}, 5: {{"+/0101", "4"}}})
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ word, want string }{
		{"buy", "acquisition,purchase"},
		{"purchases", "acquisition,buy"}, // a regular plural
		{"mice", "rodent x"},             // an exception, multi-word with a space
		{"receipt", ""},
		{"zebra", ""},
		{"blender", "blend,mixer"}, // a lexical pointer relates one word, not its synset
		{"mixer", "blender"},       // and only from its own source word
		{"go", "blend"},
	}
	for _, tt := range tests {
		if got := strings.Join(w.Related(tt.word), ","); got != tt.want {
			t.Errorf("Related(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
	if _, err := Open(t.TempDir()); err == nil {
		t.Error("Open of an empty directory: no error")
	}
	for _, tt := range []struct {
		word, bases string
		senses      int
	}{{"purchases", "purchase", 1}, {"mice", "mouse", 1}, {"Buy", "buy", 1}, {"zebra", "", 0}} {
		if got := strings.Join(w.BaseForms(tt.word), ","); got != tt.bases {
			t.Errorf("BaseForms(%q) = %q, want %q", tt.word, got, tt.bases)
		}
		if got := w.Senses(tt.word); got != tt.senses {
			t.Errorf("Senses(%q) = %d, want %d", tt.word, got, tt.senses)
		}
	}
}

// TestDebianWordNet checks the reader against the real database when it is
// installed (Debian: apt-get install wordnet-base).
func TestDebianWordNet(t *testing.T) {
	if _, err := os.Stat(filepath.Join(DefaultDir, "data.noun")); err != nil {
		t.Skip("SKIPPED: no WordNet database in " + DefaultDir + "; apt-get install wordnet-base to run")
	}
	w, err := Open(DefaultDir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(w.BaseForms("bought"), "buy") || w.Senses("set") <= 20 || w.Senses("warranty") != 1 {
		t.Errorf("BaseForms(bought) = %v, Senses(set) = %d, Senses(warranty) = %d: want buy among them, many, one",
			w.BaseForms("bought"), w.Senses("set"), w.Senses("warranty"))
	}
	for _, tt := range [][2]string{{"bought", "purchase"}, {"fast", "speed"}, {"maker", "make"}, {"stopped", "halt"}} {
		if !slices.Contains(w.Related(tt[0]), tt[1]) {
			t.Errorf("Related(%q) lacks %q", tt[0], tt[1])
		}
	}
	// A substitute relates to a question word through its common senses
	// ("purchase" to "buy") or only through a rare one ("number" to
	// "total", a verb sense holding 6 of its 220 tagged uses).
	if !slices.Contains(w.CommonRelated("purchase"), "buy") || !slices.Contains(w.CommonRelated("warranty"), "guarantee") ||
		slices.Contains(w.CommonRelated("number"), "total") || !slices.Contains(w.Related("number"), "total") {
		t.Errorf("CommonRelated(purchase) = %v, CommonRelated(warranty) = %v, CommonRelated(number) = %v, Related(number) = %v: want buy, guarantee, no total, total",
			w.CommonRelated("purchase"), w.CommonRelated("warranty"), w.CommonRelated("number"), w.Related("number"))
	}
	// Derivations relate words, not synsets; suffix rules are a part of
	// speech's own ("maker" is not the verb "make").
	for _, tt := range [][2]string{{"blender", "go"}, {"maker", "do"}, {"maker", "work"}} {
		if slices.Contains(w.Related(tt[0]), tt[1]) {
			t.Errorf("Related(%q) has %q", tt[0], tt[1])
		}
	}
}

// TestCommonRelated: CommonRelated reads only the senses of the word that
// hold a tenth of its tagged uses (cntlist.rev); a word with no tagged
// sense, or a database without counts, keeps each part of speech's first
// sense. Related reads the two most frequent senses whatever their counts.
func TestCommonRelated(t *testing.T) {
	synsets := [][]string{
		{"number", "figure"},      // 0: number's sense 1
		{"total", "number"},       // 1: number's sense 2 (rare), total's sense 1
		{"guarantee", "warranty"}, // 2: warranty's sense 1, never tagged
		{"warranty", "pledge"},    // 3: warranty's sense 2, never tagged
	}
	dir := writeDB(t, synsets, nil)
	counts := "number%1:07:00:: 1 131\nnumber%1:23:00:: 2 6\ntotal%1:23:00:: 1 13\n"
	if err := os.WriteFile(filepath.Join(dir, "cntlist.rev"), []byte(counts), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ word, related, common string }{
		{"number", "figure,total", "figure"}, // 6 of 137 uses: not a common sense
		{"total", "number", "number"},
		{"warranty", "guarantee,pledge", "guarantee"}, // untagged: the first sense
	} {
		if got := strings.Join(w.Related(tt.word), ","); got != tt.related {
			t.Errorf("Related(%q) = %q, want %q", tt.word, got, tt.related)
		}
		if got := strings.Join(w.CommonRelated(tt.word), ","); got != tt.common {
			t.Errorf("CommonRelated(%q) = %q, want %q", tt.word, got, tt.common)
		}
	}
	// Without the counts file every word reads its first sense.
	os.Remove(filepath.Join(dir, "cntlist.rev"))
	w, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(w.CommonRelated("number"), ","); got != "figure" {
		t.Errorf("no counts: CommonRelated(number) = %q, want figure", got)
	}
}
