package e2e

import (
	"encoding/json"
	"github.com/assay-rag/assay/internal/devserver/devservertest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/bench"
	"github.com/assay-rag/assay/internal/cli/clitest"
	"github.com/assay-rag/assay/internal/wire"
)

// TestEndToEndBench runs `assay bench --embedded` with two concurrency
// levels and a batch, and reads back its --json report.
func TestEndToEndBench(t *testing.T) {
	bin := devservertest.Binary(t)
	file := filepath.Join(t.TempDir(), "bench.json")
	out, errOut, err := clitest.Run(t, "bench", "--embedded", "--temporal-bin", bin,
		"--corpus", "../../testdata/hollin/corpus.jsonl", "--questions", "../../testdata/hollin/questions.jsonl",
		"-n", "6", "-warmup", "0", "-concurrency", "1,3", "-batch", "5", "--json", file)
	if err != nil {
		t.Fatalf("assay bench: %v\n%s\n%s", err, out, errOut)
	}
	if !strings.Contains(out, "| 3 |") || !strings.Contains(out, "batch of 5: completed") {
		t.Errorf("output lacks the table row or the batch line:\n%s", out)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var r bench.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Schema != "assay.bench/v1" || r.Server != "embedded" || len(r.Rows) != 2 || r.Rows[1].Concurrency != 3 {
		t.Fatalf("report %+v", r)
	}
	for _, row := range r.Rows {
		stops := 0
		for _, n := range row.StopReasons {
			stops += n
		}
		if row.Completed != 6 || row.Errors != 0 || stops != 6 || row.PerSecond <= 0 || row.P50MS <= 0 || row.P99MS < row.P50MS {
			t.Errorf("row %+v: want 6 completed with stop reasons and ordered percentiles", row)
		}
	}
	if r.Batch == nil || r.Batch.Done != 5 || r.Batch.Failed != 0 || r.Batch.StopReasons[wire.Answered] == 0 {
		t.Errorf("batch %+v, want 5 done, some answered", r.Batch)
	}
}
