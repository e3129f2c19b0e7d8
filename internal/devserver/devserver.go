// Package devserver runs the local Temporal of the embedded default: the
// official Temporal CLI's `server start-dev`, bound to loopback, persisting
// to a SQLite file, with its Web UI. The child runs in its own process
// group and dies with its parent, so stopping assay leaves no orphan.
package devserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
)

// Options configure a dev server.
type Options struct {
	// Bin is the Temporal CLI executable.
	Bin string
	// DataDir holds temporal.db (histories survive restarts) and
	// temporal.log.
	DataDir   string
	IP        string // default 127.0.0.1
	Port      int    // frontend gRPC port; 0: a free port Start chooses (see startAttempts)
	UIPort    int    // Web UI port; 0 disables the UI
	Namespace string // created at start if missing; default "default"
	// ReadyTimeout bounds the wait for the frontend; default 60s.
	ReadyTimeout time.Duration
	Logger       *slog.Logger
	// CodecEndpoint is the remote payload codec the Web UI decodes
	// encrypted payloads with (--ui-codec-endpoint); empty: none.
	CodecEndpoint string
	// SearchAttributes are registered with the namespace when the
	// server creates it (--search-attribute), so a fresh server accepts
	// them at once: the server reads its search attributes from caches
	// (see cacheArgs), which learn of attributes added later only when
	// they refresh.
	SearchAttributes map[string]enumspb.IndexedValueType
	// KeepVisibilityIndexes leaves every index of the visibility table as
	// the CLI made it; by default Start drops those no query of assay or
	// the Web UI uses (trimVisibilityIndexes).
	KeepVisibilityIndexes bool
}

// Server is a running dev server.
type Server struct {
	cmd     *exec.Cmd
	log     *os.File
	logPath string
	done    chan struct{}
	waitErr error
	opts    Options
}

