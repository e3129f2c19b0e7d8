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

// TestComposePublishesOnlyTheGateway: the only ports the compose file
// publishes are the gateway's and the Temporal Web UI's on loopback; the
// Temporal frontend, Redis and the model stay on the compose network, and
// the gateway gets its keys from a secret.
func TestComposePublishesOnlyTheGateway(t *testing.T) {
	data, err := os.ReadFile("../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			Ports       []string          `yaml:"ports"`
			Environment map[string]string `yaml:"environment"`
			Secrets     []string          `yaml:"secrets"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(data, &compose); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	for name, svc := range compose.Services {
		for _, p := range svc.Ports {
			switch {
			case name == "assay-gateway":
			case name == "temporal-ui" && strings.HasPrefix(p, "127.0.0.1:"):
			default:
				t.Errorf("service %s publishes %q; only the gateway (and the UI on 127.0.0.1) may", name, p)
			}
		}
	}
	gw := compose.Services["assay-gateway"]
	if gw.Environment[EnvName("auth.keys_file")] == "" || len(gw.Secrets) == 0 {
		t.Errorf("assay-gateway gets no keys from a secret (ASSAY_AUTH_KEYS_FILE, secrets)")
	}
	if gw.Environment[EnvName("auth.allow_anonymous")] != "" {
		t.Errorf("assay-gateway sets %s", EnvName("auth.allow_anonymous"))
	}
	if w := compose.Services["assay-worker"]; w.Environment[EnvName("index.require_acl")] != "true" {
		t.Errorf("assay-worker does not set %s=true: a production corpus needs an explicit acl on every document", EnvName("index.require_acl"))
	}
}
