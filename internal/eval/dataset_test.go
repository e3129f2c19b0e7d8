package eval

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	tinyCorpus = `{"_id": "d1", "title": "t", "text": "x"}` + "\n"
	tinyQrels  = "query-id\tcorpus-id\tscore\nq1\td1\t1\n"
)

func TestLoadBEIR(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		split string
		want  []Query
		unj   int
	}{
		{
			name: "flat layout, test split",
			files: map[string]string{
				"corpus.jsonl":  tinyCorpus,
				"queries.jsonl": `{"_id": "q1", "text": "first", "metadata": {}}` + "\n" + `{"_id": "q2", "text": "unjudged"}` + "\n",
				"qrels.tsv":     tinyQrels,
			},
			split: SplitTest,
			want:  []Query{{"q1", "first"}},
			unj:   1,
		},
		{
			name: "flat layout, train split",
			files: map[string]string{
				"corpus.jsonl":        tinyCorpus,
				"queries.jsonl":       `{"_id": "q9", "text": "test only"}` + "\n",
				"queries_train.jsonl": `{"_id": "q1", "text": "train"}` + "\n",
				"qrels.tsv":           "query-id\tcorpus-id\tscore\nq9\td1\t1\n",
				"qrels_train.tsv":     tinyQrels,
			},
			split: SplitTrain,
			want:  []Query{{"q1", "train"}},
		},
		{
			name: "BEIR layout",
			files: map[string]string{
				"corpus.jsonl":    tinyCorpus,
				"queries.jsonl":   `{"_id": "q0", "text": "train"}` + "\n" + `{"_id": "q1", "text": "test"}` + "\n",
				"qrels/test.tsv":  tinyQrels,
				"qrels/train.tsv": "query-id\tcorpus-id\tscore\nq0\td1\t1\n",
			},
			split: SplitTest,
			want:  []Query{{"q1", "test"}},
			unj:   1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, tc.files)
			d, err := LoadBEIR(dir, tc.split)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(d.Queries, tc.want) || d.Unjudged != tc.unj {
				t.Errorf("LoadBEIR(%s) = queries %v, unjudged %d; want %v, %d", tc.split, d.Queries, d.Unjudged, tc.want, tc.unj)
			}
		})
	}
}

func TestLoadBEIRErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		split string
		want  string
	}{
		{"bad split", map[string]string{"corpus.jsonl": tinyCorpus}, "dev", `split "dev": want test or train`},
		{"no corpus", map[string]string{"queries.jsonl": "", "qrels.tsv": tinyQrels}, SplitTest, "no corpus.jsonl"},
		{"no qrels", map[string]string{"corpus.jsonl": tinyCorpus, "queries.jsonl": `{"_id": "q1", "text": "a"}`}, SplitTest, "no qrels for split test"},
		{"judged query without text", map[string]string{
			"corpus.jsonl": tinyCorpus, "queries.jsonl": `{"_id": "q2", "text": "a"}`, "qrels.tsv": tinyQrels,
		}, SplitTest, "1 judged queries have no text"},
		{"bad query line", map[string]string{
			"corpus.jsonl": tinyCorpus, "queries.jsonl": `{"_id": "q1", "text": "a"}` + "\n" + `{"_id": "q2", "txt": "a"}`, "qrels.tsv": tinyQrels,
		}, SplitTest, "queries.jsonl:2: field txt: unknown field"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadBEIR(writeFiles(t, tc.files), tc.split)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("LoadBEIR = %v, want error containing %q", err, tc.want)
			}
		})
	}
}

func TestReadQueriesErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"no id", `{"text": "a"}`, "q.jsonl:1: field _id: missing or empty"},
		{"empty text", `{"_id": "1", "text": " "}`, "q.jsonl:1: field text: missing or empty"},
		{"duplicate", `{"_id": "1", "text": "a"}` + "\n" + `{"_id": "1", "text": "b"}`, `q.jsonl:2: field _id: duplicate id "1" (first at line 1)`},
		{"wrong type", `{"_id": 1, "text": "a"}`, "q.jsonl:1: field _id: want string, got JSON number"},
		{"not JSON", `{"_id": "1",`, "q.jsonl:1: invalid JSON"},
		{"empty file", "\n", "q.jsonl: no queries"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadQueries(strings.NewReader(tc.in), "q.jsonl")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadQueries(%q) = %v, want error containing %q", tc.in, err, tc.want)
			}
		})
	}
}

