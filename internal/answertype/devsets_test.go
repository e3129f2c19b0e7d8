package answertype

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// devSets are the development question sets the classifier may be read
// against (never a blind set).
var devSets = []string{"hollin", "hollin-heldout", "hollin-fresh", "hollin-fresh2", "hollin-fresh3", "hollin-fresh4", "hollin-fresh5"}

// kindTypes maps a set's answer-kind label (the `type` field of
// fresh3–fresh5) to the types that agree with it. Labels that name no
// kind of answer (paraphrase, comparison, no-answer, ...) are not judged.
var kindTypes = map[string][]Type{
	"frequency":   {Frequency},
	"duration":    {Period},
	"quantity":    {Quantity},
	"amount":      {Money},
	"when":        {Date, Condition},
	"place":       {Place},
	"name":        {Name},
	"part-number": {Name},
	"count":       {Count},
	"yes-no":      {YesNo},
	"safety":      {YesNo},
	"procedure":   {Procedure},
	"speed":       {Speed},
	"error-code":  {Description, Procedure},
}

// TestDevSets prints, for every development set's question, the type
// Classify reads beside the set's label, and the agreement per label
// (ANSWERTYPEDEV=1 go test ./internal/answertype -run TestDevSets -v). It
// asserts nothing: it is a reading aid, the table in docs/log/evaluation.md.
func TestDevSets(t *testing.T) {
	if os.Getenv("ANSWERTYPEDEV") == "" {
		t.Skip("ANSWERTYPEDEV=1 prints the classifier's reading of the development sets")
	}
	type tally struct{ agree, all int }
	per := map[string]*tally{}
	for _, set := range devSets {
		for _, q := range devQuestions(t, set) {
			got := Classify(q.Question)
			mark := " "
			if want, ok := kindTypes[q.Type]; ok {
				tl := per[q.Type]
				if tl == nil {
					tl = &tally{}
					per[q.Type] = tl
				}
				tl.all++
				if slices.Contains(want, got.Type) {
					tl.agree++
				} else {
					mark = "x"
				}
			}
			t.Logf("%s %-14s %-6s %-12s %-22s %q frame=%s", mark, set, q.ID, q.Type, got.Describe(), q.Question, strings.Join(got.Frame, ","))
		}
	}
	var kinds []string
	for k := range per {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var a, n int
	for _, k := range kinds {
		t.Logf("| %s | %d/%d |", k, per[k].agree, per[k].all)
		a += per[k].agree
		n += per[k].all
	}
	t.Log(fmt.Sprintf("| all judged | %d/%d |", a, n))
}

// devQuestion is a development set's question: its id, text and label.
type devQuestion struct{ ID, Question, Type string }

// devQuestions reads a development set's questions (testdata/eval).
func devQuestions(t *testing.T, set string) []devQuestion {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "eval", set+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []devQuestion
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var q devQuestion
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatal(err)
		}
		out = append(out, q)
	}
	return out
}
