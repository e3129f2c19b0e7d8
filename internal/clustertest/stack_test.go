package clustertest

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"github.com/assay-rag/assay/internal/devserver"
	"github.com/assay-rag/assay/internal/e2e/stacktest"
)

// repoRoot is the repository, two levels up from this package.
var repoRoot, _ = filepath.Abs("../..")

// enabled skips t unless ASSAY_CLUSTER=1.
func enabled(t *testing.T) {
	t.Helper()
	if os.Getenv("ASSAY_CLUSTER") != "1" {
		t.Skip("SKIPPED: the cluster tests (Temporal server on PostgreSQL); set ASSAY_CLUSTER=1 or run `make test-cluster`")
	}
}

// binary is the path in env var name, or bin/<def> in the repository; a
// missing binary fails the test, naming the make target that builds it.
func binary(t *testing.T, name, def string) string {
	t.Helper()
	p := os.Getenv(name)
	if p == "" {
		p = filepath.Join(repoRoot, "bin", def)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s: %v (run `make test-cluster`, which builds it, or set %s)", def, err, name)
	}
	return p
}

// postgresBin is the directory holding initdb and postgres: ASSAY_PG_BIN,
// else the newest Debian /usr/lib/postgresql/*/bin, else the PATH's. It
// skips the test, loudly, when there is none.
func postgresBin(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("ASSAY_PG_BIN"); d != "" {
		return d
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return pgMajor(dirs[i]) > pgMajor(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p)
	}
	t.Skip("SKIPPED: the cluster tests need PostgreSQL (initdb, postgres) and none is installed: " +
		"`make test-cluster` installs Debian's postgresql with apt-get (as root), or set ASSAY_PG_BIN")
	return ""
}

func pgMajor(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

// proc is one child process; its output goes to a log file. done is
// closed when it has exited.
type proc struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
	log  string
}

