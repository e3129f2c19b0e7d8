package cli

import "context"

// runGateway serves the HTTP API against a Temporal cluster.
func runGateway(ctx context.Context, e env, args []string) error {
	f := newFlags("gateway", e.stderr)
	f.setting("http-addr", "http.addr", "listen `address` (default 127.0.0.1:8080)")
	f.setting("temporal-address", "temporal.address", "Temporal frontend `host:port`")
	f.setting("index-dir", "index.dir", "the worker's index `dir`, read for /v1/questions/{id}/sources (default <data_dir>/index)")
	indexSettings(f)
	return withRoot(e, f, args, func(r *Root) error { return r.serveGateway(ctx) })
}
