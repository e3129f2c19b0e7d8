package terms

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
)

var texts = []string{
	"The covered claims cover what was claimed.",
	"How many running shoes did the runners run in?",
	"Vitamin B12 deficiency increases blood levels of homocysteine.",
	"",
	"the of and",
	"X200 s3 ÉCOLE naïve café 1,000 genomes",
	"Hello\nworld",
}

// The cached analyzer returns what the uncached one does, on a miss and on
// every later hit, whatever a caller did with an earlier result.
func TestCachedEqualsUncached(t *testing.T) {
	c := &Analyzer{a: english(), cache: newCache()}
	u := NewUncached()
	for round := range 3 {
		for _, text := range texts {
			want := u.Terms(text)
			got := c.Terms(text)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d, %q: cached %q, uncached %q", round, text, got, want)
			}
			if !reflect.DeepEqual(c.Set(text), u.Set(text)) || !reflect.DeepEqual(c.Content(text), u.Content(text)) {
				t.Fatalf("round %d, %q: Set or Content differ", round, text)
			}
			// A caller may change its result: the cache's copy must not move.
			for i := range got {
				got[i] = "changed"
			}
			_ = append(got[:0], "appended")
		}
	}
}

// The cache holds at most cacheBytes, and keeps what was used recently.
func TestCacheBounded(t *testing.T) {
	c := newCache()
	a := &Analyzer{a: english(), cache: c}
	long := strings.Repeat("word ", 200)
	for i := range 20000 {
		a.Terms(fmt.Sprintf("%d %s", i, long))
	}
	total := c.held()
	if total > cacheBytes {
		t.Fatalf("cache holds %d bytes, bound %d", total, cacheBytes)
	}
	if total < cacheBytes/4 {
		t.Fatalf("cache holds %d bytes of a %d bound: evicting too early", total, cacheBytes)
	}
	recent := fmt.Sprintf("%d %s", 19999, long)
	if _, ok := c.get(recent); !ok {
		t.Fatal("the last text analysed is not cached")
	}
	huge := strings.Repeat("word ", cacheTextMax)
	a.Terms(huge)
	if _, ok := c.get(huge); ok {
		t.Fatal("a text over cacheTextMax was cached")
	}
}

// Concurrent use (run with -race).
func TestCacheConcurrent(t *testing.T) {
	a := &Analyzer{a: english(), cache: newCache()}
	u := NewUncached()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				text := texts[(g+i)%len(texts)] + fmt.Sprint(" n", i%37)
				if got, want := a.Terms(text), u.Terms(text); !reflect.DeepEqual(got, want) {
					t.Errorf("%q: %q, want %q", text, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// BenchmarkTerms: a chunk-length text analysed (uncached), found in the
// cache (hit), and analysed and added (miss: a new text each time).
func BenchmarkTerms(b *testing.B) {
	text := strings.Repeat("Vitamin B12 deficiency increases blood levels of homocysteine in older adults. ", 12)
	// distinct texts, more than the cache holds, for misses
	many := make([]string, 8192)
	for i := range many {
		many[i] = fmt.Sprint(i, " ", text)
	}
	b.Run("uncached", func(b *testing.B) {
		a := NewUncached()
		i := 0
		for b.Loop() {
			i++
			a.Terms(many[i%len(many)])
		}
	})
	// bleve's analyzer without the words memo (words.go): what
	// "uncached" was before it.
	b.Run("uncached/bleve", func(b *testing.B) {
		a := &Analyzer{a: english()}
		i := 0
		for b.Loop() {
			i++
			a.Terms(many[i%len(many)])
		}
	})
	// Texts over a vocabulary of 50,000 words drawn as Zipf's law has it
	// (s = 1.1), as a corpus's chunks: the words memo full, its lookups
	// spread over it.
	vocab := make([]string, 50000)
	r := rand.New(rand.NewPCG(11, 12))
	for i := range vocab {
		w := make([]byte, 4+r.IntN(7))
		for j := range w {
			w[j] = byte('a' + r.IntN(26))
		}
		vocab[i] = string(w)
	}
	zipf := rand.NewZipf(r, 1.1, 1, uint64(len(vocab)-1))
	varied := make([]string, 4096)
	for i := range varied {
		ws := make([]string, 170)
		for j := range ws {
			ws[j] = vocab[zipf.Uint64()]
		}
		varied[i] = strings.Join(ws, " ")
	}
	b.Run("vocabulary", func(b *testing.B) {
		a := NewUncached()
		i := 0
		for b.Loop() {
			i++
			a.Terms(varied[i%len(varied)])
		}
	})
	// Both cores analysing at once (the words memo is per analysis).
	for _, name := range []string{"parallel", "parallel/bleve"} {
		b.Run(name, func(b *testing.B) {
			a := NewUncached()
			if name == "parallel/bleve" {
				a = &Analyzer{a: english()}
			}
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					i++
					a.Terms(many[i%len(many)])
				}
			})
		})
	}
	b.Run("hit", func(b *testing.B) {
		a := &Analyzer{a: english(), cache: newCache()}
		for b.Loop() {
			a.Terms(text)
		}
	})
	b.Run("miss", func(b *testing.B) {
		a := &Analyzer{a: english(), cache: newCache()}
		i := 0
		for b.Loop() {
			i++
			a.Terms(many[i%len(many)])
		}
	})
	b.Run("word/uncached", func(b *testing.B) {
		a := NewUncached()
		for b.Loop() {
			a.Terms("deficiency")
		}
	})
	b.Run("word/hit", func(b *testing.B) {
		a := &Analyzer{a: english(), cache: newCache()}
		for b.Loop() {
			a.Terms("deficiency")
		}
	})
}

// The bound holds for texts whose terms outweigh the text: a 16 KiB text
// of one-character words (under cacheTextMax) has thousands of terms, each
// a string header more than its byte, and an entry larger than a shard's
// generation must not be kept past the bound.
func TestCacheBoundedDenseTexts(t *testing.T) {
	c := newCache()
	a := &Analyzer{a: english(), cache: c}
	var b strings.Builder
	for b.Len() < cacheTextMax-16 {
		fmt.Fprintf(&b, "%d ", b.Len()%10)
	}
	dense := b.String()
	if n := len(a.Terms(dense)); n < 4000 {
		t.Fatalf("the dense text has %d terms, want thousands", n)
	}
	for i := range 200 {
		a.Terms(fmt.Sprintf("%d %s", i, dense)[:len(dense)])
	}
	total := c.held()
	if total > cacheBytes {
		t.Fatalf("cache holds %d bytes, bound %d", total, cacheBytes)
	}
}

// held is the bytes c holds, counted as put counts them.
func (c *cache) held() int {
	total := 0
	for i := range c.shards {
		s := &c.shards[i]
		for _, m := range []map[string][]string{s.cur, s.old} {
			for k, v := range m {
				total += size(k, v)
			}
		}
	}
	return total
}
