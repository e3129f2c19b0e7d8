package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/assay-rag/assay/internal/auth"
)

// runKey manages API keys: `assay key new` makes a key and prints it with
// its hash; `assay key hash KEY` prints the hash to put in auth.keys.
func runKey(_ context.Context, e env, args []string) error {
	const usage = "key: want `assay key new` or `assay key hash KEY`"
	if len(args) == 0 {
		return usageError(usage)
	}
	f := newFlags("key "+args[0], e.stderr)
	switch args[0] {
	case "new":
		if err := f.parse(args[1:], 0); err != nil {
			return err
		}
		key, err := auth.NewKey()
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "key:    %s\nsha256: %s\n", key, auth.Hash(key))
		fmt.Fprintln(e.stderr, "Give the key to its user once; put only the sha256 in auth.keys.")
		return nil
	case "hash":
		if err := f.parse(args[1:], 1); err != nil {
			return err
		}
		key := strings.TrimSpace(f.Arg(0))
		if key == "" {
			return usageError("key hash: give the key: assay key hash KEY")
		}
		fmt.Fprintln(e.stdout, auth.Hash(key))
		return nil
	}
	return usageError(usage)
}
