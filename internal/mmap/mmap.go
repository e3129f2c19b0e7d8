//go:build unix

// Package mmap maps files read-only into memory, so that their pages live
// in the page cache, which the kernel may evict, and not in the Go heap:
// the indexes' postings, vectors and chunk tables.
package mmap

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"

	"github.com/assay-rag/assay/internal/errs"
)

// Map maps the file at path read-only and shared, so its pages live in
// the page cache, not in the process's own memory. An empty file maps to
// nil; a missing file is an errs.NotFound error.
func Map(path string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errs.E(errs.NotFound, err)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if size == 0 {
		return nil, nil
	}
	if size != int64(int(size)) {
		return nil, errs.Errorf("", errs.TooLarge, "%s has %d bytes, more than this machine can map", path, size)
	}
	m, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, errs.Errorf("", errs.Internal, "mapping %s: %w", path, err)
	}
	return m, nil
}

// Unmap releases a mapping made by Map.
func Unmap(m []byte) error {
	if len(m) == 0 {
		return nil
	}
	return unix.Munmap(m)
}
