package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/cli"
	"github.com/assay-rag/assay/internal/devserver/devservertest"
	"github.com/assay-rag/assay/internal/e2e/stacktest"
)

// waitGateway waits up to 30s for the gateway at base to answer
// /healthz, failing t with what the processes printed (logs) when it
// does not.
func waitGateway(t *testing.T, base string, logs fmt.Stringer) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("standalone gateway not up:\n%s", logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// devStack is `assay dev` running in-process on free ports.
type devStack struct {
	URL          string
	TemporalAddr string
	DataDir      string
	stdout       *syncBuffer
	stderr       *syncBuffer
	cancel       context.CancelFunc
	done         chan error
}

func startDev(t *testing.T, dataDir string, extra ...string) *devStack {
	t.Helper()
	// A port FreePort found free can be taken by another test's stack
	// before this one binds it; such a clash (and only that) is retried
	// on new ports.
	for attempt := 1; ; attempt++ {
		s, err := tryStartDev(t, stacktest.FreePort(t), stacktest.FreePort(t), dataDir, extra...)
		if err == nil {
			t.Cleanup(func() { s.stop(t) })
			return s
		}
		if !errors.Is(err, syscall.EADDRINUSE) || attempt == 3 {
			t.Fatalf("assay dev exited early: %v\nstderr:\n%s", err, s.stderr.String())
		}
		t.Logf("assay dev, attempt %d: %v; trying other ports", attempt, err)
	}
}

// tryStartDev starts the stack on the given ports and waits for its
// gateway; an error is the stack's own, returned when it exits early.
// The gateway is up when this stack has said so on its stdout and the port
// answers /healthz: a 200 alone may come from another test's stack that
// took the port first.
func tryStartDev(t *testing.T, httpPort, temporalPort int, dataDir string, extra ...string) (*devStack, error) {
	t.Helper()
	bin := devservertest.Binary(t)
	s := &devStack{
		URL:          fmt.Sprintf("http://127.0.0.1:%d", httpPort),
		TemporalAddr: fmt.Sprintf("127.0.0.1:%d", temporalPort),
		DataDir:      dataDir,
		stdout:       &syncBuffer{},
		stderr:       &syncBuffer{},
		done:         make(chan error, 1),
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	args := append([]string{"assay", "dev",
		"--data-dir", dataDir,
		"--http-addr", fmt.Sprintf("127.0.0.1:%d", httpPort),
		"--temporal-port", strconv.Itoa(temporalPort),
		"--ui-port", "0",
		"--temporal-bin", bin,
		"--corpus", "../../testdata/hollin/corpus.jsonl",
	}, extra...)
	go func() { s.done <- cli.Run(ctx, args, func(string) string { return "" }, s.stdout, s.stderr) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case err := <-s.done:
			cancel()
			s.cancel = nil
			if err == nil {
				err = errors.New("returned nil before its gateway answered")
			}
			return s, err
		default:
		}
		if strings.Contains(s.stdout.String(), devUp) {
			if resp, err := http.Get(s.URL + "/healthz"); err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					return s, nil
				}
			}
		}
		if time.Now().After(deadline) {
			s.stop(t)
			t.Fatalf("gateway not up after 60s\nstderr:\n%s", s.stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// devUp is what `assay dev` prints once its gateway is built, just before
// it serves.
const devUp = "assay is up ("

// stop cancels the stack (as Ctrl-C would) and checks it shut down cleanly.
func (s *devStack) stop(t *testing.T) {
	t.Helper()
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.cancel = nil
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("assay dev returned %v on shutdown\nstderr:\n%s", err, s.stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Errorf("assay dev did not stop within 30s")
	}
}

func (s *devStack) client() *apiclient.Client {
	return &apiclient.Client{BaseURL: s.URL}
}

func (s *devStack) ask(t *testing.T, question string) api.QuestionResponse {
	t.Helper()
	_, q := s.askID(t, question)
	return q
}

// askID is ask that also returns the run's id.
func (s *devStack) askID(t *testing.T, question string) (string, api.QuestionResponse) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return stacktest.Ask(ctx, t, s.client(), question)
}

func TestEndToEndAnswered(t *testing.T) {
	s := startDev(t, t.TempDir())
	q := s.ask(t, "how many years is the X300 Pro motor covered for")
	stacktest.CheckWarrantyAnswered(t, q)
	if !strings.Contains(s.stdout.String(), s.URL) {
		t.Errorf("start-up output does not print the gateway URL %s:\n%s", s.URL, s.stdout.String())
	}
}

func TestEndToEndNoAnswer(t *testing.T) {
	s := startDev(t, t.TempDir())
	q := s.ask(t, "what is the capital of Peru")
	if q.StopReason != "insufficient_context" || !strings.Contains(q.Answer, "could not find") || len(q.Citations) != 0 {
		t.Fatalf("got stop %s, answer %q, %d citations; want insufficient_context with the not-found answer", q.StopReason, q.Answer, len(q.Citations))
	}
}

// TestEndToEndRestartKeepsHistory stops the stack and starts it again on
// the same data dir: earlier runs are still there.
func TestEndToEndRestartKeepsHistory(t *testing.T) {
	dir := t.TempDir()
	s := startDev(t, dir)
	first := s.ask(t, "E4")
	s.stop(t)

	s2 := startDev(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got, err := s2.client().Get(ctx, first.ID)
	if err != nil {
		t.Fatalf("after restart, Get(%s): %v", first.ID, err)
	}
	if got.Status != api.Completed || got.StopReason != first.StopReason {
		t.Errorf("after restart: %s/%s, want %s/%s", got.Status, got.StopReason, first.Status, first.StopReason)
	}
}

func TestEndToEndBadInput(t *testing.T) {
	s := startDev(t, t.TempDir())
	tests := []struct {
		name, body string
		status     int
		field      string
	}{
		{"missing question", `{}`, 400, "question"},
		{"blank question", `{"question":"   "}`, 400, "question"},
		{"wrong type", `{"question": 7}`, 400, "question"},
		{"unknown field", `{"question":"E4","groups":["staff"]}`, 400, "groups"},
		{"not JSON", `question=E4`, 400, "body"},
		{"empty body", ``, 400, "body"},
		{"too long", `{"question":"` + strings.Repeat("x", 3000) + `"}`, 400, "question"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Post(s.URL+"/v1/questions", "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body bytes.Buffer
			body.ReadFrom(resp.Body)
			if resp.StatusCode != tt.status || !strings.Contains(body.String(), `"field":"`+tt.field+`"`) {
				t.Errorf("POST %s = %d %s; want %d naming field %q", tt.body, resp.StatusCode, body.String(), tt.status, tt.field)
			}
		})
	}
	resp, err := http.Get(s.URL + "/v1/questions/0b0e2c5e-6a1b-4bb4-8d7c-111111111111")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET unknown id = %d, want 404", resp.StatusCode)
	}
}
