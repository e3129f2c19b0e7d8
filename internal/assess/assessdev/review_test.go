package assessdev

import (
	"os"
	"strconv"
	"testing"
)

// TestV61Review replays builtin:coverage-v61's Review (REVIEW=bits; v61's
// by default) against Review 0 (v60) through the loop: each design
// question whose verdict changes, and the design and confirm totals.
//
//	ASSESSDEV=1 ASSESSDEV_THESAURUS=/usr/share/wordnet REVIEW=255 go test ./internal/assess/assessdev -run 'TestV61Review$' -v
func TestV61Review(t *testing.T) {
	b, qs := collect(t)
	bits := reviewBits(b.Review)
	compareOnDesign(t, b, qs, "v60", "review"+strconv.Itoa(bits), func(on bool) { b.Review = map[bool]int{true: bits}[on] })
}

// reviewBits is REVIEW, or def.
func reviewBits(def int) int {
	if n, err := strconv.Atoi(os.Getenv("REVIEW")); err == nil {
		return n
	}
	return def
}

// TestV61ReviewOne logs the loop's verdicts on the questions ACT_IDS
// names (set:id, comma separated) with Review REVIEW.
func TestV61ReviewOne(t *testing.T) {
	b, qs := collect(t)
	b.Review = reviewBits(b.Review)
	logPicked(t, b, qs)
}
