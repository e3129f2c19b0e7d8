package gateway

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/wire"
)

// TestStoredAnswerWithheld: a stored answer is checked against the
// caller's groups as they are now; one citing a document the caller can
// no longer see (its ACL narrowed, or it left the index) is withheld with
// a typed error, in every place a stored answer is read: GET, a replayed
// ?wait= POST, the event stream's result and a batch's results (issue
// 21: it was returned as it was).
func TestStoredAnswerWithheld(t *testing.T) {
	chunks := newFakeChunks()
	h := newHarness(t, func(o *Options) { o.Chunks = chunks })
	var acc api.Accepted
	h.call(http.MethodPost, "/v1/questions", keyPartner, `{"question":"E4"}`, "Idempotency-Key", "w1").decode(t, &acc)
	var q api.QuestionResponse
	if r := h.call(http.MethodGet, "/v1/questions/"+acc.ID, keyPartner, ""); r.Status != 200 {
		t.Fatalf("GET while visible = %d %s", r.Status, r.Body)
	} else if r.decode(t, &q); q.Answer == "" || len(q.Citations) != 1 || q.Citations[0].DocID != "sb-112" {
		t.Fatalf("answer %+v, want one citing sb-112", q)
	}
	var bacc api.Accepted
	h.call(http.MethodPost, "/v1/batches", keyPartner, `{"questions":[{"question":"E4"}]}`).decode(t, &bacc)

	chunks.edit("sb-112#0", func(c *corpus.Chunk) { c.ACL = []string{"staff"} }) // partners lose it
	withheld := func(what string, r resp) {
		t.Helper()
		e := r.errorOf(t)
		if r.Status != 403 || e.Code != "forbidden" || e.Field != "answer" || !strings.Contains(e.Message, "can no longer see") {
			t.Errorf("%s after the ACL narrowed = %d %s; want 403 withholding the answer", what, r.Status, r.Body)
		}
		if strings.Contains(string(r.Body), "sb-112") {
			t.Errorf("%s leaks the withheld citation: %s", what, r.Body)
		}
	}
	withheld("GET", h.call(http.MethodGet, "/v1/questions/"+acc.ID, keyPartner, ""))
	withheld("a replayed ?wait= POST", h.call(http.MethodPost, "/v1/questions?wait=1s", keyPartner, `{"question":"E4"}`, "Idempotency-Key", "w1"))

	r := h.call(http.MethodGet, "/v1/questions/"+acc.ID+"/events", keyPartner, "")
	if !strings.Contains(string(r.Body), "event: error") || !strings.Contains(string(r.Body), `"field":"answer"`) || strings.Contains(string(r.Body), "From sb-112") {
		t.Errorf("event stream after the ACL narrowed:\n%s\nwant an error event withholding the answer", r.Body)
	}

	var res api.BatchResults
	h.call(http.MethodGet, "/v1/batches/"+bacc.ID+"/results", keyPartner, "").decode(t, &res)
	if len(res.Items) != 1 || res.Items[0].Answer != "" || len(res.Items[0].Citations) != 0 || !strings.HasPrefix(res.Items[0].Error, "withheld") {
		t.Errorf("batch results after the ACL narrowed = %+v; want the item withheld", res.Items)
	}

	// A public answer stays readable; a cited document gone from the
	// index withholds it too.
	h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`).decode(t, &acc)
	if r := h.call(http.MethodGet, "/v1/questions/"+acc.ID, keyPublic, ""); r.Status != 200 {
		t.Errorf("a still-visible answer = %d %s", r.Status, r.Body)
	}
	chunks.mu.Lock()
	delete(chunks.chunks, "pol-warranty-2026#0")
	chunks.mu.Unlock()
	withheld("GET of an answer whose document left the index", h.call(http.MethodGet, "/v1/questions/"+acc.ID, keyPublic, ""))

	err := h.srv.checkCited(context.Background(), []string{"public"}, &answerForPublic)
	if !errors.Is(err, ErrWithheld) {
		t.Errorf("checkCited = %v, want ErrWithheld", err)
	}
}

var answerForPublic = answerFor(wire.AnswerInput{Question: "E4", Principal: auth.Anonymous()})

// TestAnonymousIdempotencyKeysPerClient: on an anonymous gateway every
// caller is the same principal, so an idempotency key is scoped to the
// client's address too: another client's same key names another run
// (issue 21: anonymous callers shared one key space, so one could read
// another's run by guessing its key).
func TestAnonymousIdempotencyKeysPerClient(t *testing.T) {
	h := newHarness(t, func(o *Options) {
		k, err := auth.NewKeyring(nil)
		if err != nil {
			t.Fatal(err)
		}
		o.Keyring = k
	})
	post := func(addr string) string {
		var acc api.Accepted
		h.call(http.MethodPost, "/v1/questions", "", `{"question":"E4"}`, "Idempotency-Key", "same", "RemoteAddr", addr).decode(t, &acc)
		return acc.ID
	}
	a1, a2, b := post("192.0.2.1:1000"), post("192.0.2.1:2000"), post("198.51.100.7:1000")
	if a1 == "" || a1 != a2 {
		t.Errorf("one client's retry named runs %q and %q; want the same", a1, a2)
	}
	if a1 == b {
		t.Errorf("two anonymous clients' same key named the same run %s", a1)
	}
	// A keyed principal's key names its run from any address.
	h = newHarness(t)
	var x, y api.Accepted
	h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`, "Idempotency-Key", "k", "RemoteAddr", "192.0.2.1:1").decode(t, &x)
	h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`, "Idempotency-Key", "k", "RemoteAddr", "198.51.100.7:1").decode(t, &y)
	if x.ID != y.ID {
		t.Errorf("a key's retry from another address named another run")
	}
}
