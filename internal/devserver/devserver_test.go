package devserver

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestServerEnv(t *testing.T) {
	got := serverEnv([]string{"HOME=/root"}, 2)
	if !slices.Contains(got, "GOGC=400") || !slices.Contains(got, "HOME=/root") || !slices.Contains(got, "GOMAXPROCS=1") {
		t.Errorf("serverEnv without GOGC or GOMAXPROCS on 2 CPUs = %v, want GOGC=400 and GOMAXPROCS=1 added", got)
	}
	got = serverEnv([]string{"GOGC=50", "GOMAXPROCS=3", "HOME=/root"}, 2)
	if want := []string{"GOGC=50", "GOMAXPROCS=3", "HOME=/root"}; !slices.Equal(got, want) {
		t.Errorf("serverEnv with GOGC=50 and GOMAXPROCS=3 = %v, want them kept: %v", got, want)
	}
	for cpus, want := range map[int]int{1: 1, 2: 1, 3: 1, 8: 4} {
		if got := serverProcs(cpus); got != want {
			t.Errorf("serverProcs(%d) = %d, want %d", cpus, got, want)
		}
	}
}

// OTEL_* configure assay's traces; the Temporal server refuses some of
// their values (OTEL_TRACES_EXPORTER=console), so it never sees them.
func TestServerEnvDropsOTEL(t *testing.T) {
	got := serverEnv([]string{"HOME=/root", "OTEL_TRACES_EXPORTER=console", "OTEL_EXPORTER_OTLP_ENDPOINT=http://x:4318", "GOGC=50", "GOMAXPROCS=2"}, 4)
	want := []string{"HOME=/root", "GOGC=50", "GOMAXPROCS=2"}
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

// The SQLite pragmas are what the Round 9 measurements rely on; journal
// mode and syncs keep their meaning (docs/operations.md's durability
// note).
func TestSQLiteArgs(t *testing.T) {
	for _, want := range []string{"journal_mode=wal", "synchronous=normal", "cache_size=-65536", "wal_autocheckpoint=10000"} {
		i := slices.Index(sqliteArgs, want)
		if i < 1 || sqliteArgs[i-1] != "--sqlite-pragma" {
			t.Errorf("sqliteArgs lack --sqlite-pragma %s: %v", want, sqliteArgs)
		}
	}
}

// fakeCLI writes an executable standing in for the Temporal CLI: each run
// appends a line to the file named by $FAKE_TEMPORAL_RUNS, prints out and
// exits 2, as the CLI does when it panics during start-up.
func fakeCLI(t *testing.T, out string) (bin, runs string) {
	t.Helper()
	dir := t.TempDir()
	bin, runs = filepath.Join(dir, "temporal"), filepath.Join(dir, "runs")
	script := "#!/bin/sh\necho run >> \"$FAKE_TEMPORAL_RUNS\"\necho '" + out + "'\nexit 2\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FAKE_TEMPORAL_RUNS", runs)
	return bin, runs
}

func launches(t *testing.T, runs string) int {
	t.Helper()
	b, err := os.ReadFile(runs)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "run\n")
}

// A server that exits during start-up because one of its ports was taken
// in the meantime is launched again (the CLI picks new internal ports),
// up to startAttempts times; the error names the port line from its log.
func TestStartRetriesPortRace(t *testing.T) {
	const line = `panic: listen tcp 127.0.0.1:41947: bind: address already in use`
	bin, runs := fakeCLI(t, line)
	_, err := Start(context.Background(), Options{Bin: bin, DataDir: t.TempDir(), Port: freePort(t)})
	if err == nil {
		t.Fatal("Start succeeded with a server that always exits")
	}
	if n := launches(t, runs); n != startAttempts {
		t.Errorf("launched %d times, want %d", n, startAttempts)
	}
	if !strings.Contains(err.Error(), "address already in use") {
		t.Errorf("error %q does not name the port in use", err)
	}
}

// A frontend port Start chose (Options.Port 0) is chosen again for each
// launch after a port race, since the port lost may be the frontend's; a
// port the caller gave is kept.
func TestStartChoosesPortAgain(t *testing.T) {
	for _, given := range []bool{false, true} {
		dir := t.TempDir()
		bin, ports := filepath.Join(dir, "temporal"), filepath.Join(dir, "ports")
		// $5 $6 are "--port" and its value (after server start-dev --ip IP).
		script := "#!/bin/sh\necho \"$5 $6\" >> \"$FAKE_TEMPORAL_PORTS\"\necho 'panic: listen tcp 127.0.0.1:41947: bind: address already in use'\nexit 2\n"
		if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("FAKE_TEMPORAL_PORTS", ports)
		opts := Options{Bin: bin, DataDir: t.TempDir()}
		if given {
			opts.Port = freePort(t)
		}
		if _, err := Start(context.Background(), opts); err == nil {
			t.Fatal("Start succeeded with a server that always exits")
		}
		b, err := os.ReadFile(ports)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Fields(strings.ReplaceAll(string(b), "--port ", ""))
		distinct := map[string]bool{}
		for _, l := range lines {
			if p, err := strconv.Atoi(l); err != nil || p <= 0 {
				t.Fatalf("launched with --port %q", l)
			}
			distinct[l] = true
		}
		if len(lines) != startAttempts {
			t.Fatalf("given %v: %d launches, want %d", given, len(lines), startAttempts)
		}
		if given && len(distinct) != 1 {
			t.Errorf("given port %d: launched on %v", opts.Port, lines)
		}
		if !given && len(distinct) < 2 {
			t.Errorf("chosen port: every launch on %v", lines)
		}
	}
}

// Any other start-up exit is reported at once, not retried.
func TestStartDoesNotRetryOtherExits(t *testing.T) {
	bin, runs := fakeCLI(t, "Error: unknown flag: --sqlite-pragma")
	_, err := Start(context.Background(), Options{Bin: bin, DataDir: t.TempDir(), Port: freePort(t)})
	if err == nil || !strings.Contains(err.Error(), "exited during start-up") {
		t.Fatalf("Start error = %v, want exited during start-up", err)
	}
	if n := launches(t, runs); n != 1 {
		t.Errorf("launched %d times, want 1", n)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	p, err := loopbackPort("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	return p
}
