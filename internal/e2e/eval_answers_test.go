package e2e

import (
	"bufio"
	"github.com/assay-rag/assay/internal/devserver/devservertest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/cli/clitest"
	"github.com/assay-rag/assay/internal/judge"
	"github.com/assay-rag/assay/internal/wire"
)

// evalQuestions writes the questions of testdata/eval/hollin.jsonl with
// the given ids to a file of their own, so a test runs a handful.
func evalQuestions(t *testing.T, ids ...string) string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "eval", "hollin.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		for _, id := range ids {
			if strings.HasPrefix(sc.Text(), `{"id": "`+id+`"`) {
				lines = append(lines, sc.Text())
			}
		}
	}
	if len(lines) != len(ids) {
		t.Fatalf("found %d of the questions %v", len(lines), ids)
	}
	path := filepath.Join(t.TempDir(), "questions.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The questions the end-to-end tests run: an answered public question, a
// paraphrase the builtin assessor does not accept, a no-answer question,
// a partner asking about its own rates (only its principal can see them)
// and the restricted question asked as staff.
var e2eEvalIDs = []string{"q02", "q07", "q34", "p01", "q15"}

// checkEvalReport checks what any healthy run of e2eEvalIDs must show.
func checkEvalReport(t *testing.T, rep judge.AnswersReport) {
	t.Helper()
	if rep.Schema != judge.AnswersSchema || len(rep.Questions) != len(e2eEvalIDs) {
		t.Fatalf("report schema %q with %d questions; want %s with %d", rep.Schema, len(rep.Questions), judge.AnswersSchema, len(e2eEvalIDs))
	}
	byID := map[string]judge.QuestionEval{}
	for _, q := range rep.Questions {
		byID[q.ID] = q
	}
	// p01's and q15's documents are visible only to their principals:
	// citing them shows each question ran as its own principal, not as
	// the batch's (public).
	for _, id := range []string{"q02", "p01", "q15"} {
		q := byID[id]
		for name, r := range map[string]judge.RunEval{"loop": q.Loop, "one-pass": q.OnePass} {
			if r.Outcome != judge.OK || !r.CitedRelevant || r.KeyFacts == nil || !*r.KeyFacts {
				t.Errorf("%s %s: outcome %s (%s), cited %v; want ok citing %v with the key facts", id, name, r.Outcome, r.Detail, r.Cited, q.Relevant)
			}
		}
	}
	if q := byID["q34"]; q.Loop.Outcome != judge.OK || q.Loop.Answered() {
		t.Errorf("q34 (no answer): loop %s/%s; want ok, not answered", q.Loop.Outcome, q.Loop.StopReason)
	}
	if q := byID["q07"]; q.Loop.Outcome == judge.OK || q.Loop.Detail == "" {
		t.Errorf("q07: loop outcome %s with detail %q; want a diagnosed miss", q.Loop.Outcome, q.Loop.Detail)
	}
	o := rep.Overall
	if o.Loop.ForbiddenLeaks != 0 || o.OnePass.ForbiddenLeaks != 0 {
		t.Errorf("forbidden leaks: loop %d, one-pass %d; want 0", o.Loop.ForbiddenLeaks, o.OnePass.ForbiddenLeaks)
	}
	if rep.Settings.OnePassMaxAttempts != 1 || o.OnePass.Trajectory.SearchCalls != len(e2eEvalIDs) {
		t.Errorf("one-pass: %d attempts allowed, %d searches over %d questions; want 1 each", rep.Settings.OnePassMaxAttempts, o.OnePass.Trajectory.SearchCalls, len(e2eEvalIDs))
	}
	if o.Loop.StopReasons[wire.Answered] != 3 || o.Loop.LatencyP50MS <= 0 {
		t.Errorf("loop: stops %v, p50 %v ms; want 3 answered and a latency", o.Loop.StopReasons, o.Loop.LatencyP50MS)
	}
}

// TestEvalAnswersEmbedded runs `assay eval answers` the way `make eval`
// does, with no Temporal running: it must start its own temporary stack,
// run both batches, write the three reports and stop the stack.
func TestEvalAnswersEmbedded(t *testing.T) {
	bin := devservertest.Binary(t)
	out := t.TempDir()
	stdout, stderr, err := clitest.Eval(t, "answers", "--quiet",
		"--questions", evalQuestions(t, e2eEvalIDs...),
		"--key-facts", filepath.Join("..", "..", "testdata", "hollin", "key_facts.jsonl"),
		"--corpus", filepath.Join("..", "..", "testdata", "hollin", "corpus.jsonl"),
		"--temporal-bin", bin,
		"--json", filepath.Join(out, "r.json"), "--html", filepath.Join(out, "html", "r.html"), "--md", filepath.Join(out, "r.md"))
	if err != nil {
		t.Fatalf("eval answers: %v\nstderr:\n%s", err, stderr)
	}
	rep, err := judge.LoadAnswersReport(filepath.Join(out, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	checkEvalReport(t, rep)
	html, err := os.ReadFile(filepath.Join(out, "html", "r.html"))
	if err != nil || strings.Count(string(html), "<svg ") != 4 {
		t.Errorf("HTML report: %v, %d charts; want 4", err, strings.Count(string(html), "<svg "))
	}
	md, err := os.ReadFile(filepath.Join(out, "r.md"))
	if err != nil || !strings.Contains(string(md), "| right source cited |") {
		t.Errorf("Markdown report: %v\n%s", err, md)
	}
	if !strings.Contains(stdout, "forbidden leaks") || !strings.Contains(stderr, "embedded stack") {
		t.Errorf("stdout lacks the summary or stderr the stack line:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}

	// The same run against its own report as the baseline passes; against a
	// baseline it falls short of, it fails naming the metric.
	base := rep
	base.Overall.Loop.RightSourceCited.Rate = 1.5
	basePath := filepath.Join(out, "base.json")
	writeReport(t, basePath, base)
	stdout, stderr, err = clitest.Eval(t, "answers", "--quiet", "--questions", evalQuestions(t, e2eEvalIDs...),
		"--key-facts", filepath.Join("..", "..", "testdata", "hollin", "key_facts.jsonl"),
		"--corpus", filepath.Join("..", "..", "testdata", "hollin", "corpus.jsonl"),
		"--temporal-bin", bin, "--baseline", basePath)
	if err == nil || !strings.Contains(stdout, "loop right_source_cited") {
		t.Errorf("a run below the baseline: err %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
}

// TestEvalAnswersExternal runs the evaluation against a running `assay
// dev` (--temporal-address): its worker and index answer, and the
// evaluator opens that index to tell extraction failures.
func TestEvalAnswersExternal(t *testing.T) {
	s := startDev(t, t.TempDir())
	jsonPath := filepath.Join(t.TempDir(), "r.json")
	_, stderr, err := clitest.Eval(t, "answers", "--quiet",
		"--questions", evalQuestions(t, e2eEvalIDs...),
		"--key-facts", filepath.Join("..", "..", "testdata", "hollin", "key_facts.jsonl"),
		"--corpus", filepath.Join("..", "..", "testdata", "hollin", "corpus.jsonl"),
		"--temporal-address", s.TemporalAddr, "--index", filepath.Join(s.DataDir, "index"),
		"--json", jsonPath)
	if err != nil {
		t.Fatalf("eval answers --temporal-address: %v\nstderr:\n%s", err, stderr)
	}
	rep, err := judge.LoadAnswersReport(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	checkEvalReport(t, rep)
	if strings.Contains(stderr, "embedded stack") {
		t.Errorf("with --temporal-address it started its own stack:\n%s", stderr)
	}
}

func TestEvalAnswersUsage(t *testing.T) {
	qs := evalQuestions(t, "q02")
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"id":"x","question":"E4","relevant":["no-such-doc"],"answer":"a","type":"code"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	corpusFlag := []string{"--corpus", filepath.Join("..", "..", "testdata", "hollin", "corpus.jsonl")}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no questions", nil, "--questions or --beir is required"},
		{"questions and beir", []string{"--questions", qs, "--beir", "/tmp/x"}, "give one"},
		{"beir with key facts", []string{"--beir", "/tmp/x", "--key-facts", bad}, "--key-facts is for --questions"},
		{"beir without a dataset", []string{"--beir", t.TempDir()}, "no corpus.jsonl"},
		{"bad tolerance", []string{"--questions", qs, "--tolerance", "2"}, "--tolerance"},
		{"bad attempts", []string{"--questions", qs, "--max-attempts", "11"}, "--max-attempts"},
		{"index without address", []string{"--questions", qs, "--index", "/tmp/x"}, "--index is for --temporal-address"},
		{"missing baseline", []string{"--questions", qs, "--baseline", "/nonexistent/base.json"}, "baseline"},
		{"unknown document", append([]string{"--questions", bad}, corpusFlag...), "no-such-doc"},
		{"bad key facts", append([]string{"--questions", qs, "--key-facts", bad}, corpusFlag...), "bad.jsonl:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := clitest.Eval(t, append([]string{"answers"}, tt.args...)...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("eval answers %v: error %v, want one containing %q", tt.args, err, tt.want)
			}
		})
	}
}

// writeReport writes rep as JSON to path.
func writeReport(t *testing.T, path string, rep judge.AnswersReport) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
