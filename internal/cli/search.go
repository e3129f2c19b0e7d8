package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"text/tabwriter"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/evalrun"
	"github.com/assay-rag/assay/internal/retrieval"
)

// runSearch searches an index directly, without Temporal: one query
// printed as a table or JSON, or a batch of queries written as a TREC run.
func runSearch(ctx context.Context, e env, args []string) error {
	f := newFlags("search", e.stderr)
	dir := f.String("index", "", "index `dir` built by `assay index` (bleve backend)")
	indexSettings(f)
	as := f.String("as", "public", "the principal's ACL `groups`, comma-separated")
	mode := f.String("mode", "", "`mode`: bm25, vector, hybrid or hybrid+rerank (default: "+string(retrieval.DefaultMode)+", or bm25 for an index without vectors)")
	k := f.Int("k", 10, "how many `results`")
	asJSON := f.Bool("json", false, "print the full result (hits, stages, warnings) as JSON")
	queries := f.String("queries", "", "batch mode: BEIR queries `file` (JSONL with _id and text)")
	runOut := f.String("run", "", "batch mode: TREC run `file` to write (qid Q0 docid rank score tag), one line per document")
	warmup := f.Int("warmup", 0, "batch mode: `passes` over the same queries before the measured one, unmeasured (the Lucene peer's timing: one)")
	embedSettings(f)
	if err := f.parse(args, -1); err != nil {
		return err
	}
	m, err := retrieval.ParseMode(*mode)
	if err != nil {
		return usageError("search: --" + err.Error())
	}
	batch := *queries != "" || *runOut != ""
	switch {
	case *warmup < 0:
		return usageError(fmt.Sprintf("search: --warmup %d: want 0 or more passes", *warmup))
	case *warmup > 0 && !batch:
		return usageError(fmt.Sprintf("search: --warmup %d: warm-up passes are for batch mode (--queries and --run); one query is searched once", *warmup))
	}
	groups := splitList(*as)
	if len(groups) == 0 {
		return usageError("search: --as must name at least one group")
	}
	cfg, err := loadConfig(e, f)
	if err != nil {
		return err
	}
	if *dir == "" && cfg.Index.Backend != config.BackendRediSearch {
		return usageError("search: --index DIR (or --backend redisearch --name N) is required")
	}
	cfg.Index.Dir = *dir
	d, err := live.OpenDirect(ctx, cfg, newLogger(e, slog.LevelWarn), false)
	if err != nil {
		return err
	}
	defer d.Close()
	r := d.Retriever
	if *mode == "" {
		m = r.Mode() // the best this index can serve
	}
	if batch {
		if *queries == "" || *runOut == "" || f.NArg() > 0 {
			return usageError("search: batch mode takes --queries and --run, and no query argument")
		}
		sr, err := evalrun.SearchRun(ctx, r, *queries, *runOut, groups, m, *k, *warmup)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "wrote %d queries to %s (mode %s, k %d, warm-up passes %d, p50 %.2fms, p99 %.2fms)\n", sr.Queries, *runOut, m, *k, *warmup,
			float64(sr.P50.Microseconds())/1000, float64(sr.P99.Microseconds())/1000)
		return nil
	}
	for _, a := range f.Args() {
		if strings.HasPrefix(a, "-") {
			return usageError(fmt.Sprintf("search: flag %s after the query: put flags before it", a))
		}
	}
	query := strings.TrimSpace(strings.Join(f.Args(), " "))
	if query == "" {
		return usageError(`search: give the query as an argument: assay search --index DIR "how do I descale the kettle"`)
	}
	res, err := r.Search(ctx, retrieval.Request{Query: query, Groups: groups, K: *k, Mode: m})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "rank\tscore\tchunk\tstatus\tauth\ttitle")
	for i, h := range res.Hits {
		fmt.Fprintf(tw, "%d\t%.4f\t%s\t%s\t%.1f\t%s\n", i+1, h.Score, h.ChunkID, h.Status, h.Authority, h.Title)
	}
	tw.Flush()
	var stages []string
	for _, s := range res.Stages {
		stages = append(stages, fmt.Sprintf("%s %.2fms (%d)", s.Name, s.Millis, s.Candidates))
	}
	fmt.Fprintf(e.stdout, "\nmode %s; stages: %s\n", m, strings.Join(stages, ", "))
	for _, w := range res.Warnings {
		fmt.Fprintf(e.stdout, "warning: %s\n", w)
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
