package assess

import "testing"

// TestSituatedEntities (rv45b): Situated moves an acceptance only to a
// chunk that names every entity of the question: a bulletin stating the
// condition for another product's kettle (the T20's) does not take the
// K50's. TestSituated passed with the entity guard and the judged-alone
// guard (MinCoverage) taken out together; this fails without both (each
// alone keeps the T20 out here: judged alone it misses the K50 and
// covers less than MinCoverage).
func TestSituatedEntities(t *testing.T) {
	man, sb, water := situatedCorpus[0], situatedCorpus[1], situatedCorpus[2]
	t20 := Evidence{ChunkID: "t20#0", Title: "SB-120: T20 travel kettle firmware", Text: "T20 travel kettles on firmware 1.1 may switch off before the water boils. The fix: update the kettle to firmware 1.2 through the Hollin Home app."}
	judgeAll := situatedJudge(t, []Evidence{man, sb, water, t20})
	judge := func(on bool, q string, ev ...Evidence) string {
		t.Helper()
		res := judgeAll(on, q, ev...)
		if !res.Assessment.Sufficient || len(res.Accepted) == 0 {
			return ""
		}
		return res.Accepted[0]
	}
	q := "My K50 keeps clicking off before the water boils. What's the fix?"
	if off, on := judge(false, q, man, t20, water), judge(true, q, man, t20, water); off != "manual#0" || on != "manual#0" {
		t.Errorf("accepted %q without Situated, %q with it; want manual#0 both", off, on)
	}
}
