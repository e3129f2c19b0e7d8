package errs

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

func TestKindOfWalksTheChain(t *testing.T) {
	base := E("index.Open", NotFound, errors.New("no index"))
	wrapped := fmt.Errorf("start: %w", E("retrieval.Search", base))
	if k := KindOf(wrapped); k != NotFound {
		t.Errorf("KindOf(%v) = %q, want %q", wrapped, k, NotFound)
	}
	if k := KindOf(errors.New("plain")); k != Other {
		t.Errorf("KindOf(plain) = %q, want Other", k)
	}
	if !Is(NotFound, wrapped) || Is(Invalid, wrapped) {
		t.Errorf("Is disagrees with KindOf for %v", wrapped)
	}
}

func TestFieldError(t *testing.T) {
	err := fmt.Errorf("decode: %w", FieldError("gateway.decode", "question", "must not be blank"))
	if f := FieldOf(err); f != "question" {
		t.Errorf("FieldOf = %q, want question", f)
	}
	if KindOf(err) != Invalid {
		t.Errorf("KindOf(field error) = %q, want invalid", KindOf(err))
	}
	if got, want := err.Error(), "decode: gateway.decode: question: must not be blank"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestReason(t *testing.T) {
	inner := FieldError("api.decode", "question", "must not be blank")
	for _, tt := range []struct {
		err  error
		want string
	}{
		{inner, "must not be blank"},
		{E("gateway.batch", Invalid, inner), "must not be blank"},
		{fmt.Errorf("decode: %w", inner), "must not be blank"},
		{E("x", Internal), "x: internal"},
		{errors.New("plain"), "plain"},
	} {
		if got := Reason(tt.err); got != tt.want {
			t.Errorf("Reason(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestTemporalTypesRoundTrip(t *testing.T) {
	for _, k := range allKinds {
		if got := KindFromTemporalType(k.TemporalType()); got != k {
			t.Errorf("KindFromTemporalType(%q) = %q, want %q", k.TemporalType(), got, k)
		}
	}
	if got := KindFromTemporalType("SomethingElse"); got != Internal {
		t.Errorf("KindFromTemporalType(foreign) = %q, want internal", got)
	}
	non := NonRetryableTemporalTypes()
	for _, k := range []Kind{Invalid, Schema, TooLarge, Refused, Unsupported} {
		if !slices.Contains(non, k.TemporalType()) {
			t.Errorf("%s is retryable; want non-retryable", k)
		}
	}
	for _, k := range []Kind{Unavailable, Timeout, RateLimited, Internal} {
		if slices.Contains(non, k.TemporalType()) {
			t.Errorf("%s is non-retryable; want retryable", k)
		}
	}
}
