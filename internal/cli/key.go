package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/payloadcodec"
)

// runKey manages keys: `assay key new` makes an API key and prints it with
// its hash; `assay key hash` reads a key on standard input and prints the
// hash to put in auth.keys; `assay key payload [ID]` makes a
// temporal.payload_keys entry.
func runKey(_ context.Context, e env, args []string) error {
	const usage = "key: want `assay key new`, `assay key hash < KEYFILE` or `assay key payload [ID]`"
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
		if err := f.parse(args[1:], -1); err != nil {
			return err
		}
		if f.NArg() > 0 {
			// A key on the command line is in the shell's history and in
			// every process listing.
			return usageError("key hash: give the key on standard input, not the command line: assay key hash < KEYFILE, or run assay key hash and paste it")
		}
		key, err := readKey(e)
		if err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, auth.Hash(key))
		return nil
	case "payload":
		if err := f.parse(args[1:], 1); err != nil {
			return err
		}
		id := f.Arg(0)
		if id == "" {
			id = "k1"
		}
		entry, err := payloadcodec.NewKey(id)
		if err != nil {
			return usageError("key payload: " + err.Error())
		}
		fmt.Fprintln(e.stdout, entry)
		fmt.Fprintln(e.stderr, "Put it first in temporal.payload_keys (ASSAY_TEMPORAL_PAYLOAD_KEYS) of every worker, gateway and CLI; keep the old keys after it until no history needs them.")
		return nil
	}
	return usageError(usage)
}

// readKey reads the first line of standard input, prompting on stderr
// when it is a terminal.
func readKey(e env) (string, error) {
	if e.stdin == nil {
		return "", usageError("key hash: no standard input; give the key on it: assay key hash < KEYFILE")
	}
	if f, ok := e.stdin.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			fmt.Fprint(e.stderr, "key (then Enter): ")
		}
	}
	line, err := bufio.NewReaderSize(io.LimitReader(e.stdin, auth.MaxKeyLen+2), auth.MaxKeyLen+2).ReadString('\n')
	if err != nil && err != io.EOF {
		return "", fmt.Errorf("key hash: read standard input: %w", err)
	}
	key := strings.TrimSpace(line)
	switch {
	case key == "":
		return "", usageError("key hash: standard input holds no key; give it there: assay key hash < KEYFILE")
	case len(key) > auth.MaxKeyLen:
		return "", usageError(fmt.Sprintf("key hash: the key on standard input is longer than %d bytes", auth.MaxKeyLen))
	}
	return key, nil
}