// kill ends the process (its group) with SIGKILL, as a crash would, and
// waits until it has exited.
func (p *proc) kill() {
	if p == nil {
		return
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.done
}

// stop asks the process to end (SIGTERM) and kills it after grace.
func (p *proc) stop(grace time.Duration) {
	if p == nil || p.exited() {
		return
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
		p.kill()
	}
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// cluster is PostgreSQL, the Temporal server, and assay's processes on
// them, in one temporary directory.
type cluster struct {
	t   *testing.T
	dir string

	pgBin  string
	pgPort int
	pgUser *user.User // the account PostgreSQL runs as when the test runs as root
	pg     *proc

	serverBin, sqlTool, cli, assay string
	dynamicConfig                  string
	temporalPort, httpPort         int
	internalPorts                  []int
	server                         *proc

	// external is an operator's own cluster (ASSAY_CLUSTER_ADDRESS):
	// nothing of Temporal's is started, stopped or killed.
	external             string
	namespace, taskQueue string

	cfg      string // assay's configuration file
	workers  [2]*proc
	gateway  *proc
	base     string // the gateway's URL
	procsMu  sync.Mutex
	allProcs []*proc
}

// newCluster starts PostgreSQL and the Temporal server with namespace
// default, and writes assay's configuration; it starts no assay process.
// Everything ends and is removed when the test ends.
func newCluster(t *testing.T) *cluster {
	t.Helper()
	enabled(t)
	if addr := os.Getenv("ASSAY_CLUSTER_ADDRESS"); addr != "" {
		return newExternalCluster(t, addr)
	}
	c := &cluster{t: t, pgBin: postgresBin(t), namespace: "default", taskQueue: "assay"}
	c.serverBin = binary(t, "ASSAY_TEMPORAL_SERVER", "temporal-server")
	c.sqlTool = binary(t, "ASSAY_TEMPORAL_SQL_TOOL", "temporal-sql-tool")
	c.cli = binary(t, "ASSAY_TEMPORAL_CLI", "temporal")
	c.assay = binary(t, "ASSAY_BIN", "assay")
	c.dynamicConfig = os.Getenv("ASSAY_TEMPORAL_DYNAMIC_CONFIG")
	if c.dynamicConfig == "" {
		c.dynamicConfig = filepath.Join(repoRoot, "config/temporal/dynamicconfig.yaml")
	}
	// The server ignores a misspelt key, with a warning in its log:
	// refuse the file here instead.
	if out, err := exec.Command(c.serverBin, "validate-dynamic-config", c.dynamicConfig).CombinedOutput(); err != nil ||
		bytes.Contains(out, []byte("warning:")) || bytes.Contains(out, []byte("error:")) {
		t.Fatalf("temporal-server validate-dynamic-config %s: %v\n%s", c.dynamicConfig, err, out)
	}
	// Not t.TempDir: PostgreSQL runs as another user, who must reach its
	// data directory, and a test's temp dirs are private to root.
	dir, err := os.MkdirTemp("", "assay-cluster-")
	if err != nil {
		t.Fatal(err)
	}
	c.dir = dir
	t.Cleanup(c.cleanup)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c.pgPort, c.temporalPort, c.httpPort = stacktest.FreePort(t), stacktest.FreePort(t), stacktest.FreePort(t)
	for range 7 {
		c.internalPorts = append(c.internalPorts, stacktest.FreePort(t))
	}
	c.base = fmt.Sprintf("http://127.0.0.1:%d", stacktest.FreePort(t))
	start := time.Now()
	c.startPostgres()
	t.Logf("PostgreSQL up in %s (port %d)", time.Since(start).Round(time.Millisecond), c.pgPort)
	phase := time.Now()
	c.setupSchemas()
	t.Logf("schemas set up in %s", time.Since(phase).Round(time.Millisecond))
	phase = time.Now()
	c.startServer()
	c.createNamespace()
	t.Logf("Temporal server up with namespace default in %s", time.Since(phase).Round(time.Millisecond))
	c.writeConfig()
	return c
}

// newExternalCluster runs the tests on an operator's own Temporal
// frontend at addr (plain gRPC), in namespace ASSAY_CLUSTER_NAMESPACE
// (default "default", which must exist) on a task queue of their own.
func newExternalCluster(t *testing.T, addr string) *cluster {
	t.Helper()
	c := &cluster{t: t, external: addr, cli: binary(t, "ASSAY_TEMPORAL_CLI", "temporal"), assay: binary(t, "ASSAY_BIN", "assay"),
		namespace: cmp.Or(os.Getenv("ASSAY_CLUSTER_NAMESPACE"), "default"),
		taskQueue: fmt.Sprintf("assay-clustertest-%d", time.Now().UnixNano()), dynamicConfig: "(the cluster's own)"}
	c.dir = t.TempDir()
	t.Cleanup(c.cleanup)
	c.base = fmt.Sprintf("http://127.0.0.1:%d", stacktest.FreePort(t))
	t.Logf("on the Temporal cluster at %s, namespace %s, task queue %s", addr, c.namespace, c.taskQueue)
	c.writeConfig()
	return c
}

// newDevCluster is newCluster's stack on the Temporal CLI's dev server
// (SQLite, with assay dev's flags: internal/devserver) instead of the
// server on PostgreSQL.
func newDevCluster(t *testing.T) *cluster {
	t.Helper()
	enabled(t)
	c := &cluster{t: t, cli: binary(t, "ASSAY_TEMPORAL_CLI", "temporal"), assay: binary(t, "ASSAY_BIN", "assay"),
		dynamicConfig: "(the dev server's, internal/devserver)", namespace: "default", taskQueue: "assay"}
	c.dir = t.TempDir()
	t.Cleanup(c.cleanup)
	c.temporalPort = stacktest.FreePort(t)
	c.base = fmt.Sprintf("http://127.0.0.1:%d", stacktest.FreePort(t))
	srv, err := devserver.Start(context.Background(), devserver.Options{Bin: c.cli, DataDir: filepath.Join(c.dir, "temporal"),
		Port: c.temporalPort, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatalf("temporal dev server: %v", err)
	}
	t.Cleanup(func() { srv.Stop(10 * time.Second) })
	c.writeConfig()
	return c
}

// writeConfig writes assay's configuration: anonymous access, batches of
// eight questions at once, the namespace and task queue.
func (c *cluster) writeConfig() {
	c.t.Helper()
	c.cfg = filepath.Join(c.dir, "assay.yaml")
	cfg := fmt.Sprintf("auth:\n  allow_anonymous: true\nbatch:\n  concurrency: 8\ntemporal:\n  namespace: %s\n  task_queue: %s\n",
		c.namespace, c.taskQueue)
	if err := os.WriteFile(c.cfg, []byte(cfg), 0o644); err != nil {
		c.t.Fatal(err)
	}
}

// start runs a process with its output in dir/<name>.log, in its own
// process group so a kill takes its children too.
func (c *cluster) start(name string, env []string, cred *syscall.Credential, bin string, args ...string) *proc {
	c.t.Helper()
	logPath := filepath.Join(c.dir, name+".log")
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o666)
	if err != nil {
		c.t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: cred}
	if err := cmd.Start(); err != nil {
		f.Close()
		c.t.Fatalf("start %s: %v", name, err)
	}
	p := &proc{name: name, cmd: cmd, done: make(chan struct{}), log: logPath}
	go func() {
		_ = cmd.Wait()
		f.Close()
		close(p.done)
	}()
	c.procsMu.Lock()
	c.allProcs = append(c.allProcs, p)
	c.procsMu.Unlock()
	return p
}

// credential is who PostgreSQL runs as: initdb refuses root, so a root
// test runs it as the postgres account (Debian's package creates it), or
// else nobody.
func (c *cluster) credential() *syscall.Credential {
	if os.Geteuid() != 0 {
		return nil
	}
	if c.pgUser == nil {
		for _, name := range []string{"postgres", "nobody"} {
			if u, err := user.Lookup(name); err == nil {
				c.pgUser = u
				break
			}
		}
		if c.pgUser == nil {
			c.t.Skip("SKIPPED: running as root and there is no postgres or nobody account to run PostgreSQL as (initdb refuses root)")
		}
	}
	uid, _ := strconv.Atoi(c.pgUser.Uid)
	gid, _ := strconv.Atoi(c.pgUser.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}
}

// run runs a command to completion and fails the test with its output
// when it fails.
func (c *cluster) run(what string, cred *syscall.Credential, bin string, args ...string) {
	c.t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = c.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := cmd.CombinedOutput(); err != nil {
		c.t.Fatalf("%s: %s %s: %v\n%s", what, bin, strings.Join(args, " "), err, out)
	}
}

// startPostgres creates a database cluster in dir/pg and starts it on
// 127.0.0.1:pgPort (no Unix socket), trusting local connections.
func (c *cluster) startPostgres() {
	c.t.Helper()
	cred := c.credential()
	data := filepath.Join(c.dir, "pg")
	if err := os.Mkdir(data, 0o700); err != nil {
		c.t.Fatal(err)
	}
	if cred != nil {
		if err := os.Chown(data, int(cred.Uid), int(cred.Gid)); err != nil {
			c.t.Fatal(err)
		}
	}
	c.run("initdb", cred, filepath.Join(c.pgBin, "initdb"), "-D", data, "-U", "postgres",
		"--auth=trust", "--encoding=UTF8", "--no-sync")
	args := []string{"-D", data, "-p", strconv.Itoa(c.pgPort), "-c", "listen_addresses=127.0.0.1",
		"-c", "unix_socket_directories=", "-c", "max_connections=200"}
	// ASSAY_PG_OPTIONS: more settings, "name=value name=value".
	for _, kv := range strings.Fields(os.Getenv("ASSAY_PG_OPTIONS")) {
		args = append(args, "-c", kv)
	}
	c.pg = c.start("postgres", nil, cred, filepath.Join(c.pgBin, "postgres"), args...)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		if conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", c.pgPort), time.Second); err == nil {
			conn.Close()
			// Listening is not accepting: wait for the server to say so.
			if out, err := exec.Command(filepath.Join(c.pgBin, "pg_isready"), "-h", "127.0.0.1", "-p", strconv.Itoa(c.pgPort)).CombinedOutput(); err == nil {
				return
			} else if time.Now().After(deadline) {
				c.t.Fatalf("PostgreSQL not ready after a minute: %s\n%s", out, c.tail(c.pg))
			}
		}
		if c.pg.exited() || time.Now().After(deadline) {
			c.t.Fatalf("PostgreSQL did not start:\n%s", c.tail(c.pg))
		}
	}
}

