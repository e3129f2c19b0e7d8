package assessdev

import (
	"os"
	"strings"
	"testing"
)

// TestV68Status (round 49, a49-yesno) compares builtin:coverage-v65
// (Builtin.Status off) with v68 (an accepted yes/no question answered by
// the chunk Ruled or Covered decides it on; assess/status.go) through the
// loop's attempts (compareOnDesign).
func TestV68Status(t *testing.T) {
	b, qs := collect(t)
	compareOnDesign(t, b, qs, "v65", "v68", func(on bool) { b.Status = on })
}

// TestV68One is TestV34ActOne with Status as STATUS says ("0" off).
func TestV68One(t *testing.T) {
	b, qs := collect(t)
	b.Status = os.Getenv("STATUS") != "0"
	logPicked(t, b, qs)
}

// TestV68Moved logs the design questions whose accepted chunk Status
// changes (compareOnDesign logs changed verdicts only).
func TestV68Moved(t *testing.T) {
	b, qs := collect(t)
	design := map[string]bool{}
	for _, s := range designSets() {
		design[s] = true
	}
	var pick []asked
	for _, a := range qs {
		if design[a.set] {
			pick = append(pick, a)
		}
	}
	b.Status = false
	_, base := judgeLoop(t, b, pick)
	b.Status = true
	_, lines := judgeLoop(t, b, pick)
	for i := range lines {
		if lines[i] != base[i] {
			t.Logf("was %s", strings.ReplaceAll(base[i], "\n", " |"))
			t.Logf("now %s", strings.ReplaceAll(lines[i], "\n", " |"))
		}
	}
}
