package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/tokens"
	"github.com/assay-rag/assay/internal/wire"
)

// Event is one event of a question's stream. Ids increase strictly and are
// the same on every connection, so Last-Event-ID resumes exactly.
type Event struct {
	ID int64
	// Stage is set on stage events.
	Stage *api.StageEvent
	// Closed marks the closing event; Status is then Completed (with
	// Result) or Failed.
	Closed bool
	Status api.Status
	Result *wire.AnswerResult
}

// Tokens delivers the pieces of runs' streamed answers (package tokens:
// an in-process hub or Redis).
type Tokens interface {
	// Subscribe returns a subscription to the pieces published for run
	// from now on; the caller closes it.
	Subscribe(ctx context.Context, run string) (*tokens.Subscription, error)
}

// streamWriteTimeout bounds one write of an event stream.
const streamWriteTimeout = 30 * time.Second

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
	// An event stream outlives the server's read and write timeouts.
	// Instead each write gets its own deadline, so a client that stops
	// reading cannot hold the handler forever; heartbeats keep writes
	// coming. Not every writer supports deadlines (tests): errors are
	// ignored.
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	writeDeadline := func() { _ = rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout)) }
	// The stream starts (200, headers, retry hint) before the first event
	// of a running run, but only with the first event of an ended one: an
	// ended run with nothing after Last-Event-ID answers 204, which tells
	// an EventSource to stop reconnecting.
	var mu sync.Mutex
	started := false
	begin := func() error {
		if started {
			return nil
		}
		started = true
		writeDeadline()
		h := w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no") // proxies must not buffer the stream
		w.WriteHeader(http.StatusOK)
		if _, err := w.WriteString("retry: 2000\n\n"); err != nil {
			return err
		}
		w.Flush()
		return nil
	}
	write := func(s string) error {
		mu.Lock()
		defer mu.Unlock()
		if err := begin(); err != nil {
			return err
		}
		writeDeadline()
		if _, err := w.WriteString(s); err != nil {
			return err
		}
		w.Flush()
		return nil
	}
	keepAlive := func() error {
		mu.Lock()
		defer mu.Unlock()
		if !started {
			return nil // an ended run's stream has not begun; it may yet be a 204
		}
		writeDeadline()
		if _, err := w.WriteString(": keep-alive\n\n"); err != nil {
			return err
		}
		w.Flush()
		return nil
	}
	if run.Status == api.Running || after == 0 {
		mu.Lock()
		err := begin()
		mu.Unlock()
		if err != nil {
			return
		}
	}

	ctx, stop := context.WithCancel(c.Request.Context())
	// The handler must not return while the heartbeat may still write.
	defer heartbeat(ctx, s.opts.Heartbeat, keepAlive, stop)()
	defer stop()

	// Token events flow only while the run runs; a resumed stream may
	// have passed the generate stage already, so it forwards at once.
	var fwd *tokenForwarder
	if s.opts.Tokens != nil && run.Status == api.Running {
		sub, err := s.opts.Tokens.Subscribe(ctx, run.ID)
		if err != nil {
			s.opts.Logger.Warn("no token events for this stream", "run", run.ID, "error", err)
		} else {
			fwd = forwardTokens(ctx, sub, write, stop)
			defer fwd.stop()
			if after > 0 {
				fwd.open()
			}
		}
	}

	err = s.opts.Engine.Events(ctx, run.ID, after, func(e Event) error {
		typ, data := api.EventStage, any(e.Stage)
		if e.Closed {
			fwd.stop() // the pieces already here go out before the result
			if err := s.checkCited(ctx, principal(c).Groups, e.Result); err != nil {
				return err
			}
			r := run
			r.Status = e.Status
			typ, data = api.EventResult, questionResponse(r, e.Result)
		}
		b, err := json.Marshal(data)
		if err != nil {
			return err
		}
		if err := write(fmt.Sprintf("id: %d\nevent: %s\ndata: %s\n\n", e.ID, typ, b)); err != nil {
			return err
		}
		if e.Stage != nil && e.Stage.Stage == "generate" {
			fwd.open()
		}
		return nil
	})
	fwd.stop()
	mu.Lock()
	nothingSent := !started
	mu.Unlock()
	if err == nil && nothingSent {
		c.Status(http.StatusNoContent)
		c.Writer.WriteHeaderNow()
		return
	}
	if err != nil && ctx.Err() == nil {
		c.Error(err) //nolint:errcheck // recorded for the access log
		detail := api.ErrorDetail{Code: string(errs.KindOf(err)), Message: "event stream interrupted; reconnect with Last-Event-ID", RequestID: c.GetString(ctxRequestID)}
		if errors.Is(err, ErrWithheld) {
			detail.Field, detail.Message = "answer", ErrWithheld.Error()
		}
		b, _ := json.Marshal(detail)
		_ = write(fmt.Sprintf("event: %s\ndata: %s\n\n", api.EventError, b))
	}
}

