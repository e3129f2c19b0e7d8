package cli

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/assay-rag/assay/config"
)

// TestRedisTokens: without redis.addr a standalone process says that no
// tokens will stream; with an address nothing answers on, it fails at
// start-up naming the setting.
func TestRedisTokens(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	cfg := config.Default()
	r, err := redisTokens(context.Background(), cfg, log, "gateway")
	if r != nil || err != nil {
		t.Fatalf("redisTokens without redis.addr = %v, %v; want nil, nil", r, err)
	}
	if !strings.Contains(buf.String(), "answer tokens: off") || !strings.Contains(buf.String(), "ASSAY_REDIS_ADDR") {
		t.Errorf("start-up log %q does not say tokens are off and how to turn them on", buf.String())
	}
	cfg.Redis.Addr = "127.0.0.1:1"
	r, err = redisTokens(context.Background(), cfg, log, "worker")
	if r != nil || err == nil || !strings.Contains(err.Error(), "redis.addr") {
		t.Errorf("redisTokens with nothing at %s = %v, %v; want an error naming redis.addr", cfg.Redis.Addr, r, err)
	}
}
