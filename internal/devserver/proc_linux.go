package devserver

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// sysProcAttr puts the server in its own process group (so Stop can signal
// everything it started) and has the kernel kill it if assay dies first.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// listens reports whether process pid holds a listening TCP socket on
// port, from /proc: the listening sockets' inodes in /proc/net/tcp and
// tcp6, matched against the process's descriptors. known is false when
// /proc cannot tell (unreadable), and then the caller does not judge.
func listens(pid, port int) (owns, known bool) {
	inodes := map[string]bool{}
	read := false
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		read = true
		sc := bufio.NewScanner(f)
		sc.Scan() // the header
		for sc.Scan() {
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			fs := strings.Fields(sc.Text())
			if len(fs) < 10 || fs[3] != "0A" { // 0A: TCP_LISTEN
				continue
			}
			i := strings.LastIndexByte(fs[1], ':')
			if p, err := strconv.ParseInt(fs[1][i+1:], 16, 32); err == nil && int(p) == port {
				inodes["socket:["+fs[9]+"]"] = true
			}
		}
		f.Close()
	}
	if !read {
		return false, false
	}
	fdDir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	fds, err := os.ReadDir(fdDir)
	if err != nil {
		return false, false
	}
	for _, fd := range fds {
		if link, err := os.Readlink(filepath.Join(fdDir, fd.Name())); err == nil && inodes[link] {
			return true, true
		}
	}
	return false, true
}
