package evalrun

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/percentile"
	"github.com/assay-rag/assay/internal/retrieval"
)

// Retrieval is one `assay eval retrieval`: a BEIR dataset split searched
// directly (no Temporal) in each mode compared.
type Retrieval struct {
	Dataset string // BEIR dataset directory
	Split   string // eval.SplitTest or eval.SplitTrain
	Modes   []retrieval.Mode
	K       int
	// Config's index settings say which backend to search; its index.dir,
	// when empty, becomes <data_dir>/eval/<dataset>-index. The index is
	// built from the dataset's corpus when missing or stale.
	Config   config.Config
	Log      *slog.Logger
	Progress func(system string, done, total int)
}

// Run searches every judged query in every mode and compares the modes.
func (e Retrieval) Run(ctx context.Context) (eval.RetrievalReport, error) {
	ds, err := eval.LoadBEIR(e.Dataset, e.Split)
	if err != nil {
		return eval.RetrievalReport{}, err
	}
	cfg := e.Config
	cfg.Index.Corpus = ds.CorpusPath
	cfg.Index.RequireACL = false // a BEIR dataset has no ACLs: every document is public
	if cfg.Index.Dir == "" {
		abs, err := filepath.Abs(e.Dataset)
		if err != nil {
			return eval.RetrievalReport{}, err
		}
		cfg.Index.Dir = filepath.Join(cfg.DataDir, "eval", filepath.Base(abs)+"-index")
	}
	d, err := live.OpenDirect(ctx, cfg, e.Log, true)
	if err != nil {
		return eval.RetrievalReport{}, err
	}
	defer d.Close()
	e.Log.Info("index", "serving", d.Index.Version())
	if unknown := eval.UnknownDocs(ds.Qrels, d.Index.HasDocument); len(unknown) > 0 {
		e.Log.Warn("judged documents missing from the corpus can never be retrieved", "count", len(unknown), "first", unknown[0])
	}
	systems, err := modeSystems(d, cfg, e.Modes)
	if err != nil {
		return eval.RetrievalReport{}, err
	}
	e.Log.Info("evaluating retrieval", "dataset", e.Dataset, "split", e.Split, "queries", len(ds.Queries), "modes", modeList(e.Modes), "k", e.K)
	rep, err := eval.CompareRetrieval(ctx, ds.Queries, ds.Qrels, systems, eval.RetrievalOptions{K: e.K, Progress: e.Progress})
	if err != nil {
		return eval.RetrievalReport{}, err
	}
	rep.Dataset = filepath.Base(filepath.Clean(e.Dataset))
	rep.Split = e.Split
	rep.Documents = d.Index.Manifest().Documents
	return rep, nil
}

func modeList(modes []retrieval.Mode) string {
	names := make([]string, len(modes))
	for i, m := range modes {
		names[i] = string(m)
	}
	return strings.Join(names, ",")
}

// modeSystems wires one evaluated system per mode, all over the retriever
// the service itself would use on the index. A mode the index cannot
// serve (vector modes on an index without embeddings) fails before any
// query runs.
func modeSystems(d *live.Direct, cfg config.Config, modes []retrieval.Mode) ([]eval.System, error) {
	qe, err := live.QueryEmbedder(d.Index, cfg)
	if err != nil {
		return nil, err
	}
	systems := make([]eval.System, 0, len(modes))
	for _, m := range modes {
		if m != retrieval.BM25 && qe == nil {
			return nil, fmt.Errorf("eval retrieval: mode %s needs vectors, and the index has no builtin embeddings (embedder %q); rebuild it with `assay index --embedder builtin` or drop the mode",
				m, d.Index.Manifest().Embedder)
		}
		systems = append(systems, eval.System{Name: string(m), Searcher: eval.InMode(d.Retriever, m)})
	}
	return systems, nil
}

// WriteRuns writes one TREC run file per mode into dir; '+' in a mode
// name becomes '_' in the file name.
func WriteRuns(dir string, rep eval.RetrievalReport) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, s := range rep.Systems {
		path := filepath.Join(dir, strings.ReplaceAll(s.Mode, "+", "_")+".run")
		err := WriteFile(path, func(w io.Writer) error { return eval.WriteRun(w, s.Run, "assay-"+s.Mode) })
		if err != nil {
			return err
		}
	}
	return nil
}

// WriteFile creates path and fills it with write.
func WriteFile(path string, write func(io.Writer) error) error {
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

// Searched is what SearchRun wrote.
type Searched struct {
	Queries  int
	P50, P99 time.Duration
}

// SearchRun runs every query of a BEIR queries file through ix in mode m
// and writes a TREC run file with one line per document: chunks collapse
// to their document at the rank and score of its best chunk (`assay
// search --queries --run`). With warmup > 0 it first runs the same
// queries that many times, unmeasured and unwritten, as the Lucene peer
// does before it times its pass (docs/performance-scale.md, "Like with
// like"); the latencies and the run are the last pass's.
func SearchRun(ctx context.Context, ix eval.Searcher, queriesPath, runPath string, groups []string, m retrieval.Mode, k, warmup int) (Searched, error) {
	if warmup < 0 {
		return Searched{}, fmt.Errorf("warm-up passes: want 0 or more, got %d", warmup)
	}
	qs, err := eval.LoadQueries(queriesPath)
	if err != nil {
		return Searched{}, err
	}
	tag := "assay-" + strings.ReplaceAll(string(m), "+", "-")
	sys := eval.System{Name: tag, Searcher: eval.InMode(ix, m)}
	opts := eval.RetrievalOptions{K: k, Groups: groups}
	for range warmup {
		if _, err := eval.RunQueries(ctx, sys, qs, opts); err != nil {
			return Searched{}, err
		}
	}
	sr, err := eval.RunQueries(ctx, sys, qs, opts)
	if err != nil {
		return Searched{}, err
	}
	if err := WriteFile(runPath, func(w io.Writer) error { return eval.WriteRun(w, sr.Run, tag) }); err != nil {
		return Searched{}, err
	}
	return Searched{Queries: len(qs), P50: percentile.NearestRank(sr.Latencies, 50), P99: percentile.NearestRank(sr.Latencies, 99)}, nil
}
