package cli

import (
	"math"
	"os"
	"runtime/debug"
	"testing"
)

// TestTuneGC: assay dev trades memory for CPU (GOGC 400) within a soft
// memory limit, and the environment's GOGC and GOMEMLIMIT win.
func TestTuneGC(t *testing.T) {
	gc, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(gc); debug.SetMemoryLimit(limit) })

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	tuneGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set, GC percent = %d; want it left at 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set, memory limit = %d; want it left alone", got)
	}

	unsetenv(t, "GOGC")
	unsetenv(t, "GOMEMLIMIT")
	tuneGC()
	if got := debug.SetGCPercent(100); got != 400 {
		t.Errorf("GC percent = %d; want 400", got)
	}
	if got := debug.SetMemoryLimit(-1); got != devMemoryLimit {
		t.Errorf("memory limit = %d; want %d", got, devMemoryLimit)
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
