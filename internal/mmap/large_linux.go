package mmap

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"unsafe"

	"golang.org/x/sys/unix"
)

// largePage is the size of a page-middle-directory mapping on the
// machines assay runs on (x86-64, arm64 with 4 KiB pages).
const largePage = 2 << 20

// preferLargePages asks the kernel to map m, a read-only shared mapping of
// f, in 2 MiB pages (MADV_HUGEPAGE). That works when the file's page cache
// holds it in 2 MiB folios, which the kernel reads in for such a mapping
// when the pages are not cached yet; pages already cached in small folios
// (the file was just written, or read by a mapping without the advice)
// stay small. So when the first 2 MiB of m come back in small pages, the
// first 2 MiB of the file's cache are dropped (FADV_DONTNEED: clean pages
// only, and never those another process has mapped) and read again; if
// they then map as one large page, the rest of the file's cache is dropped
// too and comes back in large pages as it is read. Where the kernel maps
// no large file pages (transparent huge pages off, a file system without
// large folios) this costs one re-read of 2 MiB at open.
//
// Why (docs/performance-scale.md, round 13): at 500k chunks a search reads
// 2,000 random int8 records of a 386 MB file; in 4 KiB pages each is a
// page's first touch for a new process, and in this project's virtual
// machines such a touch cost 2–6 µs, the narrowing's largest cost.
func preferLargePages(f *os.File, m []byte) {
	if len(m) < 2*largePage || unix.Madvise(m, unix.MADV_HUGEPAGE) != nil {
		return
	}
	base := uintptr(unsafe.Pointer(&m[0]))
	off := int((largePage - base%largePage) % largePage) // the first aligned large page in m
	if off+largePage > len(m) {
		return
	}
	touch := func() { _ = m[off] }
	touch()
	if largeMapped(base) {
		return
	}
	first := m[off : off+largePage]
	if unix.Madvise(first, unix.MADV_DONTNEED) != nil ||
		unix.Fadvise(int(f.Fd()), int64(off), largePage, unix.FADV_DONTNEED) != nil {
		return
	}
	touch()
	if !largeMapped(base) {
		return
	}
	if unix.Madvise(m, unix.MADV_DONTNEED) == nil {
		_ = unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
	}
}

// largeMapped reports whether the mapping starting at base has file pages
// mapped as large pages (its FilePmdMapped in /proc/self/smaps).
func largeMapped(base uintptr) bool {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return false
	}
	defer f.Close()
	head := []byte(fmt.Sprintf("%x-", base))
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Bytes()
		if bytes.HasPrefix(line, head) {
			in = true
			continue
		}
		if !in {
			continue
		}
		if v, ok := bytes.CutPrefix(line, []byte("FilePmdMapped:")); ok {
			kb, err := strconv.Atoi(string(bytes.TrimSuffix(bytes.TrimSpace(v), []byte(" kB"))))
			return err == nil && kb > 0
		}
		if bytes.HasPrefix(line, []byte("VmFlags:")) {
			return false // the mapping's block ended without the field
		}
	}
	return false
}
