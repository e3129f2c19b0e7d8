package eval

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// tolerance: trec_eval prints 4 decimals.
const tolerance = 5e-5

// expected is one value trec_eval printed: measure, query ("all" for the
// average) and value.
type expected struct {
	measure, qid string
	value        float64
	line         int
}

func readExpected(t *testing.T, path string) []expected {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []expected
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 {
			t.Fatalf("%s:%d: want 3 fields, got %q", path, n, sc.Text())
		}
		v, err := strconv.ParseFloat(fields[2], 64)
		if err != nil {
			continue // runid, relstring: not numbers
		}
		out = append(out, expected{fields[0], fields[1], v, n})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func mustQrels(t *testing.T, path string) Qrels {
	t.Helper()
	q, err := LoadQrels(path)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func mustRun(t *testing.T, path string) Run {
	t.Helper()
	r, err := LoadRun(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// compareWithTrecEval checks every value in want whose measure Evaluate
// computes, and returns how many it checked and how many were off.
func compareWithTrecEval(t *testing.T, ev Evaluation, want []expected, file string, report bool) (checked, wrong int) {
	t.Helper()
	got := map[string]map[string]float64{"all": ev.Mean.Values()}
	for _, q := range ev.Queries {
		got[q.QueryID] = q.Values()
	}
	got["all"]["num_q"] = float64(len(ev.Queries))
	for _, w := range want {
		vals, ok := got[w.qid]
		if !ok {
			if report {
				t.Errorf("%s:%d: query %s: not evaluated", file, w.line, w.qid)
			}
			wrong++
			continue
		}
		g, ok := vals[w.measure]
		if !ok {
			continue // a trec_eval measure assay does not compute
		}
		checked++
		if math.Abs(g-w.value) > tolerance {
			wrong++
			if report {
				t.Errorf("%s:%d: Evaluate %s for query %s = %.6f, want %.4f", file, w.line, w.measure, w.qid, g, w.value)
			}
		}
	}
	return checked, wrong
}

// trecEvalCases are trec_eval's own quick tests (see testdata/trec_eval and
// shared/data/README.md for the command behind each output file).
//
// want is how many values of the file Evaluate computes: out.test has
// trec_eval's short default set (num_q, 3 counts, map, recip_rank, P at 9
// cutoffs = 16 — the rest are measures assay does not compute); the -m
// all_trec files add Rprec, ndcg, and recall, ndcg_cut and map_cut at 9
// cutoffs and success_1,5,10 (47 for "all"; 46 per query, which has no
// num_q). An exact count catches a measure that silently stops matching.
//
// results.test has ten pairs of tied scores, but only one pair mixes a
// relevant and a non-relevant document, at ranks 67 and 68 of query 301
// with no cutoff between them; swapping it moves no value at 4 decimals.
// So these files cannot tell tie-breaks apart: TestEvaluateByHand pins
// trec_eval's (document id descending, from its comp_sim_docno).
var trecEvalCases = []struct {
	out, qrels, run string
	opts            Options
	want            int
}{
	{"out.test", "qrels.test", "results.test", Options{}, 16},
	{"out.test.a", "qrels.test", "results.test", Options{}, 47},
	{"out.test.aq", "qrels.test", "results.test", Options{}, 47 + 3*46},
	{"out.test.aqc", "qrels.test", "results.trunc", Options{Complete: true}, 47 + 3*46},
	{"out.test.aqcM", "qrels.test", "results.trunc", Options{Complete: true, MaxDocs: 100}, 47 + 3*46},
	{"out.test.aql", "qrels.rel_level", "results.test", Options{RelevanceLevel: 2}, 47 + 3*46},
}

func TestEvaluateMatchesTrecEval(t *testing.T) {
	for _, tc := range trecEvalCases {
		t.Run(tc.out, func(t *testing.T) {
			dir := filepath.Join("testdata", "trec_eval")
			ev, err := Evaluate(mustQrels(t, filepath.Join(dir, tc.qrels)), mustRun(t, filepath.Join(dir, tc.run)), tc.opts)
			if err != nil {
				t.Fatalf("Evaluate: %v", err)
			}
			want := readExpected(t, filepath.Join(dir, tc.out))
			checked, _ := compareWithTrecEval(t, ev, want, tc.out, true)
			if checked != tc.want {
				t.Errorf("checked %d values against %s, want %d", checked, tc.out, tc.want)
			}
			t.Logf("%s: %d values match trec_eval", tc.out, checked)
		})
	}
}

// TestMRRAtKIsRecipRankWithMaxDocs checks the one measure trec_eval lacks,
// MRR@k, against trec_eval's recip_rank under -M k.
func TestMRRAtKIsRecipRankWithMaxDocs(t *testing.T) {
	dir := filepath.Join("testdata", "trec_eval")
	ev, err := Evaluate(mustQrels(t, filepath.Join(dir, "qrels.test")), mustRun(t, filepath.Join(dir, "results.trunc")),
		Options{Complete: true, Cutoffs: []int{100}})
	if err != nil {
		t.Fatal(err)
	}
	var want []expected
	for _, e := range readExpected(t, filepath.Join(dir, "out.test.aqcM")) {
		if e.measure == "recip_rank" {
			e.measure = "mrr_cut_100"
			want = append(want, e)
		}
	}
	if checked, _ := compareWithTrecEval(t, ev, want, "out.test.aqcM", true); checked != 4 {
		t.Errorf("checked %d mrr_cut_100 values, want 4", checked)
	}
}

func TestEvaluateByHand(t *testing.T) {
	qrels := Qrels{
		"q1": {"a": 2, "b": 1, "c": 0, "d": -1},
		"q2": {"x": 1},
		"q3": {"y": 0}, // judged, nothing relevant
	}
	tests := []struct {
		name string
		run  Run
		opts Options
		qid  string
		want map[string]float64
	}{
		{
			name: "graded gain, log2 discount, tie broken by id descending",
			// b and a tie: trec_eval puts b (larger id) first.
			run:  Run{"q1": {{"a", 1}, {"b", 1}, {"c", 0.5}}},
			opts: Options{Cutoffs: []int{1, 2, 3}},
			qid:  "q1",
			want: map[string]float64{
				"recip_rank":  1,
				"P_1":         1,
				"P_2":         1,
				"P_3":         2.0 / 3,
				"recall_1":    0.5,
				"map":         1,
				"ndcg_cut_1":  1.0 / 2,                                     // b (1) vs ideal a (2)
				"ndcg_cut_2":  (1 + 2/math.Log2(3)) / (2 + 1/math.Log2(3)), // b,a vs a,b
				"ndcg":        (1 + 2/math.Log2(3)) / (2 + 1/math.Log2(3)), // c has gain 0
				"num_rel":     2,                                           // d's -1 is not relevant
				"num_rel_ret": 2,
				"Rprec":       1,
			},
		},
		{
			name: "relevance level 2 keeps graded nDCG",
			run:  Run{"q1": {{"b", 3}, {"a", 2}}},
			opts: Options{RelevanceLevel: 2, Cutoffs: []int{1, 2}},
			qid:  "q1",
			want: map[string]float64{
				"num_rel":     1,
				"recip_rank":  0.5,
				"mrr_cut_1":   0,
				"mrr_cut_2":   0.5,
				"P_1":         0,
				"success_2":   1,
				"ndcg_cut_2":  (1 + 2/math.Log2(3)) / (2 + 1/math.Log2(3)),
				"map":         0.5,
				"map_cut_1":   0,
				"num_rel_ret": 1,
			},
		},
		{
			name: "no-hit query scores zero and is listed",
			run:  Run{"q1": {{"a", 1}}, "q2": {}},
			opts: Options{Cutoffs: []int{10}},
			qid:  "q2",
			want: map[string]float64{"num_ret": 0, "num_rel": 1, "map": 0, "recip_rank": 0, "ndcg_cut_10": 0, "recall_10": 0},
		},
		{
			name: "max docs cuts after sorting",
			run:  Run{"q1": {{"c", 9}, {"a", 1}, {"b", 5}}},
			opts: Options{MaxDocs: 2, Cutoffs: []int{5}},
			qid:  "q1",
			want: map[string]float64{"num_ret": 2, "num_rel_ret": 1, "P_5": 0.2, "recip_rank": 0.5, "recall_5": 0.5},
		},
		{
			name: "judged query with nothing relevant scores zero",
			run:  Run{"q3": {{"y", 1}}},
			qid:  "q3",
			want: map[string]float64{"num_rel": 0, "map": 0, "ndcg": 0, "Rprec": 0, "recall_10": 0},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev, err := Evaluate(qrels, tc.run, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]float64
			for _, q := range ev.Queries {
				if q.QueryID == tc.qid {
					got = q.Values()
				}
			}
			if got == nil {
				t.Fatalf("Evaluate: query %s not evaluated", tc.qid)
			}
			for name, want := range tc.want {
				if g, ok := got[name]; !ok || math.Abs(g-want) > 1e-12 {
					t.Errorf("Evaluate(%s) %s = %v (present %v), want %v", tc.qid, name, g, ok, want)
				}
			}
		})
	}
}

func TestEvaluateNoHitAndComplete(t *testing.T) {
	qrels := Qrels{"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
	run := Run{"q1": {{"a", 1}}, "q2": {}, "q9": {{"z", 1}}}
	tests := []struct {
		opts      Options
		wantN     int
		wantMRR   float64
		wantNoHit []string
	}{
		// q3 is missing from the run: dropped (trec_eval without -c); q2
		// retrieved nothing: kept and zero; q9 has no judgements: ignored.
		{Options{}, 2, 0.5, []string{"q2"}},
		{Options{Complete: true}, 3, 1.0 / 3, []string{"q2", "q3"}},
	}
	for _, tc := range tests {
		ev, err := Evaluate(qrels, run, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(ev.Queries) != tc.wantN || math.Abs(ev.Mean.RR-tc.wantMRR) > 1e-12 || strings.Join(ev.NoHit, ",") != strings.Join(tc.wantNoHit, ",") {
			t.Errorf("Evaluate(complete=%v) = %d queries, MRR %v, no-hit %v; want %d, %v, %v",
				tc.opts.Complete, len(ev.Queries), ev.Mean.RR, ev.NoHit, tc.wantN, tc.wantMRR, tc.wantNoHit)
		}
	}
}

func TestEvaluateErrors(t *testing.T) {
	qrels := Qrels{"q1": {"a": 1}}
	tests := []struct {
		name string
		run  Run
		opts Options
		want string
	}{
		{"duplicate doc", Run{"q1": {{"a", 1}, {"a", 2}}}, Options{}, "document a is ranked twice"},
		{"NaN score", Run{"q1": {{"a", math.NaN()}}}, Options{}, "score NaN"},
		{"negative level", Run{"q1": {{"a", 1}}}, Options{RelevanceLevel: -1}, "relevance level -1"},
		{"negative max docs", Run{"q1": {{"a", 1}}}, Options{MaxDocs: -5}, "max docs -5"},
		{"zero cutoff", Run{"q1": {{"a", 1}}}, Options{Cutoffs: []int{0}}, "cutoff 0"},
		{"repeated cutoff", Run{"q1": {{"a", 1}}}, Options{Cutoffs: []int{5, 5}}, "cutoff 5 given twice"},
		{"nothing to evaluate", Run{"q2": {{"a", 1}}}, Options{}, "no query has both"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Evaluate(qrels, tc.run, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Evaluate = %v, want error containing %q", err, tc.want)
			}
		})
	}
}

// BenchmarkEvaluate scores trec_eval's test run (3 queries × 500
// documents) with every default measure.
func BenchmarkEvaluate(b *testing.B) {
	dir := filepath.Join("testdata", "trec_eval")
	qrels, err := LoadQrels(filepath.Join(dir, "qrels.test"))
	if err != nil {
		b.Fatal(err)
	}
	run, err := LoadRun(filepath.Join(dir, "results.test"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Evaluate(qrels, run, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTrecEvalFilesIntact guards the copies in testdata/trec_eval against
// edits: they must be byte-for-byte trec_eval's (SHA256SUMS came with
// them).
func TestTrecEvalFilesIntact(t *testing.T) {
	dir := filepath.Join("testdata", "trec_eval")
	sums, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		want, name, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("SHA256SUMS: bad line %q", line)
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err) // *.test files are git-ignored in this repo: they are added with git add -f
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != want {
			t.Errorf("sha256(%s) = %s, want %s", name, got, want)
		}
		n++
	}
	if n != 11 {
		t.Errorf("SHA256SUMS lists %d files, want 11", n)
	}
}
