package assess

import (
	"context"
	"strings"
	"testing"
)

func TestDefaultAcceptanceParses(t *testing.T) {
	a, err := DefaultAcceptance()
	if err != nil {
		t.Fatal(err)
	}
	if a.Model != "builtin:coverage-v8" || len(a.Weights) != len(FeatureNames) {
		t.Errorf("committed acceptance model %q with %d weights", a.Model, len(a.Weights))
	}
}

func TestParseAcceptanceChecksFeatures(t *testing.T) {
	for _, bad := range []string{`{`, `{"features":["coverage"],"weights":[1]}`} {
		if _, err := ParseAcceptance([]byte(bad)); err == nil || !strings.Contains(err.Error(), "acceptance model") {
			t.Errorf("ParseAcceptance(%s) = %v; want an error naming the acceptance model", bad, err)
		}
	}
}

// acceptAll is a stand-in acceptance model that accepts every candidate
// (probability 0.73 whatever the features): what is left to decide is the
// safety rule.
func acceptAll() *Acceptance {
	return &Acceptance{Model: "builtin:test-accept-all", Features: FeatureNames, Weights: make([]float64, len(FeatureNames)), Bias: 1}
}

// TestAcceptanceKeepsWholeEntities: with a fitted model, a candidate that
// does not name every entity of the question whole is never accepted,
// however likely the model finds it; one that does is, and the reason
// names the expected answer type and what was found.
func TestAcceptanceKeepsWholeEntities(t *testing.T) {
	b, _ := newTestAssessor()
	b.Accept = acceptAll()
	ask := func(q string, ev []Evidence) Assessment {
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Assessment
	}
	if a := ask("how many speeds does the X400 have", hollinLike[1:2]); a.Sufficient {
		t.Errorf("X400 answered from the X300 Pro's page: %+v", a)
	}
	a := ask("how many speeds does the X300 Pro have", hollinLike[1:2])
	if !a.Sufficient || a.Score < 0.5 {
		t.Errorf("X300 Pro speeds: %+v; want accepted", a)
	}
	if !strings.Contains(a.Reason, "a count") && !strings.Contains(a.Reason, "asks for") {
		t.Errorf("reason %q does not name the expected answer type", a.Reason)
	}
	if res, _ := b.Assess(context.Background(), Request{Question: "q", Evidence: hollinLike[:1]}); !strings.HasPrefix(res.Usage.Model, "builtin:test-accept-all") {
		t.Errorf("model id %q; want the acceptance model's", res.Usage.Model)
	}
}

// TestCandidatesFeatures: one candidate per chunk with every feature in
// range.
func TestCandidatesFeatures(t *testing.T) {
	b, _ := newTestAssessor()
	cs := b.Candidates(Request{Question: "how long does the K50 take to boil", Evidence: hollinLike, Groups: []string{"public"}})
	if len(cs) != len(hollinLike) {
		t.Fatalf("%d candidates for %d chunks", len(cs), len(hollinLike))
	}
	for _, c := range cs {
		if len(c.Features) != len(FeatureNames) {
			t.Fatalf("%v: %d features", c.ChunkIDs, len(c.Features))
		}
		for i, x := range c.Features {
			if x < 0 || x > 4 {
				t.Errorf("%v: %s = %v", c.ChunkIDs, FeatureNames[i], x)
			}
		}
	}
	k50 := cs[2].Features
	if k50[0] <= cs[1].Features[0] || k50[5] != 1 {
		t.Errorf("K50 chunk features %v; want more coverage than the X300's and a period found", k50)
	}
}
