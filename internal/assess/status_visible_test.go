package assess

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// TestStatusVisible (round 49, the lead's review of a49-yesno): Status
// reads only what the asker may see. Which chunk an accepted yes/no
// question moves to depends on the share of the question's weight a chunk
// covers, and that weight counts only the words the asker's documents use;
// staff-only pages using the question's words must change neither the
// public asker's verdict, nor the chunk it rests on, nor the reason (its
// coverage share, its quoted statement). The control: an asker who may see
// them gets another reason, so the test fails if Status weighed the
// question on the whole corpus (checked by mutation: Assess's vocabulary
// with the staff group added fails it, and so does the staff vocabulary
// given to status alone).
func TestStatusVisible(t *testing.T) {
	hiddenPages := []string{
		"Blunt blade log\nBlunt blades returned by engineers are logged; blunt blades are never replaced under guarantee.",
		"Guarantee desk\nThe guarantee desk decides whether blunt blades are something we replace.",
	}
	judge := func(hidden bool, groups []string, q string) Result {
		t.Helper()
		b := statusAssessor()
		if hidden {
			b = statusAssessor(hiddenPages...)
		}
		if !b.Status {
			t.Fatal("Status off by default: the test no longer tests the default")
		}
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Groups: groups,
			Evidence: []Evidence{rivalBlades, statusRecall, rivalWater, rivalWarranty}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	q := "Are blunt blades something the guarantee will replace?"
	public, staff := []string{"public"}, []string{"public", "staff"}
	want := judge(false, public, q)
	if !want.Assessment.Sufficient || len(want.Accepted) == 0 || want.Accepted[0] != "warranty#0" ||
		!strings.Contains(want.Assessment.Reason, "which states no status of the asked action") {
		t.Fatalf("without the hidden pages: %+v %v, want Status's move to warranty#0: the case no longer tests Status", want.Assessment, want.Accepted)
	}
	got := judge(true, public, q)
	if !reflect.DeepEqual(got.Assessment, want.Assessment) || !reflect.DeepEqual(got.Accepted, want.Accepted) {
		t.Errorf("hidden pages change the public asker's verdict:\n got %+v %v\nwant %+v %v", got.Assessment, got.Accepted, want.Assessment, want.Accepted)
	}
	for _, w := range []string{"engineer", "logged", "desk"} {
		if strings.Contains(strings.ToLower(got.Assessment.Reason), w) {
			t.Errorf("the public asker's reason names a hidden page's word %q: %s", w, got.Assessment.Reason)
		}
	}
	if s := judge(true, staff, q); reflect.DeepEqual(s.Assessment, want.Assessment) && reflect.DeepEqual(s.Accepted, want.Accepted) {
		t.Errorf("the staff asker's verdict and reason are the public asker's (%+v): the hidden pages change nothing the test can see", s.Assessment)
	}
}
