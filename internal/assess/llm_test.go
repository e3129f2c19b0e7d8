package assess

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/llm"
	"github.com/assay-rag/assay/internal/llm/llmtest"
	"github.com/assay-rag/assay/internal/prompt"
)

func newLLMAssessor(t *testing.T, srv *llmtest.Server) *LLM {
	t.Helper()
	c, err := llm.New(llm.Config{BaseURL: srv.URL(), MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := prompt.NewTokenizer()
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewLLM(c, tok, "small-m", 2000)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var warrantyRequest = Request{
	Question: "how many years is the X300 Pro motor covered for",
	Query:    "how many years is the X300 Pro motor covered for",
	Evidence: hollinLike[:2],
}

func TestLLMAssess(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(llmtest.Reply(`{"score":0.9,"sufficient":true,"rewrite":"","reason":"source 1 states 5 years"}`, 300, 20))
	res, err := newLLMAssessor(t, srv).Assess(context.Background(), warrantyRequest)
	if err != nil {
		t.Fatal(err)
	}
	want := Assessment{Score: 0.9, Sufficient: true, Reason: "source 1 states 5 years"}
	if res.Assessment != want || res.Usage.TokensIn != 300 || res.Usage.TokensOut != 20 || res.Usage.Model != "small-m" {
		t.Errorf("Assess = %+v, want %+v with 300/20 tokens on small-m", res, want)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if strings.Contains(r.System(), "X300") || !strings.Contains(r.User(), `<source id="1" title="Warranty terms (2026)">`) {
		t.Errorf("request data is in the wrong message:\nsystem: %s\nuser: %s", r.System(), r.User())
	}
	rf := r.Chat.ResponseFormat
	if rf == nil || rf.JSONSchema == nil || rf.JSONSchema.Name != SchemaName {
		t.Fatalf("response_format = %+v, want the assessment JSON schema", rf)
	}
	sent, _ := json.Marshal(rf.JSONSchema.Schema)
	if !strings.Contains(string(sent), `"sufficient"`) {
		t.Errorf("schema sent = %s", sent)
	}
}

func TestLLMAssessRepairsOnce(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(
		llmtest.Reply(`{"score":"high","sufficient":true}`, 300, 10),
		llmtest.Reply(`{"score":0.8,"sufficient":true,"rewrite":"","reason":"fixed"}`, 350, 15),
	)
	res, err := newLLMAssessor(t, srv).Assess(context.Background(), warrantyRequest)
	if err != nil {
		t.Fatal(err)
	}
	if res.Assessment.Reason != "fixed" || res.Usage.TokensIn != 650 || res.Usage.TokensOut != 25 {
		t.Errorf("Assess = %+v; want the repaired reply and both calls' tokens", res)
	}
	repair := srv.Requests()[1]
	last := repair.Chat.Messages[len(repair.Chat.Messages)-1].Content
	if !strings.Contains(last, "/score") || !strings.Contains(last, "invalid") {
		t.Errorf("repair request does not quote the validation error: %q", last)
	}
}

func TestLLMAssessSchemaFailure(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(llmtest.Reply(`not json`, 300, 10), llmtest.Reply(`{"score":2,"sufficient":true,"rewrite":"","reason":"r"}`, 300, 10))
	_, err := newLLMAssessor(t, srv).Assess(context.Background(), warrantyRequest)
	if errs.KindOf(err) != errs.Schema || !strings.Contains(err.Error(), "after one repair") {
		t.Fatalf("err = %v, want a schema error after one repair", err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2 (one repair, no more)", n)
	}
}

func TestLLMAssessEndpointErrorIsTyped(t *testing.T) {
	srv := llmtest.New(t)
	srv.Enqueue(llmtest.Status(401, "bad key"))
	_, err := newLLMAssessor(t, srv).Assess(context.Background(), warrantyRequest)
	if errs.KindOf(err) != errs.Unauthorized {
		t.Fatalf("err = %v (kind %s), want unauthorized", err, errs.KindOf(err))
	}
}
