package config

import (
	"os"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestComposeUsesRealSettings keeps docker-compose.yml honest: every
// ASSAY_ variable it sets is a configuration key, and the values load and
// validate.
func TestComposeUsesRealSettings(t *testing.T) {
	data, err := os.ReadFile("../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			Environment map[string]string `yaml:"environment"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(data, &compose); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	known := EnvNames()
	checked := 0
	for name, svc := range compose.Services {
		if !strings.HasPrefix(name, "assay-") {
			continue
		}
		if len(svc.Environment) == 0 {
			t.Errorf("service %s sets no ASSAY_ variables", name)
		}
		for k := range svc.Environment {
			if strings.HasPrefix(k, EnvPrefix) && !slices.Contains(known, k) {
				t.Errorf("service %s sets %s, which is not a configuration key", name, k)
			}
		}
		if _, err := Load(Options{Getenv: func(k string) string { return svc.Environment[k] }}); err != nil {
			t.Errorf("service %s: its settings do not load: %v", name, err)
		}
		checked++
	}
	if checked != 3 {
		t.Errorf("checked %d assay services, want 3 (index job, worker and gateway)", checked)
	}
}
