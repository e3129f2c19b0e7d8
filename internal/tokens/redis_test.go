package tokens

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/assay-rag/assay/internal/redistest"
)

func newTestRedis(t *testing.T, addr string, buffer int) *Redis {
	t.Helper()
	r, err := NewRedis(RedisOptions{Addr: addr, Prefix: "assay:test:" + t.Name() + ":", Buffer: buffer})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := r.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	return r
}

// collect reads from s until the done marker or the timeout.
func collect(t *testing.T, s *Subscription, timeout time.Duration) []Piece {
	t.Helper()
	var out []Piece
	deadline := time.After(timeout)
	for {
		select {
		case p, ok := <-s.Pieces():
			if !ok {
				return out
			}
			out = append(out, p)
			if p.Done {
				return out
			}
		case <-deadline:
			t.Errorf("no done marker within %s; got %d pieces", timeout, len(out))
			return out
		}
	}
}

// TestRedis: a publisher and two subscribing processes (three clients of
// one server) exchange a run's stream in order, runs stay apart, and
// a closed subscription stops receiving.
func TestRedis(t *testing.T) {
	addr := redistest.Addr(t)
	worker, gw1, gw2 := newTestRedis(t, addr, 0), newTestRedis(t, addr, 0), newTestRedis(t, addr, 0)
	ctx := context.Background()
	a1, err := gw1.Subscribe(ctx, "run-a")
	if err != nil {
		t.Fatal(err)
	}
	defer a1.Close()
	a2, err := gw2.Subscribe(ctx, "run-a")
	if err != nil {
		t.Fatal(err)
	}
	defer a2.Close()
	b, err := gw2.Subscribe(ctx, "run-b")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	want := stream("7/1", 50)
	for _, p := range want {
		if err := worker.Publish("run-a", p); err != nil {
			t.Fatal(err)
		}
	}
	if err := worker.Publish("run-b", Piece{Stream: "3/2", Attempt: 2, Seq: 1, Done: true}); err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*Subscription{"gateway 1": a1, "gateway 2": a2} {
		if diff := cmp.Diff(want, collect(t, s, 5*time.Second)); diff != "" {
			t.Errorf("%s, run-a (-want +got):\n%s", name, diff)
		}
	}
	if diff := cmp.Diff([]Piece{{Stream: "3/2", Attempt: 2, Seq: 1, Done: true}}, collect(t, b, 5*time.Second)); diff != "" {
		t.Errorf("run-b (-want +got):\n%s", diff)
	}

	// A process unsubscribes a run's channel with its last subscription
	// to it: one server-side subscriber (gw1's) remains.
	a2.Close()
	channel := gw2.prefix + "run-a"
	subscribers := func() int64 {
		n, err := worker.client.PubSubNumSub(ctx, channel).Result()
		if err != nil {
			t.Fatal(err)
		}
		return n[channel]
	}
	for deadline := time.Now().Add(5 * time.Second); subscribers() != 1 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if n := subscribers(); n != 1 {
		t.Errorf("after gateway 2 closed its subscription, %s has %d subscribers, want 1 (gateway 1)", channel, n)
	}
	late := Piece{Stream: "7/2", Attempt: 2, Seq: 1, Done: true}
	if err := worker.Publish("run-a", late); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Piece{late}, collect(t, a1, 5*time.Second)); diff != "" {
		t.Errorf("gateway 1 after gateway 2 left (-want +got):\n%s", diff)
	}
	if got := drain(a2); len(got) != 0 {
		t.Errorf("a closed subscription received %+v", got)
	}
}

// TestRedisErrors: bad options and use after Close are errors.
func TestRedisErrors(t *testing.T) {
	for _, o := range []RedisOptions{{}, {Addr: "localhost"}, {Addr: "127.0.0.1:6379", Queue: -1}} {
		if _, err := NewRedis(o); err == nil {
			t.Errorf("NewRedis(%+v) = nil error, want one", o)
		}
	}
	r, err := NewRedis(RedisOptions{Addr: "127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Publish("", Piece{}); err == nil {
		t.Error("Publish(\"\") = nil, want an error")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Publish("run", Piece{}); err != ErrClosed {
		t.Errorf("Publish after Close = %v, want ErrClosed", err)
	}
	if _, err := r.Subscribe(context.Background(), "run"); err != ErrClosed {
		t.Errorf("Subscribe after Close = %v, want ErrClosed", err)
	}
}
