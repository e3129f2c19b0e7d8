package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/workflows"
)

// Event types of GET /v1/questions/{id}/events.
const (
	// EventStage: the run entered a stage (search, assess, rewrite,
	// generate) of an attempt. Data: StageEvent.
	EventStage = "stage"
	// EventResult is the last event: the question as GET
	// /v1/questions/{id} returns it once the run has ended.
	EventResult = "result"
	// EventToken is reserved for answer tokens from a streaming model:
	// data {"attempt": n, "text": "..."}. The builtin models do not
	// stream, so no such event is sent yet.
	EventToken = "token"
	// EventError says the stream broke off before the result, e.g.
	// because Temporal became unreachable; it has no id, and a client
	// reconnects with the Last-Event-ID it has.
	EventError = "error"
)

// Event is one event of a question's stream. Ids increase strictly and are
// the same on every connection, so Last-Event-ID resumes exactly.
type Event struct {
	ID int64
	// Stage is set on stage events.
	Stage *StageEvent
	// Closed marks the closing event; Status is then Completed (with
	// Result) or Failed.
	Closed bool
	Status Status
	Result *workflows.AnswerResult
}

// StageEvent is the data of a stage event.
type StageEvent struct {
	Stage   string `json:"stage"`
	Attempt int    `json:"attempt"`
	// Query is the attempt's query, on search and rewrite events.
	Query string `json:"query,omitempty"`
}

// getEvents streams a question's progress as Server-Sent Events. Stages
// come from the run's durable history, not from polling, so no stage is
// missed however fast the run is, and a reconnect with Last-Event-ID
// replays exactly what came after. Comments keep idle connections alive.
func (s *Server) getEvents(c *gin.Context) {
	after, err := lastEventID(c)
	if err != nil {
		writeError(c, err)
		return
	}
	run, ok := s.ownRun(c, KindQuestion)
	if !ok {
		return
	}
	w := c.Writer
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // proxies must not buffer the stream
	w.WriteHeader(http.StatusOK)

	var mu sync.Mutex
	write := func(s string) error {
		mu.Lock()
		defer mu.Unlock()
		if _, err := w.WriteString(s); err != nil {
			return err
		}
		w.Flush()
		return nil
	}
	if err := write("retry: 2000\n\n"); err != nil {
		return
	}

	ctx, stop := context.WithCancel(c.Request.Context())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(s.opts.Heartbeat)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if write(": keep-alive\n\n") != nil {
					stop()
					return
				}
			}
		}
	}()
	// The handler must not return while the heartbeat may still write.
	defer wg.Wait()
	defer stop()

	err = s.opts.Engine.Events(ctx, run.ID, after, func(e Event) error {
		typ, data := EventStage, any(e.Stage)
		if e.Closed {
			r := run
			r.Status = e.Status
			typ, data = EventResult, questionResponse(r, e.Result)
		}
		b, err := json.Marshal(data)
		if err != nil {
			return err
		}
		return write(fmt.Sprintf("id: %d\nevent: %s\ndata: %s\n\n", e.ID, typ, b))
	})
	if err != nil && ctx.Err() == nil {
		c.Error(err) //nolint:errcheck // recorded for the access log
		b, _ := json.Marshal(apiError{Code: string(errs.KindOf(err)), Message: "event stream interrupted; reconnect with Last-Event-ID", RequestID: c.GetString(ctxRequestID)})
		_ = write(fmt.Sprintf("event: %s\ndata: %s\n\n", EventError, b))
	}
}

// lastEventID reads the Last-Event-ID header (or ?last_event_id= for
// clients that cannot set headers): the id of the last event the client
// has, 0 for none.
func lastEventID(c *gin.Context) (int64, error) {
	v := c.GetHeader("Last-Event-ID")
	field := "Last-Event-ID"
	if v == "" {
		v, field = c.Query("last_event_id"), "last_event_id"
	}
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, errs.FieldError("gateway.events", field, fmt.Sprintf("want a non-negative event id, got %q", v))
	}
	return n, nil
}
