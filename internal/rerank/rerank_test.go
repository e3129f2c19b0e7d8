package rerank

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

// vocab is a tiny in-memory vocabulary: every term in 1 of 10 chunks.
type vocab struct{}

func (vocab) DocFreq(string) int { return 1 }
func (vocab) Len() int           { return 10 }

func TestBuiltinFeatures(t *testing.T) {
	b := NewBuiltin(terms.New(), Weights{Coverage: 0.5, Proximity: 0.5})
	cands := []retrieval.Candidate{
		{ChunkID: "none", Text: "nothing relevant here"},
		{ChunkID: "scattered", Text: "the motor is fine. much later, about overheating"},
		{ChunkID: "adjacent", Text: "motor overheating: unplug it"},
	}
	got, err := b.Rerank(context.Background(), "motor overheating", vocab{}, cands)
	if err != nil {
		t.Fatal(err)
	}
	if !(got[2] > got[1] && got[1] > got[0] && got[0] == 0) {
		t.Errorf("Rerank(motor overheating) = %v, want adjacent > scattered > none = 0", got)
	}
	if got[2] != 1 {
		t.Errorf("Rerank score of a chunk with both terms adjacent = %v, want 1", got[2])
	}
	// score features are normalized by the list's best
	b = NewBuiltin(terms.New(), Weights{BM25: 1})
	got, _ = b.Rerank(context.Background(), "q", vocab{}, []retrieval.Candidate{{BM25: 2}, {BM25: 8}})
	if got[0] != 0.25 || got[1] != 1 {
		t.Errorf("Rerank by BM25 alone = %v, want [0.25 1]", got)
	}
}

// TestBuiltinTitle: the Title feature is retrieval.Coverage of the title
// alone, whatever the text holds, and a candidate without a title scores 0.
func TestBuiltinTitle(t *testing.T) {
	an := terms.New()
	b := NewBuiltin(an, Weights{Title: 1})
	cands := []retrieval.Candidate{
		{Title: "Motor overheating", Text: "nothing relevant here"},
		{Title: "Warranty", Text: "motor overheating: unplug it"},
		{Title: "Motor warranty", Text: "the drum"},
		{Text: "motor overheating"},
	}
	got, err := b.Rerank(context.Background(), "motor overheating", vocab{}, cands)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cands {
		if want := retrieval.Coverage(an, vocab{}, "motor overheating", c.Title); got[i] != want {
			t.Errorf("Title feature of %q = %v, want retrieval.Coverage of the title %v", c.Title, got[i], want)
		}
	}
	if !(got[0] == 1 && got[2] == 0.5 && got[1] == 0 && got[3] == 0) {
		t.Errorf("Rerank(motor overheating) by title = %v, want [1 0 0.5 0]", got)
	}
}

// dfVocab has a document frequency of its own for each term, so terms
// weigh differently.
type dfVocab map[string]int

func (v dfVocab) DocFreq(t string) int { return v[t] }
func (dfVocab) Len() int               { return 100 }

// TestBuiltinTitleIsCoverage: with terms of different weights, repeated
// query terms and words the analyzer folds (plural, case, stop words), the
// Title feature is still exactly retrieval.Coverage of the title, and the
// Coverage feature exactly retrieval.Coverage of title and text.
func TestBuiltinTitleIsCoverage(t *testing.T) {
	an := terms.New()
	v := dfVocab{"motor": 40, "overheat": 2, "drum": 9, "warranti": 70}
	const query = "Is the motor overheating? motor drums and the warranty"
	cands := []retrieval.Candidate{
		{Title: "Motors overheat", Text: "nothing relevant here"},
		{Title: "The warranty", Text: "motor overheating: unplug it"},
		{Title: "Drum and motor", Text: "the warranty"},
		{Title: "overheating", Text: "drum"},
		{Text: "motor overheating"},
	}
	for _, w := range []Weights{{Title: 1}, {Coverage: 1}} {
		got, err := NewBuiltin(an, w).Rerank(context.Background(), query, v, cands)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cands {
			text := c.Title
			if w.Coverage != 0 {
				text = c.Title + "\n" + c.Text
			}
			if want := retrieval.Coverage(an, v, query, text); got[i] != want {
				t.Errorf("%+v: feature of %q = %v, want retrieval.Coverage %v", w, text, got[i], want)
			}
		}
	}
}

