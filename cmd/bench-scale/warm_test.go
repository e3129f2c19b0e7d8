package main

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// dropCached writes path's dirty pages and asks the kernel to drop the
// file from the page cache (POSIX_FADV_DONTNEED).
func dropCached(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	const fadvDontNeed = 4
	if _, _, e := syscall.Syscall6(syscall.SYS_FADVISE64, f.Fd(), 0, 0, fadvDontNeed, 0, 0); e != 0 {
		t.Fatalf("fadvise %s: %v", path, e)
	}
}

// fakeIndex writes an index of files (name → size, bytes of 7, "bleve/"
// a subdirectory), calls each(path) after each file if each is set, and
// returns a symlink to the index, as bench-scale's work dir holds it.
func fakeIndex(t *testing.T, files map[string]int, each func(path string)) string {
	t.Helper()
	dir := t.TempDir()
	idx := filepath.Join(dir, "index")
	if err := os.MkdirAll(filepath.Join(idx, "bleve"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, n := range files {
		p := filepath.Join(idx, name)
		if err := os.WriteFile(p, bytes.Repeat([]byte{7}, n), 0o644); err != nil {
			t.Fatal(err)
		}
		if each != nil {
			each(p)
		}
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(idx, link); err != nil {
		t.Fatal(err)
	}
	return link
}

// TestWarmIndex: -e2e-warm's read brings every index file, vectors.f32
// included, into the page cache, through a symlink, and counts the bytes
// it read. The files are dropped from the cache first; where the file
// system keeps them anyway (tmpfs) the cold state is not checked.
func TestWarmIndex(t *testing.T) {
	page := os.Getpagesize()
	files := map[string]int{"vectors.f32": 300*page + 100, "bleve/store": 40 * page, "manifest.json": 10, "empty": 0}
	var total int64
	for _, n := range files {
		total += int64(n)
	}
	link := fakeIndex(t, files, func(path string) { dropCached(t, path) })
	cold, err := readPageState(link)
	if err != nil {
		t.Fatal(err)
	}
	if cold.VectorsCache == cold.VectorsBytes {
		t.Logf("the file system kept vectors.f32 cached after FADV_DONTNEED (%+v); cold state not checked", cold)
	}
	n, err := warmIndex(link)
	if err != nil {
		t.Fatal(err)
	}
	if n != total {
		t.Errorf("warmIndex read %d bytes, want %d", n, total)
	}
	warm, err := readPageState(link)
	if err != nil {
		t.Fatal(err)
	}
	if warm.IndexBytes != total || warm.IndexCached != total || warm.VectorsCache != warm.VectorsBytes || warm.VectorsBytes != int64(files["vectors.f32"]) {
		t.Errorf("after warmIndex: %+v, want all %d bytes cached (vectors %d)", warm, total, files["vectors.f32"])
	}
	if _, err := warmIndex(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("warmIndex of a missing index: want an error")
	}
}
