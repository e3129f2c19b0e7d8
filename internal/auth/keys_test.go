package auth

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/assay-rag/assay/internal/errs"
)

func TestHash(t *testing.T) {
	// sha256("abc") from FIPS 180-2, appendix B.1.
	if got, want := Hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"; got != want {
		t.Errorf("Hash(abc) = %s, want %s", got, want)
	}
}

func TestNewKey(t *testing.T) {
	a, err := NewKey()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewKey()
	if a == b || !strings.HasPrefix(a, "assay_") || !isToken(a) {
		t.Errorf("NewKey() = %q, %q; want two different assay_ tokens", a, b)
	}
}

func testKeyring(t *testing.T) *Keyring {
	t.Helper()
	k, err := NewKeyring([]Key{
		{Name: "brook-street", SHA256: Hash("brook-secret"), Groups: []string{"public", "partners", "partner:brook-street"}, RatePerMinute: 2},
		{Name: "reader", SHA256: Hash("reader-secret"), Groups: []string{"public"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestAuthenticate(t *testing.T) {
	k := testKeyring(t)
	tests := []struct {
		header string
		want   Principal
		errMsg string // substring of the error; "" for success
	}{
		{"Bearer brook-secret", Principal{ID: "brook-street", Groups: []string{"public", "partners", "partner:brook-street"}}, ""},
		{"bearer reader-secret", Principal{ID: "reader", Groups: []string{"public"}}, ""},
		{"", Principal{}, "missing API key"},
		{"   ", Principal{}, "missing API key"},
		{"Bearer", Principal{}, "malformed"},
		{"Bearer ", Principal{}, "malformed"},
		{"Basic cmVhZGVyOnNlY3JldA==", Principal{}, "malformed"},
		{"Bearer reader-secret extra", Principal{}, "malformed"},
		{"Bearer reader\x01secret", Principal{}, "malformed"},
		{"Bearer " + strings.Repeat("a", MaxKeyLen+1), Principal{}, "malformed"},
		{"Bearer nobody-has-this", Principal{}, "unknown API key"},
		{"Bearer " + Hash("reader-secret"), Principal{}, "unknown API key"}, // the hash is not the key
	}
	for _, tt := range tests {
		got, err := k.Authenticate(tt.header)
		if tt.errMsg == "" {
			if err != nil {
				t.Errorf("Authenticate(%q) error %v", tt.header, err)
			} else if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Authenticate(%q) mismatch (-want +got):\n%s", tt.header, diff)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.errMsg) || !errs.Is(errs.Unauthorized, err) || errs.FieldOf(err) != "authorization" {
			t.Errorf("Authenticate(%q) = %v, %v; want unauthorized error on field authorization containing %q", tt.header, got, err, tt.errMsg)
		}
	}
}

func TestAuthenticateReturnsCopies(t *testing.T) {
	k := testKeyring(t)
	p, _ := k.Authenticate("Bearer reader-secret")
	p.Groups[0] = "staff"
	again, _ := k.Authenticate("Bearer reader-secret")
	if again.Groups[0] != "public" {
		t.Errorf("changing a returned principal changed the keyring: groups %v", again.Groups)
	}
}

func TestAnonymousMode(t *testing.T) {
	k, err := NewKeyring(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !k.Anonymous() {
		t.Fatal("Anonymous() = false with no keys")
	}
	for _, h := range []string{"", "Bearer whatever", "garbage"} {
		got, err := k.Authenticate(h)
		if err != nil || got.ID != AnonymousID || !cmp.Equal(got.Groups, []string{"public"}) {
			t.Errorf("Authenticate(%q) = %v, %v; want the anonymous principal", h, got, err)
		}
	}
}

func TestNewKeyringRejects(t *testing.T) {
	good := Key{Name: "a", SHA256: Hash("a"), Groups: []string{"public"}}
	tests := []struct {
		name  string
		keys  []Key
		field string
	}{
		{"empty name", []Key{{SHA256: Hash("a"), Groups: []string{"public"}}}, "auth.keys[0].name"},
		{"anonymous name", []Key{{Name: AnonymousID, SHA256: Hash("a"), Groups: []string{"public"}}}, "auth.keys[0].name"},
		{"evaluator name", []Key{{Name: EvaluatorID, SHA256: Hash("a"), Groups: []string{"public"}}}, "auth.keys[0].name"},
		{"evaluator name, other case", []Key{{Name: "Assay-Eval", SHA256: Hash("a"), Groups: []string{"public"}}}, "auth.keys[0].name"},
		{"duplicate name", []Key{good, {Name: "a", SHA256: Hash("b"), Groups: []string{"public"}}}, "auth.keys[1].name"},
		{"bad hash", []Key{{Name: "a", SHA256: "ABC", Groups: []string{"public"}}}, "auth.keys[0].sha256"},
		{"duplicate hash", []Key{good, {Name: "b", SHA256: Hash("a"), Groups: []string{"public"}}}, "auth.keys[1].sha256"},
		{"no groups", []Key{{Name: "a", SHA256: Hash("a")}}, "auth.keys[0].groups"},
		{"blank group", []Key{{Name: "a", SHA256: Hash("a"), Groups: []string{" "}}}, "auth.keys[0].groups"},
		{"negative rate", []Key{{Name: "a", SHA256: Hash("a"), Groups: []string{"public"}, RatePerMinute: -1}}, "auth.keys[0].rate_per_minute"},
	}
	for _, tt := range tests {
		_, err := NewKeyring(tt.keys)
		if got := errs.FieldOf(err); got != tt.field {
			t.Errorf("%s: NewKeyring error field = %q (%v), want %q", tt.name, got, err, tt.field)
		}
	}
}

func TestAllow(t *testing.T) {
	k := testKeyring(t) // brook-street: 2 per minute
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for i := range 2 {
		if ok, _ := k.Allow("brook-street", now); !ok {
			t.Fatalf("request %d within the burst was refused", i+1)
		}
	}
	ok, retry := k.Allow("brook-street", now)
	if ok || retry != 30*time.Second {
		t.Errorf("third request at once: Allow = %v, retry %v; want false, 30s", ok, retry)
	}
	// A refused request does not use up budget: 30s later one is allowed.
	if ok, _ := k.Allow("brook-street", now.Add(30*time.Second)); !ok {
		t.Errorf("request 30s later was refused")
	}
	for i := range 100 {
		if ok, _ := k.Allow("reader", now); !ok {
			t.Fatalf("unlimited key refused at request %d", i+1)
		}
	}
	if ok, _ := k.Allow(AnonymousID, now); !ok {
		t.Errorf("anonymous refused")
	}
}

// TestOneKeyIsNotAnonymous: a keyring of exactly one key is not anonymous:
// a request without that key is refused, never served as the anonymous
// principal (issue 21 item 7: only a cmd/assay test caught a one-key
// keyring taken for an empty one).
func TestOneKeyIsNotAnonymous(t *testing.T) {
	k, err := NewKeyring([]Key{{Name: "only", SHA256: Hash("only-secret"), Groups: []string{"staff"}}})
	if err != nil {
		t.Fatal(err)
	}
	if k.Anonymous() || k.Len() != 1 {
		t.Fatalf("one key: Anonymous() = %v, Len() = %d; want false, 1", k.Anonymous(), k.Len())
	}
	for _, h := range []string{"", "Bearer other-secret"} {
		p, err := k.Authenticate(h)
		if err == nil || errs.KindOf(err) != errs.Unauthorized {
			t.Errorf("one key, header %q: Authenticate = %+v, %v; want unauthorized", h, p, err)
		}
	}
	if p, err := k.Authenticate("Bearer only-secret"); err != nil || p.ID != "only" {
		t.Errorf("the one key: %+v, %v", p, err)
	}
}

// TestAllowN: a batch takes one unit per question, all or none; more than
// the burst is never allowed.
func TestAllowN(t *testing.T) {
	k := testKeyring(t) // brook-street: 2 per minute
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	if k.Burst("brook-street") != 2 || k.Burst("reader") != 0 {
		t.Errorf("Burst = %d, %d; want 2, 0", k.Burst("brook-street"), k.Burst("reader"))
	}
	if ok, _ := k.AllowN("brook-street", now, 3); ok {
		t.Error("3 units on a burst of 2 allowed")
	}
	if ok, _ := k.AllowN("brook-street", now, 2); !ok {
		t.Error("2 units on a fresh burst of 2 refused")
	}
	if ok, wait := k.AllowN("brook-street", now, 1); ok || wait != 30*time.Second {
		t.Errorf("a third unit: %v, %v; want refused, 30s", ok, wait)
	}
	if ok, _ := k.AllowN("reader", now, 1000); !ok {
		t.Error("an unlimited key refused 1000 units")
	}
}
