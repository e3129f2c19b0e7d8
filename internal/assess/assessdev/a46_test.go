package assessdev

import (
	"os"
	"strconv"
	"testing"
)

// TestA46 replays builtin:coverage-v59's Counts (A46_ON=bits) against
// Counts 0 on design and confirm totals.
func TestA46(t *testing.T) {
	b, qs := collect(t)
	compareOnDesign(t, b, qs, "off", "counts"+os.Getenv("A46_ON"), func(on bool) { b.Counts = map[bool]int{true: bits()}[on] })
}

// TestA46One logs the loop's verdicts on ACT_IDS with Counts A46_ON.
func TestA46One(t *testing.T) {
	b, qs := collect(t)
	b.Counts = bits()
	logPicked(t, b, qs)
}

func bits() int {
	n, _ := strconv.Atoi(os.Getenv("A46_ON"))
	return n
}
