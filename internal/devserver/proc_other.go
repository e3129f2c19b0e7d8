//go:build !linux

package devserver

import "syscall"

// sysProcAttr puts the server in its own process group so Stop can signal
// everything it started. Outside Linux there is no parent-death signal.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
