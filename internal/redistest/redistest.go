// Package redistest gives tests a Redis server when they opt in, and
// skips them, saying how to opt in, when they do not: `make test` on a
// fresh machine needs no Redis.
//
//   - Addr (any Redis; the token transport's tests): ASSAY_TEST_REDIS=1
//     starts a throwaway redis-server from PATH, ASSAY_TEST_REDIS=host:port
//     uses a running one; failing those, a RediSearch server as below.
//   - Start (Redis with RediSearch; the redisearch backend's tests):
//     ASSAY_TEST_REDISEARCH names a directory holding redis-server and
//     redisearch.so (../shared/redisearch here) to start a throwaway
//     server from (ASSAY_TEST_REDISEARCH_ARGS: module arguments to load
//     it with), or ASSAY_TEST_REDIS_URL names a Redis 8 / Redis Stack.
//
// Throwaway servers listen on a free loopback port, keep nothing on disk
// and stop when the test ends.
package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Environment variables that opt in.
const (
	Env    = "ASSAY_TEST_REDIS"      // 1, or host:port: any Redis
	DirEnv = "ASSAY_TEST_REDISEARCH" // a directory with redis-server and redisearch.so
	// ArgsEnv holds module arguments for a throwaway RediSearch server
	// (space-separated, e.g. "WORKERS 4" for a build with worker threads).
	ArgsEnv = "ASSAY_TEST_REDISEARCH_ARGS"
	URLEnv  = "ASSAY_TEST_REDIS_URL" // redis://... of a Redis with RediSearch
)

// Server is a Redis a test may use.
type Server struct {
	// Addr is host:port.
	Addr string
	// Password is empty for a throwaway server.
	Password string
	// Cmd is the server process when the test started one (nil for a
	// server given by address); tests that simulate a lost Redis kill it.
	Cmd *exec.Cmd
}

// Client returns a new RESP2 client of s, closed when the test ends.
func (s *Server) Client(t testing.TB) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: s.Addr, Password: s.Password, Protocol: 2})
	t.Cleanup(func() { c.Close() })
	return c
}

var names atomic.Int64

// Name returns an index name no other test of this process uses, so tests
// can share a server given by URL.
func Name(prefix string) string {
	return fmt.Sprintf("%s%d-%d", prefix, os.Getpid(), names.Add(1))
}

// Addr returns the host:port of a Redis server for t, or skips t.
func Addr(t testing.TB) string {
	t.Helper()
	switch v := os.Getenv(Env); {
	case v == "1":
		bin, err := exec.LookPath("redis-server")
		if err != nil {
			t.Fatalf("%s=1 but redis-server is not on PATH (apt-get install redis-server, or `make test-redis`): %v", Env, err)
		}
		return start(t, bin).Addr
	case v != "":
		if _, _, err := net.SplitHostPort(v); err != nil {
			t.Fatalf("%s=%q: want 1 or host:port", Env, v)
		}
		return v
	case os.Getenv(DirEnv) != "" || os.Getenv(URLEnv) != "":
		return Start(t).Addr
	}
	t.Skipf("SKIPPED: needs Redis; set %s=1 with redis-server on PATH (or %s=host:port, or %s), or run `make test-redis`", Env, Env, DirEnv)
	return ""
}

// Start returns a Redis with RediSearch for t, or skips t.
func Start(t testing.TB) *Server {
	t.Helper()
	if u := os.Getenv(URLEnv); u != "" {
		opt, err := redis.ParseURL(u)
		if err != nil {
			t.Fatalf("%s=%q: %v", URLEnv, u, err)
		}
		return &Server{Addr: opt.Addr, Password: opt.Password}
	}
	dir := os.Getenv(DirEnv)
	if dir == "" {
		t.Skipf("SKIPPED: no RediSearch server: set %s to a directory with redis-server and redisearch.so (e.g. ../shared/redisearch) or %s to a Redis 8 / Redis Stack URL to run", DirEnv, URLEnv)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"--loadmodule", filepath.Join(dir, "redisearch.so")}, strings.Fields(os.Getenv(ArgsEnv))...)
	return start(t, filepath.Join(dir, "redis-server"), args...)
}

// StartPausable is Start for a test that pauses the server (Pause); it
// skips t when the server is given by URL (no process to pause).
func StartPausable(t testing.TB) *Server {
	t.Helper()
	s := Start(t)
	if s.Cmd == nil {
		t.Skip("a Redis given by URL: the test cannot pause it")
	}
	return s
}

// Pause stops s's process (SIGSTOP: connections are accepted, nothing
// replies) until resume is called or t ends, whichever comes first.
func (s *Server) Pause(t testing.TB) (resume func()) {
	t.Helper()
	if err := s.Cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	resume = func() {
		once.Do(func() {
			if err := s.Cmd.Process.Signal(syscall.SIGCONT); err != nil {
				t.Error(err)
			}
		})
	}
	t.Cleanup(resume)
	return resume
}

// start runs bin on a free port until t ends and waits until it answers.
func start(t testing.TB, bin string, args ...string) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin, append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", t.TempDir()}, args...)...)
	if testing.Verbose() {
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	s := &Server{Addr: "127.0.0.1:" + strconv.Itoa(port), Cmd: cmd}
	c := redis.NewClient(&redis.Options{Addr: s.Addr, Protocol: 2, MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s on %s did not answer in 10s: %v", bin, s.Addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// MainThreadCPU returns a reader of the CPU time of the Redis main
// thread rdb talks to (/proc/PID/task/PID/schedstat, nanoseconds: unlike
// a latency it does not grow when other work keeps the thread waiting
// for a core). The server must run on this machine; the diagnostics and
// benchmarks that time Redis's own work read it.
func MainThreadCPU(t testing.TB, rdb *redis.Client) func() time.Duration {
	t.Helper()
	info, err := rdb.Info(context.Background(), "server").Result()
	if err != nil {
		t.Fatal(err)
	}
	pid := ""
	for line := range strings.SplitSeq(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "process_id:"); ok {
			pid = v
		}
	}
	stat := "/proc/" + pid + "/task/" + pid + "/schedstat"
	if _, err := os.Stat(stat); pid == "" || err != nil {
		t.Fatalf("Redis's main thread: %q (%v): the server must run on this machine", stat, err)
	}
	return func() time.Duration {
		b, err := os.ReadFile(stat)
		if err != nil {
			t.Fatal(err)
		}
		n, err := strconv.ParseInt(strings.Fields(string(b))[0], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return time.Duration(n)
	}
}
