package eval

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/corpus"
)

// hollinSets are the labelled Hollin question sets the Makefile's eval
// targets run, each with its key-facts file (paths from the repository
// root).
var hollinSets = []struct{ questions, keyFacts string }{
	{"testdata/eval/hollin.jsonl", "testdata/hollin/key_facts.jsonl"},                  // make eval
	{"testdata/eval/hollin-heldout.jsonl", "testdata/eval/hollin-heldout-facts.jsonl"}, // make eval-heldout
	{"testdata/eval/hollin-fresh.jsonl", "testdata/eval/hollin-fresh-facts.jsonl"},     // make eval-fresh
	{"testdata/eval/hollin-fresh2.jsonl", "testdata/eval/hollin-fresh2-facts.jsonl"},   // make eval-fresh2
	{"testdata/eval/hollin-fresh3.jsonl", "testdata/eval/hollin-fresh3-facts.jsonl"},   // make eval-fresh3
	{"testdata/eval/hollin-fresh4.jsonl", "testdata/eval/hollin-fresh4-facts.jsonl"},   // make eval-fresh4
	{"testdata/eval/hollin-fresh5.jsonl", "testdata/eval/hollin-fresh5-facts.jsonl"},   // make eval-fresh5
	{"testdata/eval/hollin-fresh6.jsonl", "testdata/eval/hollin-fresh6-facts.jsonl"},   // make eval-fresh6
	{"testdata/eval/hollin-fresh7.jsonl", "testdata/eval/hollin-fresh7-facts.jsonl"},   // make eval-fresh7
	{"testdata/eval/hollin-fresh8.jsonl", "testdata/eval/hollin-fresh8-facts.jsonl"},   // make eval-fresh8
	{"testdata/eval/hollin-fresh9.jsonl", "testdata/eval/hollin-fresh9-facts.jsonl"},   // make eval-fresh9
	{"testdata/eval/hollin-fresh10.jsonl", "testdata/eval/hollin-fresh10-facts.jsonl"}, // make eval-fresh10
	{"testdata/eval/hollin-fresh11.jsonl", "testdata/eval/hollin-fresh11-facts.jsonl"}, // make eval-fresh11
	{"testdata/eval/hollin-fresh12.jsonl", "testdata/eval/hollin-fresh12-facts.jsonl"}, // make eval-fresh12
	{"testdata/eval/hollin-fresh13.jsonl", "testdata/eval/hollin-fresh13-facts.jsonl"}, // make eval-fresh13
	{"testdata/eval/hollin-fresh14.jsonl", "testdata/eval/hollin-fresh14-facts.jsonl"}, // make eval-fresh14
	{"testdata/eval/hollin-fresh15.jsonl", "testdata/eval/hollin-fresh15-facts.jsonl"}, // make eval-fresh15
	{"testdata/eval/hollin-fresh16.jsonl", "testdata/eval/hollin-fresh16-facts.jsonl"}, // make eval-fresh16
	{"testdata/eval/hollin-fresh17.jsonl", "testdata/eval/hollin-fresh17-facts.jsonl"}, // make eval-fresh17
	{"testdata/eval/hollin-fresh18.jsonl", "testdata/eval/hollin-fresh18-facts.jsonl"}, // make eval-fresh18
	{"testdata/eval/hollin-fresh19.jsonl", "testdata/eval/hollin-fresh19-facts.jsonl"}, // make eval-fresh19
	{"testdata/eval/hollin-fresh20.jsonl", "testdata/eval/hollin-fresh20-facts.jsonl"}, // make eval-fresh20
	{"testdata/eval/hollin-fresh21.jsonl", "testdata/eval/hollin-fresh21-facts.jsonl"}, // make eval-fresh21
	{"testdata/eval/hollin-fresh22.jsonl", "testdata/eval/hollin-fresh22-facts.jsonl"}, // make eval-fresh22
	{"testdata/eval/hollin-fresh23.jsonl", "testdata/eval/hollin-fresh23-facts.jsonl"}, // make eval-fresh23
	{"testdata/eval/hollin-fresh24.jsonl", "testdata/eval/hollin-fresh24-facts.jsonl"}, // make eval-fresh24
	{"testdata/eval/hollin-fresh25.jsonl", "testdata/eval/hollin-fresh25-facts.jsonl"}, // make eval-fresh25
	{"testdata/eval/hollin-fresh26.jsonl", "testdata/eval/hollin-fresh26-facts.jsonl"}, // make eval-fresh26
	{"testdata/eval/hollin-fresh27.jsonl", "testdata/eval/hollin-fresh27-facts.jsonl"}, // make eval-fresh27
	{"testdata/eval/hollin-fresh28.jsonl", "testdata/eval/hollin-fresh28-facts.jsonl"}, // make eval-fresh28
	{"testdata/eval/hollin-fresh29.jsonl", "testdata/eval/hollin-fresh29-facts.jsonl"}, // make eval-fresh29
	{"testdata/eval/hollin-fresh30.jsonl", "testdata/eval/hollin-fresh30-facts.jsonl"}, // make eval-fresh30
	{"testdata/eval/hollin-fresh31.jsonl", "testdata/eval/hollin-fresh31-facts.jsonl"}, // make eval-fresh31
	{"testdata/eval/hollin-fresh32.jsonl", "testdata/eval/hollin-fresh32-facts.jsonl"}, // make eval-fresh32
	{"testdata/eval/hollin-fresh33.jsonl", "testdata/eval/hollin-fresh33-facts.jsonl"}, // make eval-fresh33
	{"testdata/eval/hollin-fresh34.jsonl", "testdata/eval/hollin-fresh34-facts.jsonl"}, // make eval-fresh34
	{"testdata/eval/hollin-fresh35.jsonl", "testdata/eval/hollin-fresh35-facts.jsonl"}, // make eval-fresh35
	{"testdata/eval/hollin-fresh36.jsonl", "testdata/eval/hollin-fresh36-facts.jsonl"}, // make eval-fresh36
	{"testdata/eval/hollin-fresh37.jsonl", "testdata/eval/hollin-fresh37-facts.jsonl"}, // make eval-fresh37
	{"testdata/eval/hollin-fresh38.jsonl", "testdata/eval/hollin-fresh38-facts.jsonl"}, // make eval-fresh38
	{"testdata/eval/hollin-fresh39.jsonl", "testdata/eval/hollin-fresh39-facts.jsonl"}, // make eval-fresh39
	{"testdata/eval/hollin-fresh40.jsonl", "testdata/eval/hollin-fresh40-facts.jsonl"}, // make eval-fresh40
	{"testdata/eval/hollin-fresh41.jsonl", "testdata/eval/hollin-fresh41-facts.jsonl"}, // make eval-fresh41
	{"testdata/eval/hollin-fresh42.jsonl", "testdata/eval/hollin-fresh42-facts.jsonl"}, // make eval-fresh42
	{"testdata/eval/hollin-fresh43.jsonl", "testdata/eval/hollin-fresh43-facts.jsonl"}, // make eval-fresh43
	{"testdata/eval/hollin-fresh44.jsonl", "testdata/eval/hollin-fresh44-facts.jsonl"}, // make eval-fresh44
	{"testdata/eval/hollin-fresh45.jsonl", "testdata/eval/hollin-fresh45-facts.jsonl"}, // make eval-fresh45
	{"testdata/eval/hollin-fresh46.jsonl", "testdata/eval/hollin-fresh46-facts.jsonl"}, // make eval-fresh46
	{"testdata/eval/hollin-fresh47.jsonl", "testdata/eval/hollin-fresh47-facts.jsonl"}, // make eval-fresh47
	{"testdata/eval/hollin-fresh48.jsonl", "testdata/eval/hollin-fresh48-facts.jsonl"}, // make eval-fresh48
	{"testdata/eval/hollin-fresh49.jsonl", "testdata/eval/hollin-fresh49-facts.jsonl"}, // make eval-fresh49
}

