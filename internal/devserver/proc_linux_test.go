package devserver

import (
	"os"
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
