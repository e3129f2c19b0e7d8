// Package cli is the assay command line: every verb of the one binary and
// the wiring behind them. cmd/assay's main only hands it the process
// (Main); Run is the whole program, which the end-to-end tests in
// internal/e2e drive.
//
// A verb is a file with its flags and one call (dev.go, worker.go,
// gateway.go, ask.go, batch.go, bench.go, key.go, index.go, search.go,
// eval.go, eval_answers.go, release.go, version.go) and a line in commands(). Verbs that
// run assay's parts get them from Root (root.go), the application root:
// it builds the Temporal client, the index, the worker's activities, the
// worker and the gateway on first use and closes them together; stack.go
// adds a local Temporal dev server (assay dev, and the temporary stack of
// bench --embedded and eval answers); servers.go holds the bodies of the
// three long-running verbs.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// Main runs assay on the process's arguments, environment and streams,
// stopping on SIGINT or SIGTERM, and returns the exit status. v is the
// version `assay version` prints (set at link time in package main).
func Main(v string) int {
	version = v
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := Run(ctx, os.Args, os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "assay:", err)
		}
		return exitCode(err)
	}
	return 0
}

// env carries a command's view of the process: its environment and
// output streams. Commands read nothing else from the process.
type env struct {
	getenv func(string) string
	stdin  io.Reader // what `assay key hash` reads the key from
	stdout io.Writer
	stderr io.Writer
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, e env, args []string) error
}

func commands() []command {
	return []command{
		{"dev", "run a local Temporal, a worker and the gateway in one process (the embedded default)", runDev},
		{"worker", "run a worker against a Temporal cluster", runWorker},
		{"gateway", "run the HTTP API against a Temporal cluster", runGateway},
		{"ask", "ask a question through a gateway and print the answer", runAsk},
		{"batch", "answer a JSONL file of questions as one batch through a gateway", runBatch},
		{"bench", "measure a gateway: questions per second and latency percentiles", runBench},
		{"key", "make an API key (key new), print the hash for auth.keys of a key read on stdin (key hash < KEYFILE), or make a payload key (key payload)", runKey},
		{"index", "build or incrementally rebuild an index from a corpus", runIndex},
		{"search", "search an index directly (one query, or a batch written as a TREC run)", runSearch},
		{"eval", "evaluate retrieval on a BEIR dataset (eval retrieval) or answers to labelled questions, loop vs one-pass (eval answers)", runEval},
		{"release", "make, canary, promote and roll back releases: everything that shapes an answer, as one unit", runRelease},
		{"version", "print the version", runVersion},
	}
}

// Run is the whole program: args as os.Args, getenv as os.Getenv, and the
// two output streams. Main only wires it to the process.
func Run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	e := env{getenv: getenv, stdin: os.Stdin, stdout: stdout, stderr: stderr}
	if len(args) < 2 {
		usage(stderr)
		return usageError("no command given")
	}
	name, rest := args[1], args[2:]
	if name == "help" || name == "-h" || name == "--help" {
		usage(stdout)
		return nil
	}
	for _, c := range commands() {
		if c.name == name {
			return withTracing(ctx, e, func() error { return c.run(ctx, e, rest) })
		}
	}
	usage(stderr)
	return usageError(fmt.Sprintf("unknown command %q", name))
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: assay COMMAND [flags]\n\ncommands:")
	cmds := commands()
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].name < cmds[j].name })
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun `assay COMMAND -h` for a command's flags.")
}

// usageError marks errors in how assay was invoked (exit status 2).
type usageError string

func (e usageError) Error() string { return string(e) }

func exitCode(err error) int {
	var u usageError
	if errors.As(err, &u) || errors.Is(err, flag.ErrHelp) {
		return 2
	}
	return 1
}

// flags is a command's flag set; some flags set configuration paths and
// apply only when the user set them, after file and environment.
type flags struct {
	*flag.FlagSet
	config string
	paths  map[string]string // flag name → config path
}

func newFlags(name string, stderr io.Writer) *flags {
	fs := flag.NewFlagSet("assay "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &flags{FlagSet: fs, paths: map[string]string{}}
	fs.StringVar(&f.config, "config", "", "YAML configuration `file`")
	return f
}

// setting declares a flag that overrides the configuration path.
func (f *flags) setting(name, path, usage string) {
	f.String(name, "", usage)
	f.paths[name] = path
}

// parse parses args, allowing at most positional non-flag arguments
// (any number when positional is negative).
func (f *flags) parse(args []string, positional int) error {
	if err := f.Parse(args); err != nil {
		return err
	}
	// A flag that takes a value swallows a "--" written right after it
	// ("--server -- why --json"): the flag package reads it as the value,
	// not as the end of the flags, so the check below would let a later
	// flag through as a word. No value of ours is "--": refuse it. Nor is
	// one of this command's own flags ("--server --json why" would send
	// the question to a server named "--json", not print JSON).
	var swallowed error
	f.Visit(func(fl *flag.Flag) {
		switch v := fl.Value.String(); {
		case swallowed != nil:
		case v == "--":
			swallowed = usageError(fmt.Sprintf("%s: flag --%s needs a value, not \"--\"", f.Name(), fl.Name))
		case f.isFlag(v):
			swallowed = usageError(fmt.Sprintf("%s: flag --%s needs a value, not the flag %s", f.Name(), fl.Name, v))
		}
	})
	if swallowed != nil {
		return swallowed
	}
	// The flag package stops at the first argument that is not a flag, so
	// a flag written after it would silently become part of the question
	// or query ("assay ask 'why' --json"): refuse one of this command's
	// own flags there rather than read it as words. After "--", which
	// ended the flags, every word is an argument, a flag's name too.
	rest := f.Args()
	if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
		rest = nil
	}
	for _, a := range rest {
		if f.isFlag(a) {
			return usageError(fmt.Sprintf("%s: flag %s after the arguments: put flags before them", f.Name(), a))
		}
	}
	if positional >= 0 && f.NArg() > positional {
		return usageError(fmt.Sprintf("%s: unexpected arguments: %s", f.Name(), strings.Join(f.Args()[positional:], " ")))
	}
	return nil
}

// isFlag reports whether a, a word of the command line, names one of
// this command's flags ("-json", "--json", "--server=x").
func (f *flags) isFlag(a string) bool {
	name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
	return strings.HasPrefix(a, "-") && name != "" && f.Lookup(name) != nil
}

// overrides returns the config paths of the flags the user set.
func (f *flags) overrides() map[string]string {
	out := map[string]string{}
	f.Visit(func(fl *flag.Flag) {
		if path, ok := f.paths[fl.Name]; ok {
			out[path] = fl.Value.String()
		}
	})
	return out
}
