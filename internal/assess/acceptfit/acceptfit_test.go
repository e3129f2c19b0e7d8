package acceptfit

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/thesaurus"
)

var update = flag.Bool("update", false, "write the fitted acceptance model to internal/assess/acceptance.json")

const committed = "../acceptance.json"

// DevSets are the development sets the acceptance model is fitted on:
// every Hollin question set whose results have been read.
var DevSets = []Set{
	{"hollin", "../../../testdata/eval/hollin.jsonl"},
	{"heldout", "../../../testdata/eval/hollin-heldout.jsonl"},
	{"fresh", "../../../testdata/eval/hollin-fresh.jsonl"},
	{"fresh2", "../../../testdata/eval/hollin-fresh2.jsonl"},
	{"fresh3", "../../../testdata/eval/hollin-fresh3.jsonl"},
}

func collect(t *testing.T) []Question {
	t.Helper()
	var th assess.Thesaurus
	if dir := os.Getenv("FIT_THESAURUS"); dir != "" {
		w, err := thesaurus.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		th = w
	}
	qs, err := Collect(context.Background(), "../../../testdata/hollin/corpus.jsonl", t.TempDir(), DevSets, th)
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

func bySet(qs []Question, name string, in bool) []Question {
	var out []Question
	for _, q := range qs {
		if (q.Set == name) == in {
			out = append(out, q)
		}
	}
	return out
}

// fitted is how the committed model says it was fitted.
const fitted = "go test ./internal/assess/acceptfit -run TestAcceptanceRefit -update: logistic regression (L2 1.0, 40 Newton steps) on the first-attempt candidates of hollin, heldout, fresh, fresh2 and fresh3; threshold above every no-answer question's best candidate"

// TestAcceptanceRefit re-fits the acceptance model on every development
// set and fails when the committed model (internal/assess/acceptance.json)
// differs: the weights are data with a reproducible fitting command. With
// -update it writes the re-fit instead. It logs the leave-one-set-out
// numbers (fitted without set X, scored on X) beside the in-sample ones
// and builtin:coverage-v7's rules.
func TestAcceptanceRefit(t *testing.T) {
	qs := collect(t)
	m := Fit(qs)
	got := m.Acceptance(fitted)
	data, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	for _, s := range DevSets {
		held := bySet(qs, s.Name, true)
		loso := Fit(bySet(qs, s.Name, false))
		t.Logf("%-8s leave-one-set-out %-40s in-sample %-40s v7 rules %s", s.Name, Evaluate(loso, held), Evaluate(m, held), EvaluateRules(held))
	}
	t.Logf("all      in-sample %s; v7 rules %s", Evaluate(m, qs), EvaluateRules(qs))
	for misses := 1; misses <= 3; misses++ {
		t.Logf("all      in-sample with the threshold lowered to accept %d no-answer question(s): %s", misses, Evaluate(AtRefusal(m, qs, misses), qs))
	}
	for i, n := range assess.FeatureNames {
		t.Logf("weight %-18s %+.3f", n, got.Weights[i])
	}
	t.Logf("bias %+.3f (threshold probability %.3f)", got.Bias, got.Threshold)
	if *update {
		if err := os.WriteFile(committed, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	want, err := assess.ParseAcceptance(old)
	if err != nil {
		t.Fatal(err)
	}
	if !close(want, &got) {
		t.Errorf("%s differs from a re-fit (run go test ./internal/assess/acceptfit -run TestAcceptanceRefit -update):\n%s", filepath.Clean(committed), firstDiff(old, data))
	}
}

func close(a, b *assess.Acceptance) bool {
	near := func(x, y float64) bool { d := x - y; return d < 1e-6 && d > -1e-6 }
	if a.Model != b.Model || a.Fitted != b.Fitted || !near(a.Bias, b.Bias) || !near(a.Threshold, b.Threshold) || len(a.Weights) != len(b.Weights) {
		return false
	}
	for i := range a.Weights {
		if !near(a.Weights[i], b.Weights[i]) {
			return false
		}
	}
	return true
}

func firstDiff(a, b []byte) string {
	al, bl := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; i < len(al) && i < len(bl); i++ {
		if !bytes.Equal(al[i], bl[i]) {
			return fmt.Sprintf("line %d: committed %s, re-fit %s", i+1, al[i], bl[i])
		}
	}
	return "lengths differ"
}