func TestNear(t *testing.T) {
	tests := []struct {
		a, b []int
		want bool
	}{
		{[]int{1}, []int{2}, true},
		{[]int{1}, []int{4}, true},
		{[]int{1}, []int{5}, false},
		{[]int{5}, []int{2}, false}, // order matters
		{[]int{1, 10}, []int{3, 30}, true},
		{nil, []int{1}, false},
	}
	for _, tt := range tests {
		if got := near(tt.a, tt.b, 3); got != tt.want {
			t.Errorf("near(%v, %v, 3) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestHTTPFormats(t *testing.T) {
	tests := []struct {
		format string
		reply  string
		want   []float64
		kind   errs.Kind
	}{
		{FormatCohere, `{"results":[{"index":1,"relevance_score":0.9},{"index":0,"relevance_score":0.1}]}`, []float64{0.1, 0.9}, ""},
		{FormatTEI, `[{"index":0,"score":0.3},{"index":1,"score":0.7}]`, []float64{0.3, 0.7}, ""},
		{FormatCohere, `{"results":[{"index":0,"relevance_score":0.9}]}`, nil, errs.Schema},
		{FormatCohere, `{"results":[{"index":0,"relevance_score":0.9},{"index":0,"relevance_score":0.2}]}`, nil, errs.Schema},
		{FormatTEI, `not json`, nil, errs.Schema},
	}
	for _, tt := range tests {
		var body map[string]any
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			json.NewDecoder(r.Body).Decode(&body)
			w.Write([]byte(tt.reply))
		}))
		h, err := NewHTTP(HTTPConfig{URL: srv.URL + "/rerank", Model: "m", Format: tt.format})
		if err != nil {
			t.Fatal(err)
		}
		got, err := h.Rerank(context.Background(), "q", vocab{}, []retrieval.Candidate{{Title: "a", Text: "x"}, {Title: "b", Text: "y"}})
		srv.Close()
		if errs.KindOf(err) != tt.kind || (err == nil && (got[0] != tt.want[0] || got[1] != tt.want[1])) {
			t.Errorf("%s reply %s: Rerank = %v, %v; want %v, kind %q", tt.format, tt.reply, got, err, tt.want, tt.kind)
		}
		key := "documents"
		if tt.format == FormatTEI {
			key = "texts"
		}
		if docs, _ := body[key].([]any); len(docs) != 2 || body["query"] != "q" {
			t.Errorf("%s request body = %v, want query and 2 %s", tt.format, body, key)
		}
	}
}

func TestHTTPRetries(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		switch calls {
		case 1:
			http.Error(w, "busy", http.StatusServiceUnavailable)
		default:
			w.Write([]byte(`{"results":[{"index":0,"relevance_score":1}]}`))
		}
	}))
	defer srv.Close()
	h, _ := NewHTTP(HTTPConfig{URL: srv.URL, Model: "m", Backoff: time.Millisecond})
	if _, err := h.Rerank(context.Background(), "q", vocab{}, []retrieval.Candidate{{}}); err != nil || calls != 2 {
		t.Errorf("Rerank after one 503: err %v after %d calls, want success after 2", err, calls)
	}
	calls = 0
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		http.Error(w, "bad request", http.StatusBadRequest)
	}))
	defer bad.Close()
	h, _ = NewHTTP(HTTPConfig{URL: bad.URL, Model: "m", Backoff: time.Millisecond})
	if _, err := h.Rerank(context.Background(), "q", vocab{}, []retrieval.Candidate{{}}); !errs.Is(errs.Invalid, err) || calls != 1 {
		t.Errorf("Rerank on 400: err %v after %d calls, want invalid after 1", err, calls)
	}
	if _, err := NewHTTP(HTTPConfig{URL: "localhost"}); errs.FieldOf(err) != "url" {
		t.Errorf("NewHTTP(bad url) error = %v, want a url field error", err)
	}
	if _, err := NewHTTP(HTTPConfig{URL: "http://x", Format: "xml"}); errs.FieldOf(err) != "format" {
		t.Errorf("NewHTTP(bad format) error = %v, want a format field error", err)
	}
}

// TestBuiltinUsesKeptTerms: a candidate carrying its analyzed terms scores
// as if its text had been analyzed.
func TestBuiltinUsesKeptTerms(t *testing.T) {
	an := terms.New()
	b := NewBuiltin(an, Weights{Coverage: 0.5, Proximity: 0.5})
	text := "motor overheating: unplug it"
	got, _ := b.Rerank(context.Background(), "motor overheating", vocab{}, []retrieval.Candidate{
		{Text: text},
		{Terms: an.Terms("\n" + text)},
	})
	if got[0] != got[1] || got[0] == 0 {
		t.Errorf("Rerank with text vs kept terms = %v, want equal and positive", got)
	}
}

