package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/wire"
)

// Signer signs the principal a gateway puts in a workflow input and lets
// a worker check it, so that reaching Temporal's frontend is not enough
// to run as any principal with any groups. The key is shared by the
// gateways and the workers (auth.principal_keys); the first key signs,
// every key verifies, so a key is rotated by adding the new one first and
// removing the old one once no run signed with it remains. A nil *Signer
// signs nothing and accepts everything: signing is off.
type Signer struct {
	current string
	keys    map[string][]byte
}

// MinSigningKeyLen is the shortest secret a principal key may have.
const MinSigningKeyLen = 32

var keyIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,32}$`)

// ParseSigningKeys reads "ID:SECRET,ID:SECRET" (auth.principal_keys):
// the first entry signs. Empty is no keys (signing off).
func ParseSigningKeys(spec string) (*Signer, error) {
	const op = "auth.ParseSigningKeys"
	var s *Signer
	for i, entry := range strings.Split(spec, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		id, secret, ok := strings.Cut(entry, ":")
		field := fmt.Sprintf("auth.principal_keys[%d]", i)
		switch {
		case !ok || !keyIDPattern.MatchString(id):
			return nil, errs.FieldError(op, field, "want ID:SECRET with an ID of letters, digits, '.', '_' or '-' (at most 32)")
		case len(secret) < MinSigningKeyLen:
			return nil, errs.FieldError(op, field, fmt.Sprintf("key %s: the secret is %d bytes; want at least %d (e.g. assay key new)", id, len(secret), MinSigningKeyLen))
		}
		if s == nil {
			s = &Signer{current: id, keys: map[string][]byte{}}
		}
		if _, dup := s.keys[id]; dup {
			return nil, errs.FieldError(op, field, fmt.Sprintf("key id %s appears twice", id))
		}
		s.keys[id] = []byte(secret)
	}
	return s, nil
}

// QuestionDigest is the Signature digest of a question run.
func QuestionDigest(question string) string {
	sum := sha256.Sum256([]byte(question))
	return hex.EncodeToString(sum[:])
}

// Sign returns the signature of p for run (a workflow id) asking digest;
// nil when s is nil.
func (s *Signer) Sign(run, digest string, p Principal) *wire.Signature {
	if s == nil {
		return nil
	}
	return &wire.Signature{KeyID: s.current, Run: run, Digest: digest, MAC: mac(s.keys[s.current], run, digest, p)}
}

// Verify checks that sig is a signature, under one of s's keys, of p for
// sig.Run and sig.Digest. Which run and digest the caller expects is its
// to compare. A nil s accepts anything.
func (s *Signer) Verify(sig *wire.Signature, p Principal) error {
	const op = "auth.Verify"
	if s == nil {
		return nil
	}
	if sig == nil {
		return errs.Errorf(op, errs.Unauthorized, "the run's principal %q is not signed: runs must be started through the gateway", p.ID)
	}
	key, ok := s.keys[sig.KeyID]
	if !ok {
		return errs.Errorf(op, errs.Unauthorized, "the principal is signed with key %q, which this worker does not have", sig.KeyID)
	}
	got, err := base64.RawURLEncoding.DecodeString(sig.MAC)
	want, _ := base64.RawURLEncoding.DecodeString(mac(key, sig.Run, sig.Digest, p))
	if err != nil || !hmac.Equal(got, want) {
		return errs.Errorf(op, errs.Unauthorized, "the signature of principal %q does not match its groups or run: the input was changed after the gateway signed it", p.ID)
	}
	return nil
}

// mac is the HMAC-SHA256 of a run, its digest and a principal, each field
// length-prefixed so no two inputs share an encoding.
func mac(key []byte, run, digest string, p Principal) string {
	h := hmac.New(sha256.New, key)
	field := func(s string) { h.Write([]byte(strconv.Itoa(len(s)) + ":" + s)) }
	field("assay-principal-v1")
	field(run)
	field(digest)
	field(p.ID)
	field(strconv.Itoa(len(p.Groups)))
	for _, g := range p.Groups {
		field(g)
	}
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}
