package devserver

import "syscall"

// sysProcAttr puts the server in its own process group (so Stop can signal
// everything it started) and has the kernel kill it if assay dies first.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
