package redistest

import (
	"testing"

	"github.com/assay-rag/assay/config"
)

// IndexConfig is the configuration of the RediSearch index name in the
// Redis at addr, with no corpus to build it from.
func IndexConfig(t testing.TB, addr, name string) config.Config {
	t.Helper()
	cfg, err := config.Load(config.Options{Overrides: map[string]string{
		"index.backend": "redisearch", "redis.addr": addr, "index.name": name, "index.corpus": "",
	}})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
