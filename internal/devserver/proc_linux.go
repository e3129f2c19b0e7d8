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

// listens reports whether process pid, or a process of the process group
// it leads (sysProcAttr's Setpgid: what it started, such as the Temporal
// CLI behind a wrapper script that does not exec it), holds a listening
// TCP socket on port, from /proc: the listening sockets' inodes in
// /proc/net/tcp and tcp6, matched against those processes' descriptors.
// known is false when /proc cannot tell (unreadable), and then the caller
// does not judge.
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
	// holds: whether process p has one of the sockets open; a process
	// that exited or hides its descriptors holds nothing we can see.
	holds := func(p int) bool {
		fdDir := filepath.Join("/proc", strconv.Itoa(p), "fd")
		fds, _ := os.ReadDir(fdDir)
		for _, fd := range fds {
			if link, err := os.Readlink(filepath.Join(fdDir, fd.Name())); err == nil && inodes[link] {
				return true
			}
		}
		return false
	}
	if _, err := os.ReadDir(filepath.Join("/proc", strconv.Itoa(pid), "fd")); err != nil {
		return false, false
	}
	if holds(pid) {
		return true, true // the common case: no scan of the group
	}
	for _, p := range group(pid) {
		if p != pid && holds(p) {
			return true, true
		}
	}
	return false, true
}

// group lists pid and the processes whose process group is pid, from
// /proc/*/stat (the group is the fifth field: after the command, in
// parentheses that may hold spaces and parentheses themselves, come the
// state, the parent and the group).
func group(pid int) []int {
	out := []int{pid}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil || p == pid {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		if g, ok := statGroup(string(b)); ok && g == pid {
			out = append(out, p)
		}
	}
	return out
}

// statGroup reads the process group from a /proc/PID/stat line.
func statGroup(stat string) (int, bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	fs := strings.Fields(stat[i+1:])
	if len(fs) < 3 {
		return 0, false
	}
	g, err := strconv.Atoi(fs[2])
	return g, err == nil
}
