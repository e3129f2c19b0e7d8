package cli

import "context"

// sampleCorpus is what `assay dev` indexes when index.corpus is not set:
// the Hollin sample, relative to the repository root. No other command
// falls back on it.
const sampleCorpus = "testdata/hollin/corpus.jsonl"

// runDev is the embedded default: a local Temporal dev server with its Web
// UI, the index of the configured corpus, a worker and the gateway, all
// stopped together on Ctrl-C or SIGTERM.
func runDev(ctx context.Context, e env, args []string) error {
	f := newFlags("dev", e.stderr)
	f.setting("data-dir", "data_dir", "`dir` for the Temporal database, its log and the index (default .assay)")
	f.setting("http-addr", "http.addr", "gateway listen `address` (default 127.0.0.1:8080)")
	f.setting("temporal-port", "dev.temporal_port", "Temporal frontend `port` (default 7233)")
	f.setting("ui-port", "dev.ui_port", "Temporal Web UI `port` (default 8233)")
	f.setting("corpus", "index.corpus", "corpus `file` to index (default testdata/hollin/corpus.jsonl)")
	f.setting("temporal-bin", "dev.temporal_bin", "Temporal CLI `path` (default bin/temporal)")
	indexSettings(f)
	versioningSettings(f)
	f.setting("pprof-addr", "worker.pprof_addr", "serve Go's profiler (/debug/pprof/) on this `address` (default: off)")
	return withRoot(e, f, args, func(r *Root) error { return r.serveDev(ctx, e.stdout) })
}
