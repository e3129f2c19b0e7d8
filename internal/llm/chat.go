package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/assay-rag/assay/internal/errs"
)

// Chat sends one chat completion and waits for the whole reply.
//
// Errors are *errs.Error: Invalid for a bad request (named field) or a 4xx
// the server gave; Unauthorized, Forbidden, NotFound (unknown model);
// Unsupported when the endpoint cannot do what was asked (response format,
// context length, a parameter the model rejects); RateLimited, Unavailable
// and Timeout after the retries ran out.
func (c *Client) Chat(ctx context.Context, req Request) (Reply, error) {
	const op = "llm.Chat"
	if err := req.Validate(); err != nil {
		return Reply{}, err
	}
	oreq := c.toOpenAI(req)
	var resp openai.ChatCompletionResponse
	attempts, err := c.retry(ctx, op, func(ctx context.Context) error {
		var err error
		resp, err = c.api.CreateChatCompletion(ctx, oreq)
		if err == nil && len(resp.Choices) == 0 {
			err = errs.E(op, errs.Unavailable, errors.New("the endpoint replied with no choices"))
		}
		return err
	})
	if err != nil {
		return Reply{Model: req.Model, Attempts: attempts}, err
	}
	choice := resp.Choices[0]
	r := Reply{
		Text:         choice.Message.Content,
		Model:        req.Model,
		ServedBy:     resp.Model,
		FinishReason: string(choice.FinishReason),
		Usage:        usage(&resp.Usage),
		Attempts:     attempts,
	}
	c.price(&r)
	return r, nil
}

// Stream sends one chat completion and calls onToken with each piece of
// content as it arrives, so a caller can forward tokens (server-sent
// events) before the reply is complete. It returns the whole reply, as
// Chat does.
//
// A stream is retried only while it has delivered nothing: once onToken
// has seen a piece, a failure (a dropped connection, a stream that ends
// without a finish reason) is returned as errs.Unavailable and the caller
// must discard what it forwarded. An error from onToken stops the stream
// and is returned as is.
func (c *Client) Stream(ctx context.Context, req Request, onToken func(string) error) (Reply, error) {
	const op = "llm.Stream"
	if err := req.Validate(); err != nil {
		return Reply{}, err
	}
	if onToken == nil {
		onToken = func(string) error { return nil }
	}
	oreq := c.toOpenAI(req)
	oreq.Stream = true
	oreq.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	var r Reply
	attempts, err := c.retry(ctx, op, func(ctx context.Context) error {
		r = Reply{Model: req.Model}
		return c.streamOnce(ctx, op, oreq, &r, onToken)
	})
	r.Attempts = attempts
	if err != nil {
		return r, err
	}
	c.price(&r)
	return r, nil
}

// streamOnce runs one streamed call into r.
func (c *Client) streamOnce(ctx context.Context, op string, oreq openai.ChatCompletionRequest, r *Reply, onToken func(string) error) error {
	stream, err := c.api.CreateChatCompletionStream(ctx, oreq)
	if err != nil {
		return err
	}
	defer stream.Close()
	var b strings.Builder
	pieces := 0
	// Once a piece has been forwarded, a retry would send the caller a
	// second copy: every later failure is final.
	fail := func(err error) error {
		if pieces == 0 {
			return err
		}
		kind := errs.Unavailable
		if errors.Is(err, context.DeadlineExceeded) {
			kind = errs.Timeout
		}
		return final{errs.E(op, kind, fmt.Errorf("stream failed after %d pieces: %w", pieces, err))}
	}
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if ctx.Err() != nil {
				err = ctx.Err()
			}
			return fail(err)
		}
		if chunk.Model != "" {
			r.ServedBy = chunk.Model
		}
		if chunk.Usage != nil {
			r.Usage = usage(chunk.Usage)
		}
		for _, ch := range chunk.Choices {
			if ch.FinishReason != "" {
				r.FinishReason = string(ch.FinishReason)
			}
			if ch.Delta.Content == "" {
				continue
			}
			b.WriteString(ch.Delta.Content)
			pieces++
			r.Text = b.String()
			if err := onToken(ch.Delta.Content); err != nil {
				return final{err}
			}
		}
	}
	r.Text = b.String()
	if r.FinishReason == "" {
		// go-openai reports a connection closed between events as a clean
		// end; without a finish reason the reply is incomplete.
		return fail(errs.E(op, errs.Unavailable, fmt.Errorf("stream ended without a finish reason after %d pieces (%d bytes): the reply is incomplete", pieces, b.Len())))
	}
	return nil
}

func (c *Client) toOpenAI(req Request) openai.ChatCompletionRequest {
	o := openai.ChatCompletionRequest{Model: req.Model, MaxTokens: req.MaxTokens}
	for _, m := range req.Messages {
		o.Messages = append(o.Messages, openai.ChatCompletionMessage{Role: m.Role, Content: m.Content})
	}
	if t := req.Temperature; t != nil {
		o.Temperature = float32(*t)
		if o.Temperature == 0 {
			// go-openai drops a zero temperature (omitempty), which leaves
			// the server's default (often 1); the smallest positive float
			// is 0 to every server.
			o.Temperature = math.SmallestNonzeroFloat32
		}
	}
	if s := req.Schema; s != nil {
		o.ResponseFormat = &openai.ChatCompletionResponseFormat{
			Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
				Name: s.Name, Schema: s.Schema, Strict: s.Strict,
			},
		}
	}
	return o
}

func usage(u *openai.Usage) Usage {
	if u == nil || (u.PromptTokens == 0 && u.CompletionTokens == 0 && u.TotalTokens == 0) {
		return Usage{}
	}
	return Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, Reported: true}
}

func (c *Client) price(r *Reply) {
	r.CostUSD, r.Priced = c.cfg.Prices.Cost(r.Model, r.Usage)
}
