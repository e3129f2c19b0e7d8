package embed

import (
	"context"
	"fmt"
	"strings"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/llm"
)

// OpenAIConfig configures an OpenAI-compatible embeddings embedder.
type OpenAIConfig struct {
	// Client talks to the endpoint: its retries (429 with Retry-After, 5xx,
	// timeouts; never other 4xx), timeout and error kinds apply.
	Client *llm.Client
	// Model is the embedding model name.
	Model string
	// Dim is the vector length the model returns. It is required: the
	// index records it, and every reply is checked against it.
	Dim int
	// BatchSize is how many texts go in one request (default 64).
	BatchSize int
}

// OpenAI embeds texts through an OpenAI-compatible /v1/embeddings endpoint.
// Safe for concurrent use.
type OpenAI struct {
	cfg OpenAIConfig
}

// NewOpenAI checks cfg and returns the embedder. Errors name the field.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	const op = "embed.NewOpenAI"
	switch {
	case cfg.Client == nil:
		return nil, errs.FieldError(op, "client", "must not be nil")
	case strings.TrimSpace(cfg.Model) == "":
		return nil, errs.FieldError(op, "model", "must not be empty")
	case cfg.Dim < 1:
		return nil, errs.FieldError(op, "dim", fmt.Sprintf("want the model's vector length (>= 1), got %d", cfg.Dim))
	case cfg.BatchSize < 0:
		return nil, errs.FieldError(op, "batch_size", "must not be negative")
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = 64
	}
	return &OpenAI{cfg: cfg}, nil
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
	vecs, err := o.cfg.Client.Embeddings(ctx, o.cfg.Model, batch)
	if err != nil {
		return nil, err
	}
	for _, v := range vecs {
		if len(v) != o.cfg.Dim {
			return nil, errs.Errorf("embed.OpenAI", errs.Schema, "model %s returned a %d-dimensional vector, configured dim is %d",
				o.cfg.Model, len(v), o.cfg.Dim)
		}
	}
	return vecs, nil
}
