// Package redistest gives tests a Redis with RediSearch: a throwaway
// server started on a free port from the directory in ASSAY_TEST_REDISEARCH
// (holding redis-server and redisearch.so; ../shared/redisearch here), or
// the server at ASSAY_TEST_REDIS_URL (any Redis 8 / Redis Stack). Without
// either the test is skipped, loudly.
package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Env vars that enable the tests.
const (
	DirEnv = "ASSAY_TEST_REDISEARCH"
	URLEnv = "ASSAY_TEST_REDIS_URL"
)

var names atomic.Int64

// Server is a Redis a test may use.
type Server struct {
	// Addr is host:port.
	Addr string
	// Password is empty for a throwaway server.
	Password string
	// Cmd is the server process when the test started one (nil for
	// ASSAY_TEST_REDIS_URL); tests that simulate a lost Redis kill it.
	Cmd *exec.Cmd
}

// Client returns a new RESP2 client of s, closed when the test ends.
func (s *Server) Client(t testing.TB) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: s.Addr, Password: s.Password, Protocol: 2})
	t.Cleanup(func() { c.Close() })
	return c
}

// Name returns an index name no other test of this process uses, so tests
// can share a server given by URL.
func Name(prefix string) string {
	return fmt.Sprintf("%s%d-%d", prefix, os.Getpid(), names.Add(1))
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
	port := freePort(t)
	cmd := exec.Command(filepath.Join(dir, "redis-server"), "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--loadmodule", filepath.Join(dir, "redisearch.so"))
	cmd.Dir = t.TempDir()
	if testing.Verbose() {
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s/redis-server (%s): %v", dir, DirEnv, err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	s := &Server{Addr: "127.0.0.1:" + strconv.Itoa(port), Cmd: cmd}
	c := redis.NewClient(&redis.Options{Addr: s.Addr, Protocol: 2})
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
			t.Fatalf("redis-server on %s did not answer: %v", s.Addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
