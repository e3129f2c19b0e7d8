package devserver

import (
	"net"
	"os"
	"os/exec"
	"testing"
)

// statGroup reads the group after the command's parentheses, which may
// hold spaces and parentheses of their own.
func TestStatGroup(t *testing.T) {
	for _, c := range []struct {
		stat string
		want int
		ok   bool
	}{
		{"4242 (temporal) S 4240 4241 4241 0 -1 4194560 2 0 0 0", 4241, true},
		{"4242 (a (b) c) S 4240 4239 4239 0", 4239, true},
		{"4242 (x) R 1", 0, false},
		{"garbage", 0, false},
	} {
		if g, ok := statGroup(c.stat); g != c.want || ok != c.ok {
			t.Errorf("statGroup(%q) = %d, %v; want %d, %v", c.stat, g, ok, c.want, c.ok)
		}
	}
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Skip(err)
	}
	if g, ok := statGroup(string(b)); !ok || g <= 0 {
		t.Errorf("statGroup(/proc/self/stat) = %d, %v; want this process's group", g, ok)
	}
}

// listens finds this process's listening sockets on IPv4 and IPv6 (the
// tcp6 table), and not a process that holds none (a child sleeping).
func TestListens(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", "[::1]:0"} {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Logf("%s: %v (skipped)", addr, err)
			continue
		}
		port := ln.Addr().(*net.TCPAddr).Port
		if owns, known := listens(os.Getpid(), port); !owns || !known {
			t.Errorf("%s: listens(self, %d) = %v, %v; want true, true", addr, port, owns, known)
		}
		sleep := exec.Command("sleep", "10")
		if err := sleep.Start(); err != nil {
			t.Fatal(err)
		}
		if owns, known := listens(sleep.Process.Pid, port); owns || !known {
			t.Errorf("%s: listens(a sleeping child, %d) = %v, %v; want false, true", addr, port, owns, known)
		}
		sleep.Process.Kill()
		sleep.Wait()
		ln.Close()
		if owns, _ := listens(os.Getpid(), port); owns {
			t.Errorf("%s: listens(self, %d) after close = true", addr, port)
		}
	}
}
