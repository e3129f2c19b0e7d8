package terms

import (
	"bufio"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// titledCases are titles and texts whose words could run across the
// newline that joins them, if anything did: numbers and decimal points,
// apostrophes, possessives, mid-word punctuation, combining marks and
// joiners at the edges, CR LF, scripts without spaces, stop words.
var titledCases = [][2]string{
	{"Warranty terms (2026)", "Every Hollin appliance has a 2-year warranty."},
	{"Version 3.", "5 is the release with the fix."},
	{"Version 3", ".5 came later."},
	{"John'", "s blender"},
	{"John's", "'s own"},
	{"e.g", ".the end"},
	{"co-", "operation and co-operation"},
	{"Title\r", "\ntext after CR LF"},
	{"", "no title at all"},
	{"Only a title", ""},
	{"café", "\u0301accent first"},
	{"a\u200d", "\u200djoined?"},
	{"日本語のタイトル", "本文はここから"},
	{"the of and", "a an the"},
	{"😀", "👍🏽 emoji"},
	{"x", "y"},
	{"The X200's jar", "The X200's jar: cracked."},
}

// TestTitledEqualsSeparate checks that Titled gives what analysing the
// title and the text apart gives, both when the cache holds the joined
// text (the split) and when it does not, for the cases above, the Hollin
// corpus, random texts over characters that join words, and SciFact's
// abstracts when ASSAY_SCIFACT_DIR is set.
func TestTitledEqualsSeparate(t *testing.T) {
	pairs := slices.Clone(titledCases)
	pairs = append(pairs, corpusPairs(t, filepath.Join("..", "..", "testdata", "hollin", "corpus.jsonl"), 0)...)
	if dir := os.Getenv("ASSAY_SCIFACT_DIR"); dir != "" {
		pairs = append(pairs, corpusPairs(t, filepath.Join(dir, "corpus.jsonl"), 2000)...)
	}
	r := rand.New(rand.NewPCG(5, 6))
	alphabet := []string{"a", "b", "3", ".", ",", "'", "’", "-", " ", " ", "\u0301", "\u200d", "_", ":", "s", "the", "日", "\n", "\r"}
	word := func() string {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	for range 3000 {
		pairs = append(pairs, [2]string{word(), word()})
	}
	plain := NewUncached()
	split := 0
	for _, p := range pairs {
		title, text := p[0], p[1]
		wantTitle, wantText := plain.Terms(title), plain.Terms(text)
		for _, primed := range []bool{false, true} {
			an := &Analyzer{a: english(), cache: newCache()}
			if primed {
				an.Terms(title + "\n" + text)
			}
			gotTitle, gotText := an.Titled(title, text)
			if !slices.Equal(gotTitle, wantTitle) || !slices.Equal(gotText, wantText) {
				t.Fatalf("Titled(%q, %q), primed %v:\n got %q | %q\nwant %q | %q", title, text, primed, gotTitle, gotText, wantTitle, wantText)
			}
			if primed && slices.Equal(plain.Terms(title+"\n"+text), append(slices.Clone(wantTitle), wantText...)) {
				split++
			}
			// The caller may write to what it got.
			for _, got := range [][]string{gotTitle, gotText} {
				if len(got) > 0 {
					got[0] = "overwritten"
				}
			}
			againTitle, againText := an.Titled(title, text)
			if !slices.Equal(againTitle, wantTitle) || !slices.Equal(againText, wantText) {
				t.Fatalf("Titled(%q, %q) handed out the cache's slice", title, text)
			}
		}
	}
	if split < len(pairs)*9/10 {
		t.Errorf("the joined analysis was the title's then the text's for only %d of %d pairs", split, len(pairs))
	}
	t.Logf("%d pairs, %d whose joined analysis splits", len(pairs), split)
}

func corpusPairs(t *testing.T, path string, most int) [][2]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() && (most == 0 || len(out) < most) {
		var d struct{ Title, Text string }
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		out = append(out, [2]string{d.Title, d.Text})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
