package config

import (
	"strings"
	"testing"
)

func TestRedisSettings(t *testing.T) {
	cfg, err := Load(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Redis.Addr != "" {
		t.Errorf("default redis.addr = %q, want empty (no Redis)", cfg.Redis.Addr)
	}
	const password = "redis-very-secret"
	cfg, err = Load(Options{Getenv: envOf(map[string]string{"ASSAY_REDIS_ADDR": "redis:6379", "ASSAY_REDIS_PASSWORD": password})})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Redis.Addr != "redis:6379" || cfg.Redis.Password.Reveal() != password {
		t.Errorf("redis = %q, %q; want the environment's", cfg.Redis.Addr, cfg.Redis.Password.Reveal())
	}
	if strings.Contains(cfg.String(), password) {
		t.Errorf("String() prints the redis password:\n%s", cfg)
	}
	_, err = Load(Options{Getenv: envOf(map[string]string{"ASSAY_REDIS_ADDR": "redis"})})
	if err == nil || !strings.Contains(err.Error(), "redis.addr:") {
		t.Errorf("Load with redis.addr %q = %v, want an error naming redis.addr", "redis", err)
	}
}
