package config

import (
	"strings"
	"testing"
)

func TestTemporalGzip(t *testing.T) {
	tests := []struct {
		compression, address string
		want                 bool
	}{
		{CompressionAuto, "127.0.0.1:7233", false},
		{CompressionAuto, "[::1]:7233", false},
		{CompressionAuto, "localhost:7233", false},
		{CompressionAuto, "temporal:7233", true},
		{CompressionAuto, "10.0.0.7:7233", true},
		{CompressionGzip, "127.0.0.1:7233", true},
		{CompressionNone, "temporal:7233", false},
	}
	for _, tt := range tests {
		got := Temporal{Address: tt.address, Compression: tt.compression}.Gzip()
		if got != tt.want {
			t.Errorf("Temporal{%s, %s}.Gzip() = %v, want %v", tt.address, tt.compression, got, tt.want)
		}
	}
}

func TestWorkerTuningFromEnvironment(t *testing.T) {
	cfg, err := Load(Options{Getenv: envOf(map[string]string{
		"ASSAY_WORKER_WORKFLOW_POLLERS": "4",
		"ASSAY_WORKER_STICKY_CACHE":     "500",
		"ASSAY_TEMPORAL_COMPRESSION":    "gzip",
	})})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Worker.WorkflowPollers != 4 || cfg.Worker.StickyCache != 500 || cfg.Temporal.Compression != CompressionGzip {
		t.Errorf("worker %+v, compression %q; want 4 workflow pollers, sticky cache 500, gzip", cfg.Worker, cfg.Temporal.Compression)
	}
}

func TestWorkerTuningValidated(t *testing.T) {
	cfg := Default()
	cfg.Temporal.Compression = "zstd"
	cfg.Worker.WorkflowPollers = 1
	cfg.Worker.MaxActivities = -1
	err := cfg.Validate()
	if err == nil {
		t.Fatal("Validate = nil, want errors")
	}
	for _, field := range []string{"temporal.compression", "worker.workflow_pollers", "worker.max_activities"} {
		if !strings.Contains(err.Error(), field+":") {
			t.Errorf("Validate error does not name %s:\n%v", field, err)
		}
	}
}