// setupSchemas creates Temporal's two databases with temporal-sql-tool,
// as Temporal's documentation has an operator do.
func (c *cluster) setupSchemas() {
	c.t.Helper()
	for _, db := range []struct{ name, schema string }{
		{"temporal", "postgresql/v12/temporal"},
		{"temporal_visibility", "postgresql/v12/visibility"},
	} {
		common := []string{"--plugin", "postgres12", "--ep", "127.0.0.1", "-p", strconv.Itoa(c.pgPort),
			"-u", "postgres", "--db", db.name}
		c.run("create "+db.name, nil, c.sqlTool, append(common, "create-database")...)
		c.run("schema "+db.name, nil, c.sqlTool, append(common, "setup-schema", "-v", "0.0")...)
		c.run("schema "+db.name, nil, c.sqlTool, append(common, "update-schema", "--schema-name", db.schema)...)
	}
}

// serverEnv is what config/temporal/cluster.yaml reads.
func (c *cluster) serverEnv() []string {
	ports := make([]string, len(c.internalPorts))
	for i, p := range c.internalPorts {
		ports[i] = strconv.Itoa(p)
	}
	env := []string{
		"ASSAY_PG_HOST=127.0.0.1", "ASSAY_PG_PORT=" + strconv.Itoa(c.pgPort), "ASSAY_PG_USER=postgres",
		"ASSAY_TEMPORAL_PORT=" + strconv.Itoa(c.temporalPort),
		"ASSAY_TEMPORAL_HTTP_PORT=" + strconv.Itoa(c.httpPort),
		"ASSAY_TEMPORAL_INTERNAL_PORTS=" + strings.Join(ports, ","),
		"ASSAY_TEMPORAL_DYNAMIC_CONFIG=" + c.dynamicConfig,
	}
	if os.Getenv("GOGC") == "" {
		// As the dev server runs (internal/devserver.GCPercent).
		env = append(env, "GOGC=400")
	}
	return env
}

