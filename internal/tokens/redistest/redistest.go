// Package redistest gives tests a Redis server, when they opt in: Redis
// tests need a real redis-server, which `make test` neither installs nor
// expects.
//
// ASSAY_TEST_REDIS=1 starts a throwaway redis-server from PATH (no
// persistence, loopback, a free port) for the test; `make test-redis`
// installs Debian's and runs the Redis tests. ASSAY_TEST_REDIS=host:port
// uses a running server instead. Unset, the test is skipped, saying so.
package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Env is the variable that opts in.
const Env = "ASSAY_TEST_REDIS"

// Addr returns the host:port of a Redis server for t, or skips t. A
// server it starts is stopped when t ends.
func Addr(t testing.TB) string {
	t.Helper()
	v := os.Getenv(Env)
	switch {
	case v == "":
		t.Skipf("SKIPPED: needs Redis; set %s=1 with redis-server on PATH (or %s=host:port), or run `make test-redis`", Env, Env)
	case v != "1":
		if _, _, err := net.SplitHostPort(v); err != nil {
			t.Fatalf("%s=%q: want 1 or host:port", Env, v)
		}
		return v
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatalf("%s=1 but redis-server is not on PATH (apt-get install redis-server, or `make test-redis`): %v", Env, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", t.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start redis-server: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "Ready to accept connections") {
				close(ready)
				break
			}
		}
		for sc.Scan() { // keep the pipe drained
		}
	}()
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("redis-server did not get ready in 10s")
	}
	return fmt.Sprintf("127.0.0.1:%d", port)
}
