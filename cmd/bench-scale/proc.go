package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/prometheus/procfs"

	"github.com/assay-rag/assay/internal/mmap"
)

// child is one finished child process: what it printed, how long it ran
// and its peak resident memory (getrusage's ru_maxrss, the VmHWM it had
// when it exited).
type child struct {
	out     string
	took    time.Duration
	peakRSS int64         // bytes
	cpu     time.Duration // user + system
}

// runChild runs name with args, its output copied into log, and fails
// with the tail of its output when it fails.
func runChild(ctx context.Context, log io.Writer, name string, args ...string) (child, error) {
	fmt.Fprintf(log, "\n$ %s %s\n", name, strings.Join(args, " "))
	var buf bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout = io.MultiWriter(&buf, log)
	cmd.Stderr = io.MultiWriter(&buf, log)
	start := time.Now()
	err := cmd.Run()
	c := child{out: buf.String(), took: time.Since(start)}
	if cmd.ProcessState != nil {
		c.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			c.peakRSS = ru.Maxrss * 1024 // kilobytes on Linux
		}
	}
	if err != nil {
		return c, fmt.Errorf("%s %s: %w: %s", filepath.Base(name), firstWord(args), err, tail(c.out, 400))
	}
	return c, nil
}

func firstWord(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// tail is the end of s, at most n bytes, on one line.
func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		s = "..." + s[len(s)-n:]
	}
	return strings.ReplaceAll(s, "\n", " | ")
}

// service is a long-running child (assay dev, redis-server) stopped with
// SIGTERM.
type service struct {
	cmd  *exec.Cmd
	done chan error
}

func startService(log io.Writer, name string, args ...string) (*service, error) {
	fmt.Fprintf(log, "\n$ %s %s &\n", name, strings.Join(args, " "))
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &service{cmd: cmd, done: make(chan error, 1)}
	go func() { s.done <- cmd.Wait() }()
	return s, nil
}

// exited reports whether the service has stopped, and how.
func (s *service) exited() (bool, error) {
	select {
	case err := <-s.done:
		s.done <- err
		return true, err
	default:
		return false, nil
	}
}

// stop sends SIGTERM and waits up to a minute before killing.
func (s *service) stop() {
	if done, _ := s.exited(); done {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(time.Minute):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// memory reads a live process's VmRSS and VmHWM from /proc, in bytes.
func (s *service) memory() (rss, hwm int64, err error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		fields := strings.Fields(v) // "123456 kB"
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, 0, fmt.Errorf("/proc/%d/status: %s: unexpected %q", s.cmd.Process.Pid, k, v)
		}
		n, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return 0, 0, err
		}
		if k == "VmRSS" {
			rss = n * 1024
		} else {
			hwm = n * 1024
		}
	}
	if rss == 0 || hwm == 0 {
		return 0, 0, fmt.Errorf("/proc/%d/status: no VmRSS or VmHWM", s.cmd.Process.Pid)
	}
	return rss, hwm, sc.Err()
}

// waitHTTP polls url until it answers 200, the service exits or the
// timeout passes.
func (s *service) waitHTTP(url string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if done, err := s.exited(); done {
			return fmt.Errorf("exited before %s answered: %v", url, err)
		}
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	return fmt.Errorf("%s did not answer 200 within %s", url, timeout)
}

// freePort asks the kernel for a free loopback port.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// dirSize is the disk space the files under dir use (allocated blocks,
// like du).
func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			n += st.Blocks * 512
		} else {
			n += info.Size()
		}
		return nil
	})
	return n, err
}

// PageState is what the kernel holds of an index when the end-to-end
// window opens: the index files' bytes in the page cache (mincore) and
// the machine's dirty and under-writeback bytes (/proc/meminfo). A fresh
// build leaves gigabytes to write back; a cold page cache makes the
// first questions read the disk.
type PageState struct {
	IndexBytes   int64 `json:"index_bytes"`
	IndexCached  int64 `json:"index_cached_bytes"`
	VectorsBytes int64 `json:"vectors_bytes"` // vectors.f32, the re-rank's reads
	VectorsCache int64 `json:"vectors_cached_bytes"`
	DirtyBytes   int64 `json:"dirty_bytes"` // Dirty + Writeback
}

// readPageState measures the files under index (followed if a symlink).
func readPageState(index string) (PageState, error) {
	var ps PageState
	var err error
	if ps.DirtyBytes, err = dirtyBytes(); err != nil {
		return ps, err
	}
	root, err := filepath.EvalSymlinks(index)
	if err != nil {
		return ps, err
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		size, cached, err := fileCached(path)
		if err != nil {
			return err
		}
		ps.IndexBytes += size
		ps.IndexCached += cached
		if d.Name() == "vectors.f32" {
			ps.VectorsBytes += size
			ps.VectorsCache += cached
		}
		return nil
	})
	return ps, err
}

// warmIndex reads every file under index (followed if a symlink) once,
// so that the page cache holds it when measuring begins (-e2e-warm), and
// returns the bytes read. A file larger than the free memory is read all
// the same; the kernel keeps what fits.
func warmIndex(index string) (int64, error) {
	root, err := filepath.EvalSymlinks(index)
	if err != nil {
		return 0, err
	}
	var n int64
	buf := make([]byte, 1<<20)
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		m, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{f}, buf)
		n += m
		return err
	})
	return n, err
}

// fileCached is a file's size and how many of its bytes are in the page
// cache, by mincore over a read-only mapping (which reads nothing).
func fileCached(path string) (size, cached int64, err error) {
	m, err := mmap.Map(path)
	if err != nil || len(m) == 0 {
		return 0, 0, err
	}
	defer mmap.Unmap(m)
	size = int64(len(m))
	page := int64(os.Getpagesize())
	vec := make([]byte, (size+page-1)/page)
	if _, _, e := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(size), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		return size, 0, fmt.Errorf("mincore %s: %w", path, e)
	}
	for i, v := range vec {
		if v&1 != 0 {
			cached += min(page, size-int64(i)*page)
		}
	}
	return size, cached, nil
}

// dirtyBytes is /proc/meminfo's Dirty + Writeback.
func dirtyBytes() (int64, error) {
	pfs, err := procfs.NewDefaultFS()
	if err != nil {
		return 0, err
	}
	mi, err := pfs.Meminfo()
	if err != nil {
		return 0, err
	}
	if mi.DirtyBytes == nil || mi.WritebackBytes == nil {
		return 0, fmt.Errorf("/proc/meminfo: no Dirty or Writeback")
	}
	return int64(*mi.DirtyBytes + *mi.WritebackBytes), nil
}

// settleWriteback syncs the file systems and waits until at most limit
// bytes are dirty or under writeback, or timeout passes; it returns how
// long it took and what was left.
func settleWriteback(ctx context.Context, limit int64, timeout time.Duration) (time.Duration, int64, error) {
	start := time.Now()
	syscall.Sync()
	for {
		d, err := dirtyBytes()
		if err != nil || d <= limit || time.Since(start) >= timeout {
			return time.Since(start), d, err
		}
		select {
		case <-ctx.Done():
			return time.Since(start), d, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}