func (c *cluster) address() string {
	if c.external != "" {
		return c.external
	}
	return fmt.Sprintf("127.0.0.1:%d", c.temporalPort)
}

// startServer starts the Temporal server and waits until its frontend
// answers health checks.
func (c *cluster) startServer() {
	c.t.Helper()
	c.server = c.start("temporal-server", c.serverEnv(), nil, c.serverBin,
		"-r", "/", "-c", filepath.Join(repoRoot, "config/temporal"), "-e", "cluster", "--allow-no-auth", "start")
	tc := c.dial()
	defer tc.Close()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := tc.CheckHealth(ctx, &client.CheckHealthRequest{})
		cancel()
		if err == nil {
			return
		}
		if c.server.exited() || time.Now().After(deadline) {
			c.t.Fatalf("Temporal server not healthy (%v):\n%s", err, c.tail(c.server))
		}
	}
}

// dial is a lazy Temporal client for the frontend.
func (c *cluster) dial() client.Client {
	c.t.Helper()
	tc, err := client.NewLazyClient(client.Options{HostPort: c.address(), Namespace: c.namespace,
		Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		c.t.Fatal(err)
	}
	return tc
}

// createNamespace creates namespace default with the Temporal CLI, as an
// operator would, retrying while the freshly started server refuses.
func (c *cluster) createNamespace() {
	c.t.Helper()
	var out []byte
	var err error
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
		out, err = exec.Command(c.cli, "operator", "namespace", "create", "--namespace", "default",
			"--retention", "24h", "--address", c.address()).CombinedOutput()
		if err == nil || bytes.Contains(out, []byte("already")) {
			return
		}
	}
	c.t.Fatalf("temporal operator namespace create: %v\n%s", err, out)
}

// killServer SIGKILLs the Temporal server; restartServer starts it again
// on the same database and ports.
func (c *cluster) killServer() { c.server.kill() }

func (c *cluster) restartServer() { c.startServer() }

// startWorker starts worker i on its own bleve index of the Hollin corpus.
func (c *cluster) startWorker(i int, extra ...string) {
	c.t.Helper()
	args := append([]string{"worker", "--config", c.cfg, "--temporal-address", c.address(),
		"--index-dir", filepath.Join(c.dir, "index-"+strconv.Itoa(i)),
		"--corpus", filepath.Join(repoRoot, "testdata/hollin/corpus.jsonl")}, extra...)
	c.workers[i] = c.start("worker-"+strconv.Itoa(i), nil, nil, c.assay, args...)
}

// startGateway starts the anonymous gateway; it reads passages from
// worker 0's index.
func (c *cluster) startGateway(extra ...string) {
	c.t.Helper()
	args := append([]string{"gateway", "--config", c.cfg, "--temporal-address", c.address(),
		"--http-addr", strings.TrimPrefix(c.base, "http://"),
		"--index-dir", filepath.Join(c.dir, "index-0")}, extra...)
	c.gateway = c.start("gateway", nil, nil, c.assay, args...)
}

