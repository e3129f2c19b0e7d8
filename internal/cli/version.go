package cli

import (
	"context"
	"fmt"
	"runtime/debug"
)

// version is what `assay version` prints; Main sets it from package
// main, where `make build` sets it at link time (-ldflags "-X main.version=...").
var version = "dev"

func runVersion(_ context.Context, e env, args []string) error {
	f := newFlags("version", e.stderr)
	if err := f.parse(args, 0); err != nil {
		return err
	}
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok {
		v += " " + bi.GoVersion
	}
	fmt.Fprintln(e.stdout, "assay", v)
	return nil
}
