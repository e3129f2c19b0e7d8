package cli

import (
	"math"
	"os"
	"runtime/debug"
	"testing"

	"github.com/assay-rag/assay/config"
)

// TestTuneGC: assay dev trades memory for CPU (GOGC 400) within a soft
// memory limit, and the environment's GOGC and GOMEMLIMIT win.
func TestTuneGC(t *testing.T) {
	gc, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(gc); debug.SetMemoryLimit(limit) })

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	tuneGC(config.BackendRediSearch)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set, GC percent = %d; want it left at 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set, memory limit = %d; want it left alone", got)
	}

	unsetenv(t, "GOGC")
	unsetenv(t, "GOMEMLIMIT")
	for _, c := range []struct {
		backend string
		want    int64
	}{{config.BackendBleve, 256 << 20}, {"", 256 << 20}, {config.BackendRediSearch, 224 << 20}} {
		tuneGC(c.backend)
		if got := debug.SetGCPercent(100); got != 400 {
			t.Errorf("%q: GC percent = %d; want 400", c.backend, got)
		}
		if got := debug.SetMemoryLimit(-1); got != c.want {
			t.Errorf("%q: memory limit = %d; want %d", c.backend, got, c.want)
		}
	}
}

// unsetenv removes name from the environment for the rest of t.
func unsetenv(t *testing.T, name string) {
	t.Helper()
	t.Setenv(name, "") // restores the old value after t
	if err := os.Unsetenv(name); err != nil {
		t.Fatal(err)
	}
}