// Start launches the server and returns once its frontend answers health
// checks. A port already in use is an error naming the port.
func Start(ctx context.Context, opts Options) (*Server, error) {
	if opts.IP == "" {
		opts.IP = "127.0.0.1"
	}
	if opts.Namespace == "" {
		opts.Namespace = "default"
	}
	if opts.ReadyTimeout == 0 {
		opts.ReadyTimeout = 60 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if _, err := os.Stat(opts.Bin); err != nil {
		return nil, fmt.Errorf("temporal CLI not found at %s (run `make bin/temporal` to install the pinned version): %w", opts.Bin, err)
	}
	choose := opts.Port == 0
	if choose {
		p, err := loopbackPort(opts.IP)
		if err != nil {
			return nil, err
		}
		opts.Port = p
	}
	ports := map[string]int{"temporal frontend": opts.Port}
	if opts.UIPort != 0 {
		ports["temporal web UI"] = opts.UIPort
	}
	for what, p := range ports {
		if err := checkFree(opts.IP, p); err != nil {
			return nil, fmt.Errorf("%s port %d on %s is in use (stop whatever holds it or choose another port): %w", what, p, opts.IP, err)
		}
	}
	if err := os.MkdirAll(opts.DataDir, 0o755); err != nil {
		return nil, err
	}
	logPath := filepath.Join(opts.DataDir, "temporal.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	args := []string{
		"server", "start-dev",
		"--ip", opts.IP,
		"--port", strconv.Itoa(opts.Port),
		"--db-filename", filepath.Join(opts.DataDir, "temporal.db"),
		"--namespace", opts.Namespace,
		"--log-level", "warn",
		"--log-format", "json",
		// The server would otherwise phone home for a version check.
		"--dynamic-config-value", "frontend.enableServerVersionCheck=false",
	}
	args = append(args, sqliteArgs...)
	args = append(args, dispatchArgs...)
	args = append(args, cacheArgs...)
	args = append(args, visibilityArgs...)
	for _, name := range slices.Sorted(maps.Keys(opts.SearchAttributes)) {
		typ, ok := searchAttributeTypeNames[opts.SearchAttributes[name]]
		if !ok {
			logFile.Close()
			return nil, fmt.Errorf("search attribute %s: the dev server cannot register type %s", name, opts.SearchAttributes[name])
		}
		args = append(args, "--search-attribute", name+"="+typ)
	}
	if opts.UIPort != 0 {
		args = append(args, "--ui-port", strconv.Itoa(opts.UIPort))
		if opts.CodecEndpoint != "" {
			args = append(args, "--ui-codec-endpoint", opts.CodecEndpoint)
		}
	} else {
		args = append(args, "--headless")
	}
	dbPath := filepath.Join(opts.DataDir, "temporal.db")
	if _, err := os.Stat(dbPath); err == nil && !opts.KeepVisibilityIndexes {
		// An existing database is trimmed before the server opens it: a
		// write of the server's that meets the trim's lock fails
		// (SQLITE_BUSY despite busy_timeout, when its transaction read
		// first), and an existing database is where the runs in flight
		// and the large tables are.
		trimIndexes(ctx, opts.Logger, dbPath)
	}
	for attempt := 1; ; attempt++ {
		s, err := launch(ctx, opts, args, logFile, logPath)
		if err == nil {
			if !opts.KeepVisibilityIndexes {
				// A new database's trim, and the index of an attribute
				// the server mapped at this start; otherwise it only reads.
				trimIndexes(ctx, opts.Logger, dbPath)
			}
			return s, nil
		}
		var busy *portRaceError
		if !errors.As(err, &busy) || attempt == startAttempts {
			logFile.Close()
			return nil, err
		}
		if choose {
			// The lost port may be the frontend's own: choose it again.
			p, err := loopbackPort(opts.IP)
			if err != nil {
				logFile.Close()
				return nil, err
			}
			opts.Port = p
			args[slices.Index(args, "--port")+1] = strconv.Itoa(p)
		}
		opts.Logger.Warn("temporal dev server lost a port during start-up; starting it again", "attempt", attempt, "error", busy.line)
		select {
		case <-ctx.Done():
			logFile.Close()
			return nil, ctx.Err()
		case <-time.After(time.Duration(attempt) * 300 * time.Millisecond):
		}
	}
}

// trimIndexes runs trimVisibilityIndexes on the database at path. A
// failure leaves the indexes as they were, which costs CPU, not
// correctness: it is logged, not returned.
func trimIndexes(ctx context.Context, log *slog.Logger, path string) {
	dropped, restored, err := trimVisibilityIndexes(ctx, path)
	if err != nil {
		log.Warn("temporal dev server: visibility indexes left as they were", "db", path, "error", err)
		return
	}
	if len(dropped)+len(restored) > 0 {
		log.Info("temporal dev server: visibility indexes trimmed", "dropped", len(dropped), "restored", restored)
	}
}

// startAttempts bounds how often Start launches the server when it exits
// during start-up because a port it was binding was taken. The CLI picks
// the ports of its internal services (history, matching, worker, the
// frontend's HTTP port, metrics) itself, by asking the kernel for a free
// one and binding it later; another process may take the port in between
// (an outgoing connection's source port, say), and the server then exits.
// A second launch picks new ports. The ports assay passes (the frontend's,
// the UI's) were checked free above and are retried as they are, but for
// a frontend port Start chose (Options.Port 0), which it chooses again.
const startAttempts = 3

// portRaceError is a start-up exit whose log says a port was in use.
type portRaceError struct {
	err  error
	line string // the log line naming the port
}

func (e *portRaceError) Error() string { return e.err.Error() }
func (e *portRaceError) Unwrap() error { return e.err }

// launch runs the server once and waits for it to be ready. A server that
// exits during start-up because a port was in use comes back as a
// *portRaceError.
func launch(ctx context.Context, opts Options, args []string, logFile *os.File, logPath string) (*Server, error) {
	var from int64
	if fi, err := logFile.Stat(); err == nil {
		from = fi.Size()
	}
	cmd := exec.Command(opts.Bin, args...)
	cmd.Env = serverEnv(os.Environ(), runtime.NumCPU())
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", opts.Bin, err)
	}
	s := &Server{cmd: cmd, log: logFile, logPath: logPath, done: make(chan struct{}), opts: opts}
	go func() {
		s.waitErr = cmd.Wait()
		close(s.done)
	}()
	opts.Logger.Info("temporal dev server starting", "pid", cmd.Process.Pid, "address", s.Address(), "log", logPath)
	err := s.waitReady(ctx)
	if err == nil {
		return s, nil
	}
	s.stop(5 * time.Second)
	select {
	case <-s.done:
		if line := lineWith(logPath, from, "address already in use"); line != "" {
			return nil, &portRaceError{err: fmt.Errorf("%w\n%s", err, line), line: line}
		}
	default:
	}
	return nil, err
}

