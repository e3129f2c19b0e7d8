package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"go.yaml.in/yaml/v3"
)

// KeysEnv holds keys inline, as a YAML or JSON list in the shape of
// auth.keys; when set it replaces the file's auth.keys.
const KeysEnv = EnvPrefix + "AUTH_KEYS"

// APIKeys returns the keys of auth.keys and auth.keys_file together,
// validated. It reads the file, so only the process that serves the API
// calls it.
func (c Config) APIKeys() ([]Key, error) {
	keys := append([]Key(nil), c.Auth.Keys...)
	if c.Auth.KeysFile != "" {
		data, err := os.ReadFile(c.Auth.KeysFile)
		if err != nil {
			return nil, fmt.Errorf("auth.keys_file: %w", err)
		}
		var f struct {
			Keys []Key `yaml:"keys"`
		}
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("auth.keys_file %s: %w", c.Auth.KeysFile, err)
		}
		if len(f.Keys) == 0 {
			return nil, fmt.Errorf("auth.keys_file %s: no keys (want {\"keys\": [...]})", c.Auth.KeysFile)
		}
		keys = append(keys, f.Keys...)
	}
	var p problems
	validateKeys(&p, keys)
	if err := errors.Join(p...); err != nil {
		return nil, err
	}
	return keys, nil
}

// Key is one API key, stored as the SHA-256 hex of the key itself.
type Key struct {
	Name          string   `yaml:"name"`
	SHA256        string   `yaml:"sha256"`
	Groups        []string `yaml:"groups"`
	RatePerMinute int      `yaml:"rate_per_minute"`
}

// validateKeys checks keys, each named by its auth.keys[i] path.
func validateKeys(p *problems, keys []Key) {
	seen := map[string]bool{}
	for i, k := range keys {
		path := fmt.Sprintf("auth.keys[%d]", i)
		p.notEmpty(path+".name", k.Name)
		if !isSHA256Hex(k.SHA256) {
			p.add(path+".sha256", "want 64 lowercase hex digits (see `assay key hash`)")
		} else if seen[k.SHA256] {
			p.add(path+".sha256", "duplicates an earlier key")
		}
		seen[k.SHA256] = true
		if len(k.Groups) == 0 {
			p.add(path+".groups", "must name at least one group")
		}
		p.notNegative(path+".rate_per_minute", float64(k.RatePerMinute))
	}
}

func isSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
	}
	return true
}
