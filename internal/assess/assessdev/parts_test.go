package assessdev

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestV50Parts (round 44, a44-two) compares builtin:coverage-v49
// (Builtin.Parts off) with v50 (a question asking two things judged part
// by part; assess/parts.go) through the loop's attempts: each design set's
// changed questions, and the design and confirm groups' totals (no
// confirm set's questions, by the round's set discipline; the validation
// set is left out).
func TestV50Parts(t *testing.T) {
	b, qs := collect(t)
	design := map[string]bool{"hollin": true, "heldout": true, "fresh": true}
	for i := 2; i <= 13; i++ {
		design[fmt.Sprintf("fresh%d", i)] = true
	}
	var pick []asked
	for _, a := range qs {
		if a.set != "fresh42" {
			pick = append(pick, a)
		}
	}
	b.Parts = false
	o, base := judgeLoop(t, b, pick)
	b.Parts = true
	n, lines := judgeLoop(t, b, pick)
	for i := range lines {
		if !design[pick[i].set] {
			continue
		}
		if strings.SplitN(lines[i], "\n", 2)[0] != strings.SplitN(base[i], "\n", 2)[0] {
			t.Logf("v50 changes %s", strings.ReplaceAll(lines[i], "\n", " |"))
		}
	}
	var od, nd, oc, nc score
	for _, s := range sets {
		if s == "fresh42" {
			continue
		}
		if design[s] {
			od.add(o[s])
			nd.add(n[s])
		} else {
			oc.add(o[s])
			nc.add(n[s])
			t.Logf("confirm %-8s v49 %s | v50 %s", s, o[s], n[s])
		}
	}
	t.Logf("design  v49 %s | v50 %s", od, nd)
	t.Logf("confirm v49 %s | v50 %s", oc, nc)
}

// TestV50One is TestV34ActOne with Parts as PARTS says ("0" off).
func TestV50One(t *testing.T) {
	b, qs := collect(t)
	b.Parts = os.Getenv("PARTS") != "0"
	var pick []asked
	for _, a := range qs {
		if strings.Contains(","+os.Getenv("ACT_IDS")+",", ","+a.set+":"+a.id+",") {
			pick = append(pick, a)
		}
	}
	_, lines := judgeLoop(t, b, pick)
	for _, l := range lines {
		t.Log(strings.ReplaceAll(l, "\n", " |"))
	}
}
