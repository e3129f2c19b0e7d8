package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/cli"
	"github.com/assay-rag/assay/internal/cli/clitest"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/e2e/stacktest"
	"github.com/assay-rag/assay/internal/wire"
)

// The API keys of the gateway end-to-end tests.
const (
	e2eKeyBrook   = "e2e-brook-street-key"
	e2eKeyCalder  = "e2e-calder-fix-key"
	e2eKeyReader  = "e2e-reader-key"
	e2eKeyLimited = "e2e-limited-key"
)

// gatewayConfig writes a config with four keys and a small batch
// continue-as-new threshold, so the 200-question batch continues as new.
func gatewayConfig(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "assay.yaml")
	body := fmt.Sprintf(`auth:
  keys:
    - name: brook-street
      sha256: %s
      groups: [public, partners, "partner:brook-street"]
    - name: calder-fix
      sha256: %s
      groups: [public, partners, "partner:calder-fix"]
    - name: reader
      sha256: %s
      groups: [public]
    - name: limited
      sha256: %s
      groups: [public]
      rate_per_minute: 2
batch:
  concurrency: 8
  continue_after: 64
`, auth.Hash(e2eKeyBrook), auth.Hash(e2eKeyCalder), auth.Hash(e2eKeyReader), auth.Hash(e2eKeyLimited))
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// httpCall is a raw request to the stack; it fails the test on a 5xx.
func httpCall(t *testing.T, method, url, key, contentType, body string, headers ...string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 500 && !strings.HasSuffix(url, "/readyz") {
		t.Errorf("%s %s = %d %s: a 5xx", method, url, resp.StatusCode, b)
	}
	return resp.StatusCode, resp.Header, b
}

