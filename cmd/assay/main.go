// Command assay answers questions from a document corpus inside a bounded,
// durable Temporal workflow.
//
//	assay dev       run Temporal (local dev server), a worker and the gateway in one process
//	assay worker    run a worker against a Temporal cluster
//	assay gateway   run the HTTP API against a Temporal cluster
//	assay ask       ask a question through a gateway and print the answer
//	assay batch     answer a JSONL file of questions as one batch through a gateway
//	assay bench     measure a gateway's throughput and latency
//	assay key       make API keys and print their hashes
//	assay eval      evaluate retrieval modes on a BEIR dataset (eval retrieval) or answers to labelled questions (eval answers)
//	assay version   print the version
//
// Run `assay help` or `assay COMMAND -h` for flags. The commands live in
// internal/cli.
package main

import (
	"os"

	"github.com/assay-rag/assay/internal/cli"
)

// version is set at link time (-ldflags "-X main.version=...") by `make build`.
var version = "dev"

func main() {
	os.Exit(cli.Main(version))
}
