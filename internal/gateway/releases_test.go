package gateway

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/wire"
)

// fakeReleases pins every run to pinned and gives each release the loop
// defaults in loops (none for a release not there).
type fakeReleases struct {
	mu     sync.Mutex
	pinned string
	loops  map[string]wire.AnswerInput
	down   bool
}

func (f *fakeReleases) Pin(context.Context, string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return "", errors.New("redis: connection refused")
	}
	return f.pinned, nil
}

func (f *fakeReleases) Defaults(_ context.Context, name string) (wire.AnswerInput, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	in, ok := f.loops[name]
	return in, ok, nil
}

func (f *fakeReleases) pin(name string) {
	f.mu.Lock()
	f.pinned = name
	f.mu.Unlock()
}

// TestReleaseLoopDefaults: a run pinned to a release starts from the
// loop defaults the release records (budget, threshold, top-k), not the
// gateway's configured ones; a request may lower them, never raise them;
// a batch's template carries them to its questions; a release recording
// none falls back to the configuration. A retry with the same idempotency
// key after the release changed is the same run, not a conflict.
func TestReleaseLoopDefaults(t *testing.T) {
	tight := wire.AnswerInput{Budget: wire.Budget{MaxAttempts: 2, MaxTokens: 900, MaxCostUSD: 0.01, Deadline: 30 * time.Second}, Threshold: 0.8, TopK: 3}
	rel := &fakeReleases{pinned: "tight", loops: map[string]wire.AnswerInput{"tight": tight}}
	h := newHarness(t, func(o *Options) { o.Releases = rel })

	r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4","idempotency_key":"k1"}`)
	var acc api.Accepted
	r.decode(t, &acc)
	first := acc.ID
	if got := h.eng.runs[first].in; got.Budget != tight.Budget || got.Threshold != tight.Threshold || got.TopK != tight.TopK || got.Release != "tight" {
		t.Errorf("run on release tight started with budget %+v threshold %v top-k %d release %q; want the release's %+v %v %d",
			got.Budget, got.Threshold, got.TopK, got.Release, tight.Budget, tight.Threshold, tight.TopK)
	}
	var q api.QuestionResponse
	h.call(http.MethodGet, "/v1/questions/"+first, keyPublic, "").decode(t, &q)
	if q.Release != "tight" {
		t.Errorf("question response release %q; want tight", q.Release)
	}
	if r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4","max_attempts":3}`); r.Status != http.StatusBadRequest || r.errorOf(t).Field != "max_attempts" {
		t.Errorf("max_attempts 3 on a release allowing 2 = %d %s; want 400 on max_attempts", r.Status, r.Body)
	}
	if r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4","max_attempts":1}`); r.Status != http.StatusAccepted {
		t.Errorf("max_attempts 1 on a release allowing 2 = %d %s; want 202", r.Status, r.Body)
	}

	r = h.call(http.MethodPost, "/v1/batches", keyPublic, `{"questions":[{"question":"E4"}]}`)
	r.decode(t, &acc)
	if b := h.eng.runs[acc.ID].batch.Template; b.Budget != tight.Budget || b.Threshold != tight.Threshold || b.TopK != tight.TopK || b.Release != "tight" {
		t.Errorf("batch on release tight has template %+v; want the release's loop defaults", b)
	}

	// The stable release records no loop defaults: the configured ones.
	rel.pin("initial")
	r = h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`)
	r.decode(t, &acc)
	if in := h.eng.runs[acc.ID].in; in.Budget.MaxAttempts != 3 || in.Threshold != 0.5 || in.TopK != 5 || in.Release != "initial" {
		t.Errorf("run on a release without loop defaults = %+v; want the configured template on release initial", in)
	}
	// The first run, retried after its release left: the same run.
	r = h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4","idempotency_key":"k1"}`)
	var again api.Accepted
	r.decode(t, &again)
	if r.Status != http.StatusAccepted || again.ID != first {
		t.Errorf("retry of a run on tight after the pin moved = %d %s; want 202 and the same run", r.Status, r.Body)
	}
	if r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4","idempotency_key":"k1","max_attempts":1}`); r.Status != http.StatusConflict {
		t.Errorf("same key with another budget after the pin moved = %d %s; want 409", r.Status, r.Body)
	}

	rel.mu.Lock()
	rel.down = true
	rel.mu.Unlock()
	h.allow5xx = true
	if r := h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`); r.Status != http.StatusServiceUnavailable {
		t.Errorf("start with the release store unreadable = %d %s; want 503", r.Status, r.Body)
	}
}

// fakeBoard is a ReleaseBoard with fixed contents.
type fakeBoard struct{ r api.Releases }

func (f fakeBoard) Releases(context.Context) (api.Releases, error) { return f.r, nil }

// TestReleasesACL: GET /v1/releases is operator data, readable only by a
// key in Options.ReleasesGroup, by nobody when it is empty; a gateway
// without a board answers 503.
func TestReleasesACL(t *testing.T) {
	board := fakeBoard{api.Releases{Stable: "initial", Candidate: "fixed", Share: 25, Releases: []api.ReleaseSummary{
		{Name: "fixed", State: "canary", Share: 25, Digest: "d2", Index: "v2", CreatedAt: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)},
		{Name: "initial", State: "promoted", Share: 100, Digest: "d1", Index: "v1", CreatedAt: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)},
	}}}
	h := newHarness(t, func(o *Options) { o.ReleaseBoard, o.ReleasesGroup = board, "partners" })
	r := h.call(http.MethodGet, "/v1/releases", keyPartner, "")
	var got api.Releases
	r.decode(t, &got)
	if r.Status != http.StatusOK || got.Candidate != "fixed" || got.Share != 25 || len(got.Releases) != 2 {
		t.Errorf("releases as a key in the group = %d %s; want 200 and the board", r.Status, r.Body)
	}
	if r := h.call(http.MethodGet, "/v1/releases", keyPublic, ""); r.Status != http.StatusForbidden || strings.Contains(string(r.Body), "fixed") {
		t.Errorf("releases as a key outside the group = %d %s; want 403 and nothing of them", r.Status, r.Body)
	}
	if r := h.call(http.MethodGet, "/v1/releases", "", ""); r.Status != http.StatusUnauthorized {
		t.Errorf("releases without a key = %d; want 401", r.Status)
	}

	closed := newHarness(t, func(o *Options) { o.ReleaseBoard = board })
	if r := closed.call(http.MethodGet, "/v1/releases", keyPartner, ""); r.Status != http.StatusForbidden {
		t.Errorf("releases with no group configured = %d %s; want 403 for everyone", r.Status, r.Body)
	}
	none := newHarness(t, func(o *Options) { o.ReleasesGroup = "partners" })
	none.allow5xx = true
	if r := none.call(http.MethodGet, "/v1/releases", keyPartner, ""); r.Status != http.StatusServiceUnavailable {
		t.Errorf("releases without a board = %d %s; want 503", r.Status, r.Body)
	}
}
