package config

import (
	"strings"
	"testing"
)

func TestBatchSettings(t *testing.T) {
	cfg, err := Load(Options{Getenv: envOf(map[string]string{
		"ASSAY_BATCH_CONTINUE_AFTER": "64",
		"ASSAY_BATCH_MAX_QUESTIONS":  "250",
	})})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Batch.ContinueAfter != 64 || cfg.Batch.MaxQuestions != 250 || cfg.Batch.Concurrency != 4 {
		t.Errorf("batch = %+v, want continue_after 64, max_questions 250, concurrency 4", cfg.Batch)
	}
	d := Default().Batch
	if d.ContinueAfter != 500 || d.MaxQuestions != 1000 {
		t.Errorf("Default().Batch = %+v, want continue_after 500, max_questions 1000", d)
	}
	for _, tt := range []struct{ path, value string }{
		{"batch.continue_after", "0"},
		{"batch.max_questions", "0"},
		{"batch.max_questions", "10001"},
	} {
		_, err := Load(Options{Overrides: map[string]string{tt.path: tt.value}})
		if err == nil || !strings.Contains(err.Error(), tt.path) {
			t.Errorf("Load(%s=%s) error = %v, want one naming %s", tt.path, tt.value, err, tt.path)
		}
	}
}
