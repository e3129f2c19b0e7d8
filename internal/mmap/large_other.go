//go:build unix && !linux

package mmap

import "os"

// preferLargePages does nothing where there is no MADV_HUGEPAGE for files.
func preferLargePages(*os.File, []byte) {}
