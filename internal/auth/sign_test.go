package auth

import (
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
)

const secretA = "a-secret-of-at-least-thirty-two-bytes-1"
const secretB = "b-secret-of-at-least-thirty-two-bytes-2"

// TestSignAndVerify: a signature holds for exactly the principal, groups,
// run and digest it was made for, under any configured key id; unsigned,
// tampered and unknown-key inputs are unauthorized.
func TestSignAndVerify(t *testing.T) {
	s, err := ParseSigningKeys("k2:" + secretB + ", k1:" + secretA)
	if err != nil {
		t.Fatal(err)
	}
	p := Principal{ID: "reader", Groups: []string{"public"}}
	sig := s.Sign("run-1", QuestionDigest("q"), p)
	if sig.KeyID != "k2" {
		t.Errorf("signed with %s, want the first key k2", sig.KeyID)
	}
	if err := s.Verify(sig, p); err != nil {
		t.Errorf("a fresh signature: %v", err)
	}
	old, _ := ParseSigningKeys("k1:" + secretA)
	if err := s.Verify(old.Sign("run-1", "d", p), p); err != nil {
		t.Errorf("a signature by the previous key k1: %v", err)
	}
	tamper := []struct {
		name string
		sig  *wire.Signature
		p    Principal
	}{
		{"unsigned", nil, p},
		{"groups widened", sig, Principal{ID: "reader", Groups: []string{"public", "staff"}}},
		{"another principal", sig, Principal{ID: "ops", Groups: []string{"public"}}},
		{"another run", &wire.Signature{KeyID: sig.KeyID, Run: "run-2", Digest: sig.Digest, MAC: sig.MAC}, p},
		{"another question", &wire.Signature{KeyID: sig.KeyID, Run: sig.Run, Digest: QuestionDigest("q2"), MAC: sig.MAC}, p},
		{"unknown key", &wire.Signature{KeyID: "k9", Run: sig.Run, Digest: sig.Digest, MAC: sig.MAC}, p},
		{"garbage MAC", &wire.Signature{KeyID: sig.KeyID, Run: sig.Run, Digest: sig.Digest, MAC: "!!"}, p},
	}
	for _, tt := range tamper {
		if err := s.Verify(tt.sig, tt.p); errs.KindOf(err) != errs.Unauthorized {
			t.Errorf("%s: Verify = %v, want unauthorized", tt.name, err)
		}
	}
	var off *Signer
	if off.Sign("r", "d", p) != nil || off.Verify(nil, p) != nil {
		t.Error("a nil Signer signs or refuses")
	}
	for spec, want := range map[string]string{
		"k1:short":                         "at least 32",
		"k1" + secretA:                     "ID:SECRET",
		"bad id:" + secretA:                "ID:SECRET",
		"k1:" + secretA + ",k1:" + secretB: "twice",
	} {
		if _, err := ParseSigningKeys(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSigningKeys(%.20q…) = %v, want %q", spec, err, want)
		}
	}
	if s, err := ParseSigningKeys(" "); s != nil || err != nil {
		t.Errorf("no keys: %v, %v; want signing off", s, err)
	}
}