// BenchmarkBuiltin reranks 50 candidates of 250 words each (the loop's
// rerank depth and chunk size) for a five-term query.
func BenchmarkBuiltin(b *testing.B) {
	words := strings.Fields("the motor of the washer is covered for ten years and the pump for two years after purchase while the drum bearing wear is excluded unless registered")
	var cands []retrieval.Candidate
	for i := range 50 {
		var text []string
		for j := range 250 {
			text = append(text, words[(i*7+j*3)%len(words)])
		}
		cands = append(cands, retrieval.Candidate{Title: "chunk", Text: strings.Join(text, " "), BM25: float64(50 - i), Fused: float64(50 - i)})
	}
	r := NewBuiltin(terms.New(), DefaultWeights)
	for b.Loop() {
		if _, err := r.Rerank(context.Background(), "how many years is the washer motor covered", vocab{}, cands); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBuiltinAnswerType: v4's Type feature is 1 for a candidate holding an
// expression of the kind the query expects and 0 otherwise, so among
// candidates whose other features are alike the one that can answer goes
// first; the default (v3) has no such feature and keeps the first-stage
// order, as v4 does for descriptions and yes/no questions.
func TestBuiltinAnswerType(t *testing.T) {
	an := terms.New()
	cands := []retrieval.Candidate{
		{ChunkID: "no-answer", Title: "Descaling the kettle", Text: "Descale the kettle with the descaler sold for it, then rinse it.", BM25: 10, Fused: 1},
		{ChunkID: "answer", Title: "Descaling the kettle", Text: "Descale the kettle every three months, or once a month in hard water areas.", BM25: 9, Fused: 0.9},
	}
	for _, tc := range []struct {
		id, query   string
		answerFirst bool
		typeFeature float64
	}{
		{V4ID, "how often should I descale the kettle", true, 1},
		{BuiltinID, "how often should I descale the kettle", false, 0},
		// a description and a yes/no question: nothing is checked
		{V4ID, "descaling the kettle", false, 0},
		{V4ID, "should I descale the kettle", false, 0},
	} {
		b, ok := Model(an, tc.id)
		if !ok || b.ID() != tc.id {
			t.Fatalf("Model(%q) = %v, %v", tc.id, b, ok)
		}
		got, err := b.Rerank(context.Background(), tc.query, vocab{}, cands)
		if err != nil {
			t.Fatal(err)
		}
		if first := got[1] > got[0]; first != tc.answerFirst {
			t.Errorf("%s, %q: scores %v, want the candidate with a frequency first: %v", tc.id, tc.query, got, tc.answerFirst)
		}
		v3, _ := Model(an, BuiltinID)
		base, _ := v3.Rerank(context.Background(), tc.query, vocab{}, cands)
		if d := got[1] - base[1]; math.Abs(d-tc.typeFeature*V4Weights.Type) > 1e-12 {
			t.Errorf("%s, %q: the answering candidate scores %v more than v3, want %v", tc.id, tc.query, d, tc.typeFeature*V4Weights.Type)
		}
		if got[0] != base[0] {
			t.Errorf("%s, %q: the candidate without a frequency scores %v, v3 %v; want the same", tc.id, tc.query, got[0], base[0])
		}
	}
}

// TestModels: the default id is v3 with DefaultWeights, v4 is v3's
// weights plus a Type weight, and any other id is refused.
func TestModels(t *testing.T) {
	if m := Models(); len(m) != 2 || m[0] != "builtin:features-v3" || m[1] != "builtin:features-v4" {
		t.Fatalf("Models() = %v", m)
	}
	for id, w := range map[string]Weights{"": DefaultWeights, BuiltinID: DefaultWeights, V4ID: V4Weights} {
		b, ok := Model(terms.New(), id)
		if !ok || b.Weights() != w {
			t.Fatalf("Model(%q) = %v, want weights %+v", id, ok, w)
		}
	}
	w := V4Weights
	w.Type = 0
	if w != DefaultWeights || V4Weights.Type == 0 || DefaultWeights.Type != 0 {
		t.Errorf("V4Weights %+v are not DefaultWeights %+v plus a Type weight", V4Weights, DefaultWeights)
	}
	if _, ok := Model(terms.New(), "builtin:features-v2"); ok {
		t.Error("Model(builtin:features-v2) accepted, want refused")
	}
	if id := NewBuiltin(terms.New(), DefaultWeights).ID(); id != "builtin:features-v3" {
		t.Errorf("default ID = %q", id)
	}
}