// TestEndToEndGateway runs one dev stack with API keys and drives the API
// through it: bad input, rate limits, access control, SSE, idempotency,
// trace, metrics, readiness, `assay ask` and a 200-question `assay batch`.
func TestEndToEndGateway(t *testing.T) {
	dir := t.TempDir()
	cfg := gatewayConfig(t, dir)
	s := startDev(t, filepath.Join(dir, "data"), "--config", cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	t.Run("bad input", func(t *testing.T) { e2eBadInput(t, s) })
	t.Run("access control", func(t *testing.T) { e2eAccessControl(ctx, t, s) })
	t.Run("events", func(t *testing.T) { e2eEvents(ctx, t, s) })
	t.Run("idempotency and wait", func(t *testing.T) { e2eIdempotency(ctx, t, s) })
	t.Run("ask CLI", func(t *testing.T) { e2eAskCLI(ctx, t, s) })
	t.Run("batch of 200", func(t *testing.T) { e2eBatch200(ctx, t, s) })
	t.Run("metrics and readiness", func(t *testing.T) { e2eMetrics(ctx, t, s) })
	t.Run("cancel through a standalone gateway", func(t *testing.T) { e2eCancel(ctx, t, s, cfg) })
}

func e2eBadInput(t *testing.T, s *devStack) {
	big := strings.Repeat("x", 100<<10)
	tests := []struct {
		name, key, body string
		headers         []string
		status          int
		field           string
	}{
		{"missing question", e2eKeyReader, `{}`, nil, 400, "question"},
		{"100 KB question", e2eKeyReader, `{"question":"` + big + `"}`, nil, 400, "question"},
		{"question wrong type", e2eKeyReader, `{"question":42}`, nil, 400, "question"},
		{"max_attempts wrong type", e2eKeyReader, `{"question":"E4","max_attempts":"two"}`, nil, 400, "max_attempts"},
		{"filters wrong type", e2eKeyReader, `{"question":"E4","filters":[]}`, nil, 400, "filters"},
		{"unknown field", e2eKeyReader, `{"question":"E4","groups":["staff"]}`, nil, 400, "groups"},
		{"unknown nested field", e2eKeyReader, `{"question":"E4","filters":{"acl":["staff"]}}`, nil, 400, "filters.acl"},
		{"invalid JSON", e2eKeyReader, `{"question":`, nil, 400, "body"},
		{"bad UTF-8", e2eKeyReader, "{\"question\":\"\xc3\x28\"}", nil, 400, "body"},
		{"missing key", "", `{"question":"E4"}`, nil, 401, "authorization"},
		{"unknown key", "no-such-key-anywhere", `{"question":"E4"}`, nil, 401, "authorization"},
		{"malformed key", "", `{"question":"E4"}`, []string{"Authorization", "Token e2e-reader-key"}, 401, "authorization"},
		{"malformed bearer", "", `{"question":"E4"}`, []string{"Authorization", "Bearer e2e reader"}, 401, "authorization"},
	}
	for _, tt := range tests {
		status, hdr, body := httpCall(t, http.MethodPost, s.URL+"/v1/questions", tt.key, "application/json", tt.body, tt.headers...)
		var eb struct {
			Error struct{ Code, Field, Message string } `json:"error"`
		}
		_ = json.Unmarshal(body, &eb)
		if status != tt.status || eb.Error.Field != tt.field || eb.Error.Message == "" {
			t.Errorf("%s: POST = %d %.200s; want %d on field %q", tt.name, status, body, tt.status, tt.field)
		}
		if hdr.Get("X-Request-Id") == "" {
			t.Errorf("%s: no X-Request-Id", tt.name)
		}
	}
	for i := range 3 {
		status, hdr, body := httpCall(t, http.MethodPost, s.URL+"/v1/questions", e2eKeyLimited, "application/json", `{"question":"E4"}`)
		want := http.StatusAccepted
		if i == 2 {
			want = http.StatusTooManyRequests
			if hdr.Get("Retry-After") == "" {
				t.Errorf("429 without Retry-After")
			}
		}
		if status != want {
			t.Errorf("limited key request %d = %d %s, want %d", i+1, status, body, want)
		}
	}
}

// forbiddenSentences are the sentences of the documents groups may not
// see: the extractive generator copies sentences, so none may appear in
// an answer.
func forbidden(t *testing.T, groups []string) (ids []string, sentences []string) {
	t.Helper()
	docs, err := corpus.LoadJSONL("../../testdata/hollin/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		visible := false
		for _, g := range d.ACL {
			visible = visible || slices.Contains(groups, g)
		}
		if visible {
			continue
		}
		ids = append(ids, d.ID)
		for s := range strings.SplitSeq(d.Text, ". ") {
			if len(s) > 25 {
				sentences = append(sentences, strings.TrimSuffix(s, "."))
			}
		}
	}
	return ids, sentences
}

// e2eAccessControl asks the same questions under keys with different
// groups: they get different sources, and no document outside a key's
// groups appears in its answers, citations, traces or event streams.
func e2eAccessControl(ctx context.Context, t *testing.T, s *devStack) {
	keys := map[string][]string{
		e2eKeyBrook:  {"public", "partners", "partner:brook-street"},
		e2eKeyCalder: {"public", "partners", "partner:calder-fix"},
		e2eKeyReader: {"public"},
	}
	questions := []string{
		"how much does Hollin pay per hour of warranty labour and per home visit",
		"E12 returns after the seal has been reseated, what part do I replace",
		"what do spare parts cost Hollin internally",
		"case 30412 X200 stopped mid-blend",
		"how many years is the X300 Pro motor covered for",
	}
	cited := map[string]map[string][]string{} // question → key → doc ids
	for _, q := range questions {
		cited[q] = map[string][]string{}
		for key, groups := range keys {
			c := &apiclient.Client{BaseURL: s.URL, APIKey: key}
			res, err := c.Ask(ctx, api.QuestionRequest{Question: q}, 30*time.Second)
			if err != nil || res.Status != api.Completed {
				t.Fatalf("Ask(%q) as %v = %+v, %v", q, groups, res, err)
			}
			tr, err := c.Trace(ctx, res.ID)
			if err != nil {
				t.Fatal(err)
			}
			evs, err := rawEvents(ctx, s.URL, key, res.ID, "")
			if err != nil {
				t.Fatal(err)
			}
			trJSON, _ := json.Marshal(tr)
			ids, sentences := forbidden(t, groups)
			for _, c := range res.Citations {
				cited[q][key] = append(cited[q][key], c.DocID)
			}
			for _, id := range ids {
				if slices.Contains(cited[q][key], id) || bytes.Contains(trJSON, []byte(`"`+id+`"`)) || strings.Contains(evs, `"`+id+`"`) {
					t.Errorf("%q as %v: forbidden document %s is cited or in the trace or events", q, groups, id)
				}
			}
			for _, sent := range sentences {
				if strings.Contains(res.Answer, sent) || strings.Contains(evs, sent) {
					t.Errorf("%q as %v: the answer quotes a forbidden document: %q", q, groups, sent)
				}
			}
			if tr.PrincipalID == "" || tr.PrincipalID == auth.AnonymousID {
				t.Errorf("trace principal %q, want the key's", tr.PrincipalID)
			}
		}
	}
	rates := questions[0]
	if !slices.Contains(cited[rates][e2eKeyBrook], "ptn-brook-rates") {
		t.Errorf("brook-street's rates question cited %v, want ptn-brook-rates", cited[rates][e2eKeyBrook])
	}
	if slices.Equal(cited[rates][e2eKeyBrook], cited[rates][e2eKeyReader]) {
		t.Errorf("two keys with different groups got the same sources %v", cited[rates][e2eKeyBrook])
	}
	// A principal cannot read another's run.
	c := &apiclient.Client{BaseURL: s.URL, APIKey: e2eKeyBrook}
	res, err := c.Ask(ctx, api.QuestionRequest{Question: rates}, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"", "/trace", "/events"} {
		if status, _, body := httpCall(t, http.MethodGet, s.URL+"/v1/questions/"+res.ID+path, e2eKeyReader, "", ""); status != http.StatusNotFound {
			t.Errorf("reader GET brook-street's question%s = %d %.200s, want 404", path, status, body)
		}
	}
}

// rawEvents reads a question's whole event stream as text.
func rawEvents(ctx context.Context, base, key, id, lastEventID string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/questions/"+id+"/events", nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		return "", fmt.Errorf("events = %d %s", resp.StatusCode, b)
	}
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

var sseID = regexp.MustCompile(`(?m)^id: (\d+)$`)

func e2eEvents(ctx context.Context, t *testing.T, s *devStack) {
	c := &apiclient.Client{BaseURL: s.URL, APIKey: e2eKeyReader}
	id, err := c.Submit(ctx, api.QuestionRequest{Question: "my blender shows E4 what should I do"})
	if err != nil {
		t.Fatal(err)
	}
	// Subscribed right after submitting: the stream follows the run live.
	var stages []api.StageEvent
	q, err := c.Follow(ctx, id, func(st api.StageEvent) { stages = append(stages, st) })
	if err != nil {
		t.Fatal(err)
	}
	if q.Status != api.Completed || q.StopReason == "" || q.ID != id {
		t.Fatalf("result event = %+v", q)
	}
	if len(stages) < 2 || stages[0].Stage != "search" || stages[0].Attempt != 1 || stages[0].Query == "" || stages[1].Stage != "assess" {
		t.Errorf("stages %+v; want search (with its query) then assess in attempt 1", stages)
	}
	if q.StopReason == wire.Answered && stages[len(stages)-1].Stage != "generate" {
		t.Errorf("answered run's last stage %+v, want generate", stages[len(stages)-1])
	}
	got, err := c.Get(ctx, id)
	if err != nil || got.Answer != q.Answer || len(got.Citations) != len(q.Citations) {
		t.Errorf("result event differs from GET: %+v vs %+v (%v)", q, got, err)
	}

	full, err := rawEvents(ctx, s.URL, e2eKeyReader, id, "")
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, m := range sseID.FindAllStringSubmatch(full, -1) {
		n, _ := strconv.Atoi(m[1])
		ids = append(ids, n)
	}
	if len(ids) < 3 || !slices.IsSorted(ids) || !strings.Contains(full, "event: result") {
		t.Fatalf("stream ids %v not increasing or no result:\n%s", ids, full)
	}
	// Resume after the second event: exactly the events after it come again.
	rest, err := rawEvents(ctx, s.URL, e2eKeyReader, id, strconv.Itoa(ids[1]))
	if err != nil {
		t.Fatal(err)
	}
	var restIDs []int
	for _, m := range sseID.FindAllStringSubmatch(rest, -1) {
		n, _ := strconv.Atoi(m[1])
		restIDs = append(restIDs, n)
	}
	if !slices.Equal(restIDs, ids[2:]) {
		t.Errorf("resumed after %d: ids %v, want %v", ids[1], restIDs, ids[2:])
	}
	if status, _, _ := httpCall(t, http.MethodGet, s.URL+"/v1/questions/"+id+"/events", e2eKeyReader, "", "", "Last-Event-ID", "abc"); status != 400 {
		t.Errorf("bad Last-Event-ID = %d, want 400", status)
	}
	// At the result of the ended run there is nothing more: 204.
	last := strconv.Itoa(ids[len(ids)-1])
	if status, _, body := httpCall(t, http.MethodGet, s.URL+"/v1/questions/"+id+"/events", e2eKeyReader, "", "", "Last-Event-ID", last); status != http.StatusNoContent {
		t.Errorf("Last-Event-ID %s (the result) of an ended run = %d %s, want 204", last, status, body)
	}
}

func e2eIdempotency(ctx context.Context, t *testing.T, s *devStack) {
	tc, err := client.Dial(client.Options{HostPort: s.TemporalAddr, Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	c := &apiclient.Client{BaseURL: s.URL, APIKey: e2eKeyReader}
	req := api.QuestionRequest{Question: "how do I descale the kettle", IdempotencyKey: "e2e-idem-1"}
	first, err := c.Ask(ctx, req, 10*time.Second)
	if err != nil || first.Status != api.Completed || first.StopReason == "" {
		t.Fatalf("Ask ?wait=10s = %+v, %v; want the completed result", first, err)
	}
	d1, err := tc.DescribeWorkflowExecution(ctx, first.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.Submit(ctx, req)
	if err != nil || again != first.ID {
		t.Fatalf("second POST with the key = %q, %v; want %s", again, err, first.ID)
	}
	d2, err := tc.DescribeWorkflowExecution(ctx, first.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if r1, r2 := d1.GetWorkflowExecutionInfo().GetExecution().GetRunId(), d2.GetWorkflowExecutionInfo().GetExecution().GetRunId(); r1 != r2 {
		t.Errorf("the same key started a second run: %s then %s", r1, r2)
	}
	// The same key with another budget is another request: 409, read from
	// the run's memo in Temporal.
	one := 1
	lower := req
	lower.MaxAttempts = &one
	var apiErr *apiclient.APIError
	if _, err := c.Submit(ctx, lower); !errors.As(err, &apiErr) || apiErr.Status != http.StatusConflict {
		t.Errorf("same key, lower max_attempts: err = %v, want 409", err)
	}
	other, err := (&apiclient.Client{BaseURL: s.URL, APIKey: e2eKeyBrook}).Submit(ctx, req)
	if err != nil || other == first.ID {
		t.Errorf("another principal's same key = %q, %v; want a different run", other, err)
	}
	tr, err := c.Trace(ctx, first.ID)
	if err != nil || tr.RequestID != first.ID || len(tr.Attempts) == 0 || len(tr.Attempts[0].Hits) == 0 {
		t.Errorf("trace = %+v, %v; want attempts with hits", tr, err)
	}
}

func e2eAskCLI(ctx context.Context, t *testing.T, s *devStack) {
	var out, errOut bytes.Buffer
	env := func(k string) string {
		if k == "ASSAY_API_KEY" {
			return e2eKeyReader
		}
		return ""
	}
	err := cli.Run(ctx, []string{"assay", "ask", "--server", s.URL, "how many years is the X300 Pro motor covered for"}, env, &out, &errOut)
	if err != nil {
		t.Fatalf("assay ask: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(errOut.String(), "· attempt 1: search") || !strings.Contains(errOut.String(), "· attempt 1: assess") {
		t.Errorf("assay ask showed no progress on stderr:\n%s", errOut.String())
	}
	if !strings.Contains(out.String(), "5 years") || !strings.Contains(out.String(), "Stop reason: answered") {
		t.Errorf("assay ask printed:\n%s", out.String())
	}
}

// e2eBatch200 runs `assay batch` on 200 questions (the Hollin set cycled)
// under a partner key, then checks the batch through the API.
func e2eBatch200(ctx context.Context, t *testing.T, s *devStack) {
	src, err := apiclient.ReadQuestions("../../testdata/hollin/questions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "questions.jsonl")
	var b strings.Builder
	for i := range 200 {
		line, _ := json.Marshal(map[string]string{"id": fmt.Sprintf("q%03d", i), "question": src[i%len(src)].Question})
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string {
		if k == "ASSAY_API_KEY" {
			return e2eKeyBrook
		}
		return ""
	}
	var out, errOut bytes.Buffer
	start := time.Now()
	if err := cli.Run(ctx, []string{"assay", "batch", "--server", s.URL, "--poll", "100ms", in}, env, &out, &errOut); err != nil {
		t.Fatalf("assay batch: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errOut.String())
	}
	t.Logf("200-question batch took %v\n%s", time.Since(start).Round(time.Millisecond), out.String())
	id := regexp.MustCompile(`batch (\S+): 200 questions`).FindStringSubmatch(errOut.String())
	if id == nil {
		t.Fatalf("no batch id on stderr:\n%s", errOut.String())
	}
	if !regexp.MustCompile(`questions\s+200\s+done 200, failed 0`).MatchString(out.String()) || !strings.Contains(out.String(), "answered") || !strings.Contains(out.String(), "latency") {
		t.Errorf("summary table:\n%s", out.String())
	}

	f, err := os.Open(filepath.Join(dir, "questions.results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Question string `json:"question"`
			api.BatchResultItem
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		seen[line.ID] = true
		if line.Status != wire.ItemDone || line.StopReason == "" || line.Question == "" {
			t.Errorf("result %+v: want done with a stop reason and its question", line)
		}
		if line.StopReason == wire.Answered && (line.Answer == "" || len(line.Citations) == 0) {
			t.Errorf("answered result %s has no answer or citations", line.ID)
		}
	}
	if len(seen) != 200 {
		t.Errorf("%d distinct results, want one for each of 200 questions", len(seen))
	}

	c := &apiclient.Client{BaseURL: s.URL, APIKey: e2eKeyBrook}
	bat, err := c.GetBatch(ctx, id[1])
	if err != nil {
		t.Fatal(err)
	}
	// 200 questions, 64 per run: the batch continued as new three times.
	if bat.Status != api.Completed || bat.Aggregate.Done != 200 || bat.Runs != 4 {
		t.Errorf("batch = %+v; want completed, 200 done, 4 runs", bat)
	}
	page, err := c.BatchResults(ctx, id[1], "", 10)
	if err != nil || len(page.Items) != 10 || page.NextCursor == "" {
		t.Fatalf("first page = %d items, cursor %q, %v", len(page.Items), page.NextCursor, err)
	}
	// Children run as the submitter.
	tr, err := c.Trace(ctx, page.Items[0].QuestionID)
	if err != nil || tr.PrincipalID != "brook-street" {
		t.Errorf("child trace principal %q (%v), want brook-street", tr.PrincipalID, err)
	}
	if _, err := (&apiclient.Client{BaseURL: s.URL, APIKey: e2eKeyReader}).GetBatch(ctx, id[1]); err == nil {
		t.Errorf("another key read the batch")
	}
}

func e2eMetrics(ctx context.Context, t *testing.T, s *devStack) {
	tc, err := client.Dial(client.Options{HostPort: s.TemporalAddr, Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	_, _, body := httpCall(t, http.MethodGet, s.URL+"/metrics", e2eKeyReader, "", "") // a keyed gateway's /metrics needs a key
	// Every run counts once, whatever its stop: at least the batch's 200.
	total := 0
	for _, m := range regexp.MustCompile(`(?m)^assay_runs_total\{stop_reason="[a-z_]+"\} (\d+)$`).FindAllSubmatch(body, -1) {
		n, _ := strconv.Atoi(string(m[1]))
		total += n
	}
	// Visibility trails a close by up to a second (the dev server reads
	// its visibility tasks once a second, internal/devserver): poll.
	var count *workflowservice.CountWorkflowExecutionsResponse
	for range 50 {
		count, err = tc.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{
			Query: "WorkflowType = 'AnswerWorkflow' AND ExecutionStatus = 'Completed'"})
		if err != nil {
			t.Fatal(err)
		}
		if count.GetCount() >= int64(total) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if total < 200 || int64(total) != count.GetCount() {
		t.Errorf("assay_runs_total sums to %d; Temporal has %d completed answer runs (at least the batch's 200): each must count once", total, count.GetCount())
	}
	for _, want := range []string{`assay_http_requests_total{code="401",method="POST",route="/v1/questions"}`, "assay_run_duration_seconds_bucket", "assay_run_tokens_total"} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	status, _, body := httpCall(t, http.MethodGet, s.URL+"/readyz", "", "", "")
	var rd api.Readiness
	_ = json.Unmarshal(body, &rd)
	if status != 200 || rd.Checks["temporal"] != "ok" || rd.Checks["worker"] != "ok" || rd.Checks["index"] != "ok" {
		t.Errorf("readyz = %d %s", status, body)
	}
	status, _, body = httpCall(t, http.MethodGet, s.URL+"/openapi.json", "", "", "")
	if status != 200 || !bytes.Contains(body, []byte(`"openapi": "3.0.3"`)) {
		t.Errorf("openapi.json = %d", status)
	}
}

// e2eCancel runs `assay gateway` on its own, on a task queue no worker
// polls yet: readiness says so; a question and a batch are cancelled
// before they run; then `assay worker` starts and both end cancelled: the
// question with the cancelled stop reason, the batch with every question
// cancelled.
func e2eCancel(ctx context.Context, t *testing.T, s *devStack, cfg string) {
	const queue = "e2e-cancel"
	env := func(k string) string {
		if k == "ASSAY_TEMPORAL_TASK_QUEUE" {
			return queue
		}
		return ""
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", stacktest.FreePort(t))
	stderr := &syncBuffer{}
	start := func(args ...string) func() { return clitest.Start(ctx, t, env, stderr, args...) }
	defer start("assay", "gateway", "--config", cfg, "--http-addr", strings.TrimPrefix(base, "http://"), "--temporal-address", s.TemporalAddr)()
	waitGateway(t, base, stderr)
	status, _, body := httpCall(t, http.MethodGet, base+"/readyz", "", "", "")
	var rd api.Readiness
	_ = json.Unmarshal(body, &rd)
	if status != 503 || rd.Checks["temporal"] != "ok" || rd.Checks["worker"] != "fail" || strings.Contains(string(body), "e2e-cancel") {
		t.Errorf("readyz without a worker = %d %s; want 503 naming the worker check and not the task queue", status, body)
	}
	if _, ok := rd.Checks["index"]; ok {
		t.Errorf("a standalone gateway has no index, yet readyz checks one: %s", body)
	}

	c := &apiclient.Client{BaseURL: base, APIKey: e2eKeyReader}
	qid, err := c.Submit(ctx, api.QuestionRequest{Question: "how many years is the X300 Pro motor covered for"})
	if err != nil {
		t.Fatal(err)
	}
	if q, err := c.Get(ctx, qid); err != nil || q.Status != api.Running {
		t.Fatalf("question before any worker = %+v, %v; want running", q, err)
	}
	if err := c.Cancel(ctx, qid); err != nil {
		t.Fatalf("DELETE question: %v", err)
	}
	bid, err := c.SubmitBatch(ctx, api.BatchRequest{Questions: api.BatchQuestions{{Question: "E4"}, {Question: "E7"}, {Question: "E12"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.CancelBatch(ctx, bid); err != nil {
		t.Fatalf("DELETE batch: %v", err)
	}

	defer start("assay", "worker", "--config", cfg, "--temporal-address", s.TemporalAddr,
		"--index-dir", filepath.Join(t.TempDir(), "index"), "--corpus", "../../testdata/hollin/corpus.jsonl")()
	wctx, wcancel := context.WithTimeout(ctx, time.Minute)
	defer wcancel()
	q, err := c.Wait(wctx, qid, 100*time.Millisecond, nil)
	if err != nil || q.Status != api.Completed || q.StopReason != wire.Cancelled {
		t.Errorf("cancelled question = %s/%s (%v); want completed with stop reason cancelled", q.Status, q.StopReason, err)
	}
	var b api.BatchResponse
	for b.Status == "" || b.Status == api.Running {
		if b, err = c.GetBatch(wctx, bid); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if b.Status != api.Cancelled || b.Aggregate == nil || b.Aggregate.Cancelled != 3 {
		t.Errorf("cancelled batch = %+v; want cancelled with 3 questions cancelled", b)
	}
	if err := c.Cancel(ctx, qid); err == nil {
		t.Errorf("cancelling an ended question succeeded; want 409")
	}
	for {
		status, _, body = httpCall(t, http.MethodGet, base+"/readyz", "", "", "")
		if status == 200 {
			break
		}
		if wctx.Err() != nil {
			t.Fatalf("readyz with a worker = %d %s", status, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
