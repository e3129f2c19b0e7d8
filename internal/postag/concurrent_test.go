package postag

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestTagConcurrent: the worker runs many Assess activities at once, so
// Tag is called from many goroutines, the first calls racing for the
// lazy load. This file's name sorts before postag_test.go, so in a run of
// the package its first test is the process's first use of the tagger;
// run it with -race (go test -race ./internal/postag/). Every goroutine
// must read the same tags a single call reads.
func TestTagConcurrent(t *testing.T) {
	texts := []string{"How long do service partners have to submit a warranty labour claim?",
		"what else can i use to show i bought it?",
		"Does that stop me claiming on the warranty?",
		"What steps does my repair go through on the tracker, start to finish?"}
	const workers = 16
	start := make(chan struct{})
	got := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start // every goroutine's first call races for the load
			for i := range 20 {
				got[w] = append(got[w], fmt.Sprint(Tag(texts[(w+i)%len(texts)])))
			}
		}()
	}
	close(start)
	wg.Wait()
	for w := range workers {
		for i, s := range got[w] {
			if want := fmt.Sprint(Tag(texts[(w+i)%len(texts)])); s != want {
				t.Errorf("goroutine %d, call %d: %s, alone %s", w, i, s, want)
			}
		}
	}
}

// TestTagOdd: odd questions tag without a panic, alike on repeat, and in
// bounded time. The gateway takes a question of at most 2,000 bytes
// (internal/gateway/errors.go, maxQuestionBytes); a 60,000-character text
// is tagged too, in case a caller inside the worker sends more.
func TestTagOdd(t *testing.T) {
	long := strings.Repeat("How long do service partners have to submit a warranty labour claim? ", 29)[:2000]
	for _, c := range []struct {
		name, text string
		limit      time.Duration
	}{
		{"empty", "", time.Second},
		{"question mark", "?", time.Second},
		{"spaces", " \t\n ", time.Second},
		{"stop words", "what is it that the of to in", time.Second},
		{"non-ASCII", "Où est la bouilloire? Wie lange dauert die Garantie für meinen Wasserkocher? 保修期多长?", time.Second},
		{"emoji", "can i use 🔌 to charge it 😀 :) ?", time.Second},
		{"invalid UTF-8", "can i use \xff\xfe to claim?", time.Second},
		{"sentences", strings.Repeat("Is it covered. Can i claim? ", 40), time.Second},
		{"2,000 bytes", long, time.Second},
		{"one word, 2,000 bytes", strings.Repeat("claim ", 334)[:2000], time.Second},
		{"a word between each repeat, 2,000 bytes", strings.Repeat("claim a ", 250), time.Second},
		{"60,000 characters", strings.Repeat("x", 60000), 10 * time.Second},
		{"60,000 characters of words", strings.Repeat("claim a part ", 5000)[:60000], 10 * time.Second},
	} {
		Tag("warm") // the load is not the text's cost
		begin := time.Now()
		first := fmt.Sprint(Tag(c.text))
		took := time.Since(begin)
		t.Logf("%s (%d bytes): %v, %d words", c.name, len(c.text), took, len(Tag(c.text)))
		if took > c.limit {
			t.Errorf("%s: tagged in %v, want under %v", c.name, took, c.limit)
		}
		if again := fmt.Sprint(Tag(c.text)); again != first {
			t.Errorf("%s: tags differ on repeat: %s, then %s", c.name, first, again)
		}
	}
}
