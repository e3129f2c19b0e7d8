package assessdev

import (
	"os"
	"testing"
)

// TestV51Parts (round 44, a44-two, then measured against v49) compares
// builtin:coverage-v50 (Builtin.Parts off) with v51 (a question asking two
// things judged part by part; assess/parts.go) through the loop's
// attempts (compareOnDesign).
func TestV51Parts(t *testing.T) {
	b, qs := collect(t)
	compareOnDesign(t, b, qs, "v50", "v51", func(on bool) { b.Parts = on })
}

// TestV51One is TestV34ActOne with Parts as PARTS says ("0" off).
func TestV51One(t *testing.T) {
	b, qs := collect(t)
	b.Parts = os.Getenv("PARTS") != "0"
	logPicked(t, b, qs)
}
