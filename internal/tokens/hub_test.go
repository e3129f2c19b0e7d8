package tokens

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// stream returns n text pieces of one stream and its done marker.
func stream(name string, n int) []Piece {
	var out []Piece
	for i := 1; i <= n; i++ {
		out = append(out, Piece{Stream: name, Attempt: 1, Seq: int64(i), Text: fmt.Sprintf("w%d ", i)})
	}
	return append(out, Piece{Stream: name, Attempt: 1, Seq: int64(n + 1), Done: true})
}

// drain reads what s holds now, without waiting.
func drain(s *Subscription) []Piece {
	var out []Piece
	for {
		select {
		case p, ok := <-s.Pieces():
			if !ok {
				return out
			}
			out = append(out, p)
		default:
			return out
		}
	}
}

func subscribe(t *testing.T, h *Hub, run string) *Subscription {
	t.Helper()
	s, err := h.Subscribe(context.Background(), run)
	if err != nil {
		t.Fatalf("Subscribe(%q): %v", run, err)
	}
	t.Cleanup(s.Close)
	return s
}

// TestHubOrderAndRuns: every subscription of a run gets its pieces in
// publish order, done last; other runs' pieces never show up.
func TestHubOrderAndRuns(t *testing.T) {
	h := NewHub(0)
	a1, a2, b := subscribe(t, h, "run-a"), subscribe(t, h, "run-a"), subscribe(t, h, "run-b")
	want := stream("7/1", 20)
	for i, p := range want {
		if err := h.Publish("run-a", p); err != nil {
			t.Fatal(err)
		}
		if i == 3 {
			if err := h.Publish("run-b", Piece{Stream: "3/1", Seq: 1, Text: "other"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, s := range map[string]*Subscription{"first": a1, "second": a2} {
		if diff := cmp.Diff(want, drain(s)); diff != "" {
			t.Errorf("%s subscription of run-a (-want +got):\n%s", name, diff)
		}
	}
	if got := drain(b); len(got) != 1 || got[0].Text != "other" {
		t.Errorf("run-b got %+v, want its one piece", got)
	}
}

// TestHubDropsOldest: a reader that does not read keeps the newest pieces
// its buffer holds, the done marker among them, and the publisher never
// waits.
func TestHubDropsOldest(t *testing.T) {
	h := NewHub(4)
	s := subscribe(t, h, "run")
	all := stream("7/1", 10) // 11 pieces
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, p := range all {
			_ = h.Publish("run", p)
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Publish blocked on a subscriber that does not read")
	}
	got := drain(s)
	if diff := cmp.Diff(all[len(all)-4:], got); diff != "" {
		t.Errorf("kept pieces (-want the newest 4 +got):\n%s", diff)
	}
	if s.Dropped() != 7 {
		t.Errorf("Dropped() = %d, want 7", s.Dropped())
	}
	if !got[len(got)-1].Done {
		t.Error("the done marker was dropped")
	}
}

// TestHubLateSubscriber: nothing is replayed; a subscriber sees pieces
// from when it subscribed, and can tell by the sequence numbers.
func TestHubLateSubscriber(t *testing.T) {
	h := NewHub(0)
	all := stream("7/1", 4)
	for _, p := range all[:2] {
		_ = h.Publish("run", p)
	}
	s := subscribe(t, h, "run")
	for _, p := range all[2:] {
		_ = h.Publish("run", p)
	}
	if diff := cmp.Diff(all[2:], drain(s)); diff != "" {
		t.Errorf("late subscriber (-want +got):\n%s", diff)
	}
}

// TestHubClose: Close ends Pieces, is idempotent, stops delivery and
// forgets the run once its last subscription is gone.
func TestHubClose(t *testing.T) {
	h := NewHub(0)
	s1, s2 := subscribe(t, h, "run"), subscribe(t, h, "run")
	if n := h.Subscribers("run"); n != 2 {
		t.Fatalf("Subscribers = %d, want 2", n)
	}
	s1.Close()
	s1.Close()
	if _, ok := <-s1.Pieces(); ok {
		t.Error("Pieces of a closed subscription is not closed")
	}
	_ = h.Publish("run", Piece{Stream: "7/1", Seq: 1, Text: "x"})
	if got := drain(s2); len(got) != 1 {
		t.Errorf("remaining subscription got %d pieces, want 1", len(got))
	}
	s2.Close()
	if n := h.Subscribers("run"); n != 0 {
		t.Errorf("Subscribers after closing all = %d, want 0", n)
	}
	h.mu.Lock()
	runs := len(h.subs)
	h.mu.Unlock()
	if runs != 0 {
		t.Errorf("hub still tracks %d runs with no subscribers", runs)
	}
	if err := h.Publish("run", Piece{Seq: 2}); err != nil {
		t.Errorf("Publish to a run nobody follows = %v, want nil", err)
	}
}

func TestHubEmptyRun(t *testing.T) {
	h := NewHub(0)
	if err := h.Publish("", Piece{}); err == nil {
		t.Error("Publish(\"\") = nil, want an error")
	}
	if _, err := h.Subscribe(context.Background(), ""); err == nil {
		t.Error("Subscribe(\"\") = nil error, want one")
	}
}

// TestHubConcurrent: publishing, reading and closing at once is safe (run
// with -race) and each reader still sees increasing sequence numbers.
func TestHubConcurrent(t *testing.T) {
	h := NewHub(8)
	var wg sync.WaitGroup
	for r := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := h.Subscribe(context.Background(), "run")
			if err != nil {
				t.Error(err)
				return
			}
			defer s.Close()
			last := int64(0)
			for p := range s.Pieces() {
				if p.Seq <= last {
					t.Errorf("reader %d: seq %d after %d", r, p.Seq, last)
				}
				last = p.Seq
				if p.Done || (r == 0 && p.Seq > 50) {
					return
				}
			}
		}()
	}
	for h.Subscribers("run") < 4 {
		time.Sleep(time.Millisecond)
	}
	for _, p := range stream("7/1", 500) {
		_ = h.Publish("run", p)
	}
	wg.Wait()
}
