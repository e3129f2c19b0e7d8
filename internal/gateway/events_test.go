package gateway

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/wire"
)

func parseSSE(t *testing.T, body []byte) []apiclient.StreamEvent {
	t.Helper()
	var out []apiclient.StreamEvent
	if err := apiclient.ReadSSE(bytes.NewReader(body), func(e apiclient.StreamEvent) error {
		out = append(out, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestEvents(t *testing.T) {
	h := newHarness(t)
	var acc api.Accepted
	h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`).decode(t, &acc)

	r := h.call(http.MethodGet, "/v1/questions/"+acc.ID+"/events", keyPublic, "")
	if r.Status != 200 || r.Header.Get("Content-Type") != "text/event-stream" || r.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("GET events = %d %v", r.Status, r.Header)
	}
	if !strings.HasPrefix(string(r.Body), "retry: 2000\n\n") {
		t.Errorf("stream does not start with a retry hint: %q", r.Body)
	}
	evs := parseSSE(t, r.Body)
	type seen struct{ ID, Type, Stage string }
	var got []seen
	for _, e := range evs {
		s := seen{ID: e.ID, Type: e.Type}
		if e.Type == api.EventStage {
			var st api.StageEvent
			if err := json.Unmarshal(e.Data, &st); err != nil {
				t.Fatal(err)
			}
			s.Stage = st.Stage
		}
		got = append(got, s)
	}
	want := []seen{{"5", "stage", "search"}, {"11", "stage", "assess"}, {"16", "stage", "rewrite"}, {"17", "stage", "search"},
		{"23", "stage", "assess"}, {"29", "stage", "generate"}, {"35", "result", ""}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	var q api.QuestionResponse
	if err := json.Unmarshal(evs[len(evs)-1].Data, &q); err != nil {
		t.Fatal(err)
	}
	if q.ID != acc.ID || q.Status != api.Completed || q.StopReason != wire.Answered || len(q.Citations) != 1 {
		t.Errorf("result event = %s; want the completed question", evs[len(evs)-1].Data)
	}

	// Resuming after event 17 replays exactly what followed.
	r = h.call(http.MethodGet, "/v1/questions/"+acc.ID+"/events", keyPublic, "", "Last-Event-ID", "17")
	var ids []string
	for _, e := range parseSSE(t, r.Body) {
		ids = append(ids, e.ID)
	}
	if diff := cmp.Diff([]string{"23", "29", "35"}, ids); diff != "" {
		t.Errorf("resumed ids (-want +got):\n%s", diff)
	}
	r = h.call(http.MethodGet, "/v1/questions/"+acc.ID+"/events?last_event_id=29", keyPublic, "")
	if evs := parseSSE(t, r.Body); len(evs) != 1 || evs[0].Type != api.EventResult {
		t.Errorf("?last_event_id=29 gave %v, want the result only", evs)
	}
	// At or past the result of an ended run there is nothing more: 204,
	// so an EventSource stops reconnecting.
	for _, last := range []string{"35", "36", "1000"} {
		r := h.call(http.MethodGet, "/v1/questions/"+acc.ID+"/events", keyPublic, "", "Last-Event-ID", last)
		if r.Status != http.StatusNoContent || len(r.Body) != 0 {
			t.Errorf("Last-Event-ID %s of an ended run = %d %q, want 204 and no body", last, r.Status, r.Body)
		}
	}
	for _, bad := range []string{"x", "-1", "1.5"} {
		r := h.call(http.MethodGet, "/v1/questions/"+acc.ID+"/events", keyPublic, "", "Last-Event-ID", bad)
		if e := r.errorOf(t); r.Status != 400 || e.Field != "Last-Event-ID" {
			t.Errorf("Last-Event-ID %q = %d %s, want 400 on Last-Event-ID", bad, r.Status, r.Body)
		}
	}
}

// heldStream starts a question the fake engine holds, serves h on a real
// server (configured by edit, if any) and opens the question's event
// stream; the test's cleanup closes both.
func heldStream(t *testing.T, h *harness, edit func(*http.Server)) *http.Response {
	t.Helper()
	h.eng.hold = true
	var acc api.Accepted
	h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`).decode(t, &acc)
	srv := httptest.NewUnstartedServer(h.srv.Handler())
	if edit != nil {
		edit(srv.Config)
	}
	srv.Start()
	t.Cleanup(srv.Close)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v1/questions/"+acc.ID+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+keyPublic)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestEventsKeepAlive: while a run is quiet the stream sends comments, and
// the result still arrives when the run ends.
func TestEventsKeepAlive(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Heartbeat = 5 * time.Millisecond })
	resp := heldStream(t, h, nil)
	br := bufio.NewReader(resp.Body)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended before a keep-alive: %v", err)
		}
		if line == ": keep-alive\n" {
			break
		}
	}
	h.eng.release()
	rest, _ := io.ReadAll(br)
	if !strings.Contains(string(rest), "event: result") {
		t.Errorf("no result after release:\n%s", rest)
	}
}

// TestEventsOutliveServerTimeouts: an event stream clears the server's
// read and write deadlines, so a stream longer than them still delivers
// its result, while an ordinary request stays bounded.
func TestEventsOutliveServerTimeouts(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.Heartbeat = 20 * time.Millisecond })
	resp := heldStream(t, h, func(s *http.Server) {
		s.ReadTimeout = 150 * time.Millisecond
		s.WriteTimeout = 150 * time.Millisecond
	})
	time.AfterFunc(600*time.Millisecond, h.eng.release) // four timeouts later
	rest, err := io.ReadAll(resp.Body)
	if err != nil || !strings.Contains(string(rest), "event: result") {
		t.Errorf("stream longer than the server's timeouts: err %v, no result:\n%s", err, rest)
	}
}
