package stacktest

import "testing"

// TestFreePortOnce: FreePort never hands out a port twice in a test
// binary. 2,000 ports drawn at random from its 12,000 would repeat one
// about 150 times over without the record of handed-out ports.
func TestFreePortOnce(t *testing.T) {
	seen := map[int]bool{}
	for range 2000 {
		p := FreePort(t)
		if p < 20000 || p >= 32000 {
			t.Fatalf("FreePort = %d, outside 20000–31999", p)
		}
		if seen[p] {
			t.Fatalf("FreePort handed out %d twice", p)
		}
		seen[p] = true
	}
}
