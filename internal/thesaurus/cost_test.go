package thesaurus

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
)

// costWords are question words of the development sets whose lookups
// cost the most before round 23 (many hyponyms: "person", "change";
// many senses: "set", "take"), plain ones, inflected ones and one
// WordNet does not know.
var costWords = []string{
	"someone", "person", "changed", "change", "moves", "go", "set", "take", "ask",
	"asked", "support", "kettle", "warranty", "blender", "delete", "erased", "fix",
	"long", "green", "first", "bought", "replacement", "zorbexing",
}

// openDebian opens the real database, or skips.
func openDebian(tb testing.TB) *WordNet {
	tb.Helper()
	w, err := Open(DefaultDir)
	if err != nil {
		tb.Skip("SKIPPED: no WordNet database in " + DefaultDir + "; apt-get install wordnet-base to run")
	}
	return w
}

// TestTaxaColdWarmConcurrent: Taxa answers the same whether its cache
// is cold or warm, and while many goroutines ask at once (run with
// -race): each answer equals the uncached reading on another instance.
func TestTaxaColdWarmConcurrent(t *testing.T) {
	ref := openDebian(t)
	want := map[string][]Taxon{}
	for _, x := range costWords {
		want[x] = ref.readTaxa(x)
	}
	if len(want["person"]) == 0 || len(want["zorbexing"]) != 0 {
		t.Fatalf("reference: person has %d taxa, zorbexing %d; want some and none", len(want["person"]), len(want["zorbexing"]))
	}
	w := openDebian(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8*len(costWords))
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range costWords {
				x := costWords[(i+g*3)%len(costWords)] // each goroutine in another order
				if got := w.Taxa(x); !reflect.DeepEqual(got, want[x]) {
					errs <- fmt.Errorf("goroutine %d: Taxa(%q) = %d taxa, want %d as read uncached", g, x, len(got), len(want[x]))
				}
				w.Related(x)
				w.CommonRelated(x)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, x := range costWords { // warm now
		if got := w.Taxa(x); !reflect.DeepEqual(got, want[x]) {
			t.Errorf("warm Taxa(%q) = %d taxa, want %d", x, len(got), len(want[x]))
		}
	}
}

// sinkWords and sinkTaxa keep what the allocation guards read from the
// heap, so the compiler cannot leave a copy on the stack.
var (
	sinkWords []string
	sinkTaxa  []Taxon
)

// TestLookupsParseNothing guards the hot path: reading a synset of the
// parsed table allocates nothing (the line parser allocated the line,
// its fields and every word), and a warm Taxa allocates nothing.
func TestLookupsParseNothing(t *testing.T) {
	w := openDebian(t)
	r := w.index["person"][0]
	if n := testing.AllocsPerRun(100, func() { sinkWords, _ = w.synsetBy(r, "") }); n != 0 {
		t.Errorf("reading a synset's words allocates %v times, want 0: is a line parsed again?", n)
	}
	w.Taxa("person")
	if n := testing.AllocsPerRun(100, func() { sinkTaxa = w.Taxa("person") }); n != 0 {
		t.Errorf("a warm Taxa allocates %v times, want 0", n)
	}
}

// BenchmarkTaxaCold is a word's first Taxa (the cache bypassed) over
// costWords: the lookups a worker that has just started pays.
func BenchmarkTaxaCold(b *testing.B) {
	w := openDebian(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, x := range costWords {
			w.readTaxa(x)
		}
	}
}

// BenchmarkTaxaWarm is Taxa over costWords once each is kept.
func BenchmarkTaxaWarm(b *testing.B) {
	w := openDebian(b)
	for _, x := range costWords {
		w.Taxa(x)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, x := range costWords {
			w.Taxa(x)
		}
	}
}

// BenchmarkRelated is Related and CommonRelated over costWords (not
// kept: every assessment asks again).
func BenchmarkRelated(b *testing.B) {
	w := openDebian(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, x := range costWords {
			w.Related(x)
			w.CommonRelated(x)
		}
	}
}

// BenchmarkOpen is loading the database (once per worker or eval
// process).
func BenchmarkOpen(b *testing.B) {
	openDebian(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Open(DefaultDir); err != nil {
			b.Fatal(err)
		}
	}
}
