//go:build !linux

package devserver

import "syscall"

// sysProcAttr puts the server in its own process group so Stop can signal
// everything it started. Outside Linux there is no parent-death signal.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// listens cannot tell outside Linux which process holds a port.
func listens(pid, port int) (owns, known bool) { return false, false }
