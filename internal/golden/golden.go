// Package golden compares a test's output with a file checked in under
// testdata (a golden file), and rewrites the file instead when the tests
// run with -update:
//
//	go test ./internal/prompt -update
//
// Every package's golden tests share this one -update flag. Review the
// rewritten files' diff before committing them.
package golden

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files with the tests' output")

// Updating reports whether the tests run with -update.
func Updating() bool { return *update }

// Check compares got with the file at path and fails t with a diff when
// they differ; under -update it writes got to path first.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("golden: %v", err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden: %v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")); diff != "" {
		t.Errorf("output differs from %s (-want +got); if the change is intended, rewrite it with go test -update:\n%s", path, diff)
	}
}