// tokenGrace bounds how long a stopped forwarder waits for the rest of a
// stream it has begun to send. The worker publishes pieces from a queue,
// so a run's result can reach the gateway before its last pieces and the
// done marker do; without the wait a client would see the reply cut short.
const tokenGrace = 2 * time.Second

// tokenForwarder writes a run's pieces into its event stream as token
// events. It holds them back until open (the generate stage has been
// sent), so no piece precedes its stage; the subscription buffers them
// meanwhile, dropping the oldest if it must.
type tokenForwarder struct {
	sub      *tokens.Subscription
	gate     chan struct{}
	openOnce sync.Once
	quit     chan struct{}
	quitOnce sync.Once
	done     chan struct{}
}

// forwardTokens starts forwarding sub's pieces through write until the
// forwarder is stopped or ctx ends; a failed write calls fail.
func forwardTokens(ctx context.Context, sub *tokens.Subscription, write func(string) error, fail func()) *tokenForwarder {
	f := &tokenForwarder{sub: sub, gate: make(chan struct{}), quit: make(chan struct{}), done: make(chan struct{})}
	midStream := false // a stream's pieces have been sent but not its done marker
	send := func(p tokens.Piece) bool {
		midStream = !p.Done
		b, err := json.Marshal(api.TokenEvent(p))
		if err == nil {
			err = write(fmt.Sprintf("event: %s\ndata: %s\n\n", api.EventToken, b))
		}
		if err != nil {
			fail()
			return false
		}
		return true
	}
	go func() {
		defer close(f.done)
		select {
		case <-f.gate:
		case <-f.quit:
			return
		case <-ctx.Done():
			return
		}
		for {
			select {
			case p, ok := <-sub.Pieces():
				if !ok || !send(p) {
					return
				}
			case <-f.quit:
				// Send what has arrived and, for a stream begun, what
				// arrives until its done marker or tokenGrace; then stop.
				grace := time.NewTimer(tokenGrace)
				defer grace.Stop()
				for {
					if !midStream {
						select {
						case p, ok := <-sub.Pieces():
							if !ok || !send(p) {
								return
							}
							continue
						default:
							return
						}
					}
					select {
					case p, ok := <-sub.Pieces():
						if !ok || !send(p) {
							return
						}
					case <-grace.C:
						return
					case <-ctx.Done():
						return
					}
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return f
}

// open lets pieces through. It is safe on a nil forwarder.
func (f *tokenForwarder) open() {
	if f != nil {
		f.openOnce.Do(func() { close(f.gate) })
	}
}

// stop sends the pieces already received (if open) and the rest of a
// stream begun (up to tokenGrace), waits for the forwarder to end and
// closes the subscription. It is idempotent and
// safe on a nil forwarder.
func (f *tokenForwarder) stop() {
	if f == nil {
		return
	}
	f.quitOnce.Do(func() { close(f.quit) })
	<-f.done
	f.sub.Close()
}

// heartbeat calls beat every interval until ctx ends or beat fails (then
// it calls stop), in a goroutine; the func it returns waits for that
// goroutine to end.
func heartbeat(ctx context.Context, interval time.Duration, beat func() error, stop func()) (wait func()) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if beat() != nil {
					stop()
					return
				}
			}
		}
	}()
	return wg.Wait
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