func TestLoadQuestionsHollin(t *testing.T) {
	qs, err := LoadQuestions(filepath.Join("..", "..", "testdata", "hollin", "questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 27 {
		t.Fatalf("LoadQuestions(hollin) = %d questions, want 27", len(qs))
	}
	for _, q := range qs {
		if !reflect.DeepEqual(q.Groups, []string{"public"}) {
			t.Errorf("question %s groups = %v, want the default [public]", q.ID, q.Groups)
		}
	}
	qrels := QuestionQrels(qs)
	if len(qrels) != 23 { // 4 no-answer questions have no relevant documents
		t.Errorf("QuestionQrels(hollin) = %d queries, want 23", len(qrels))
	}
	if got := qrels.Relevant("q05", 1); !reflect.DeepEqual(got, []string{"faq-warranty-claim", "faq-warranty-claim-copy", "ntc-repair-centre-move", "pol-repairs"}) {
		t.Errorf("QuestionQrels(hollin)[q05] = %v", got)
	}
}

func TestReadQuestions(t *testing.T) {
	in := `{"id": "r1", "question": "partner rates", "relevant": ["ptn-brook-rates"], "answer": "£42", "type": "restricted", "groups": ["partner:brook-street"], "forbidden": ["ptn-calder-rates", "int-parts-cost"]}`
	qs, err := ReadQuestions(strings.NewReader(in), "q.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := []Question{{
		ID: "r1", Question: "partner rates", Relevant: []string{"ptn-brook-rates"}, Answer: "£42", Type: "restricted",
		Groups: []string{"partner:brook-street"}, Forbidden: []string{"ptn-calder-rates", "int-parts-cost"},
	}}
	if !reflect.DeepEqual(qs, want) {
		t.Errorf("ReadQuestions = %+v, want %+v", qs, want)
	}
	if got := qs[0].Leaked([]string{"ptn-brook-rates", "int-parts-cost", "int-parts-cost"}); !reflect.DeepEqual(got, []string{"int-parts-cost"}) {
		t.Errorf("Leaked = %v, want [int-parts-cost]", got)
	}
	known := func(id string) bool { return id != "int-parts-cost" }
	if err := CheckQuestionDocs(qs, known); err == nil || !strings.Contains(err.Error(), "question r1: unknown document ids int-parts-cost") {
		t.Errorf("CheckQuestionDocs = %v, want an error naming int-parts-cost", err)
	}
}

func TestReadQuestionsErrors(t *testing.T) {
	const ok = `"question": "q", "relevant": ["d"], "answer": "a", "type": "t"`
	tests := []struct{ name, in, want string }{
		{"no id", `{` + ok + `}`, "q.jsonl:1: field id: missing or empty"},
		{"no relevant", `{"id": "1", "question": "q", "answer": "a", "type": "t"}`, "field relevant: missing (use []"},
		{"no answer", `{"id": "1", "question": "q", "relevant": [], "type": "t"}`, "field answer: missing"},
		{"empty answer with relevant", `{"id": "1", "question": "q", "relevant": ["d"], "answer": "", "type": "t"}`, "field answer: empty, but the question has relevant documents"},
		{"misspelt forbidden", `{"id": "1", ` + ok + `, "forbiden": ["x"]}`, "field forbiden: unknown field"},
		{"relevant and forbidden", `{"id": "1", ` + ok + `, "forbidden": ["d"]}`, `field forbidden: "d" is also relevant`},
		{"empty group", `{"id": "1", ` + ok + `, "groups": [""]}`, "field groups: contains an empty or repeated group"},
		{"duplicate id", `{"id": "1", ` + ok + "}\n" + `{"id": "1", ` + ok + `}`, `q.jsonl:2: field id: duplicate id "1"`},
		{"groups not a list", `{"id": "1", ` + ok + `, "groups": "staff"}`, "field groups: want []string, got JSON string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadQuestions(strings.NewReader(tc.in), "q.jsonl")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadQuestions(%q) = %v, want error containing %q", tc.in, err, tc.want)
			}
		})
	}
}

func TestUnknownDocs(t *testing.T) {
	q := Qrels{"q1": {"a": 1, "b": 0}, "q2": {"c": 1}}
	got := UnknownDocs(q, func(id string) bool { return id == "a" })
	if !reflect.DeepEqual(got, []string{"b", "c"}) {
		t.Errorf("UnknownDocs = %v, want [b c]", got)
	}
}

// TestBEIRQuestions: each judged query becomes a question asked as
// written, relevant to the documents judged 1 or more.
func TestBEIRQuestions(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"corpus.jsonl":  tinyCorpus + `{"_id": "d2", "title": "t", "text": "y"}` + "\n" + `{"_id": "d3", "title": "t", "text": "z"}` + "\n",
		"queries.jsonl": `{"_id": "q1", "text": "first"}` + "\n" + `{"_id": "q2", "text": "unjudged"}` + "\n",
		"qrels.tsv":     "query-id\tcorpus-id\tscore\nq1\td2\t1\nq1\td1\t2\nq1\td3\t0\n",
	})
	d, err := LoadBEIR(dir, SplitTest)
	if err != nil {
		t.Fatal(err)
	}
	want := []Question{{ID: "q1", Question: "first", Relevant: []string{"d1", "d2"}, Type: BEIRType, Groups: []string{"public"}}}
	if got := BEIRQuestions(d); !reflect.DeepEqual(got, want) {
		t.Errorf("BEIRQuestions = %+v, want %+v", got, want)
	}
}
