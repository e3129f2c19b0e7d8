package cli

import (
	"testing"
)

func TestParseConcurrency(t *testing.T) {
	got, err := parseConcurrency("1, 8,32,64")
	if err != nil || len(got) != 4 || got[0] != 1 || got[3] != 64 {
		t.Errorf("parseConcurrency = %v, %v; want [1 8 32 64]", got, err)
	}
	for _, bad := range []string{"", "0", "8,", "x", "-1", "2000"} {
		if _, err := parseConcurrency(bad); err == nil {
			t.Errorf("parseConcurrency(%q) = nil error, want one", bad)
		}
	}
}
