package judge

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

// DefaultTolerance is how far, in absolute rate, a headline metric may
// fall below the baseline before the comparison calls it a regression:
// 0.05, a bit more than one question in a set of 26 answerable ones, so
// one borderline question flipping does not fail a build but two do.
const DefaultTolerance = 0.05

// Regression is one headline metric of one system that fell too far.
type Regression struct {
	System    string  `json:"system"`
	Metric    string  `json:"metric"`
	Baseline  float64 `json:"baseline"`
	Got       float64 `json:"got"`
	Tolerance float64 `json:"tolerance"`
}

func (r Regression) String() string {
	return fmt.Sprintf("%s %s: %.4f, baseline %.4f (tolerance %.2f)", r.System, r.Metric, r.Got, r.Baseline, r.Tolerance)
}

// headline is one metric the baseline guards.
type headline struct {
	name string
	get  func(Summary) Ratio
}

// Headlines are the rates CompareBaseline guards; forbidden leaks are
// guarded too, with no tolerance.
var headlines = []headline{
	{"right_source_cited", func(s Summary) Ratio { return s.RightSourceCited }},
	{"key_facts", func(s Summary) Ratio { return s.KeyFacts }},
	{"no_answer_refusal", func(s Summary) Ratio { return s.NoAnswerRefusal }},
}

// CompareBaseline checks cur against base for both systems: each headline
// rate (right source cited, key facts, no-answer refusal) may fall at most
// tol below the baseline's; forbidden leaks must be 0 whatever the
// baseline says. The two reports must cover the same question ids, or the
// rates are not comparable and it returns an error.
func CompareBaseline(base, cur AnswersReport, tol float64) ([]Regression, error) {
	if base.Schema != AnswersSchema {
		return nil, fmt.Errorf("baseline schema %q, want %q: re-record the baseline", base.Schema, AnswersSchema)
	}
	ids := func(r AnswersReport) []string {
		out := make([]string, len(r.Questions))
		for i, q := range r.Questions {
			out[i] = q.ID
		}
		slices.Sort(out)
		return out
	}
	if b, c := ids(base), ids(cur); !slices.Equal(b, c) {
		return nil, fmt.Errorf("the baseline covers %d questions and this run %d, not the same ids: re-record the baseline for this question file", len(b), len(c))
	}
	var out []Regression
	for _, sys := range []struct {
		name      string
		base, cur Summary
	}{
		{LoopSystem, base.Overall.Loop, cur.Overall.Loop},
		{OnePassSystem, base.Overall.OnePass, cur.Overall.OnePass},
	} {
		for _, h := range headlines {
			b, c := h.get(sys.base), h.get(sys.cur)
			if b.Of > 0 && c.Rate < b.Rate-tol-1e-9 {
				out = append(out, Regression{System: sys.name, Metric: h.name, Baseline: b.Rate, Got: c.Rate, Tolerance: tol})
			}
		}
		if sys.cur.ForbiddenLeaks > 0 {
			out = append(out, Regression{System: sys.name, Metric: "forbidden_leaks", Baseline: 0, Got: float64(sys.cur.ForbiddenLeaks)})
		}
	}
	return out, nil
}

// LoadAnswersReport reads a report written by WriteJSON, such as the
// tracked baseline. Unknown fields are errors: a baseline from another
// schema must not half-load.
func LoadAnswersReport(path string) (AnswersReport, error) {
	var r AnswersReport
	b, err := os.ReadFile(path)
	if err != nil {
		return r, err
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, fmt.Errorf("%s: %w", path, err)
	}
	if r.Schema != AnswersSchema {
		return r, fmt.Errorf("%s: schema %q, want %q", path, r.Schema, AnswersSchema)
	}
	return r, nil
}
