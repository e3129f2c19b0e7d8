package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/eval"
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

// modeSystems wires one evaluated system per mode, all over the retriever
// the service itself would use on ix. A mode the index cannot serve (vector
// modes on an index without embeddings) fails before any query runs.
func modeSystems(ix backend.Index, cfg config.Config, modes []retrieval.Mode) ([]eval.System, error) {
	qe, err := live.QueryEmbedder(ix, cfg)
	if err != nil {
		return nil, err
	}
	r, err := live.NewRetriever(ix, cfg)
	if err != nil {
		return nil, err
	}
	systems := make([]eval.System, 0, len(modes))
	for _, m := range modes {
		if m != retrieval.BM25 && qe == nil {
			return nil, fmt.Errorf("eval retrieval: mode %s needs vectors, and the index has no builtin embeddings (embedder %q); rebuild it with `assay index --embedder builtin` or drop the mode",
				m, ix.Manifest().Embedder)
		}
		systems = append(systems, eval.System{Name: string(m), Searcher: eval.SearcherFunc(
			func(ctx context.Context, req retrieval.Request) (retrieval.Result, error) {
				req.Mode = m
				return r.Search(ctx, req)
			})})
	}
	return systems, nil
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
	log := newLogger(e, slog.LevelInfo)

	ds, err := eval.LoadBEIR(*datasetDir, *split)
	if err != nil {
		return err
	}

	cfg.Index.Corpus = ds.CorpusPath
	cfg.Index.RequireACL = false // a BEIR dataset has no ACLs: every document is public
	cfg.Index.Dir = *indexDir
	if cfg.Index.Dir == "" {
		abs, err := filepath.Abs(*datasetDir)
		if err != nil {
			return err
		}
		cfg.Index.Dir = filepath.Join(cfg.DataDir, "eval", filepath.Base(abs)+"-index")
	}
	src, err := live.NewSource(ctx, cfg)
	if err != nil {
		return err
	}
	defer src.Close()
	ix, err := src.Open(ctx, log, true)
	if err != nil {
		return err
	}
	defer ix.Close()
	log.Info("index", "serving", ix.Version())
	if unknown := eval.UnknownDocs(ds.Qrels, ix.HasDocument); len(unknown) > 0 {
		log.Warn("judged documents missing from the corpus can never be retrieved", "count", len(unknown), "first", unknown[0])
	}

	systems, err := modeSystems(ix, cfg, modes)
	if err != nil {
		return err
	}
	log.Info("evaluating retrieval", "dataset", *datasetDir, "split", *split, "queries", len(ds.Queries), "modes", *modesFlag, "k", *k)
	rep, err := eval.CompareRetrieval(ctx, ds.Queries, ds.Qrels, systems, eval.RetrievalOptions{
		K:        *k,
		Progress: progressPrinter(e),
	})
	if err != nil {
		return err
	}
	rep.Dataset = filepath.Base(filepath.Clean(*datasetDir))
	rep.Split = *split
	rep.Documents = ix.Manifest().Documents

	if *runDir != "" {
		if err := writeRuns(*runDir, rep); err != nil {
			return err
		}
	}
	if *jsonOut != "" {
		if err := writeFileWith(*jsonOut, rep.WriteJSON); err != nil {
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

// writeRuns writes one TREC run file per mode; '+' in a mode name becomes
// '_' in the file name.
func writeRuns(dir string, rep eval.RetrievalReport) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, s := range rep.Systems {
		path := filepath.Join(dir, strings.ReplaceAll(s.Mode, "+", "_")+".run")
		err := writeFileWith(path, func(w io.Writer) error { return eval.WriteRun(w, s.Run, "assay-"+s.Mode) })
		if err != nil {
			return err
		}
	}
	return nil
}

// writeFileWith creates path and fills it with write.
func writeFileWith(path string, write func(io.Writer) error) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(out); err != nil {
		out.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return out.Close()
}
