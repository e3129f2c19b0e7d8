package assess_test

import (
	"context"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/eval/devsets"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// TestCandsOnlyDesign (round 48 review, rv48): the veto's features of the
// accepted chunk, computed alone (a48-cost, Result.cands(only)), are the
// ones that chunk has among every retrieved chunk's (Result.cands(""),
// what Candidates, the learned add and the veto's fit read), on every
// first attempt of the design sets the rules accept (the worker's
// assessor over the Hollin index, devsets). With ASSESSDEV=1 (builds the
// index; ASSESSDEV_THESAURUS=/usr/share/wordnet as the service judges).
func TestCandsOnlyDesign(t *testing.T) {
	if os.Getenv("ASSESSDEV") == "" {
		t.Skip("set ASSESSDEV=1 (builds the Hollin index)")
	}
	d := devsets.Open(t)
	var th assess.Thesaurus
	if dir := os.Getenv("ASSESSDEV_THESAURUS"); dir != "" {
		w, err := thesaurus.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		th = w
	}
	b, err := d.Assessor(th)
	if err != nil {
		t.Fatal(err)
	}
	names := devsets.Names()
	design := names[:slices.Index(names, "fresh14")] // hollin, heldout, fresh … fresh13
	accepted, checked := 0, 0
	for _, s := range design {
		qs, err := eval.LoadQuestions(devsets.Questions(s))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			first := devsets.FirstRequest(q)
			found := devsets.Search(t, d, first)
			req := assess.Request{Question: q.Question, Query: first.Query, Groups: first.Groups, K: first.K, Evidence: found.Evidence}
			rules, alone, all, err := assess.VetoChunkFeatures(context.Background(), b, req)
			if err != nil {
				t.Fatal(err)
			}
			if !rules.Assessment.Sufficient {
				continue
			}
			accepted++
			id := rules.Accepted[0]
			i := slices.IndexFunc(all, func(c assess.Candidate) bool { return c.ChunkID == id })
			j := slices.IndexFunc(alone, func(c assess.Candidate) bool { return c.ChunkID == id })
			if (i < 0) != (j < 0) {
				t.Errorf("%s %s: accepted %s among every chunk's features %v, alone %v", s, q.ID, id, i >= 0, j >= 0)
				continue
			}
			if i < 0 {
				continue // a comparison's union: the veto does not read it
			}
			checked++
			if len(alone) != 1 {
				t.Errorf("%s %s: %d candidates computed alone, want the accepted chunk's only", s, q.ID, len(alone))
			}
			if !reflect.DeepEqual(alone[j], all[i]) {
				t.Errorf("%s %s: accepted %s: alone %+v\namong all %+v", s, q.ID, id, alone[j], all[i])
			}
		}
	}
	t.Logf("design sets: %d first attempts the rules accept, %d on a chunk the features describe: alone = among all", accepted, checked)
	if checked < 100 {
		t.Errorf("only %d accepted chunks checked: the loaders no longer load the design sets", checked)
	}
}
