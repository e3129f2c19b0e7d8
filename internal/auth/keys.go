package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/assay-rag/assay/internal/errs"
)

// Key is one configured API key: the SHA-256 hex of the secret, the name of
// the principal it stands for and that principal's ACL groups.
type Key struct {
	Name   string
	SHA256 string
	Groups []string
	// RatePerMinute bounds the key's requests; 0 means unlimited.
	RatePerMinute int
}

// Hash returns the lowercase SHA-256 hex of key, the form config stores.
func Hash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// NewKey returns a fresh random key: 32 bytes from crypto/rand, base64url
// encoded behind an "assay_" prefix so leaked keys are easy to grep for.
func NewKey() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("auth: random key: %w", err)
	}
	return "assay_" + base64.RawURLEncoding.EncodeToString(b), nil
}

// MaxKeyLen bounds a presented key; longer ones are malformed.
const MaxKeyLen = 512

// Keyring authenticates bearer keys and applies each key's rate limit.
// With no keys it is in anonymous mode: every caller is Anonymous().
// A Keyring is safe for concurrent use.
type Keyring struct {
	byHash map[string]*entry
	byName map[string]*entry
}

type entry struct {
	principal Principal
	limiter   *rate.Limiter // nil: unlimited
}

// NewKeyring builds a keyring. Names become principal ids, so they must be
// unique and may not be a Reserved name; hashes must be 64 lowercase hex
// digits and unique.
func NewKeyring(keys []Key) (*Keyring, error) {
	const op = "auth.NewKeyring"
	k := &Keyring{byHash: map[string]*entry{}, byName: map[string]*entry{}}
	for i, key := range keys {
		field := fmt.Sprintf("auth.keys[%d]", i)
		switch {
		case strings.TrimSpace(key.Name) == "" || Reserved(key.Name):
			return nil, errs.FieldError(op, field+".name", fmt.Sprintf("%q is not a usable principal name", key.Name))
		case k.byName[key.Name] != nil:
			return nil, errs.FieldError(op, field+".name", fmt.Sprintf("%q names an earlier key too", key.Name))
		case !isHashHex(key.SHA256):
			return nil, errs.FieldError(op, field+".sha256", "want 64 lowercase hex digits")
		case k.byHash[key.SHA256] != nil:
			return nil, errs.FieldError(op, field+".sha256", "duplicates an earlier key")
		case len(key.Groups) == 0:
			return nil, errs.FieldError(op, field+".groups", "must name at least one group")
		case key.RatePerMinute < 0:
			return nil, errs.FieldError(op, field+".rate_per_minute", "must not be negative")
		}
		for _, g := range key.Groups {
			if strings.TrimSpace(g) == "" {
				return nil, errs.FieldError(op, field+".groups", "must not contain an empty group")
			}
		}
		e := &entry{principal: Principal{ID: key.Name, Groups: append([]string(nil), key.Groups...)}}
		if key.RatePerMinute > 0 {
			// A full minute's allowance may be spent at once; it refills
			// evenly over the minute.
			e.limiter = rate.NewLimiter(rate.Every(time.Minute/time.Duration(key.RatePerMinute)), key.RatePerMinute)
		}
		k.byHash[key.SHA256] = e
		k.byName[key.Name] = e
	}
	return k, nil
}

// Anonymous reports whether the keyring has no keys, so that every caller
// is the anonymous principal.
func (k *Keyring) Anonymous() bool { return len(k.byHash) == 0 }

// Len is the number of configured keys.
func (k *Keyring) Len() int { return len(k.byHash) }

// Authenticate returns the principal of an Authorization header value
// ("Bearer KEY"). In anonymous mode it returns Anonymous() whatever the
// header says. Errors are errs.Unauthorized, naming the field
// "authorization": a missing header, a malformed one, or an unknown key.
//
// The presented key is hashed before the lookup, so lookup time says
// nothing about how much of a stored key an attacker guessed.
func (k *Keyring) Authenticate(header string) (Principal, error) {
	const op = "auth.Authenticate"
	if k.Anonymous() {
		return Anonymous(), nil
	}
	if strings.TrimSpace(header) == "" {
		return Principal{}, unauthorized(op, "missing API key; send Authorization: Bearer KEY")
	}
	scheme, key, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || !isToken(key) {
		return Principal{}, unauthorized(op, "malformed Authorization header; want Bearer KEY")
	}
	e := k.byHash[Hash(key)]
	if e == nil {
		return Principal{}, unauthorized(op, "unknown API key")
	}
	return Principal{ID: e.principal.ID, Groups: append([]string(nil), e.principal.Groups...)}, nil
}

// Allow takes one request from the rate budget of principal id at now. When
// the budget is spent it returns false and how long until a request would
// be allowed. Principals without a limit (anonymous, rate 0) are always
// allowed.
func (k *Keyring) Allow(id string, now time.Time) (bool, time.Duration) {
	return k.AllowN(id, now, 1)
}

// AllowN is Allow for n units at once (a batch of n questions): all or
// none are taken. n above Burst is never allowed.
func (k *Keyring) AllowN(id string, now time.Time, n int) (bool, time.Duration) {
	e := k.byName[id]
	if e == nil || e.limiter == nil || n <= 0 {
		return true, 0
	}
	r := e.limiter.ReserveN(now, n)
	if !r.OK() {
		return false, time.Minute
	}
	d := r.DelayFrom(now)
	if d == 0 {
		return true, 0
	}
	r.CancelAt(now)
	return false, d
}

// Burst is how many units principal id may spend at once (its
// rate_per_minute); 0 when it has no limit.
func (k *Keyring) Burst(id string) int {
	e := k.byName[id]
	if e == nil || e.limiter == nil {
		return 0
	}
	return e.limiter.Burst()
}

func unauthorized(op, msg string) error {
	return &errs.Error{Op: op, Kind: errs.Unauthorized, Field: "authorization", Err: errors.New(msg)}
}

// isToken reports whether s is an RFC 6750 b64token of at most MaxKeyLen
// bytes.
func isToken(s string) bool {
	if s == "" || len(s) > MaxKeyLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-._~+/=", c) >= 0:
		default:
			return false
		}
	}
	return true
}

func isHashHex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
