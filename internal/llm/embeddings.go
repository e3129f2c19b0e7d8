package llm

import (
	"context"
	"fmt"
	"sort"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/assay-rag/assay/internal/errs"
)

// Embeddings returns one vector per text, in input order, from one
// /v1/embeddings request, with the client's retries, timeout and error
// kinds. A reply with the wrong number of vectors or indexes is an
// errs.Schema error and is not retried. Batching and dimension checks are
// the caller's (see internal/embed).
func (c *Client) Embeddings(ctx context.Context, model string, texts []string) ([][]float32, error) {
	const op = "llm.Embeddings"
	if strings.TrimSpace(model) == "" {
		return nil, errs.FieldError(op, "model", "must not be empty")
	}
	if len(texts) == 0 {
		return nil, nil
	}
	// Servers reject empty inputs; a space embeds as "nothing".
	in := make([]string, len(texts))
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			t = " "
		}
		in[i] = t
	}
	var resp openai.EmbeddingResponse
	if _, err := c.retry(ctx, op, func(ctx context.Context) error {
		var err error
		resp, err = c.api.CreateEmbeddings(ctx, openai.EmbeddingRequestStrings{Input: in, Model: openai.EmbeddingModel(model)})
		return err
	}); err != nil {
		return nil, err
	}
	if len(resp.Data) != len(texts) {
		return nil, errs.Errorf(op, errs.Schema, "asked for %d embeddings, got %d", len(texts), len(resp.Data))
	}
	data := append([]openai.Embedding(nil), resp.Data...)
	sort.SliceStable(data, func(i, j int) bool { return data[i].Index < data[j].Index })
	out := make([][]float32, len(data))
	for i, d := range data {
		if d.Index != i {
			return nil, errs.E(op, errs.Schema, fmt.Errorf("reply indexes are not 0..%d", len(texts)-1))
		}
		out[i] = d.Embedding
	}
	return out, nil
}
