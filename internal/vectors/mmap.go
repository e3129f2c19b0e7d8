//go:build unix

package vectors

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"

	"github.com/assay-rag/assay/internal/errs"
)

// mapFile maps the file at path read-only and shared, so its pages live in
// the page cache, not in the process's own memory. An empty file maps to
// nil.
func mapFile(path string) ([]byte, error) {
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

func unmap(m []byte) error {
	if len(m) == 0 {
		return nil
	}
	return unix.Munmap(m)
}

// adviseRandom tells the kernel that m is read at scattered places, so a
// page fault reads that page and not its neighbours. Only a hint.
func adviseRandom(m []byte) { _ = unix.Madvise(m, unix.MADV_RANDOM) }
