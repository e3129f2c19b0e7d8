// Command genclient asks one question and one chat completion through a
// client oapi-codegen generated from assay's /openapi.json (the test
// TestGeneratedClient writes client.gen.go beside it). It prints what it
// got as JSON. Environment: BASE_URL, API_KEY.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	auth := func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+os.Getenv("API_KEY"))
		return nil
	}
	c, err := NewClientWithResponses(os.Getenv("BASE_URL"), WithRequestEditorFn(auth))
	if err != nil {
		return err
	}
	wait := "5s"
	q, err := c.AskQuestionWithResponse(ctx, &AskQuestionParams{Wait: &wait}, AskQuestionJSONRequestBody{Question: "what does error E12 mean"})
	if err != nil {
		return err
	}
	if q.JSON200 == nil {
		return fmt.Errorf("askQuestion: %d %s", q.StatusCode(), q.Body)
	}
	var content ChatMessage_Content
	if err := content.FromChatMessageContent0("what does error E12 mean"); err != nil {
		return err
	}
	cc, err := c.CreateChatCompletionWithResponse(ctx, nil, CreateChatCompletionJSONRequestBody{
		Messages: []ChatMessage{{Role: ChatMessageRoleUser, Content: content}},
	})
	if err != nil {
		return err
	}
	if cc.JSON200 == nil {
		return fmt.Errorf("createChatCompletion: %d %s", cc.StatusCode(), cc.Body)
	}
	bad, err := c.AskQuestionWithResponse(ctx, nil, AskQuestionJSONRequestBody{Question: " "})
	if err != nil {
		return err
	}
	if bad.JSON400 == nil {
		return fmt.Errorf("askQuestion with a blank question: %d %s, want a typed 400", bad.StatusCode(), bad.Body)
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"question": q.JSON200,
		"chat":     cc.JSON200.Choices[0].Message,
		"invalid":  bad.JSON400,
	})
}
