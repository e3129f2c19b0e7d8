package gateway

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/tokens"
)

// liveEvents opens question id's event stream on a real server and sends
// its events to the returned channel, which closes when the stream ends.
func liveEvents(t *testing.T, h *harness, id string, headers ...string) <-chan apiclient.StreamEvent {
	t.Helper()
	evs, _ := cancelableEvents(t, h, id, headers...)
	return evs
}

// cancelableEvents is liveEvents with the func that disconnects the
// client.
func cancelableEvents(t *testing.T, h *harness, id string, headers ...string) (<-chan apiclient.StreamEvent, context.CancelFunc) {
	t.Helper()
	srv := httptest.NewServer(h.srv.Handler())
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/v1/questions/"+id+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+keyPublic)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET events = %d", resp.StatusCode)
	}
	out := make(chan apiclient.StreamEvent, 100)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		_ = apiclient.ReadSSE(bufio.NewReader(resp.Body), func(e apiclient.StreamEvent) error {
			out <- e
			return nil
		})
	}()
	return out, cancel
}

// next returns the stream's next event, failing the test after 5s.
func next(t *testing.T, evs <-chan apiclient.StreamEvent) apiclient.StreamEvent {
	t.Helper()
	select {
	case e, ok := <-evs:
		if !ok {
			t.Fatal("the stream ended early")
		}
		return e
	case <-time.After(5 * time.Second):
		t.Fatal("no event within 5s")
	}
	return apiclient.StreamEvent{}
}

// untilGenerate reads stage events up to the generate stage, failing on
// anything else.
func untilGenerate(t *testing.T, evs <-chan apiclient.StreamEvent) {
	t.Helper()
	for {
		e := next(t, evs)
		if e.Type != api.EventStage {
			t.Fatalf("before the generate stage: %s event %s", e.Type, e.Data)
		}
		var st api.StageEvent
		if err := json.Unmarshal(e.Data, &st); err != nil {
			t.Fatal(err)
		}
		if st.Stage == "generate" {
			return
		}
	}
}

