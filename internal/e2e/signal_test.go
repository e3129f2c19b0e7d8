package e2e

import (
	"bufio"
	"fmt"
	"github.com/assay-rag/assay/internal/devserver/devservertest"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/e2e/stacktest"
)

// TestDevStopsOnSIGTERM runs the real binary, sends it SIGTERM once the
// gateway answers, and checks that the process exits cleanly and takes the
// Temporal dev server with it: no orphan.
func TestDevStopsOnSIGTERM(t *testing.T) {
	bin := devservertest.Binary(t)
	exe := filepath.Join(t.TempDir(), "assay")
	if out, err := exec.Command("go", "build", "-o", exe, "../../cmd/assay").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	httpPort := stacktest.FreePort(t)
	cmd := exec.Command(exe, "dev", "--data-dir", t.TempDir(), "--ui-port", "0", "--temporal-bin", bin,
		"--http-addr", fmt.Sprintf("127.0.0.1:%d", httpPort), "--temporal-port", strconv.Itoa(stacktest.FreePort(t)),
		"--corpus", "../../testdata/hollin/corpus.jsonl")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	pids := make(chan int, 1)
	go func() {
		re := regexp.MustCompile(`temporal dev server starting"? pid=(\d+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				pid, _ := strconv.Atoi(m[1])
				pids <- pid
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	var child int
	select {
	case child = <-pids:
	case <-time.After(60 * time.Second):
		t.Fatal("no temporal pid in the start-up log")
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/healthz", httpPort))
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("gateway never answered")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("assay dev exited with %v after SIGTERM, want a clean exit", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("assay dev still running 30s after SIGTERM")
	}
	// The child is gone: signal 0 fails with ESRCH (it is not even a zombie
	// of ours: assay reaped it).
	if err := syscall.Kill(child, 0); err == nil || !strings.Contains(err.Error(), "no such process") {
		t.Errorf("temporal dev server (pid %d) still exists after assay stopped: kill(0) = %v", child, err)
	}
}
