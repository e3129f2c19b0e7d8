package main

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/assay-rag/assay/config"
)

// TestGatewayIndex: a standalone gateway reads passages from the worker's
// index when it can open it, and says so when it cannot.
func TestGatewayIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ix")
	if _, _, err := runCmd(t, "index", "--corpus", "../../testdata/hollin/corpus.jsonl", "--index", dir, "--quiet"); err != nil {
		t.Fatalf("assay index: %v", err)
	}
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	cfg := config.Default()
	cfg.Index.Dir = dir
	ix := gatewayIndex(cfg, log)
	if ix == nil {
		t.Fatalf("gatewayIndex(%s) = nil:\n%s", dir, logs.String())
	}
	defer ix.Close()
	cs, err := ix.Chunks(context.Background(), []string{"pol-warranty-2026#0"})
	if err != nil || len(cs) != 1 || cs[0].Title != "Warranty terms (2026)" {
		t.Errorf("Chunks = %+v, %v", cs, err)
	}

	logs.Reset()
	cfg.Index.Dir = filepath.Join(t.TempDir(), "none")
	if ix := gatewayIndex(cfg, log); ix != nil {
		ix.Close()
		t.Errorf("gatewayIndex of an empty dir opened something")
	}
	if !strings.Contains(logs.String(), "answers 503") || !strings.Contains(logs.String(), "index.dir") {
		t.Errorf("without an index the gateway logs %q; want it to say sources answer 503 and name index.dir", logs.String())
	}
}
