package assessdev

import (
	"os"
	"testing"
)

// TestV58Timed (round 46, a46-val) compares builtin:coverage-v55
// (Builtin.Timed off) with v58 (a question asking when something still to
// come will happen asks for a period from now; its arrival verb frames the
// asking; assess/timed.go) through the loop's attempts (compareOnDesign).
func TestV58Timed(t *testing.T) {
	b, qs := collect(t)
	compareOnDesign(t, b, qs, "v55", "v58", func(on bool) { b.Timed = on })
}

// TestV58One is TestV34ActOne with Timed as TIMED says ("0" off).
func TestV58One(t *testing.T) {
	b, qs := collect(t)
	b.Timed = os.Getenv("TIMED") != "0"
	logPicked(t, b, qs)
}

// TestV58Every compares v58 without and with Builtin.Every.
func TestV58Every(t *testing.T) {
	b, qs := collect(t)
	compareOnDesign(t, b, qs, "v58-every", "v58", func(on bool) { b.Every = on })
}

// TestV58 compares v55 (Timed and Every off) with v58.
func TestV58(t *testing.T) {
	b, qs := collect(t)
	compareOnDesign(t, b, qs, "v55", "v58", func(on bool) { b.Timed, b.Every = on, on })
}

// TestV58EveryCases: on the Hollin corpus, v58 with Every accepts the
// repairs page's £25 inspection fee for "do you charge anything just to
// look at my kettle" (fresh4 h19; the page names no kettle, and "kettle" is
// the question's most specific term) and v58 without Every refuses it;
// with Every, "how long is the guarantee on a Hollin kettle" (fresh8 p02)
// is not accepted on the K50 app page's "5 seconds" (a page naming a code).
func TestV58EveryCases(t *testing.T) {
	b, qs := collect(t)
	for _, a := range qs {
		switch a.set + ":" + a.id {
		case "fresh4:h19":
			for _, on := range []bool{false, true} {
				b.Every = on
				res, _, _ := lackOf(t, b, a)
				if got := res.Assessment.Sufficient && len(res.Accepted) > 0 && a.chunkDoc[res.Accepted[0]] == "pol-repairs"; got != on {
					t.Errorf("Every %v: h19 accepted on pol-repairs %v, want %v (%s)", on, got, on, res.Assessment.Reason)
				}
			}
		case "fresh8:p02":
			b.Every = true
			res, _, _ := lackOf(t, b, a)
			if res.Assessment.Sufficient && len(res.Accepted) > 0 && a.chunkDoc[res.Accepted[0]] == "man-k50-app" {
				t.Errorf("Every: p02 accepted on the K50 app page (%s)", res.Assessment.Reason)
			}
		}
	}
}
