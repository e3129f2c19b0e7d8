// Package tokens carries the answer pieces a streaming model produces from
// the Generate activity to the gateway's event streams, beside Temporal
// rather than through it: pieces are too many and too short-lived for
// workflow history, and nobody needs them once the run's result exists.
//
// The activity publishes the pieces of a run (its workflow id), the
// gateway subscribes by run id. Delivery is best effort: a subscriber that
// falls behind loses its oldest pieces, nothing is replayed to a late
// subscriber, and the run's result, not the pieces, is the answer. Each
// piece carries its stream (one Generate attempt) and a sequence number,
// so a consumer can tell a new attempt from a gap.
//
// Two transports: Hub, in process (assay dev, tests), and Redis pub/sub,
// for a worker and a gateway in separate processes. The interfaces belong
// to their consumers (activities.TokenPublisher, gateway.Tokens).
package tokens

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
)

// Piece is one event of a run's token stream.
type Piece struct {
	// Stream names one generation: the Generate activity's id and its
	// attempt, "<activity id>/<attempt>". A retried attempt or a fallback
	// model starts a new stream, whose pieces replace the old stream's.
	Stream string `json:"stream"`
	// Attempt is the activity attempt (from 1) that produced the piece.
	Attempt int `json:"attempt"`
	// Seq numbers a stream's pieces from 1, the done marker included; a
	// gap means pieces were dropped.
	Seq int64 `json:"seq"`
	// Text is the raw piece: citation markers in it are not checked yet.
	Text string `json:"text,omitempty"`
	// Done marks the stream's last piece; it carries no text. The checked
	// answer comes with the run's result.
	Done bool `json:"done,omitempty"`
}

// DefaultBuffer is how many pieces a subscription holds for a slow reader
// before it drops the oldest.
const DefaultBuffer = 256

// ErrClosed is returned by a closed transport.
var ErrClosed = errors.New("tokens: closed")

// errNoRun is returned for an empty run id.
var errNoRun = errors.New("tokens: run id must not be empty")

// Subscription receives the pieces published for one run after it was
// made. Its buffer is bounded: when the reader falls behind, the oldest
// piece is dropped (and counted), never the publisher held up, so the
// done marker, which comes last, survives.
type Subscription struct {
	ch      chan Piece
	dropped atomic.Int64
	once    sync.Once
	cancel  func(*Subscription)
}

// Pieces is the channel of pieces; it is closed by Close.
func (s *Subscription) Pieces() <-chan Piece { return s.ch }

// Dropped is how many pieces were dropped because the reader fell behind.
func (s *Subscription) Dropped() int64 { return s.dropped.Load() }

// Close ends the subscription and closes Pieces. It is idempotent.
func (s *Subscription) Close() { s.once.Do(func() { s.cancel(s) }) }

// offer puts p in the buffer, dropping the oldest pieces to make room.
// Callers serialize offers to one subscription (Hub holds its lock).
func (s *Subscription) offer(p Piece) {
	for {
		select {
		case s.ch <- p:
			return
		default:
		}
		select {
		case <-s.ch:
			s.dropped.Add(1)
		default:
		}
	}
}

// Hub is the in-process transport: Publish hands a piece to every
// subscription of its run, never blocking. The zero value is not usable;
// call NewHub.
type Hub struct {
	buffer int
	mu     sync.Mutex
	subs   map[string]map[*Subscription]struct{}
	// onIdle, when set, is called (without the lock) when a run's last
	// subscription closes; Redis unsubscribes its channel there.
	onIdle func(run string)
}

// NewHub returns a hub whose subscriptions buffer up to buffer pieces
// each (DefaultBuffer when buffer < 1).
func NewHub(buffer int) *Hub {
	if buffer < 1 {
		buffer = DefaultBuffer
	}
	return &Hub{buffer: buffer, subs: map[string]map[*Subscription]struct{}{}}
}

// Publish delivers p to run's current subscriptions. It never blocks: a
// full subscription drops its oldest piece. A run nobody follows costs
// nothing. The only error is an empty run id.
func (h *Hub) Publish(run string, p Piece) error {
	if run == "" {
		return errNoRun
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs[run] {
		s.offer(p)
	}
	return nil
}

// Subscribe returns a subscription to the pieces published for run from
// now on. The caller must Close it. The only error is an empty run id.
func (h *Hub) Subscribe(_ context.Context, run string) (*Subscription, error) {
	if run == "" {
		return nil, errNoRun
	}
	s := &Subscription{ch: make(chan Piece, h.buffer)}
	s.cancel = func(s *Subscription) { h.remove(run, s) }
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[run] == nil {
		h.subs[run] = map[*Subscription]struct{}{}
	}
	h.subs[run][s] = struct{}{}
	return s, nil
}

// Subscribers returns how many subscriptions run has.
func (h *Hub) Subscribers(run string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs[run])
}

func (h *Hub) remove(run string, s *Subscription) {
	h.mu.Lock()
	delete(h.subs[run], s)
	idle := len(h.subs[run]) == 0
	if idle {
		delete(h.subs, run)
	}
	// Offers happen under the lock, so none can follow this close.
	close(s.ch)
	h.mu.Unlock()
	if idle && h.onIdle != nil {
		h.onIdle(run)
	}
}
