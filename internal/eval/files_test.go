package eval

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestReadQrels(t *testing.T) {
	tests := []struct {
		name, in string
		want     Qrels
	}{
		{"trec", "q1 0 d1 1\nq1 0 d2 0\n\nq2 iter d3 -1\n",
			Qrels{"q1": {"d1": 1, "d2": 0}, "q2": {"d3": -1}}},
		{"beir", "query-id\tcorpus-id\tscore\r\n1\t31715818\t1\r\n1\tdoc two\t2\n",
			Qrels{"1": {"31715818": 1, "doc two": 2}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadQrels(strings.NewReader(tc.in), "q.txt")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ReadQrels = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestReadQrelsErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"too few fields", "q1 0 d1\n", "q.txt:1: want 4 fields"},
		{"bad grade", "q1 0 d1 1\nq1 0 d2 high\n", `q.txt:2: field relevance: want an integer grade, got "high"`},
		{"duplicate", "q1 0 d1 1\n\nq1 0 d1 0\n", "q.txt:3: query q1 judges document d1 twice (first at line 1)"},
		{"beir too few", "query-id\tcorpus-id\tscore\n1\t2\n", "q.txt:2: want 3 tab-separated fields"},
		{"beir empty id", "query-id\tcorpus-id\tscore\n1\t\t1\n", "q.txt:2: field doc-id: empty"},
		{"empty", "\n\n", "q.txt: no judgements"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadQrels(strings.NewReader(tc.in), "q.txt")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadQrels(%q) = %v, want error containing %q", tc.in, err, tc.want)
			}
		})
	}
}

func TestReadRunErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"too few fields", "q1 Q0 d1 1 2.5\n", "run.txt:1: want 6 fields"},
		{"bad score", "q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 abc t\n", `run.txt:2: field score: want a finite number, got "abc"`},
		{"NaN score", "q1 Q0 d1 1 NaN t\n", `run.txt:1: field score: want a finite number, got "NaN"`},
		{"duplicate", "q1 Q0 d1 1 2 t\nq1 Q0 d1 2 1 t\n", "run.txt:2: field doc-id: query q1 retrieves document d1 twice (first at line 1)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadRun(strings.NewReader(tc.in), "run.txt")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadRun(%q) = %v, want error containing %q", tc.in, err, tc.want)
			}
		})
	}
}

func TestRunRoundTrip(t *testing.T) {
	run := Run{
		"q2": {{"b", 0.30000000000000004}, {"a", -3}},
		"q1": {{"z", 1e-300}},
	}
	var buf bytes.Buffer
	if err := WriteRun(&buf, run, "bm25"); err != nil {
		t.Fatal(err)
	}
	wantText := "q1 Q0 z 1 1e-300 bm25\nq2 Q0 b 1 0.30000000000000004 bm25\nq2 Q0 a 2 -3 bm25\n"
	if buf.String() != wantText {
		t.Errorf("WriteRun = %q, want %q", buf.String(), wantText)
	}
	got, err := ReadRun(&buf, "run.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, run) {
		t.Errorf("ReadRun(WriteRun(run)) = %v, want %v", got, run)
	}
}

func TestWriteRunErrors(t *testing.T) {
	tests := []struct {
		name string
		run  Run
		tag  string
		want string
	}{
		{"empty tag", Run{"q": {{"d", 1}}}, "", "run tag"},
		{"spaced tag", Run{"q": {{"d", 1}}}, "my run", "run tag"},
		{"spaced doc", Run{"q": {{"d 1", 1}}}, "t", `document id "d 1"`},
		{"spaced query", Run{"q 1": {{"d", 1}}}, "t", `query id "q 1"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := WriteRun(&bytes.Buffer{}, tc.run, tc.tag)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("WriteRun = %v, want error containing %q", err, tc.want)
			}
		})
	}
}

func TestWriteQrelsRoundTrip(t *testing.T) {
	q := Qrels{"q2": {"b": 1, "a": 0}, "q1": {"c": 3}}
	var buf bytes.Buffer
	if err := WriteQrels(&buf, q); err != nil {
		t.Fatal(err)
	}
	if want := "q1 0 c 3\nq2 0 a 0\nq2 0 b 1\n"; buf.String() != want {
		t.Errorf("WriteQrels = %q, want %q", buf.String(), want)
	}
	got, err := ReadQrels(&buf, "q")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, q) {
		t.Errorf("ReadQrels(WriteQrels(q)) = %v, want %v", got, q)
	}
}
