package gateway

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
)

// fakeChunks is a chunk store whose ACLs a test may change, as an index
// rebuilt with new permissions would.
type fakeChunks struct {
	mu     sync.Mutex
	chunks map[string]corpus.Chunk
	calls  int // Chunks calls, each a round trip to a real store
}

func newFakeChunks() *fakeChunks {
	f := &fakeChunks{chunks: map[string]corpus.Chunk{}}
	for _, c := range []corpus.Chunk{
		{ID: "pol-warranty-2026#0", DocID: "pol-warranty-2026", Title: "Warranty terms (2026)", Status: corpus.Current, Updated: "2026-01-05",
			Text: "Blender motors are covered for 5 years.", ACL: []string{"public"}},
		{ID: "sb-112#0", DocID: "sb-112", Title: "SB-112: X300 Pro pump replacement", Status: corpus.Current,
			Text: "Partners replace the pump under bulletin SB-112.", ACL: []string{"partners", "staff"}},
		{ID: "faq-warranty-claim#0", DocID: "faq-warranty-claim", Title: "Making a warranty claim", Status: corpus.Archived, Updated: "2024-03-01",
			Text: "Send the receipt with the claim.", ACL: []string{"public"}},
	} {
		f.chunks[c.ID] = c
	}
	return f
}

func (f *fakeChunks) Chunks(_ context.Context, ids []string) ([]corpus.Chunk, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	var out []corpus.Chunk
	for _, id := range ids {
		c, ok := f.chunks[id]
		if !ok {
			return nil, errs.Errorf("fake.Chunks", errs.NotFound, "no chunk %q", id)
		}
		out = append(out, c)
	}
	return out, nil
}

func (f *fakeChunks) edit(id string, fn func(*corpus.Chunk)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.chunks[id]
	fn(&c)
	f.chunks[id] = c
}

func (h *harness) askID(t *testing.T, key, question string) string {
	t.Helper()
	r := h.call(http.MethodPost, "/v1/questions", key, `{"question":"`+question+`"}`)
	var acc api.Accepted
	r.decode(t, &acc)
	if r.Status != http.StatusAccepted || acc.ID == "" {
		t.Fatalf("POST /v1/questions = %d %s", r.Status, r.Body)
	}
	return acc.ID
}

