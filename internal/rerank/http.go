package rerank

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/retrieval"
)

// Formats of /rerank APIs.
const (
	// FormatCohere is {"model","query","documents"} →
	// {"results":[{"index","relevance_score"}]}: Cohere, Jina, vLLM,
	// Infinity, llama.cpp.
	FormatCohere = "cohere"
	// FormatTEI is Hugging Face text-embeddings-inference:
	// {"query","texts"} → [{"index","score"}].
	FormatTEI = "tei"
)

// HTTPConfig configures a cross-encoder client.
type HTTPConfig struct {
	// URL is the full endpoint, e.g. http://localhost:8080/rerank.
	URL    string
	APIKey string
	Model  string
	// Format is FormatCohere (default) or FormatTEI.
	Format string
	// Timeout bounds one request (default 30s).
	Timeout time.Duration
	// MaxRetries on 429, 5xx and connection errors (default 2).
	MaxRetries int
	// Backoff is the first retry's wait, doubled each retry (default 300ms).
	Backoff    time.Duration
	HTTPClient *http.Client
}

// HTTP reranks through a cross-encoder server. Safe for concurrent use.
type HTTP struct {
	cfg HTTPConfig
}

// NewHTTP checks cfg and returns a client. Errors name the field.
func NewHTTP(cfg HTTPConfig) (*HTTP, error) {
	const op = "rerank.NewHTTP"
	if !strings.HasPrefix(cfg.URL, "http://") && !strings.HasPrefix(cfg.URL, "https://") {
		return nil, errs.FieldError(op, "url", fmt.Sprintf("want an http(s) URL, got %q", cfg.URL))
	}
	switch cfg.Format {
	case "":
		cfg.Format = FormatCohere
	case FormatCohere, FormatTEI:
	default:
		return nil, errs.FieldError(op, "format", fmt.Sprintf("want cohere or tei, got %q", cfg.Format))
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = 2
	}
	if cfg.Backoff == 0 {
		cfg.Backoff = 300 * time.Millisecond
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	return &HTTP{cfg: cfg}, nil
}

// ID names the model, e.g. "http:bge-reranker-base".
func (h *HTTP) ID() string { return "http:" + h.cfg.Model }

// Rerank implements retrieval.Reranker. Candidates are sent as title and
// text; every candidate must come back with exactly one score.
func (h *HTTP) Rerank(ctx context.Context, query string, _ retrieval.Vocabulary, cands []retrieval.Candidate) ([]float64, error) {
	const op = "rerank.HTTP"
	docs := make([]string, len(cands))
	for i, c := range cands {
		docs[i] = c.Title + "\n" + c.Text
	}
	var body any
	if h.cfg.Format == FormatTEI {
		body = map[string]any{"query": query, "texts": docs, "raw_scores": false}
	} else {
		body = map[string]any{"model": h.cfg.Model, "query": query, "documents": docs, "top_n": len(docs), "return_documents": false}
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, errs.E(op, errs.Internal, err)
	}
	var last error
	for attempt := 0; attempt <= h.cfg.MaxRetries; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return nil, errs.E(op, errs.Timeout, ctx.Err())
			case <-time.After(h.cfg.Backoff << (attempt - 1)):
			}
		}
		var resp []byte
		resp, last = h.post(ctx, payload)
		if last == nil {
			return h.parse(resp, len(cands))
		}
		if !errs.KindOf(last).Retryable() || ctx.Err() != nil {
			return nil, last
		}
	}
	return nil, last
}

func (h *HTTP) post(ctx context.Context, payload []byte) ([]byte, error) {
	const op = "rerank.HTTP"
	ctx, cancel := context.WithTimeout(ctx, h.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.cfg.URL, bytes.NewReader(payload))
	if err != nil {
		return nil, errs.E(op, errs.Invalid, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if h.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+h.cfg.APIKey)
	}
	resp, err := h.cfg.HTTPClient.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, errs.E(op, errs.Timeout, err)
		}
		return nil, errs.E(op, errs.Unavailable, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, errs.E(op, errs.Unavailable, err)
	}
	if resp.StatusCode == http.StatusOK {
		return b, nil
	}
	kind := errs.Invalid
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		kind = errs.RateLimited
	case resp.StatusCode == http.StatusUnauthorized:
		kind = errs.Unauthorized
	case resp.StatusCode >= 500:
		kind = errs.Unavailable
	}
	return nil, errs.Errorf(op, kind, "%s answered %d: %.200s", h.cfg.URL, resp.StatusCode, b)
}

type scoreItem struct {
	Index          int      `json:"index"`
	RelevanceScore *float64 `json:"relevance_score"`
	Score          *float64 `json:"score"`
}

// parse reads either response shape and puts scores back in input order.
func (h *HTTP) parse(b []byte, n int) ([]float64, error) {
	const op = "rerank.HTTP"
	var items []scoreItem
	if h.cfg.Format == FormatTEI {
		if err := json.Unmarshal(b, &items); err != nil {
			return nil, errs.Errorf(op, errs.Schema, "reply is not a TEI score list: %v", err)
		}
	} else {
		var r struct {
			Results []scoreItem `json:"results"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, errs.Errorf(op, errs.Schema, "reply has no results list: %v", err)
		}
		items = r.Results
	}
	if len(items) != n {
		return nil, errs.Errorf(op, errs.Schema, "sent %d documents, got %d scores", n, len(items))
	}
	out := make([]float64, n)
	got := make([]bool, n)
	for _, it := range items {
		s := it.RelevanceScore
		if s == nil {
			s = it.Score
		}
		if it.Index < 0 || it.Index >= n || got[it.Index] || s == nil {
			return nil, errs.Errorf(op, errs.Schema, "result index %d is out of range, repeated or has no score", it.Index)
		}
		out[it.Index], got[it.Index] = *s, true
	}
	return out, nil
}
