package eval

import (
	"os"
	"path/filepath"
	"testing"
)

// scifactDir returns the SciFact dataset directory, or skips — loudly —
// unless ASSAY_SCIFACT=1. ASSAY_SCIFACT_DIR overrides the default
// ../shared/data/scifact beside the repository.
func scifactDir(t *testing.T) string {
	t.Helper()
	if os.Getenv("ASSAY_SCIFACT") != "1" {
		t.Skip("SKIPPED: SciFact-scale test; set ASSAY_SCIFACT=1 (and ASSAY_SCIFACT_DIR if the data is not at ../shared/data/scifact) to run it")
	}
	if dir := os.Getenv("ASSAY_SCIFACT_DIR"); dir != "" {
		return dir
	}
	return filepath.Join("..", "..", "..", "shared", "data", "scifact")
}

func TestLoadBEIRSciFact(t *testing.T) {
	dir := scifactDir(t)
	tests := []struct {
		split               string
		queries, judgements int
	}{
		{SplitTest, 300, 339},
		{SplitTrain, 809, 919},
	}
	for _, tc := range tests {
		d, err := LoadBEIR(dir, tc.split)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, docs := range d.Qrels {
			n += len(docs)
		}
		if len(d.Queries) != tc.queries || n != tc.judgements {
			t.Errorf("LoadBEIR(scifact, %s) = %d queries, %d judgements; want %d, %d", tc.split, len(d.Queries), n, tc.queries, tc.judgements)
		}
	}
}