// lineWith is the first line of the file at path, from byte offset from
// on, that contains substr, or "".
func lineWith(path string, from int64, substr string) string {
	b, err := os.ReadFile(path)
	if err != nil || from > int64(len(b)) {
		return ""
	}
	for _, line := range strings.Split(string(b[from:]), "\n") {
		if strings.Contains(line, substr) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// sqliteArgs set the pragmas of the dev server's SQLite connection (the
// CLI passes every --sqlite-pragma to SQLite as it is).
var sqliteArgs = []string{
	// Write-ahead logging with normal syncs: about 2.2 times the
	// throughput of SQLite's defaults here (assay bench, 200 questions at
	// concurrency 8: 11.3 against 5.2 questions/s). A power cut may lose
	// the transactions since the last checkpoint (below); it does not
	// corrupt the database, and a crash of the processes loses nothing.
	"--sqlite-pragma", "journal_mode=wal",
	"--sqlite-pragma", "synchronous=normal",
	// A 64 MiB page cache instead of SQLite's 2 MiB: a question's
	// visibility record alone updates 46 indexes of executions_visibility,
	// and with 2 MiB the server read about twice as much back from the
	// file a question (docs/log/performance-scale.md, "Round 9"). The server
	// keeps one connection, so this bounds the cache at 64 MiB.
	"--sqlite-pragma", "cache_size=-65536",
	// Copy the write-ahead log into the database every 10,000 pages
	// (about 40 MiB) instead of every 1,000: those 46 index pages are
	// written again by every question, and a checkpoint copies each page
	// once however often it changed since the last. With normal syncs
	// the log is synced at a checkpoint, so a power cut (not a crash) can
	// lose up to that many pages of the latest transactions: a question
	// writes about 150-180 log pages, so roughly the last 60 questions
	// instead of the last 6 (docs/log/performance-scale.md, "Round 9").
	"--sqlite-pragma", "wal_autocheckpoint=10000",
	// Wait up to 10 s for a lock another connection holds instead of
	// failing at once: the server keeps one connection, and the only other
	// writer is Start trimming the visibility indexes (indexes.go) of a
	// new database, or restoring the index of a newly mapped attribute,
	// just after the server is ready (an existing database is trimmed
	// before the server starts). It does not cover a transaction that
	// read before it writes: that one fails with SQLITE_BUSY at once.
	"--sqlite-pragma", "busy_timeout=10000",
}

// dispatchArgs tune how the dev server hands tasks to workers. They change
// when a task is delivered, never what a history records. Measured on the
// 2-core build machine (docs/performance.md).
var dispatchArgs = []string{
	// The history service reads new transfer tasks (a workflow task to
	// dispatch, a child to start, a parent to notify) at most 20 times a
	// second per shard by default, and the dev server has one shard: each
	// of a question's five workflow tasks waited 0-50 ms for the next
	// read. 500 reads a second bounds that wait at 2 ms; under load a
	// read still takes every task pending.
	"--dynamic-config-value", "history.transferProcessorMaxPollRPS=500",
	// One partition per task queue instead of four: a task added to a
	// partition no poller waits on must be forwarded to one that has
	// pollers. A local worker's few pollers fit one partition; partitions
	// spread load across matching hosts, and a dev server has one.
	"--dynamic-config-value", "matching.numTaskqueueReadPartitions=1",
	"--dynamic-config-value", "matching.numTaskqueueWritePartitions=1",
	// Eager activity dispatch: when a workflow task schedules an activity
	// on its own task queue and the worker has a free slot, the server
	// returns the activity task in its reply instead of queueing it for a
	// poll. The SDK asks for it by default; the server's default is off.
	"--dynamic-config-value", "system.enableActivityEagerExecution=true",
}

// cacheArgs undo a default of the CLI's dev server that costs CPU on
// every question: it re-reads its search attributes from the database at
// every use (system.forceSearchAttributesCacheRefreshOnRead, so that an
// attribute added a moment ago is known at once). With SQLite each use
// reads the namespace's record under a lock shared by every request that
// maps a search attribute: a start, each upsert, each visibility write,
// each count (docs/log/performance-scale.md, "Round 6"). Off, the server refreshes
// its namespaces every few seconds (system.namespaceCacheRefreshInterval,
// 2 s here; 10 s by default) and its attribute types every minute: an
// attribute added at run time is accepted within seconds, which
// workflows.AwaitSearchAttributes waits for; assay's own are registered
// when the server creates the namespace (Options.SearchAttributes).
var cacheArgs = []string{
	"--dynamic-config-value", "system.forceSearchAttributesCacheRefreshOnRead=false",
	"--dynamic-config-value", `system.namespaceCacheRefreshInterval="2s"`,
}

// visibilityArgs make the dev server write a question's visibility record
// once instead of twice. Every run queues a start record and a close
// record for the visibility store (SQLite's executions_visibility, one
// wide REPLACE each, parsed anew each time: the two were a third of the
// server's CPU, docs/log/performance-scale.md "Round 6"); the server skips a
// start record when the run has already closed by the time it reads the
// task, and writes the close record in full. By default it reads that
// queue whenever a task is added (at most 20 times a second), so a
// question that takes 50-500 ms gets both. Read once a second, the start
// record of a run shorter than the wait is skipped; a run still going
// gets it, up to a second late.
//
// What it trades: the Web UI's list and visibility queries (the gateway's
// in-flight count, a release's window) see a run up to a second later,
// at its start and at its close. Histories, the trace and durability are
// untouched: the tasks are in the same transaction as before, only read
// later. One read takes up to 1,000 tasks (the default 100 would bound
// the store at 100 visibility writes a second), so a busy second's tasks
// are all read at once.
var visibilityArgs = []string{
	"--dynamic-config-value", "history.visibilityProcessorMaxPollRPS=1",
	"--dynamic-config-value", "history.visibilityTaskBatchSize=1000",
}

// searchAttributeTypeNames are the CLI's names of the search attribute
// types (--search-attribute).
var searchAttributeTypeNames = map[enumspb.IndexedValueType]string{
	enumspb.INDEXED_VALUE_TYPE_TEXT: "Text", enumspb.INDEXED_VALUE_TYPE_KEYWORD: "Keyword",
	enumspb.INDEXED_VALUE_TYPE_INT: "Int", enumspb.INDEXED_VALUE_TYPE_DOUBLE: "Double",
	enumspb.INDEXED_VALUE_TYPE_BOOL: "Bool", enumspb.INDEXED_VALUE_TYPE_DATETIME: "Datetime",
	enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST: "KeywordList",
}

// GCPercent is the Go garbage collector's target the dev server runs with
// (GOGC) unless the environment sets GOGC. At Go's default of 100 the
// collector and allocator took about a third of the server's CPU under
// load; at 400 a question cost the server about 20% less CPU (13.6 against
// 10.8 ms, assay bench at 16 in flight) for about 15% more memory (394
// against 345 MB resident).
const GCPercent = 400

// serverProcs is the number of threads running the dev server's Go code
// at once (GOMAXPROCS) on a machine of cpus CPUs: half of them, at least
// one. The dev server shares the machine with the worker in the same
// `assay dev`, which spends about twice its CPU on a question. On the
// 2-core machine one thread instead of two took most of the Go
// scheduler's spinning for work and of the futex wake-ups between its
// threads out of the server's profile (docs/log/performance-scale.md,
// "Round 9"); the server's work is one SQLite connection and short
// requests, which one thread keeps up with at these rates.
func serverProcs(cpus int) int { return max(1, cpus/2) }

// serverEnv is env without the OpenTelemetry variables (OTEL_*), with
// GOGC=GCPercent added when env has no GOGC and
// GOMAXPROCS=serverProcs(cpus) when env has no GOMAXPROCS. The OTEL_*
// variables configure assay's own traces; the Temporal server reads the
// same names and refuses to start on values it does not support (for
// example OTEL_TRACES_EXPORTER=console, "unsupported OTEL exporter"), and
// a local dev server's own spans are not what an operator traces.
func serverEnv(env []string, cpus int) []string {
	out := make([]string, 0, len(env)+2)
	gogc, procs := false, false
	for _, kv := range env {
		if strings.HasPrefix(kv, "OTEL_") {
			continue
		}
		gogc = gogc || strings.HasPrefix(kv, "GOGC=")
		procs = procs || strings.HasPrefix(kv, "GOMAXPROCS=")
		out = append(out, kv)
	}
	if !gogc {
		out = append(out, "GOGC="+strconv.Itoa(GCPercent))
	}
	if !procs {
		out = append(out, "GOMAXPROCS="+strconv.Itoa(serverProcs(cpus)))
	}
	return out
}

// loopbackPort is a port nothing listens on at ip, from the kernel.
func loopbackPort(ip string) (int, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		return 0, fmt.Errorf("choose a port for the temporal frontend: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func checkFree(ip string, port int) error {
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port)))
	if err != nil {
		return err
	}
	return ln.Close()
}

