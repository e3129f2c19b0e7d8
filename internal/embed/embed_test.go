package embed

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/llm"
)

func cosine(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestHashedVectors(t *testing.T) {
	h, err := NewHashed(256)
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{
		"how do I descale the kettle",
		"Descaling kettles: remove limescale with citric acid",
		"The repair centre is moving from Cleckheaton to Wakefield",
		"",
	}
	v, err := h.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range v[:3] {
		if len(x) != 256 {
			t.Fatalf("len(Embed(%q)) = %d, want 256", texts[i], len(x))
		}
		if n := cosine(x, x); math.Abs(n-1) > 1e-5 {
			t.Errorf("|Embed(%q)|² = %v, want 1", texts[i], n)
		}
	}
	if n := cosine(v[3], v[3]); n != 0 {
		t.Errorf("|Embed(\"\")|² = %v, want 0 (no features)", n)
	}
	related, unrelated := cosine(v[0], v[1]), cosine(v[0], v[2])
	if related <= unrelated+0.1 {
		t.Errorf("cos(query, descaling doc) = %.3f, cos(query, unrelated) = %.3f; want the related pair clearly closer", related, unrelated)
	}
	again, _ := h.Embed(context.Background(), texts[:1])
	if cosine(again[0], v[0]) < 1-1e-6 {
		t.Error("Embed is not deterministic")
	}
	if h.ID() != "builtin:hashed-ngrams-v2/d256" || h.Dim() != 256 {
		t.Errorf("ID, Dim = %q, %d; want builtin:hashed-ngrams-v2/d256, 256", h.ID(), h.Dim())
	}
	if _, err := NewHashed(3); err == nil || errs.FieldOf(err) != "dim" {
		t.Errorf("NewHashed(3) error = %v, want a dim field error", err)
	}
}

// fakeEmbeddings is a scripted /v1/embeddings server: it answers each
// request with the next status in script (200 when the script is spent),
// and vectors of length dim whose first value is the input's length.
type fakeEmbeddings struct {
	mu      sync.Mutex
	script  []int
	dim     int
	batches [][]string
	srv     *httptest.Server
}

func newFake(t *testing.T, dim int, script ...int) *fakeEmbeddings {
	f := &fakeEmbeddings{dim: dim, script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" || r.Header.Get("Authorization") != "Bearer k" {
			http.Error(w, `{"error":{"message":"bad path or key"}}`, http.StatusNotFound)
			return
		}
		var req struct {
			Input []string `json:"input"`
			Model string   `json:"model"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		f.mu.Lock()
		f.batches = append(f.batches, req.Input)
		status := 200
		if len(f.script) > 0 {
			status, f.script = f.script[0], f.script[1:]
		}
		f.mu.Unlock()
		if status != 200 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write([]byte(`{"error":{"message":"scripted failure","type":"server_error"}}`))
			return
		}
		type emb struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []emb
		for i := len(req.Input) - 1; i >= 0; i-- { // out of order on purpose
			v := make([]float32, f.dim)
			v[0] = float32(len(req.Input[i]))
			data = append(data, emb{"embedding", i, v})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": req.Model, "data": data,
			"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}})
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeEmbeddings) client(t *testing.T, dim int) *OpenAI {
	t.Helper()
	lc, err := llm.New(llm.Config{BaseURL: f.srv.URL + "/v1", APIKey: "k", MaxRetries: 2,
		Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewOpenAI(OpenAIConfig{Client: lc, Model: "m", Dim: dim, BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestOpenAIBatchesAndOrder(t *testing.T) {
	f := newFake(t, 4)
	texts := []string{"a", "bb", "ccc", "dddd", ""}
	got, err := f.client(t, 4).Embed(context.Background(), texts)
	if err != nil {
		t.Fatalf("Embed error: %v", err)
	}
	if len(f.batches) != 3 {
		t.Errorf("requests = %d, want 3 batches of at most 2", len(f.batches))
	}
	for i, v := range got {
		want := float32(len(texts[i]))
		if texts[i] == "" {
			want = 1 // an empty text is sent as one space
		}
		if v[0] != want {
			t.Errorf("Embed[%d][0] = %v, want %v (vectors out of order?)", i, v[0], want)
		}
	}
}

func TestOpenAIRetries(t *testing.T) {
	tests := []struct {
		name     string
		script   []int
		wantKind errs.Kind // "" = success
		wantReqs int
	}{
		{"429 then ok", []int{429}, "", 2},
		{"503 twice then ok", []int{503, 503}, "", 3},
		{"500 until retries run out", []int{500, 500, 500, 500}, errs.Unavailable, 3},
		{"400 is not retried", []int{400}, errs.Invalid, 1},
		{"401 is not retried", []int{401}, errs.Unauthorized, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, 4, tt.script...)
			_, err := f.client(t, 4).Embed(context.Background(), []string{"x"})
			if got := errs.KindOf(err); (err == nil) != (tt.wantKind == "") || (err != nil && got != tt.wantKind) {
				t.Errorf("Embed error = %v (kind %q), want kind %q", err, got, tt.wantKind)
			}
			if len(f.batches) != tt.wantReqs {
				t.Errorf("requests = %d, want %d", len(f.batches), tt.wantReqs)
			}
		})
	}
}

func TestOpenAIDimensionCheck(t *testing.T) {
	f := newFake(t, 3)
	_, err := f.client(t, 4).Embed(context.Background(), []string{"x"})
	if errs.KindOf(err) != errs.Schema || !strings.Contains(err.Error(), "3-dimensional") {
		t.Errorf("Embed with a 3-d model configured as 4-d: error = %v, want a schema error naming the dimension", err)
	}
	if len(f.batches) != 1 {
		t.Errorf("requests = %d, want 1 (a wrong dimension is not retried)", len(f.batches))
	}
}

func TestNewOpenAIValidates(t *testing.T) {
	lc, err := llm.New(llm.Config{BaseURL: "http://127.0.0.1:1/v1"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cfg   OpenAIConfig
		field string
	}{
		{OpenAIConfig{Model: "m", Dim: 1}, "client"},
		{OpenAIConfig{Client: lc, Model: " ", Dim: 1}, "model"},
		{OpenAIConfig{Client: lc, Model: "m"}, "dim"},
	}
	for _, tt := range tests {
		if _, err := NewOpenAI(tt.cfg); errs.FieldOf(err) != tt.field {
			t.Errorf("NewOpenAI(%+v) error = %v, want field %s", tt.cfg, err, tt.field)
		}
	}
}

// tinyVocab: "kettle" is in every chunk, "descale" in one.
type tinyVocab struct{}

func (tinyVocab) DocFreq(t string) (int, error) {
	if t == "kettl" {
		return 100, nil
	}
	return 1, nil
}
func (tinyVocab) Len() int { return 100 }

func TestHashedIDF(t *testing.T) {
	plain, _ := NewHashed(512)
	idf, err := NewHashedIDF(512, tinyVocab{}, "0123456789abcdef")
	if err != nil {
		t.Fatal(err)
	}
	if idf.ID() != "builtin:hashed-ngrams-idf-v1/d512/0123456789ab" {
		t.Errorf("ID = %q, want the corpus checksum in it", idf.ID())
	}
	texts := []string{"descale kettle", "descale", "kettle"}
	p, _ := plain.Embed(context.Background(), texts)
	v, _ := idf.Embed(context.Background(), texts)
	// with IDF the rare word dominates: "descale kettle" moves towards "descale"
	if !(cosine(v[0], v[1]) > cosine(p[0], p[1]) && cosine(v[0], v[2]) < cosine(p[0], p[2])) {
		t.Errorf("IDF weighting: cos(query, descale) %.3f→%.3f, cos(query, kettle) %.3f→%.3f; want the rare word to gain",
			cosine(p[0], p[1]), cosine(v[0], v[1]), cosine(p[0], p[2]), cosine(v[0], v[2]))
	}
	if _, err := NewHashedIDF(512, nil, "x"); errs.FieldOf(err) != "vocab" {
		t.Errorf("NewHashedIDF(nil vocab) error = %v, want a vocab field error", err)
	}
}

// failingVocab fails every count but kettle's, as a RediSearch index's
// whole-index df does for a term not cached when Redis does not answer.
type failingVocab struct{}

func (failingVocab) DocFreq(t string) (int, error) {
	if t == "kettl" {
		return 100, nil
	}
	return 0, errs.Errorf("test.DocFreq", errs.Unavailable, "Redis did not answer")
}
func (failingVocab) Len() int { return 100 }

// TestHashedIDFFailsWithItsVocabulary: a df the vocabulary could not give
// makes Embed an error, typed as the vocabulary typed it, never a vector
// weighted as if no chunk held the term; a text whose counts all came is
// embedded.
func TestHashedIDFFailsWithItsVocabulary(t *testing.T) {
	h, err := NewHashedIDF(512, failingVocab{}, "0123456789abcdef")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := h.Embed(context.Background(), []string{"kettle"}); err != nil || len(v) != 1 {
		t.Fatalf("Embed(kettle) = %d vectors, %v; want one and no error", len(v), err)
	}
	for _, texts := range [][]string{{"descale"}, {"kettle", "descale the kettle"}} {
		v, err := h.Embed(context.Background(), texts)
		if err == nil || !errs.Is(errs.Unavailable, err) || v != nil {
			t.Errorf("Embed(%q) = %d vectors, %v; want no vectors and an error typed unavailable", texts, len(v), err)
		}
	}
	// many texts, spread over the CPUs: the error still comes back
	many := make([]string, 200)
	for i := range many {
		many[i] = "kettle"
	}
	many[137] = "descale"
	if _, err := h.Embed(context.Background(), many); err == nil {
		t.Error("Embed of 200 texts, one failing: no error")
	}
}

// countingVocab is failingVocab counting the counts asked of it.
type countingVocab struct{ asked *atomic.Int64 }

func (c countingVocab) DocFreq(t string) (int, error) {
	c.asked.Add(1)
	return failingVocab{}.DocFreq(t)
}
func (countingVocab) Len() int { return 100 }

// TestHashedIDFStopsAtTheFirstFailure: once one text's count fails, Embed
// asks the vocabulary nothing more for the batch's other texts (on
// RediSearch each uncached term is a round trip to Redis), in one worker
// or spread over the CPUs.
func TestHashedIDFStopsAtTheFirstFailure(t *testing.T) {
	var asked atomic.Int64
	h, err := NewHashedIDF(512, countingVocab{&asked}, "0123456789abcdef")
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"descale", "limescale", "filter", "lid", "base", "handle"}
	if _, err := h.Embed(context.Background(), texts); err == nil {
		t.Fatal("Embed: no error")
	}
	// "descale" fails at its first term: no other text is read.
	if n := asked.Load(); n != 1 {
		t.Errorf("one worker: %d counts asked after the first text failed; want 1", n)
	}
	many := make([]string, 400)
	for i := range many {
		many[i] = fmt.Sprintf("word%d", i)
	}
	asked.Store(0)
	if _, err := h.Embed(context.Background(), many); err == nil {
		t.Fatal("Embed of 400 failing texts: no error")
	}
	// each worker stops at its own first failure or at the flag: at most
	// one text per worker
	if n, w := asked.Load(), int64(runtime.GOMAXPROCS(0)); n > w {
		t.Errorf("%d workers: %d counts asked for 400 failing texts; want at most %d", w, n, w)
	}
}
