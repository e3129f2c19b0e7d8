package assess

import (
	"slices"
	"strings"
	"testing"
)

// scorerTestWeights reward a chunk for the wide reading's coverage and for
// leading the other retrieved chunks in it, and nothing else: the
// mechanism under test, not the fitted weights.
func scorerTestWeights() []float64 {
	ws := make([]float64, len(featureNames)+1)
	ws[0] = -3
	ws[1+slices.Index(featureNames, "wide coverage")] = 4
	ws[1+slices.Index(featureNames, "wide lead")] = 4
	return ws
}

// TestChunkScorer: v11's chunk scorer judges the retrieved chunks against
// each other and accepts the one its model scores highest, even when it is
// not the first; builtin:coverage-v10 (the scorer off) reads only the
// first chunk in its wide reading and refuses. The trace names the
// question's words the chunk holds and the fitted scorer.
func TestChunkScorer(t *testing.T) {
	b, _ := newTestAssessor()
	warrantyFirst := []Evidence{hollinLike[0], hollinLike[2]}
	if res := assessAs(t, b, true, wideQuestion, warrantyFirst); res.Assessment.Sufficient {
		t.Fatalf("v10 accepted %q with the K50 page second: %s (the test no longer shows the scorer)", wideQuestion, res.Assessment.Reason)
	}
	b.Scorer, b.ScorerWeights, b.ScorerThreshold = true, scorerTestWeights(), 0.5
	if b.Model() != V11Model {
		t.Errorf("model %q, want %q", b.Model(), V11Model)
	}
	res := assessAs(t, b, true, wideQuestion, warrantyFirst)
	if !res.Assessment.Sufficient || len(res.Accepted) == 0 || res.Accepted[0] != "man-k50-kettle#0" {
		t.Fatalf("v11 on %q = %+v, want accepted on the K50 page", wideQuestion, res)
	}
	r := res.Assessment.Reason
	for _, want := range []string{`"K50 Smart Kettle"`, `"descale"`, "fitted chunk scorer", "points more than any other source retrieved"} {
		if !strings.Contains(r, want) {
			t.Errorf("reason %q lacks %q", r, want)
		}
	}
	// A threshold no chunk reaches: refused, as v10.
	b.ScorerThreshold = 0.999
	if res := assessAs(t, b, true, wideQuestion, warrantyFirst); res.Assessment.Sufficient {
		t.Errorf("accepted below the threshold: %s", res.Assessment.Reason)
	}
	b.Scorer = false
	if b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v10" {
		t.Errorf("model with the scorer off %q, want builtin:coverage-v10", b.Model())
	}
}

// TestChunkScorerKeepsChecks: whatever its weights, the scorer accepts no
// chunk that misses an entity the question names, holds no answer of the
// expected type near the question's words, or answers whether there is a
// thing no visible document mentions.
func TestChunkScorerKeepsChecks(t *testing.T) {
	b, _ := newTestAssessor()
	b.Scorer, b.ScorerWeights, b.ScorerThreshold = true, []float64{20}, 0.5 // every eligible chunk: p ≈ 1
	for _, q := range []string{
		"how many speeds does the X400 have",            // an entity no chunk names
		"how many watts does the K50 kettle draw",       // no wattage near the K50's words
		"is there a frimble on the X300 Pro?",           // a thing no visible document mentions
		"what colour options does the X300 Pro come in", // no colour named
	} {
		if res := assessAs(t, b, true, q, hollinLike); res.Assessment.Sufficient && strings.Contains(res.Assessment.Reason, "fitted chunk scorer") {
			t.Errorf("the scorer accepted %q: %s", q, res.Assessment.Reason)
		}
	}
}

// TestChunkFeaturesObserved: Observe receives one feature vector per
// retrieved chunk, as long as FeatureNames, and no weights give no
// probability.
func TestChunkFeaturesObserved(t *testing.T) {
	b, _ := newTestAssessor()
	var got []ChunkFeatures
	b.Observe = func(fs []ChunkFeatures) { got = fs }
	assessAs(t, b, true, wideQuestion, hollinLike[:3])
	if len(got) != 3 {
		t.Fatalf("observed %d chunks, want 3", len(got))
	}
	for _, f := range got {
		if len(f.X) != len(FeatureNames()) {
			t.Errorf("%s: %d features, want %d", f.ChunkID, len(f.X), len(FeatureNames()))
		}
	}
	if p := Probability(nil, got[0].X); p != 0 {
		t.Errorf("Probability with no weights = %v, want 0", p)
	}
}
