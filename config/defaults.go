package config

import (
	"time"

	"github.com/assay-rag/assay/internal/wire"
)

// Default returns the settings of the embedded default: everything local,
// builtin models, no corpus (`assay dev` indexes the sample corpus when
// none is set).
func Default() Config {
	return Config{
		DataDir: ".assay",
		HTTP: HTTP{
			Addr:         "127.0.0.1:8080",
			MaxBodyBytes: wire.DefaultMaxBodyBytes,
			MaxWait:      wire.DefaultMaxWait,
			ReadTimeout:  30 * time.Second,
			WriteTimeout: 90 * time.Second,
			IdleTimeout:  120 * time.Second,
			// Operator data: a key must be in this group to read releases.
			ReleasesGroup: "operators",
		},
		Temporal: Temporal{
			Address:     "127.0.0.1:7233",
			Namespace:   "default",
			TaskQueue:   "assay",
			Compression: CompressionAuto,
		},
		Dev: Dev{
			TemporalBin:  "bin/temporal",
			TemporalPort: 7233,
			UIPort:       8233,
		},
		Index: Index{
			Backend:    BackendBleve,
			Name:       "assay",
			RequireACL: true,
			Vector:     VectorSmallFlat,
		},
		Embed: Embed{Provider: EmbedBuiltin},
		LLM: LLM{
			Timeout:    60 * time.Second,
			MaxRetries: 3,
		},
		Loop: Loop{
			MaxAttempts: wire.DefaultMaxAttempts,
			Threshold:   wire.DefaultThreshold,
			MaxTokens:   wire.DefaultMaxTokens,
			MaxCostUSD:  wire.DefaultMaxCostUSD,
			Deadline:    wire.DefaultDeadline,
			TopK:        wire.DefaultTopK,
			Expand:      true, // with a thesaurus only (round 38, builtin:coverage-v42's merged search)
		},
		Batch: Batch{
			Concurrency:   wire.DefaultConcurrency,
			ContinueAfter: wire.DefaultContinueAfter,
			MaxQuestions:  wire.DefaultMaxQuestions,
		},
		Worker: Worker{LocalActivities: true, LocalRedisSearch: true, DeploymentName: "assay"},
		Quota:  Quota{MaxQuestionsInFlight: 100, MaxBatchesInFlight: 4},
	}
}
