// Package clitest runs assay's commands in a test, in process, and hands
// back what they printed.
package clitest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/assay-rag/assay/internal/cli"
)

// Run runs `assay ARGS...` with an empty environment.
func Run(t testing.TB, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return run(func(string) string { return "" }, args...)
}

// Eval runs `assay eval ARGS...` with a private data directory
// (ASSAY_DATA_DIR), so its indexes and reports stay in the test's.
func Eval(t testing.TB, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	dataDir := t.TempDir()
	getenv := func(k string) string {
		if k == "ASSAY_DATA_DIR" {
			return dataDir
		}
		return ""
	}
	return run(getenv, append([]string{"eval"}, args...)...)
}

func run(getenv func(string) string, args ...string) (string, string, error) {
	var out, errOut bytes.Buffer
	err := cli.Run(context.Background(), append([]string{"assay"}, args...), getenv, &out, &errOut)
	return out.String(), errOut.String(), err
}

// Start runs args (args[0] is "assay") in the background with getenv,
// writing its stderr to stderr, until the returned stop cancels it; stop
// fails t, with what the verb printed, when it ended with an error.
func Start(ctx context.Context, t testing.TB, getenv func(string) string, stderr interface {
	io.Writer
	fmt.Stringer
}, args ...string) (stop func()) {
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- cli.Run(cctx, args, getenv, io.Discard, stderr) }()
	return func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("%s: %v\n%s", args[1], err, stderr.String())
		}
	}
}
