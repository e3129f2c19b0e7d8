package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/llm/llmtest"
	"github.com/assay-rag/assay/internal/wire"
)

// chatClient is go-openai pointed at the stack, as an SDK user would:
// only the base URL and key changed.
func (s *devStack) chatClient() *openai.Client {
	cfg := openai.DefaultConfig("any-key") // assay dev serves anonymous callers
	cfg.BaseURL = s.URL + "/v1"
	return openai.NewClientWithConfig(cfg)
}

// chat posts a chat request and decodes the completion with assay's
// extensions.
func (s *devStack) chat(t *testing.T, ctx context.Context, messages ...openai.ChatCompletionMessage) api.ChatCompletion {
	t.Helper()
	b, err := json.Marshal(openai.ChatCompletionRequest{Model: "gpt-4o-mini", Messages: messages})
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/v1/chat/completions", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /v1/chat/completions = %d %s", resp.StatusCode, body)
	}
	var cc api.ChatCompletion
	if err := json.Unmarshal(body, &cc); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return cc
}

func user(s string) openai.ChatCompletionMessage {
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: s}
}

// TestEndToEndChat: on the embedded default (builtin models, a real
// Temporal), an OpenAI SDK gets a grounded answer with its sources,
// streamed or not, and a follow-up is answered as the standalone question
// the builtin carry-over made of it, recorded in the run's trace.
func TestEndToEndChat(t *testing.T) {
	s := startDev(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c := s.chatClient()
	const question = "how many years is the X300 Pro motor covered for"

	first := s.chat(t, ctx, user(question))
	m := first.Choices[0].Message
	if !strings.Contains(m.Content, "5 years") || !strings.Contains(m.Content, "[1]") || first.Choices[0].FinishReason != "stop" ||
		len(m.Citations) == 0 || m.Citations[0].DocID != "pol-warranty-2026" || first.Assay.StopReason != wire.Answered {
		t.Fatalf("first answer = %+v %+v", m, first.Assay)
	}

	stream, err := c.CreateChatCompletionStream(ctx, openai.ChatCompletionRequest{Model: "gpt-4o-mini", Messages: []openai.ChatCompletionMessage{user(question)}})
	if err != nil {
		t.Fatal(err)
	}
	var content strings.Builder
	var finish openai.FinishReason
	for {
		ch, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("Recv: %v", err)
		}
		if len(ch.Choices) == 1 {
			content.WriteString(ch.Choices[0].Delta.Content)
			if ch.Choices[0].FinishReason != "" {
				finish = ch.Choices[0].FinishReason
			}
		}
	}
	stream.Close()
	if content.String() != m.Content || finish != openai.FinishReasonStop {
		t.Errorf("streamed %q (finish %q), want the same answer as without streaming: %q", content.String(), finish, m.Content)
	}

	resp, err := c.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Model: "gpt-4o-mini", Messages: []openai.ChatCompletionMessage{
		user(question), {Role: openai.ChatMessageRoleAssistant, Content: m.Content}, user("and for the X200?"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Choices[0].Message.Content; !strings.Contains(got, "5 years") {
		t.Errorf("follow-up answer %q, want the X200's motor warranty", got)
	}
	id := strings.TrimPrefix(resp.ID, "chatcmpl-")
	tr, err := s.client().Trace(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	const standalone = "how many years is the X200 motor covered for"
	if tr.Question != "and for the X200?" || tr.Condensed == nil || tr.Condensed.Question != standalone ||
		tr.Condensed.Model != assess.CarryOverModel || tr.Attempts[0].Query != standalone {
		t.Errorf("follow-up trace: question %q, condensed %+v, first query %q, warnings %v; want %q by the carry-over", tr.Question, tr.Condensed, tr.Attempts[0].Query, tr.Warnings, standalone)
	}

	none := s.chat(t, ctx, user("what is the capital of Peru"))
	if !strings.Contains(none.Choices[0].Message.Content, "could not find") || none.Assay.StopReason != wire.InsufficientContext {
		t.Errorf("not found = %+v %+v", none.Choices[0].Message, none.Assay)
	}
}

// TestEndToEndChatCondensePrompt: with a chat model configured, the
// follow-up is condensed by the model through the condense prompt (which
// carries the conversation), and the run answers the model's question.
func TestEndToEndChatCondensePrompt(t *testing.T) {
	srv := llmtest.New(t)
	s := startDevWithModel(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	const standalone = "How many years is the X200 motor covered for?"
	srv.Enqueue(llmtest.Reply(standalone, 120, 12), assessment(0.9, true, ""),
		llmtest.Reply("Blender motors on the X200 and X300 Pro are covered for 5 years [1].", 500, 20))
	cc := s.chat(t, ctx, user("how many years is the X300 Pro motor covered for"),
		openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: "5 years [1]."}, user("and for the X200?"))
	if !strings.Contains(cc.Choices[0].Message.Content, "5 years") || cc.Assay.Question != standalone || cc.Assay.Model != "small-m" {
		t.Fatalf("answer %q, assay %+v", cc.Choices[0].Message.Content, cc.Assay)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 || reqs[0].Chat == nil {
		t.Fatal("the model got no condense request")
	}
	prompt := reqs[0].Chat.Messages[1].Content
	if !strings.Contains(prompt, `<turn role="user">how many years is the X300 Pro motor covered for</turn>`) ||
		!strings.Contains(prompt, "Last message: and for the X200?") {
		t.Errorf("condense prompt:\n%s", prompt)
	}
	tr, err := s.client().Trace(ctx, cc.Assay.QuestionID)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Condensed == nil || tr.Condensed.Model != "small-m" || tr.Attempts[0].Query != standalone {
		t.Errorf("trace condensed %+v, first query %q", tr.Condensed, tr.Attempts[0].Query)
	}
	if n := srv.Pending(); n != 0 {
		t.Errorf("%d scripted replies unused", n)
	}
}
