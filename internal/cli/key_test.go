package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/auth"
)

func TestKeyCommand(t *testing.T) {
	tests := []struct {
		args    []string
		want    string // stdout, "" to skip
		wantErr bool
	}{
		{[]string{"assay", "key", "hash", "abc"}, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n", false},
		{[]string{"assay", "key", "hash"}, "", true},
		{[]string{"assay", "key", "hash", "a", "b"}, "", true},
		{[]string{"assay", "key"}, "", true},
		{[]string{"assay", "key", "rotate"}, "", true},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		err := Run(context.Background(), tt.args, func(string) string { return "" }, &out, &errOut)
		if (err != nil) != tt.wantErr || (tt.want != "" && out.String() != tt.want) {
			t.Errorf("run(%q) = %q, %v; want %q, error %v", tt.args, out.String(), err, tt.want, tt.wantErr)
		}
	}

	var out bytes.Buffer
	if err := Run(context.Background(), []string{"assay", "key", "new"}, func(string) string { return "" }, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var key, sum string
	for _, line := range strings.Split(out.String(), "\n") {
		if k, ok := strings.CutPrefix(line, "key:"); ok {
			key = strings.TrimSpace(k)
		}
		if s, ok := strings.CutPrefix(line, "sha256:"); ok {
			sum = strings.TrimSpace(s)
		}
	}
	if key == "" || sum != auth.Hash(key) {
		t.Errorf("key new printed %q; want a key and its hash", out.String())
	}
}
