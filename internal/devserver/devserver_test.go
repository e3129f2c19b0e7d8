package devserver

import (
	"slices"
	"testing"
)

func TestServerEnv(t *testing.T) {
	got := serverEnv([]string{"HOME=/root"})
	if !slices.Contains(got, "GOGC=400") || !slices.Contains(got, "HOME=/root") {
		t.Errorf("serverEnv without GOGC = %v, want GOGC=400 added", got)
	}
	got = serverEnv([]string{"GOGC=50", "HOME=/root"})
	if slices.Contains(got, "GOGC=400") || len(got) != 2 {
		t.Errorf("serverEnv with GOGC=50 = %v, want it kept", got)
	}
}

// OTEL_* configure assay's traces; the Temporal server refuses some of
// their values (OTEL_TRACES_EXPORTER=console), so it never sees them.
func TestServerEnvDropsOTEL(t *testing.T) {
	got := serverEnv([]string{"HOME=/root", "OTEL_TRACES_EXPORTER=console", "OTEL_EXPORTER_OTLP_ENDPOINT=http://x:4318", "GOGC=50"})
	want := []string{"HOME=/root", "GOGC=50"}
	if !slices.Equal(got, want) {
		t.Errorf("serverEnv = %v, want %v", got, want)
	}
}

// The dispatch settings are what the measurements in docs/performance.md rely on.
func TestDispatchArgs(t *testing.T) {
	for _, want := range []string{
		"history.transferProcessorMaxPollRPS=500",
		"matching.numTaskqueueReadPartitions=1",
		"matching.numTaskqueueWritePartitions=1",
		"system.enableActivityEagerExecution=true",
	} {
		i := slices.Index(dispatchArgs, want)
		if i < 1 || dispatchArgs[i-1] != "--dynamic-config-value" {
			t.Errorf("dispatchArgs lack --dynamic-config-value %s: %v", want, dispatchArgs)
		}
	}
}
