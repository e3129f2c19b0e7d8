package assessdev

import (
	"os"
	"testing"
)

// TestV55Situated (round 45, a45-sit) compares builtin:coverage-v52
// (Builtin.Situated off) with v55 (an acceptance moved to the chunk
// stating the question's condition; assess/situated.go) through the
// loop's attempts (compareOnDesign).
func TestV55Situated(t *testing.T) {
	b, qs := collect(t)
	compareOnDesign(t, b, qs, "v52", "v55", func(on bool) { b.Situated = on })
}

// TestV55One is TestV34ActOne with Situated as SITUATED says ("0" off).
func TestV55One(t *testing.T) {
	b, qs := collect(t)
	b.Situated = os.Getenv("SITUATED") != "0"
	logPicked(t, b, qs)
}
