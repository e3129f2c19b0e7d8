package assessdev

import (
	"os"
	"strconv"
	"testing"
)

// TestV59Counts replays builtin:coverage-v59's Counts (COUNTS=bits, 7 is
// v59's) against Counts 0 (v55) through the loop: each design question
// whose verdict changes, and the design and confirm totals.
//
//	ASSESSDEV=1 ASSESSDEV_THESAURUS=/usr/share/wordnet COUNTS=7 go test ./internal/assess/assessdev -run 'TestV59Counts$' -v
func TestV59Counts(t *testing.T) {
	b, qs := collect(t)
	compareOnDesign(t, b, qs, "v55", "counts"+strconv.Itoa(countsBits()), func(on bool) { b.Counts = map[bool]int{true: countsBits()}[on] })
}

// TestV59CountsOne logs the loop's verdicts on the questions ACT_IDS
// names (set:id, comma separated) with Counts COUNTS.
func TestV59CountsOne(t *testing.T) {
	b, qs := collect(t)
	b.Counts = countsBits()
	logPicked(t, b, qs)
}

// countsBits is COUNTS, or v59's 7.
func countsBits() int {
	if n, err := strconv.Atoi(os.Getenv("COUNTS")); err == nil {
		return n
	}
	return 7
}