func TestSources(t *testing.T) {
	chunks := newFakeChunks()
	h := newHarness(t, func(o *Options) { o.Chunks = chunks })

	pub := h.askID(t, keyPublic, "how long is the motor covered")
	r := h.call(http.MethodGet, "/v1/questions/"+pub+"/sources", keyPublic, "")
	var got api.SourcesResponse
	r.decode(t, &got)
	if r.Status != 200 || len(got.Sources) != 2 || got.Withheld != 0 {
		t.Fatalf("public sources = %d %s; want 2 passages", r.Status, r.Body)
	}
	if chunks.calls != 1 {
		t.Errorf("GET sources of a run with 2 passages read the chunk store %d times; want 1 (one read per request)", chunks.calls)
	}
	s1, s2 := got.Sources[0], got.Sources[1]
	if s1.Label != "1" || !s1.Cited || s1.Title != "Warranty terms (2026)" || s1.Status != corpus.Current || s1.Updated != "2026-01-05" ||
		!strings.Contains(s1.Text, "5 years") {
		t.Errorf("source 1 = %+v; want the cited warranty passage with its title, status and date", s1)
	}
	if s2.Label != "2" || s2.Cited || s2.Status != corpus.Archived {
		t.Errorf("source 2 = %+v; want the uncited archived claim passage", s2)
	}

	// Another principal's run is 404, with nothing of it in the body.
	partner := h.askID(t, keyPartner, "how is the X300 pump replaced")
	r = h.call(http.MethodGet, "/v1/questions/"+partner+"/sources", keyPublic, "")
	if r.Status != http.StatusNotFound || strings.Contains(string(r.Body), "SB-112") || strings.Contains(string(r.Body), "pump") {
		t.Errorf("public key on the partner's run = %d %s; want a bare 404", r.Status, r.Body)
	}
	r = h.call(http.MethodGet, "/v1/questions/"+partner+"/sources", keyPartner, "")
	r.decode(t, &got)
	if r.Status != 200 || len(got.Sources) != 2 || got.Sources[0].DocID != "sb-112" {
		t.Fatalf("partner sources = %d %s; want sb-112 first", r.Status, r.Body)
	}

	// Groups are checked when read, not when the run ran: a passage whose
	// ACL no longer admits the caller is withheld, as is one gone from the
	// index.
	chunks.edit("sb-112#0", func(c *corpus.Chunk) { c.ACL = []string{"staff"} })
	r = h.call(http.MethodGet, "/v1/questions/"+partner+"/sources", keyPartner, "")
	r.decode(t, &got)
	if r.Status != 200 || got.Withheld != 1 || len(got.Sources) != 1 || strings.Contains(string(r.Body), "bulletin SB-112") {
		t.Errorf("after the ACL change = %d %s; want sb-112 withheld", r.Status, r.Body)
	}
	chunks.mu.Lock()
	delete(chunks.chunks, "faq-warranty-claim#0")
	chunks.mu.Unlock()
	r = h.call(http.MethodGet, "/v1/questions/"+pub+"/sources", keyPublic, "")
	r.decode(t, &got)
	if r.Status != 200 || got.Withheld != 1 || len(got.Sources) != 1 || got.Sources[0].Label != "1" {
		t.Errorf("after a chunk left the index = %d %s; want label 1 only, 1 withheld", r.Status, r.Body)
	}

	// A run that found nothing used no passages.
	none := h.askID(t, keyPublic, "what is the capital of Peru")
	r = h.call(http.MethodGet, "/v1/questions/"+none+"/sources", keyPublic, "")
	r.decode(t, &got)
	if r.Status != 200 || len(got.Sources) != 0 || got.Withheld != 0 {
		t.Errorf("not-found run sources = %d %s; want none", r.Status, r.Body)
	}

	// Unknown ids and missing keys.
	if r = h.call(http.MethodGet, "/v1/questions/nope/sources", keyPublic, ""); r.Status != http.StatusNotFound {
		t.Errorf("unknown id = %d, want 404", r.Status)
	}
	if r = h.call(http.MethodGet, "/v1/questions/"+pub+"/sources", "", ""); r.Status != http.StatusUnauthorized {
		t.Errorf("no key = %d, want 401", r.Status)
	}
}

func TestSourcesWhileRunning(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Chunks = newFakeChunks() })
	h.eng.hold = true
	id := h.askID(t, keyPublic, "how long is the motor covered")
	r := h.call(http.MethodGet, "/v1/questions/"+id+"/sources", keyPublic, "")
	if r.Status != http.StatusConflict || r.errorOf(t).Code != "conflict" {
		t.Errorf("sources of a running question = %d %s; want 409", r.Status, r.Body)
	}
	h.eng.release()
}

// noIndex is a chunk store whose index is not there (yet).
type noIndex struct{}

func (noIndex) Chunks(context.Context, []string) ([]corpus.Chunk, error) {
	return nil, errs.Errorf("test", errs.Unavailable, "no index")
}

func TestSourcesWithoutChunkStore(t *testing.T) {
	for name, chunks := range map[string]Chunks{"none": nil, "not there yet": noIndex{}} {
		h := newHarness(t, func(o *Options) { o.Chunks = chunks })
		h.allow5xx = true
		id := h.askID(t, keyPublic, "how long is the motor covered")
		r := h.call(http.MethodGet, "/v1/questions/"+id+"/sources", keyPublic, "")
		if r.Status != http.StatusServiceUnavailable || !strings.Contains(r.errorOf(t).Message, "index.dir") {
			t.Errorf("%s: sources = %d %s; want 503 naming index.dir", name, r.Status, r.Body)
		}
		// A store that is there but cannot be read now (round 48 review,
		// rv48: RediSearch's Redis lost, the version unconfirmed) is a 503
		// to retry, not "it has no index".
		if chunks != nil && (r.Header.Get("Retry-After") == "" || strings.Contains(r.errorOf(t).Message, "it has no index")) {
			t.Errorf("%s: sources = %d, Retry-After %q, %q; want a 503 to retry that does not say the gateway has no index", name, r.Status, r.Header.Get("Retry-After"), r.errorOf(t).Message)
		}
	}
}
