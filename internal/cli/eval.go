package cli

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/evalrun"
	"github.com/assay-rag/assay/internal/retrieval"
)

// runEval dispatches `assay eval SUBCOMMAND`.
func runEval(ctx context.Context, e env, args []string) error {
	const subcommands = "retrieval, answers"
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintf(e.stderr, "usage: assay eval SUBCOMMAND [flags]\n\nsubcommands:\n  retrieval  compare retrieval modes on a BEIR dataset (nDCG@10, MRR@10, recall, MAP, latency)\n  answers    run labelled questions through the loop and the one-pass baseline on Temporal; where answers were lost, citations, leaks, reports\n")
		if len(args) == 0 {
			return usageError("eval: want a subcommand: " + subcommands)
		}
		return nil
	}
	switch args[0] {
	case "retrieval":
		return runEvalRetrieval(ctx, e, args[1:])
	case "answers":
		return runEvalAnswers(ctx, e, args[1:])
	}
	return usageError(fmt.Sprintf("eval: unknown subcommand %q (want %s)", args[0], subcommands))
}

// parseModes splits a --modes value and rejects unknown or repeated names.
func parseModes(s string) ([]retrieval.Mode, error) {
	var modes []retrieval.Mode
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, usageError(fmt.Sprintf("eval retrieval: --modes %q has an empty mode", s))
		}
		m, err := retrieval.ParseMode(name)
		if err != nil {
			return nil, usageError(fmt.Sprintf("eval retrieval: --modes: %v", err))
		}
		if slices.Contains(modes, m) {
			return nil, usageError(fmt.Sprintf("eval retrieval: --modes: %q given twice", m))
		}
		modes = append(modes, m)
	}
	return modes, nil
}

// runEvalRetrieval runs every judged query of a BEIR dataset split through
// each retrieval mode and prints one comparison table.
func runEvalRetrieval(ctx context.Context, e env, args []string) error {
	f := newFlags("eval retrieval", e.stderr)
	datasetDir := f.String("dataset", "", "BEIR dataset `dir`: corpus.jsonl, queries.jsonl, qrels.tsv (required)")
	split := f.String("split", eval.SplitTest, "dataset split: test or train")
	modesFlag := f.String("modes", "bm25", "comma-separated retrieval `modes` to compare: bm25, vector, hybrid, hybrid+rerank")
	k := f.Int("k", 100, "documents retrieved per query (recall@100 needs 100)")
	indexDir := f.String("index", "", "index `dir`, built from the dataset's corpus when missing or stale (default <data_dir>/eval/<dataset>-index)")
	indexSettings(f)
	jsonOut := f.String("json", "", "also write the comparison as JSON (schema "+eval.RetrievalSchema+") to `file`")
	runDir := f.String("run-dir", "", "write each mode's ranking as a TREC run file MODE.run into `dir`")
	if err := f.parse(args, 0); err != nil {
		return err
	}
	if *datasetDir == "" {
		return usageError("eval retrieval: --dataset is required")
	}
	if *k < 1 || *k > retrieval.MaxK {
		return usageError(fmt.Sprintf("eval retrieval: --k %d: want 1..%d", *k, retrieval.MaxK))
	}
	modes, err := parseModes(*modesFlag)
	if err != nil {
		return err
	}
	cfg, err := loadConfig(e, f)
	if err != nil {
		return err
	}
	cfg.Index.Dir = *indexDir
	rep, err := evalrun.Retrieval{
		Dataset: *datasetDir, Split: *split, Modes: modes, K: *k,
		Config: cfg, Log: newLogger(e, slog.LevelInfo), Progress: progressPrinter(e),
	}.Run(ctx)
	if err != nil {
		return err
	}
	if *runDir != "" {
		if err := evalrun.WriteRuns(*runDir, rep); err != nil {
			return err
		}
	}
	if *jsonOut != "" {
		if err := evalrun.WriteFile(*jsonOut, rep.WriteJSON); err != nil {
			return err
		}
	}
	return rep.WriteTable(e.stdout)
}

// progressPrinter reports on stderr about every tenth of the queries.
func progressPrinter(e env) func(system string, done, total int) {
	return func(system string, done, total int) {
		step := max(1, total/10)
		if done%step == 0 || done == total {
			fmt.Fprintf(e.stderr, "%s: %d/%d queries\n", system, done, total)
		}
	}
}