// Address is the frontend's host:port.
func (s *Server) Address() string {
	return net.JoinHostPort(s.opts.IP, strconv.Itoa(s.opts.Port))
}

// UIURL is the Web UI's address, or "" when the UI is disabled.
func (s *Server) UIURL() string {
	if s.opts.UIPort == 0 {
		return ""
	}
	return "http://" + net.JoinHostPort(s.opts.IP, strconv.Itoa(s.opts.UIPort))
}

// Namespace is the namespace the server created.
func (s *Server) Namespace() string { return s.opts.Namespace }

// LogPath is the file the server writes its output to.
func (s *Server) LogPath() string { return s.logPath }

func (s *Server) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.opts.ReadyTimeout)
	defer cancel()
	var lastErr error
	quiet := tlog.NewStructuredLogger(slog.New(slog.DiscardHandler)) // drops the SDK's retry chatter while the server starts
	for {
		select {
		case <-s.done:
			return fmt.Errorf("temporal dev server exited during start-up (%v); last lines of %s:\n%s", s.waitErr, s.logPath, tail(s.logPath, 10))
		case <-ctx.Done():
			return fmt.Errorf("temporal dev server not ready after %s: %v (see %s)", s.opts.ReadyTimeout, lastErr, s.logPath)
		case <-time.After(200 * time.Millisecond):
		}
		c, err := client.DialContext(ctx, client.Options{HostPort: s.Address(), Namespace: s.opts.Namespace, Logger: quiet})
		if err != nil {
			lastErr = err
			continue
		}
		_, err = c.CheckHealth(ctx, &client.CheckHealthRequest{})
		c.Close()
		if err != nil {
			lastErr = err
			continue
		}
		// A server that answers may not be ours: another process can take
		// the port between checkFree and our server's bind, and ours then
		// exits while the stranger answers. Ready means our process (or
		// one in the process group it leads) holds the port.
		if owns, known := listens(s.cmd.Process.Pid, s.opts.Port); known && !owns {
			lastErr = fmt.Errorf("a server answers on %s but neither process %d nor a process it started holds the port", s.Address(), s.cmd.Process.Pid)
			continue
		}
		return nil
	}
}

// Stop asks the server to shut down and waits up to grace before killing
// its whole process group.
func (s *Server) Stop(grace time.Duration) error {
	defer s.log.Close()
	return s.stop(grace)
}

// stop is Stop without closing the log file.
func (s *Server) stop(grace time.Duration) error {
	select {
	case <-s.done:
		return nil
	default:
	}
	pgid := -s.cmd.Process.Pid
	_ = syscall.Kill(pgid, syscall.SIGTERM)
	select {
	case <-s.done:
		return nil
	case <-time.After(grace):
	}
	_ = syscall.Kill(pgid, syscall.SIGKILL)
	<-s.done
	return errors.New("temporal dev server did not stop in time and was killed")
}

// Kill ends the server's whole process group at once with SIGKILL, as a
// crash would, and waits for it to exit. Crash tests use it; everything
// else uses Stop.
func (s *Server) Kill() {
	defer s.log.Close()
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.done
}

// Done is closed when the server process exits.
func (s *Server) Done() <-chan struct{} { return s.done }

func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
