package assessdev

import (
	"os"
	"testing"
)

// TestV54Situated (round 45, a45-sit) compares builtin:coverage-v53
// (Builtin.Situated off) with v54 (an acceptance moved to the chunk
// stating the question's condition; assess/situated.go) through the
// loop's attempts (compareOnDesign).
func TestV54Situated(t *testing.T) {
	b, qs := collect(t)
	compareOnDesign(t, b, qs, "v53", "v54", func(on bool) { b.Situated = on })
}

// TestV54One is TestV34ActOne with Situated as SITUATED says ("0" off).
func TestV54One(t *testing.T) {
	b, qs := collect(t)
	b.Situated = os.Getenv("SITUATED") != "0"
	logPicked(t, b, qs)
}
