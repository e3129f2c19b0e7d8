package embed

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sort"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/assay-rag/assay/internal/errs"
)

// OpenAIConfig configures an OpenAI-compatible embeddings client.
type OpenAIConfig struct {
	// BaseURL is the API root, e.g. http://localhost:11434/v1.
	BaseURL string
	// APIKey is sent as a bearer token; local servers often need none.
	APIKey string
	// Model is the embedding model name.
	Model string
	// Dim is the vector length the model returns. It is required: the
	// index records it, and every reply is checked against it.
	Dim int
	// BatchSize is how many texts go in one request (default 64).
	BatchSize int
	// MaxRetries is how many times a failed batch is retried on 429, 5xx,
	// timeouts and connection errors (default 3); other 4xx are not retried.
	MaxRetries int
	// Backoff is the first retry's wait, doubled each retry, with jitter
	// (default 500ms).
	Backoff time.Duration
	// Timeout bounds one request (default 60s).
	Timeout time.Duration
	// HTTPClient overrides the transport (tests, proxies).
	HTTPClient *http.Client
}

// OpenAI embeds texts through an OpenAI-compatible /v1/embeddings endpoint.
// Safe for concurrent use.
type OpenAI struct {
	cfg    OpenAIConfig
	client *openai.Client
}

// NewOpenAI checks cfg and returns a client. Errors name the field.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	const op = "embed.NewOpenAI"
	switch {
	case cfg.BaseURL == "" || !(strings.HasPrefix(cfg.BaseURL, "http://") || strings.HasPrefix(cfg.BaseURL, "https://")):
		return nil, errs.FieldError(op, "base_url", fmt.Sprintf("want an http(s) URL, got %q", cfg.BaseURL))
	case strings.TrimSpace(cfg.Model) == "":
		return nil, errs.FieldError(op, "model", "must not be empty")
	case cfg.Dim < 1:
		return nil, errs.FieldError(op, "dim", fmt.Sprintf("want the model's vector length (>= 1), got %d", cfg.Dim))
	case cfg.BatchSize < 0 || cfg.MaxRetries < 0 || cfg.Backoff < 0 || cfg.Timeout < 0:
		return nil, errs.FieldError(op, "batch_size", "batch size, retries, backoff and timeout must not be negative")
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = 64
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = 3
	}
	if cfg.Backoff == 0 {
		cfg.Backoff = 500 * time.Millisecond
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 60 * time.Second
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.HTTPClient != nil {
		oc.HTTPClient = cfg.HTTPClient
	}
	return &OpenAI{cfg: cfg, client: openai.NewClientWithConfig(oc)}, nil
}

// ID names the model, e.g. "openai:nomic-embed-text".
func (o *OpenAI) ID() string { return "openai:" + o.cfg.Model }

// Dim is the configured vector length.
func (o *OpenAI) Dim() int { return o.cfg.Dim }

// Embed returns one vector per text, in order, batching requests. A reply
// with the wrong number of vectors or a vector of the wrong length is an
// errs.Schema error; it is not retried.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += o.cfg.BatchSize {
		batch := texts[start:min(start+o.cfg.BatchSize, len(texts))]
		vecs, err := o.embedBatch(ctx, batch)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (o *OpenAI) embedBatch(ctx context.Context, batch []string) ([][]float32, error) {
	const op = "embed.OpenAI"
	// Servers reject empty inputs; a space embeds as "nothing".
	in := make([]string, len(batch))
	for i, t := range batch {
		if strings.TrimSpace(t) == "" {
			t = " "
		}
		in[i] = t
	}
	var lastErr error
	for attempt := 0; attempt <= o.cfg.MaxRetries; attempt++ {
		if attempt > 0 {
			wait := o.cfg.Backoff << (attempt - 1)
			wait += time.Duration(rand.Int64N(int64(wait)/2 + 1))
			select {
			case <-ctx.Done():
				return nil, errs.E(op, errs.Timeout, fmt.Errorf("%w (last error: %v)", ctx.Err(), lastErr))
			case <-time.After(wait):
			}
		}
		cctx, cancel := context.WithTimeout(ctx, o.cfg.Timeout)
		resp, err := o.client.CreateEmbeddings(cctx, openai.EmbeddingRequestStrings{
			Input: in, Model: openai.EmbeddingModel(o.cfg.Model),
		})
		cancel()
		if err == nil {
			return o.check(resp, len(batch))
		}
		lastErr = classify(op, err)
		if ctx.Err() != nil {
			return nil, errs.E(op, errs.Timeout, ctx.Err())
		}
		if !errs.KindOf(lastErr).Retryable() {
			return nil, lastErr
		}
	}
	return nil, lastErr
}

// check validates a reply: one vector per input, each of the configured
// length, put back in input order.
func (o *OpenAI) check(resp openai.EmbeddingResponse, n int) ([][]float32, error) {
	const op = "embed.OpenAI"
	if len(resp.Data) != n {
		return nil, errs.Errorf(op, errs.Schema, "asked for %d embeddings, got %d", n, len(resp.Data))
	}
	data := append([]openai.Embedding(nil), resp.Data...)
	sort.SliceStable(data, func(i, j int) bool { return data[i].Index < data[j].Index })
	out := make([][]float32, n)
	for i, d := range data {
		if d.Index != i {
			return nil, errs.Errorf(op, errs.Schema, "reply indexes are not 0..%d", n-1)
		}
		if len(d.Embedding) != o.cfg.Dim {
			return nil, errs.Errorf(op, errs.Schema, "model %s returned a %d-dimensional vector, configured dim is %d",
				o.cfg.Model, len(d.Embedding), o.cfg.Dim)
		}
		out[i] = d.Embedding
	}
	return out, nil
}

// classify gives a client error its domain kind.
func classify(op string, err error) error {
	status := 0
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		status = apiErr.HTTPStatusCode
	case errors.As(err, &reqErr):
		status = reqErr.HTTPStatusCode
	case errors.Is(err, context.DeadlineExceeded):
		return errs.E(op, errs.Timeout, err)
	default:
		return errs.E(op, errs.Unavailable, err) // connection refused, reset, malformed body
	}
	switch {
	case status == http.StatusTooManyRequests:
		return errs.E(op, errs.RateLimited, err)
	case status == http.StatusUnauthorized:
		return errs.E(op, errs.Unauthorized, err)
	case status == http.StatusForbidden:
		return errs.E(op, errs.Forbidden, err)
	case status == http.StatusNotFound:
		return errs.E(op, errs.NotFound, err)
	case status == http.StatusRequestTimeout:
		return errs.E(op, errs.Timeout, err)
	case status >= 500:
		return errs.E(op, errs.Unavailable, err)
	case status >= 400:
		return errs.E(op, errs.Invalid, err)
	}
	return errs.E(op, errs.Unavailable, err)
}
