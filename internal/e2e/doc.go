// Package e2e holds assay's end-to-end tests: `assay dev`, workers and
// gateways on a real Temporal dev server, driven through cli.Run and the
// cli.Root the verbs share, the HTTP API, the built binary and (when
// installed) headless Chromium. It has no code of its own; `make test`
// runs it with everything else, `make test-chaos`, `make test-redis` and
// `make test-browser` run parts of it.
package e2e
