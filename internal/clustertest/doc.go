// Package clustertest runs assay end to end on the production engine: a
// Temporal server (go.temporal.io/server, all services in one process) on
// PostgreSQL, two `assay worker` processes and an `assay gateway`, all
// started from built binaries and driven over HTTP and the Temporal CLI,
// as an operator would run them.
//
// The package holds only tests. They run with ASSAY_CLUSTER=1 (`make
// test-cluster` builds the binaries, installs PostgreSQL when missing and
// sets it); without PostgreSQL they skip, saying why. The binaries come
// from the environment, defaulting to the repository's bin/:
//
//	ASSAY_BIN                    bin/assay
//	ASSAY_TEMPORAL_CLI           bin/temporal
//	ASSAY_TEMPORAL_SERVER        bin/temporal-server
//	ASSAY_TEMPORAL_SQL_TOOL      bin/temporal-sql-tool
//	ASSAY_PG_BIN                 the directory of initdb and postgres
//	                             (default: the newest /usr/lib/postgresql/*/bin)
//	ASSAY_PG_OPTIONS             more PostgreSQL settings, "name=value ..."
//	ASSAY_TEMPORAL_DYNAMIC_CONFIG  default config/temporal/dynamicconfig.yaml
//	ASSAY_TEMPORAL_SHARDS        history shards (default 4)
//
// ASSAY_CLUSTER_ADDRESS=host:port runs the same tests against an
// operator's own cluster instead (plain gRPC; namespace
// ASSAY_CLUSTER_NAMESPACE, default "default", must exist; a task queue of
// the test's own): nothing of Temporal's is started, and the server
// SIGKILL test skips.
//
// ASSAY_CLUSTER_BENCH=1 also runs `assay bench` against the cluster
// (TestClusterBench), the measurement behind docs/operations-cluster.md.
package clustertest
