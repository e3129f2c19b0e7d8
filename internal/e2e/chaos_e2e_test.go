package e2e

import (
	"context"
	"fmt"
	"github.com/assay-rag/assay/internal/devserver/devservertest"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"github.com/assay-rag/assay/internal/apiclient"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/devserver"
	"github.com/assay-rag/assay/internal/e2e/stacktest"
)

// The crash tests run the real binary as separate processes — a Temporal
// dev server, two `assay worker`s and an `assay gateway` — and crash
// parts of it while a batch runs. They take a few minutes, so they run
// with ASSAY_CHAOS=1 (`make test-chaos`, which CI runs after `make test`).

const chaosKey = "chaos-key"

func chaosEnabled(t *testing.T) {
	t.Helper()
	if os.Getenv("ASSAY_CHAOS") != "1" {
		t.Skip("SKIPPED: crash tests (worker SIGKILL, Temporal restart); set ASSAY_CHAOS=1 or run `make test-chaos`")
	}
}

// proc is one process of the binary.
type proc struct {
	cmd  *exec.Cmd
	done chan error
}

// chaosStack is the deployment under test.
type chaosStack struct {
	t            *testing.T
	exe, bin     string
	dir, cfg     string
	temporalPort int
	srv          *devserver.Server
	workers      [2]*proc
	gateway      *proc
	base         string
	logs         *syncBuffer
}