// heldAtGenerate submits a question whose run is held, opens its event
// stream and reads it up to the generate stage: the hub the gateway
// forwards pieces from, the harness (h.eng.release ends the run), the
// question and its stream.
func heldAtGenerate(t *testing.T) (*tokens.Hub, *harness, api.Accepted, <-chan apiclient.StreamEvent) {
	t.Helper()
	hub := tokens.NewHub(0)
	h := newHarness(t, func(o *Options) { o.Tokens = hub })
	h.eng.hold = true
	var acc api.Accepted
	h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`).decode(t, &acc)
	evs := liveEvents(t, h, acc.ID)
	untilGenerate(t, evs)
	return hub, h, acc, evs
}

func tokenOf(t *testing.T, e apiclient.StreamEvent) api.TokenEvent {
	t.Helper()
	if e.Type != api.EventToken || e.ID != "" {
		t.Fatalf("got %s event (id %q) %s, want a token event without an id", e.Type, e.ID, e.Data)
	}
	var te api.TokenEvent
	if err := json.Unmarshal(e.Data, &te); err != nil {
		t.Fatal(err)
	}
	return te
}

// TestEventsTokens: while a question runs, pieces published for it reach
// the stream as token events after the generate stage, live and in
// order; pieces published just before the run ends still go out before
// the result; then the subscription is gone.
func TestEventsTokens(t *testing.T) {
	hub, h, acc, evs := heldAtGenerate(t)

	// Live: each piece arrives while the run is still running.
	first := tokens.Piece{Stream: "29/1", Attempt: 1, Seq: 1, Text: "Five "}
	if err := hub.Publish(acc.ID, first); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(api.TokenEvent{Stream: "29/1", Attempt: 1, Seq: 1, Text: "Five "}, tokenOf(t, next(t, evs))); diff != "" {
		t.Errorf("first token (-want +got):\n%s", diff)
	}
	if err := hub.Publish("another-run", tokens.Piece{Stream: "9/1", Seq: 1, Text: "not mine"}); err != nil {
		t.Fatal(err)
	}

	// A retry starts a new stream; then done, and the run ends at once.
	rest := []tokens.Piece{
		{Stream: "29/1", Attempt: 1, Seq: 2, Text: "years "},
		{Stream: "29/2", Attempt: 2, Seq: 1, Text: "Five years "},
		{Stream: "29/2", Attempt: 2, Seq: 2, Text: "[1]."},
		{Stream: "29/2", Attempt: 2, Seq: 3, Done: true},
	}
	for _, p := range rest {
		if err := hub.Publish(acc.ID, p); err != nil {
			t.Fatal(err)
		}
	}
	h.eng.release()
	for _, p := range rest {
		if diff := cmp.Diff(api.TokenEvent(p), tokenOf(t, next(t, evs))); diff != "" {
			t.Errorf("token (-want +got):\n%s", diff)
		}
	}
	if e := next(t, evs); e.Type != api.EventResult {
		t.Errorf("after the tokens: %s event %s, want the result", e.Type, e.Data)
	}
	if e, ok := <-evs; ok {
		t.Errorf("after the result: %s event %s", e.Type, e.Data)
	}
	if n := hub.Subscribers(acc.ID); n != 0 {
		t.Errorf("%d subscriptions left after the stream ended", n)
	}
}

// TestEventsTokensLateTail: a worker publishes pieces from a queue, so a
// run's result can reach the gateway before the last pieces of a stream
// it has begun (round 44's CI saw it over Redis). The result waits for
// them, up to the done marker.
func TestEventsTokensLateTail(t *testing.T) {
	hub, h, acc, evs := heldAtGenerate(t)
	all := []tokens.Piece{
		{Stream: "29/1", Attempt: 1, Seq: 1, Text: "Five "},
		{Stream: "29/1", Attempt: 1, Seq: 2, Text: "years [1]."},
		{Stream: "29/1", Attempt: 1, Seq: 3, Done: true},
	}
	if err := hub.Publish(acc.ID, all[0]); err != nil {
		t.Fatal(err)
	}
	if te := tokenOf(t, next(t, evs)); te.Seq != 1 {
		t.Fatalf("first token = %+v", te)
	}
	h.eng.release() // the run ends with two pieces still on their way
	time.Sleep(200 * time.Millisecond)
	for _, p := range all[1:] {
		if err := hub.Publish(acc.ID, p); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range all[1:] {
		if diff := cmp.Diff(api.TokenEvent(p), tokenOf(t, next(t, evs))); diff != "" {
			t.Errorf("late token (-want +got):\n%s", diff)
		}
	}
	if e := next(t, evs); e.Type != api.EventResult {
		t.Errorf("after the late tokens: %s event %s, want the result", e.Type, e.Data)
	}
}

// TestEventsTokensNeverDone (rv45): a stream begun whose done marker never
// comes (a worker that died mid-answer, a lost publish) holds the result
// back for tokenGrace at most; then the result goes out and the
// subscription is gone.
func TestEventsTokensNeverDone(t *testing.T) {
	hub, h, acc, evs := heldAtGenerate(t)
	if err := hub.Publish(acc.ID, tokens.Piece{Stream: "29/1", Attempt: 1, Seq: 1, Text: "Five "}); err != nil {
		t.Fatal(err)
	}
	if te := tokenOf(t, next(t, evs)); te.Seq != 1 {
		t.Fatalf("first token = %+v", te)
	}
	start := time.Now()
	h.eng.release()
	if e := next(t, evs); e.Type != api.EventResult {
		t.Fatalf("after a stream with no end: %s event %s, want the result", e.Type, e.Data)
	}
	if d := time.Since(start); d > tokenGrace+time.Second {
		t.Errorf("the result came %v after the run ended, want within tokenGrace (%v)", d, tokenGrace)
	}
	if _, ok := <-evs; ok {
		t.Error("the stream goes on after the result")
	}
	if n := hub.Subscribers(acc.ID); n != 0 {
		t.Errorf("%d subscriptions left after the stream ended", n)
	}
}

// TestEventsTokensGoneInGrace (rv45): a client that disconnects while the
// result waits for the rest of a stream frees the stream at once, not
// after tokenGrace.
func TestEventsTokensGoneInGrace(t *testing.T) {
	hub := tokens.NewHub(0)
	h := newHarness(t, func(o *Options) { o.Tokens = hub })
	h.eng.hold = true
	var acc api.Accepted
	h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`).decode(t, &acc)
	evs, disconnect := cancelableEvents(t, h, acc.ID)
	untilGenerate(t, evs)
	if err := hub.Publish(acc.ID, tokens.Piece{Stream: "29/1", Attempt: 1, Seq: 1, Text: "Five "}); err != nil {
		t.Fatal(err)
	}
	if te := tokenOf(t, next(t, evs)); te.Seq != 1 {
		t.Fatalf("first token = %+v", te)
	}
	h.eng.release() // the result now waits for the stream's done marker
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	disconnect()
	for hub.Subscribers(acc.ID) != 0 {
		if d := time.Since(start); d > tokenGrace/2 {
			t.Fatalf("the subscription outlived its client by %v", d)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestEventsTokensWaitForGenerate: pieces that arrive before the stream
// has shown the generate stage wait for it; a stream resumed with
// Last-Event-ID forwards at once.
func TestEventsTokensWaitForGenerate(t *testing.T) {
	hub := tokens.NewHub(0)
	gate := make(chan struct{})
	h := newHarness(t, func(o *Options) { o.Tokens = hub })
	h.eng.hold = true
	h.eng.beforeGenerate = gate
	var acc api.Accepted
	h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`).decode(t, &acc)
	evs := liveEvents(t, h, acc.ID)
	for range 5 { // the stages before generate
		if e := next(t, evs); e.Type != api.EventStage {
			t.Fatalf("got %s event, want a stage", e.Type)
		}
	}
	for hub.Subscribers(acc.ID) == 0 {
		time.Sleep(time.Millisecond)
	}
	if err := hub.Publish(acc.ID, tokens.Piece{Stream: "29/1", Attempt: 1, Seq: 1, Text: "early"}); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-evs:
		t.Fatalf("before the generate stage the stream sent %s %s", e.Type, e.Data)
	case <-time.After(50 * time.Millisecond):
	}
	close(gate)
	untilGenerate(t, evs)
	if te := tokenOf(t, next(t, evs)); te.Text != "early" {
		t.Errorf("token after generate = %+v, want the early piece", te)
	}

	// Resumed after the generate stage (id 29): tokens flow at once.
	resumed := liveEvents(t, h, acc.ID, "Last-Event-ID", "29")
	for hub.Subscribers(acc.ID) < 2 {
		time.Sleep(time.Millisecond)
	}
	if err := hub.Publish(acc.ID, tokens.Piece{Stream: "29/1", Attempt: 1, Seq: 2, Text: "late"}); err != nil {
		t.Fatal(err)
	}
	if te := tokenOf(t, next(t, resumed)); te.Text != "late" || te.Seq != 2 {
		t.Errorf("resumed stream's token = %+v, want the late piece, seq 2", te)
	}
	h.eng.release()
	if te := tokenOf(t, next(t, evs)); te.Text != "late" {
		t.Errorf("first stream's token = %+v, want the late piece", te)
	}
	for _, s := range []<-chan apiclient.StreamEvent{evs, resumed} {
		if e := next(t, s); e.Type != api.EventResult {
			t.Errorf("got %s event, want the result", e.Type)
		}
	}
}

// TestEventsTokensNotForEndedRuns: a question that has ended gets no
// subscription and no token events, only its replayed stages and result.
func TestEventsTokensNotForEndedRuns(t *testing.T) {
	hub := tokens.NewHub(0)
	h := newHarness(t, func(o *Options) { o.Tokens = hub })
	var acc api.Accepted
	h.call(http.MethodPost, "/v1/questions", keyPublic, `{"question":"E4"}`).decode(t, &acc)
	r := h.call(http.MethodGet, "/v1/questions/"+acc.ID+"/events", keyPublic, "")
	for _, e := range parseSSE(t, r.Body) {
		if e.Type == api.EventToken {
			t.Errorf("an ended run's stream has a token event: %s", e.Data)
		}
	}
	if n := hub.Subscribers(acc.ID); n != 0 {
		t.Errorf("%d subscriptions for an ended run", n)
	}
}

// TestOpenAPITokenEvent keeps the TokenEvent schema equal to the type:
// the same properties, and real events (a piece, a done marker) valid.
func TestOpenAPITokenEvent(t *testing.T) {
	schema := loadOpenAPI(t).Components.Schemas["TokenEvent"]
	if schema == nil {
		t.Fatal("openapi.json has no api.TokenEvent schema")
	}
	var documented []string
	for name := range schema.Value.Properties {
		documented = append(documented, name)
	}
	var fields map[string]any
	b, _ := json.Marshal(api.TokenEvent{Stream: "7/1", Attempt: 1, Seq: 1, Text: "x", Done: true})
	if err := json.Unmarshal(b, &fields); err != nil {
		t.Fatal(err)
	}
	var actual []string
	for name := range fields {
		actual = append(actual, name)
	}
	slices.Sort(documented)
	slices.Sort(actual)
	if diff := cmp.Diff(actual, documented); diff != "" {
		t.Errorf("TokenEvent properties (-type +openapi.json):\n%s", diff)
	}
	for _, e := range []api.TokenEvent{{Stream: "7/1", Attempt: 1, Seq: 1, Text: "Five "}, {Stream: "7/2", Attempt: 2, Seq: 4, Done: true}} {
		var v any
		b, _ := json.Marshal(e)
		_ = json.Unmarshal(b, &v)
		if err := schema.Value.VisitJSON(v); err != nil {
			t.Errorf("token event %s does not match the schema: %v", b, err)
		}
	}
}
