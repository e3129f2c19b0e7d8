package cli

import "context"

// runWorker runs assay's workflows and activities against a Temporal
// cluster until interrupted.
func runWorker(ctx context.Context, e env, args []string) error {
	f := newFlags("worker", e.stderr)
	f.setting("temporal-address", "temporal.address", "Temporal frontend `host:port`")
	f.setting("index-dir", "index.dir", "index `dir` (default <data_dir>/index)")
	f.setting("corpus", "index.corpus", "corpus `file` to (re)build the bleve index from when it is missing or stale; empty to only open (a redisearch index is built by `assay index`)")
	indexSettings(f)
	f.setting("metrics-addr", "worker.metrics_addr", "serve Prometheus /metrics on this `address` (default: off)")
	versioningSettings(f)
	f.setting("pprof-addr", "worker.pprof_addr", "serve Go's profiler (/debug/pprof/) on this `address` (default: off)")
	return withRoot(e, f, args, func(r *Root) error { return r.serveWorker(ctx) })
}