const repoRoot = "../.."

// TestHollinSetsLabels loads every Hollin question set with its key facts
// and checks the labels against the corpus: each relevant document exists
// and the asker can see it, each forbidden one exists and the asker cannot,
// each answerable question has key facts, each found in one of its
// relevant documents (an answer drawn from them can contain it), no
// key facts belong to an unknown or unanswerable question, and no question
// is asked in two sets (a set copied from another is not untouched).
func TestHollinSetsLabels(t *testing.T) {
	docs, err := corpus.LoadJSONL(filepath.Join(repoRoot, "testdata/hollin/corpus.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*corpus.Document{}
	for i := range docs {
		byID[docs[i].ID] = &docs[i]
	}
	askedIn := map[string]string{} // normalized question -> file:id
	for _, set := range hollinSets {
		qs, err := LoadQuestions(filepath.Join(repoRoot, set.questions))
		if err != nil {
			t.Fatal(err)
		}
		facts, err := LoadKeyFacts(filepath.Join(repoRoot, set.keyFacts))
		if err != nil {
			t.Fatal(err)
		}
		answerable := map[string]bool{}
		for _, q := range qs {
			where := set.questions + ":" + q.ID
			groups := q.Groups
			if len(groups) == 0 {
				groups = []string{corpus.PublicGroup}
			}
			for _, id := range q.Relevant {
				switch d := byID[id]; {
				case d == nil:
					t.Errorf("%s: relevant document %q is not in the corpus", where, id)
				case !d.VisibleTo(groups):
					t.Errorf("%s: relevant document %q is not visible to %v", where, id, groups)
				}
			}
			for _, id := range q.Forbidden {
				switch d := byID[id]; {
				case d == nil:
					t.Errorf("%s: forbidden document %q is not in the corpus", where, id)
				case d.VisibleTo(groups):
					t.Errorf("%s: forbidden document %q is visible to %v", where, id, groups)
				}
			}
			if len(q.Relevant) > 0 {
				answerable[q.ID] = true
				if len(facts[q.ID]) == 0 {
					t.Errorf("%s: answerable, but %s has no key facts for it", where, set.keyFacts)
				}
				for _, f := range facts[q.ID] {
					if !slices.ContainsFunc(q.Relevant, func(id string) bool {
						d := byID[id]
						return d != nil && strings.Contains(strings.ToLower(d.Text), strings.ToLower(f))
					}) {
						t.Errorf("%s: key fact %q is in none of its relevant documents", where, f)
					}
				}
			}
			norm := strings.ToLower(strings.Trim(q.Question, " ?.!"))
			if first, dup := askedIn[norm]; dup {
				t.Errorf("%s: question %q is already asked in %s", where, q.Question, first)
			}
			askedIn[norm] = where
		}
		for id := range facts {
			if !answerable[id] {
				t.Errorf("%s: key facts for %q, which is not an answerable question of %s", set.keyFacts, id, set.questions)
			}
		}
	}
}

// TestHollinSetsListed fails when a question set in testdata/eval is
// missing from hollinSets, so a new set is checked too.
func TestHollinSetsListed(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(repoRoot, "testdata/eval/*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		rel, _ := filepath.Rel(repoRoot, f)
		listed := slices.ContainsFunc(hollinSets, func(s struct{ questions, keyFacts string }) bool {
			return s.questions == rel || s.keyFacts == rel
		})
		if !listed {
			t.Errorf("%s is not in hollinSets", rel)
		}
	}
}
