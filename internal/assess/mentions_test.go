package assess

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// mentionsJoined is Mentions as first written (each run joined with
// strings.Join), the reference the in-place version must equal.
func mentionsJoined(an *terms.Analyzer, texts ...string) map[string]bool {
	out := map[string]bool{}
	for _, text := range texts {
		ts := an.Terms(text)
		for i := range ts {
			out[ts[i]] = true
			for n := 2; n <= maxRun && i+n <= len(ts); n++ {
				out[strings.Join(ts[i:i+n], runSeparator)] = true
			}
		}
	}
	return out
}

var mentionTexts = [][]string{
	{},
	{""},
	{"the of"},
	{"E4"},
	{"X300 Pro error codes", "E4 means the lid is loose."},
	{"Errors of the X300", "Pro users: E4 means the lid is loose. The lid, the lid, the lid is loose."},
	{"", "Vitamin B12 deficiency increases blood levels of homocysteine", "homocysteine levels"},
	{"a b c d e f g a b c d e f g"},
}

func TestMentionsEqualsJoined(t *testing.T) {
	an := terms.New()
	for _, texts := range mentionTexts {
		got, want := Mentions(an, texts...), mentionsJoined(an, texts...)
		if !maps.Equal(got, want) {
			t.Errorf("%q:\n got %v\nwant %v", texts, got, want)
		}
		if got == nil {
			t.Errorf("%q: nil map", texts)
		}
	}
}

// TestTitledMentionsEqualsMentions: TitledMentions of a title and a text
// is Mentions of the two, whether or not the joined text was analysed
// before (by the reranker).
func TestTitledMentionsEqualsMentions(t *testing.T) {
	an := terms.New()
	for i, texts := range mentionTexts {
		if len(texts) != 2 {
			continue
		}
		title, text := texts[0], texts[1]
		if i%2 == 0 {
			an.Terms(title + "\n" + text)
		}
		got, want := TitledMentions(an, title, text), mentionsJoined(an, title, text)
		if !maps.Equal(got, want) {
			t.Errorf("%q:\n got %v\nwant %v", texts, got, want)
		}
		an.Terms(title + "\n" + text)
		if got := TitledMentions(an, title, text); !maps.Equal(got, want) {
			t.Errorf("%q, joined text analysed:\n got %v\nwant %v", texts, got, want)
		}
	}
}

// mentionsOfJoined is mentionsOf with each run's key built by
// strings.Join: the reference for the keys cut from one joined string.
func mentionsOfJoined(lists [][]string) map[string]bool {
	out := map[string]bool{}
	for _, ts := range lists {
		for i := range ts {
			out[ts[i]] = true
			for n := 2; n <= maxRun && i+n <= len(ts); n++ {
				out[strings.Join(ts[i:i+n], runSeparator)] = true
			}
		}
	}
	return out
}

// TestMentionsOfEqualsJoined: random lists of terms (repeated terms,
// lists of every length up to twice maxRun, several lists, empty ones)
// give the same keys as runs joined one by one.
func TestMentionsOfEqualsJoined(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	vocab := []string{"a", "lid", "e4", "x300", "homocystein", "b12", "vitamin", "lid", "ab", "b"}
	for range 2000 {
		lists := make([][]string, rng.IntN(4))
		for i := range lists {
			lists[i] = make([]string, rng.IntN(2*maxRun+1))
			for j := range lists[i] {
				lists[i][j] = vocab[rng.IntN(len(vocab))]
			}
		}
		got, want := mentionsOf(lists), mentionsOfJoined(lists)
		if !maps.Equal(got, want) {
			t.Fatalf("%q:\n got %q\nwant %q", lists, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
	}
}

// BenchmarkMentions: a chunk-length title and text (the analysis cached
// after the first op, as in a question's later stages).
func BenchmarkMentions(b *testing.B) {
	an := terms.New()
	title := "Homocysteine and vitamin B12 in older adults"
	text := strings.Repeat("Vitamin B12 deficiency increases blood levels of homocysteine in older adults, and low folate does too. ", 10)
	b.Run("in-place", func(b *testing.B) {
		for b.Loop() {
			Mentions(an, title, text)
		}
	})
	b.Run("joined", func(b *testing.B) {
		for b.Loop() {
			mentionsJoined(an, title, text)
		}
	})
	// A result the reranker read (title + "\n" + text analysed and
	// cached), its text new to the cache otherwise, as in a question:
	// Mentions analyses the text again, TitledMentions splits the
	// reranker's analysis. The reranker's analysis is in both.
	texts := make([]string, 4096) // more than the cache holds
	for i := range texts {
		texts[i] = fmt.Sprint(i, " ", text)
	}
	for _, titled := range []bool{false, true} {
		b.Run(fmt.Sprintf("reranked/titled=%v", titled), func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				x := texts[i%len(texts)]
				an.Terms(title + "\n" + x)
				if titled {
					TitledMentions(an, title, x)
				} else {
					Mentions(an, title, x)
				}
			}
		})
	}
}

