package llmtest

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestHeld: a held reply is not sent before its channel closes, and is
// sent once it does.
func TestHeld(t *testing.T) {
	s := New(t)
	release := make(chan struct{})
	s.Enqueue(Held(release, Reply("held reply", 1, 1)))
	got := make(chan string, 1)
	go func() {
		resp, err := http.Post(s.URL()+"/chat/completions", "application/json",
			strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"q"}]}`))
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		got <- string(b)
	}()
	select {
	case b := <-got:
		t.Fatalf("reply before release: %s", b)
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	select {
	case b := <-got:
		if !strings.Contains(b, "held reply") {
			t.Errorf("reply after release = %s, want the held reply", b)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no reply 10s after release")
	}
}
