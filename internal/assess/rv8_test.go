package assess

import (
	"context"
	"testing"
)

// TestModelIDNamesTheBehaviour (rv8): two Builtins reporting the same
// model id must judge alike. With the answer checks off (V8Model) or the
// focus reading off (NoFocusModel), Read still strips v10's generic words
// from the question's weight, so "builtin:coverage-v8" names two
// behaviours depending on a field Model() does not look at.
func TestModelIDNamesTheBehaviour(t *testing.T) {
	q := "the X300 Pro keeps showing E12 and the pump thing is making a noise. what does E12 mean?"
	for _, off := range []string{"answers", "focus"} {
		judge := func(read bool) (string, Result) {
			b, _ := newTestAssessor()
			switch off {
			case "answers":
				b.Answers = false
			case "focus":
				b.Focus = false
			}
			b.Read = read
			res, err := b.Assess(context.Background(), Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: hollinLike})
			if err != nil {
				t.Fatal(err)
			}
			return b.Model(), res
		}
		m1, r1 := judge(false)
		m2, r2 := judge(true)
		if m1 == m2 && (r1.Assessment.Sufficient != r2.Assessment.Sufficient || r1.Assessment.Score != r2.Assessment.Score) {
			t.Errorf("%s off: model %q both times, but Read off gives %v (%.3f) and Read on %v (%.3f)",
				off, m1, r1.Assessment.Sufficient, r1.Assessment.Score, r2.Assessment.Sufficient, r2.Assessment.Score)
		}
	}
}

// TestGenericWordsDoNotLeaveOnlyTheEntity (rv8): v10 strips generic words
// from the coverage rules' weight too, with none of the wide reading's
// minTopic: a question whose only other words are generic ("what is the
// new thing on the X300 Pro?") is judged as the bare entity, and any chunk
// naming it covers 100% — here the warranty terms. v9 refused (50%).
func TestGenericWordsDoNotLeaveOnlyTheEntity(t *testing.T) {
	b, _ := newTestAssessor()
	for _, q := range []string{"what is the new thing on the X300 Pro?", "the X300 Pro: anything new?"} {
		res := assessAs(t, b, true, q, hollinLike)
		if res.Assessment.Sufficient {
			t.Errorf("v10 accepted %q on %v: %s", q, res.Accepted, res.Assessment.Reason)
		}
	}
}
