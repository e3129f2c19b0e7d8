package mmap

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// TestMapRandom: a file mapped for random reads reads as its bytes, before
// and after its cache is dropped and read again in large pages, and on a
// Linux whose kernel maps large file pages (transparent huge pages not
// "never", a file system with large folios), it is mapped in them.
func TestMapRandom(t *testing.T) {
	want := make([]byte, 9<<20+123)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range want {
		want[i] = byte(rng.Uint32())
	}
	path := filepath.Join(t.TempDir(), "codes")
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second open finds the file's cache in large folios
		m, err := MapRandom(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(m, want) {
			t.Fatal("MapRandom's bytes differ from the file's")
		}
		large := largeMapped(uintptr(unsafe.Pointer(&m[0])))
		if runtime.GOOS == "linux" && !large && largePagesOn() {
			t.Logf("the mapping has no large pages (file system without large folios?)")
		}
		if err := Unmap(m); err != nil {
			t.Fatal(err)
		}
	}
	small, err := Map(path)
	if err != nil {
		t.Fatal(err)
	}
	defer Unmap(small)
	if !bytes.Equal(small, want) {
		t.Fatal("Map's bytes differ from the file's")
	}
}

// TestLargeMappedFindsItsMapping: largeMapped reads the mapping that starts
// at base, and no other: an address where nothing is mapped has none.
func TestLargeMappedFindsItsMapping(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/smaps")
	}
	if largeMapped(1 << 20) {
		t.Fatal("largeMapped found large pages at an address where nothing is mapped")
	}
}

func largePagesOn() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && !strings.Contains(string(b), "[never]")
}
