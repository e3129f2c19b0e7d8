package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/internal/payloadcodec"
)

func TestKeyCommand(t *testing.T) {
	tests := []struct {
		args    []string
		stdin   string
		want    string // stdout, "" to skip
		wantErr bool
	}{
		{[]string{"key", "hash"}, "abc\n", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n", false},
		{[]string{"key", "hash"}, "  abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n", false},
		{[]string{"key", "hash"}, "", "", true},
		{[]string{"key", "hash"}, strings.Repeat("k", auth.MaxKeyLen+1), "", true},
		// issue 21: the key on the command line is in the shell's history
		// and in process listings; it is refused, stdin or not.
		{[]string{"key", "hash", "abc"}, "", "", true},
		{[]string{"key", "hash", "abc"}, "abc\n", "", true},
		{[]string{"key"}, "", "", true},
		{[]string{"key", "rotate"}, "", "", true},
		{[]string{"key", "payload", "bad id!"}, "", "", true},
		{[]string{"key", "payload", "k1", "k2"}, "", "", true},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		e := env{getenv: func(string) string { return "" }, stdin: strings.NewReader(tt.stdin), stdout: &out, stderr: &errOut}
		err := runKey(context.Background(), e, tt.args[1:])
		if (err != nil) != tt.wantErr || (tt.want != "" && out.String() != tt.want) {
			t.Errorf("assay %q with stdin %.20q = %q, %v; want %q, error %v", tt.args, tt.stdin, out.String(), err, tt.want, tt.wantErr)
		}
	}

	var pl bytes.Buffer
	if err := runKey(context.Background(), env{stdout: &pl, stderr: &bytes.Buffer{}}, []string{"payload", "k7"}); err != nil {
		t.Fatal(err)
	}
	if c, err := payloadcodec.Parse(strings.TrimSpace(pl.String())); err != nil || c.KeyID() != "k7" {
		t.Errorf("key payload printed %q: %v; want a temporal.payload_keys entry for k7", pl.String(), err)
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