// TestMentionsMemo: TitledMentions gives the mentions made anew whether
// or not the memo holds the chunk, a title and text split elsewhere (the
// same text joined) get their own, a kept map under a key whose texts
// differ is not handed out, and a text past maxMentionedText is not kept.
func TestMentionsMemo(t *testing.T) {
	an := terms.New()
	pairs := [][2]string{
		{"Hollin X300 Pro\nBlender", "manual speeds"},
		{"Hollin X300 Pro", "Blender\nmanual speeds"},
		{"K50 Smart Kettle", "Pairing the K50 with the Hollin Home app."},
		{"", "Pairing the K50 with the Hollin Home app."},
		{"K50 Smart Kettle", ""},
	}
	for round := range 2 {
		for _, p := range pairs {
			want := mentionsOf([][]string{an.Terms(p[0]), an.Terms(p[1])})
			if got := TitledMentions(an, p[0], p[1]); !maps.Equal(got, want) {
				t.Errorf("round %d, %q: got %v, want %v", round, p, got, want)
			}
			if _, _, ok := titledMemo.get(p[0], p[1]); !ok {
				t.Errorf("round %d, %q: not kept", round, p)
			}
		}
	}
	m := newMentionsMemo(4)
	k := m.key("a", "b")
	m.put(k, "a", "c", map[string]bool{"c": true}) // as if "a","c" had hashed to k
	if got, _, ok := m.get("a", "b"); ok {
		t.Errorf("a kept map of other texts under the key was handed out: %v", got)
	}
	long := strings.Repeat("word ", maxMentionedText/5+1)
	_, k, _ = m.get("Long", long)
	m.put(k, "Long", long, map[string]bool{"long": true})
	if _, ok := m.kept.Peek(k); ok || m.kept.Len() != 1 {
		t.Error("a text past maxMentionedText was kept")
	}
}

// TestMentionsMemoConcurrent: callers on several goroutines at once (the
// worker's activities run concurrently) each get the mentions made anew,
// over more chunks than the memo keeps, so that puts, hits and evictions
// interleave; run with -race too (the memo's cache must be safe for
// concurrent use, and no map it hands out is written).
func TestMentionsMemoConcurrent(t *testing.T) {
	an := terms.New()
	const chunks = maxMentioned + maxMentioned/2
	pairs := make([][2]string, chunks)
	want := make([]map[string]bool, chunks)
	for i := range pairs {
		pairs[i] = [2]string{fmt.Sprintf("Hollin K%d kettle", i), fmt.Sprintf("Descale the K%d every %d weeks with citric acid; pair it with the app.", i, i%9+1)}
		want[i] = mentionsOf([][]string{an.Terms(pairs[i][0]), an.Terms(pairs[i][1])})
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Go(func() {
			for n := range 4 * chunks {
				i := (n*(2*g+1) + g*37) % chunks
				if got := TitledMentions(an, pairs[i][0], pairs[i][1]); !maps.Equal(got, want[i]) {
					errs <- fmt.Sprintf("goroutine %d, chunk %d: %d keys, want %d", g, i, len(got), len(want[i]))
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if n := KeptMentions(); n > maxMentioned {
		t.Errorf("the memo keeps %d chunks, more than %d", n, maxMentioned)
	}
}
