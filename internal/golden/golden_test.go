package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errors []string
	fatal  bool
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.fatal = true
}

func TestCheck(t *testing.T) {
	if Updating() {
		t.Skip("-update: this test checks comparing, not rewriting")
	}
	path := filepath.Join(t.TempDir(), "out.golden")
	if err := os.WriteFile(path, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	same := &recorder{TB: t}
	Check(same, path, []byte("one\ntwo\n"))
	if len(same.errors) != 0 {
		t.Errorf("Check(equal output) failed: %v", same.errors)
	}
	differs := &recorder{TB: t}
	Check(differs, path, []byte("one\nthree\n"))
	if len(differs.errors) != 1 || !strings.Contains(differs.errors[0], "three") || !strings.Contains(differs.errors[0], path) {
		t.Errorf("Check(different output) = %v, want one failure naming the file and showing the diff", differs.errors)
	}
	missing := &recorder{TB: t}
	Check(missing, filepath.Join(t.TempDir(), "none.golden"), []byte("x"))
	if !missing.fatal || !strings.Contains(missing.errors[0], "-update") {
		t.Errorf("Check(no file) = %v, want a fatal failure that says how to create it", missing.errors)
	}
}
