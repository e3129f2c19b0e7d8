// Package clitest runs assay's commands in a test, in process, and hands
// back what they printed.
package clitest

import (
	"bytes"
	"context"
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