// waitReady waits until the gateway's /readyz says ready.
func (c *cluster) waitReady(limit time.Duration) {
	c.t.Helper()
	for deadline := time.Now().Add(limit); ; time.Sleep(200 * time.Millisecond) {
		if resp, err := http.Get(c.base + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("the gateway was not ready after %s:\n%s", limit, c.logs())
		}
	}
}

// tail is the end of p's log, after the first lines of it that report
// a fatal error, then the first that report an error, three at most (cut
// to 600 bytes each; logLevel): the Temporal server logs a fatal start-up
// error as one JSON line and then a stack trace longer than the tail,
// which once left a failed run without its cause, and so does a Go panic
// in an assay process.
func (c *cluster) tail(p *proc) string {
	if p == nil {
		return ""
	}
	b, _ := os.ReadFile(p.log)
	var fatal, errLines []string
	for line := range bytes.Lines(b) {
		switch logLevel(line) {
		case levelFatal:
			if len(fatal) < 3 {
				fatal = append(fatal, string(bytes.TrimSpace(line[:min(len(line), 600)])))
			}
		case levelError:
			if len(errLines) < 3 {
				errLines = append(errLines, string(bytes.TrimSpace(line[:min(len(line), 600)])))
			}
		}
	}
	first := append(fatal, errLines...)
	first = first[:min(len(first), 3)]
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	head := ""
	if len(first) > 0 {
		head = "first errors:\n" + strings.Join(first, "\n") + "\nthe end:\n"
	}
	return fmt.Sprintf("--- %s (%s) ---\n%s%s", p.name, p.log, head, b)
}

// The levels of a log line that tail puts first.
const (
	levelOther = iota
	levelError
	levelFatal
)

// logLevel is what line reports, in the logs tail reads: the Temporal
// server's JSON lines (zap: "fatal", "panic", "error"), assay's (slog's
// text handler: level=ERROR), a Go panic or runtime fatal error (any
// process), and PostgreSQL's lines (FATAL:, PANIC:, ERROR:).
func logLevel(line []byte) int {
	for _, m := range []string{`"level":"fatal"`, `"level":"panic"`, `"level":"dpanic"`, " FATAL: ", " PANIC: "} {
		if bytes.Contains(line, []byte(m)) {
			return levelFatal
		}
	}
	if bytes.HasPrefix(line, []byte("panic: ")) || bytes.HasPrefix(line, []byte("fatal error: ")) {
		return levelFatal
	}
	for _, m := range []string{`"level":"error"`, " level=ERROR ", " ERROR: "} {
		if bytes.Contains(line, []byte(m)) {
			return levelError
		}
	}
	return levelOther
}

// logs is the end of every assay process's log and the server's.
func (c *cluster) logs() string {
	var b strings.Builder
	for _, p := range []*proc{c.server, c.workers[0], c.workers[1], c.gateway} {
		b.WriteString(c.tail(p))
	}
	return b.String()
}

// cleanup stops every process, assay's first, and removes the directory
// unless ASSAY_CLUSTER_KEEP is set (then it says where it is).
func (c *cluster) cleanup() {
	c.procsMu.Lock()
	procs := append([]*proc(nil), c.allProcs...)
	c.procsMu.Unlock()
	for i := len(procs) - 1; i >= 0; i-- {
		p := procs[i]
		if p == c.pg || p.exited() {
			continue
		}
		p.stop(20 * time.Second)
	}
	if c.pg != nil && !c.pg.exited() {
		// SIGINT is PostgreSQL's fast shutdown.
		_ = syscall.Kill(c.pg.cmd.Process.Pid, syscall.SIGINT)
		select {
		case <-c.pg.done:
		case <-time.After(20 * time.Second):
			c.pg.kill()
		}
	}
	if c.t.Failed() || os.Getenv("ASSAY_CLUSTER_KEEP") != "" {
		c.t.Logf("logs:\n%s", c.logs())
	}
	if os.Getenv("ASSAY_CLUSTER_KEEP") != "" {
		c.t.Logf("kept %s (ASSAY_CLUSTER_KEEP)", c.dir)
		return
	}
	if err := os.RemoveAll(c.dir); err != nil {
		c.t.Errorf("remove %s: %v", c.dir, err)
	}
}