// newChaosStack starts the stack; extra is appended to its configuration
// file (YAML).
func newChaosStack(t *testing.T, extra ...string) *chaosStack {
	t.Helper()
	bin := devservertest.Binary(t)
	dir := t.TempDir()
	exe := filepath.Join(dir, "assay")
	if out, err := exec.Command("go", "build", "-o", exe, "../../cmd/assay").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	s := &chaosStack{t: t, exe: exe, bin: bin, dir: dir, temporalPort: stacktest.FreePort(t), logs: &syncBuffer{},
		base: fmt.Sprintf("127.0.0.1:%d", stacktest.FreePort(t))}
	s.cfg = filepath.Join(dir, "assay.yaml")
	body := fmt.Sprintf(`auth:
  keys:
    - name: chaos
      sha256: %s
      groups: [public]
batch:
  concurrency: 8
`, auth.Hash(chaosKey)) + strings.Join(extra, "")
	if err := os.WriteFile(s.cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	s.startTemporal()
	for i := range s.workers {
		s.startWorker(i)
	}
	// The gateway reads worker 0's index: it checks that a stored answer's
	// cited documents are still visible before it returns the answer.
	s.gateway = s.start("gateway", "--config", s.cfg, "--http-addr", s.base, "--temporal-address", s.addr(),
		"--index-dir", filepath.Join(s.dir, "index-0"))
	t.Cleanup(s.stop)
	s.waitReady()
	return s
}

func (s *chaosStack) addr() string { return fmt.Sprintf("127.0.0.1:%d", s.temporalPort) }

func (s *chaosStack) startTemporal() {
	s.t.Helper()
	srv, err := devserver.Start(context.Background(), devserver.Options{
		Bin: s.bin, DataDir: filepath.Join(s.dir, "temporal"), Port: s.temporalPort,
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		s.t.Fatalf("temporal dev server: %v", err)
	}
	s.srv = srv
}

func (s *chaosStack) startWorker(i int) {
	corpus, _ := filepath.Abs("../../testdata/hollin/corpus.jsonl")
	s.workers[i] = s.start("worker", "--config", s.cfg, "--temporal-address", s.addr(),
		"--index-dir", filepath.Join(s.dir, "index-"+strconv.Itoa(i)), "--corpus", corpus)
}

func (s *chaosStack) start(args ...string) *proc {
	s.t.Helper()
	cmd := exec.Command(s.exe, args...)
	cmd.Stdout, cmd.Stderr = s.logs, s.logs
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	p := &proc{cmd: cmd, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait() }()
	return p
}

// kill ends a process with SIGKILL, as a crash would.
func (p *proc) kill() {
	_ = p.cmd.Process.Kill()
	<-p.done
}

// waitReady waits until the gateway says it is ready: Temporal reachable
// and a worker polling.
func (s *chaosStack) waitReady() {
	s.t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); ; {
		if resp, err := http.Get("http://" + s.base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("stack not ready after 2 minutes:\n%s", s.logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// stop ends the processes gracefully (SIGTERM) and then the server.
func (s *chaosStack) stop() {
	for _, p := range append([]*proc{s.gateway}, s.workers[:]...) {
		if p == nil {
			continue
		}
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(30 * time.Second):
			p.kill()
		}
	}
	if s.srv != nil {
		s.srv.Stop(10 * time.Second)
	}
}

// runBatch runs n Hollin questions as one batch on the stack (see
// stacktest.RunBatch) and returns their outcomes by question id.
func (s *chaosStack) runBatch(ctx context.Context, n int, during func(done int)) map[string]stacktest.Outcome {
	s.t.Helper()
	c := &apiclient.Client{BaseURL: "http://" + s.base, APIKey: chaosKey}
	return stacktest.RunBatch(ctx, s.t, c, stacktest.Questions(s.t, "../../testdata/hollin/questions.jsonl"), n, during, s.logs.String)
}

// interrupted counts, over the questions' histories, the tasks the crash
// cut off: workflow and activity tasks that timed out or failed and were
// run again. It shows the crash hit work in flight.
func interrupted(ctx context.Context, t *testing.T, tc client.Client, got map[string]stacktest.Outcome) int {
	t.Helper()
	n := 0
	for _, o := range got {
		it := tc.GetWorkflowHistory(ctx, o.Run, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Errorf("history of %s: %v", o.Run, err)
				break
			}
			switch ev.GetEventType() {
			case enumspb.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT, enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED,
				enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
				n++
			case enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED:
				if ev.GetActivityTaskStartedEventAttributes().GetAttempt() > 1 {
					n++
				}
			}
		}
	}
	return n
}

func chaosN() int {
	if n, err := strconv.Atoi(os.Getenv("ASSAY_CHAOS_N")); err == nil && n > 0 {
		return n
	}
	return 120
}

// TestChaos runs a batch cleanly, then the same batch in two subtests:
// worker-sigkill SIGKILLs one worker mid-batch and restarts it;
// temporal-restart kills the Temporal server mid-batch and restarts it on
// the same database. Every question must end with the clean run's stop
// reason and answer, none lost or duplicated, and Temporal must hold
// exactly one AnswerWorkflow per question per batch.
func TestChaos(t *testing.T) {
	chaosEnabled(t)
	start := time.Now()
	s := newChaosStack(t)
	n := chaosN()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	t.Logf("stack up in %s", time.Since(start).Round(time.Millisecond))

	tc, err := client.Dial(client.Options{HostPort: s.addr(), Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()

	phase := time.Now()
	clean := s.runBatch(ctx, n, nil)
	t.Logf("clean run: %d questions in %s", len(clean), time.Since(phase).Round(time.Millisecond))
	if len(clean) != n {
		t.Fatalf("clean run: %d results for %d questions", len(clean), n)
	}

	t.Run("worker-sigkill", func(t *testing.T) {
		phase := time.Now()
		killed := false
		got := s.runBatch(ctx, n, func(done int) {
			if !killed && done >= n/4 {
				killed = true
				t.Logf("SIGKILL worker 0 with %d of %d questions done", done, n)
				s.workers[0].kill()
				time.Sleep(time.Second)
				s.startWorker(0)
			}
		})
		lost, differ := stacktest.Compare(t, "worker SIGKILL", clean, got)
		t.Logf("worker SIGKILL: %d tried, %d lost, %d differ, in %s; %d tasks cut off and run again",
			n, lost, differ, time.Since(phase).Round(time.Millisecond), interrupted(ctx, t, tc, got))
		if !killed {
			t.Errorf("the batch finished before the worker could be killed")
		}
	})

	t.Run("temporal-restart", func(t *testing.T) {
		phase := time.Now()
		down := 5 * time.Second
		if d, err := time.ParseDuration(os.Getenv("ASSAY_CHAOS_DOWN")); err == nil {
			down = d
		}
		restarted := false
		got := s.runBatch(ctx, n, func(done int) {
			if !restarted && done >= n/4 {
				restarted = true
				t.Logf("SIGKILL the Temporal server with %d of %d questions done; restarting it after %s", done, n, down)
				s.srv.Kill()
				time.Sleep(down)
				s.startTemporal()
			}
		})
		lost, differ := stacktest.Compare(t, "Temporal restart", clean, got)
		t.Logf("Temporal restart: %d tried, %d lost, %d differ, in %s; %d tasks cut off and run again",
			n, lost, differ, time.Since(phase).Round(time.Millisecond), interrupted(ctx, t, tc, got))
		if !restarted {
			t.Errorf("the batch finished before the server could be restarted")
		}
	})

	// One AnswerWorkflow per question per batch: none started twice.
	var count int64
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Second) {
		resp, err := tc.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: "WorkflowType = 'AnswerWorkflow'"})
		if err == nil {
			count = resp.GetCount()
			if count == int64(3*n) {
				break
			}
		}
	}
	if count != int64(3*n) {
		t.Errorf("Temporal holds %d AnswerWorkflow executions, want %d (3 batches of %d)", count, 3*n, n)
	}
	t.Logf("crash tests took %s", time.Since(start).Round(time.Second))
}
