package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/llm/llmtest"
	"github.com/assay-rag/assay/internal/wire"
)

// TestEndToEndTokenEvents: on `assay dev` with a streaming model, an SSE
// client sees the model's reply as token events, piece by piece and in
// order, after the generate stage and before the result, which carries
// the checked answer.
func TestEndToEndTokenEvents(t *testing.T) {
	srv := llmtest.New(t)
	s := startDevWithModel(t, srv)
	pieces := []string{"Blender motors ", "on the X200 and X300 Pro ", "are covered ", "for 5 years [1]", "[7]."}
	// The assessment is held back until the client follows the run: token
	// events are not replayed.
	following := make(chan struct{})
	srv.Enqueue(llmtest.Held(following, assessment(0.9, true, "")), llmtest.Stream(pieces, 500, 20))

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	checkTokenEvents(ctx, t, s.client(), pieces, following)
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1]; last.Chat == nil || !last.Chat.Stream {
		t.Error("the generation request did not ask the model to stream")
	}
}

// checkTokenEvents asks a question through c, follows its event stream and
// checks that the model's reply, scripted as pieces, arrives as token
// events between the generate stage and the result, and that the result
// is the checked answer (pieces end in an unissued marker, [7]). It closes
// following at the stream's first event: the gateway subscribes to the
// run's pieces before it sends any event, so a model reply held until then
// (llmtest.Held) cannot be published before anyone listens.
func checkTokenEvents(ctx context.Context, t *testing.T, c *apiclient.Client, pieces []string, following chan<- struct{}) {
	t.Helper()
	var once sync.Once
	follow := func() { once.Do(func() { close(following) }) }
	defer follow()
	id, err := c.Submit(ctx, api.QuestionRequest{Question: "how many years is the X300 Pro motor covered for"})
	if err != nil {
		t.Fatal(err)
	}
	var seen []string // event types, stages by name
	var toks []api.TokenEvent
	var res api.QuestionResponse
	errDone := errors.New("result")
	err = c.Events(ctx, id, "", func(e apiclient.StreamEvent) error {
		follow()
		switch e.Type {
		case api.EventStage:
			var st api.StageEvent
			if err := json.Unmarshal(e.Data, &st); err != nil {
				return err
			}
			seen = append(seen, st.Stage)
		case api.EventToken:
			var te api.TokenEvent
			if err := json.Unmarshal(e.Data, &te); err != nil {
				return err
			}
			if e.ID != "" {
				t.Errorf("token event with id %q; token events have none", e.ID)
			}
			if len(toks) == 0 || toks[len(toks)-1].Done != te.Done {
				seen = append(seen, map[bool]string{false: "tokens", true: "done"}[te.Done])
			}
			toks = append(toks, te)
		case api.EventResult:
			seen = append(seen, "result")
			if err := json.Unmarshal(e.Data, &res); err != nil {
				return err
			}
			return errDone
		default:
			t.Logf("%s event: %s", e.Type, e.Data)
			seen = append(seen, e.Type)
		}
		return nil
	})
	if !errors.Is(err, errDone) {
		t.Fatalf("event stream ended with %v after %v", err, seen)
	}
	if diff := cmp.Diff([]string{"search", "assess", "generate", "tokens", "done", "result"}, seen); diff != "" {
		t.Errorf("event order (-want +got):\n%s", diff)
	}
	var text strings.Builder
	for i, te := range toks {
		if te.Seq != int64(i+1) || te.Stream != toks[0].Stream || te.Attempt != 1 {
			t.Errorf("token %d = %+v, want seq %d of stream %s, attempt 1", i, te, i+1, toks[0].Stream)
		}
		text.WriteString(te.Text)
	}
	if text.String() != strings.Join(pieces, "") || len(toks) != len(pieces)+1 {
		t.Errorf("tokens spell %q in %d events, want the model's reply %q in %d and done", text.String(), len(toks), strings.Join(pieces, ""), len(pieces)+1)
	}
	if res.StopReason != wire.Answered || strings.Contains(res.Answer, "[7]") || len(res.Citations) != 1 {
		t.Errorf("result: %s %q citing %v, want answered with [7] stripped and one citation", res.StopReason, res.Answer, res.Citations)
	}
}
