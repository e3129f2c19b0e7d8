// Package errs is assay's one domain error type.
//
// An *Error carries the operation that failed (Op), a small stable Kind and
// the underlying error. Layers wrap errors with their own Op; boundaries
// translate the Kind exactly once: activities turn it into a Temporal
// application error type (see TemporalType), the gateway into an HTTP status.
// Callers branch on Kind (KindOf), never on error strings.
package errs

import (
	"errors"
	"fmt"
	"strings"
)

// Kind classifies an error by what the caller can do about it.
type Kind string

// The kinds. Keep the list short: each one must lead to a different action.
const (
	Other        Kind = ""             // unclassified; treated as Internal at boundaries
	Invalid      Kind = "invalid"      // the request is malformed; retrying will not help
	NotFound     Kind = "not_found"    // the named thing does not exist
	Unauthorized Kind = "unauthorized" // missing or unknown credentials
	Forbidden    Kind = "forbidden"    // credentials known, access not allowed
	Conflict     Kind = "conflict"     // the request clashes with existing state
	RateLimited  Kind = "rate_limited" // too many requests; retry later
	Refused      Kind = "refused"      // a guardrail declined the request
	Unavailable  Kind = "unavailable"  // a dependency is down; retry may help
	Timeout      Kind = "timeout"      // a deadline passed; retry may help
	Schema       Kind = "schema"       // a model reply did not match its schema
	Unsupported  Kind = "unsupported"  // the endpoint cannot do what was asked
	TooLarge     Kind = "too_large"    // the input exceeds what the callee accepts
	Internal     Kind = "internal"     // a bug or an unexpected state
)

// Retryable reports whether an operation that failed with kind k may
// succeed when tried again unchanged.
func (k Kind) Retryable() bool {
	switch k {
	case Unavailable, Timeout, RateLimited, Other, Internal:
		return true
	}
	return false
}

// TemporalType is the Temporal application error type for errors of kind k.
// Activities return these types; workflows and retry policies match on them.
func (k Kind) TemporalType() string {
	if k == Other {
		return "assay.internal"
	}
	return "assay." + string(k)
}

// KindFromTemporalType is the inverse of Kind.TemporalType. Unknown types
// map to Internal.
func KindFromTemporalType(t string) Kind {
	name, ok := strings.CutPrefix(t, "assay.")
	if !ok {
		return Internal
	}
	for _, k := range allKinds {
		if string(k) == name {
			return k
		}
	}
	return Internal
}

var allKinds = []Kind{Invalid, NotFound, Unauthorized, Forbidden, Conflict, RateLimited,
	Refused, Unavailable, Timeout, Schema, Unsupported, TooLarge, Internal}

// NonRetryableTemporalTypes lists the Temporal error types that a retry
// policy must not retry.
func NonRetryableTemporalTypes() []string {
	var out []string
	for _, k := range allKinds {
		if !k.Retryable() {
			out = append(out, k.TemporalType())
		}
	}
	return out
}

// Error is a domain error.
type Error struct {
	Op    string // the operation, e.g. "index.Open"
	Kind  Kind
	Field string // the offending input field, if the error is about one
	Err   error
}

// E builds an *Error. Arguments are interpreted by type: string is the Op,
// Kind the kind, error the cause. Use Field or Errorf for the rest.
func E(args ...any) error {
	e := &Error{}
	for _, a := range args {
		switch a := a.(type) {
		case string:
			e.Op = a
		case Kind:
			e.Kind = a
		case error:
			e.Err = a
		default:
			panic(fmt.Sprintf("errs.E: bad argument of type %T", a))
		}
	}
	return e
}

// Errorf builds an *Error of the given kind whose cause is formatted text.
func Errorf(op string, kind Kind, format string, args ...any) error {
	return &Error{Op: op, Kind: kind, Err: fmt.Errorf(format, args...)}
}

// FieldError is an Invalid error about one named input field.
func FieldError(op, field, reason string) error {
	return &Error{Op: op, Kind: Invalid, Field: field, Err: errors.New(reason)}
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else if e.Kind != Other {
		b.WriteString(string(e.Kind))
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the kind of the outermost classified error in err's chain,
// or Other.
func KindOf(err error) Kind {
	for err != nil {
		var e *Error
		if !errors.As(err, &e) {
			return Other
		}
		if e.Kind != Other {
			return e.Kind
		}
		err = e.Err
	}
	return Other
}

// FieldOf returns the first input field named in err's chain, or "".
func FieldOf(err error) string {
	for err != nil {
		var e *Error
		if !errors.As(err, &e) {
			return ""
		}
		if e.Field != "" {
			return e.Field
		}
		err = e.Err
	}
	return ""
}

// Is reports whether err is of kind k.
func Is(k Kind, err error) bool { return err != nil && KindOf(err) == k }

// Reason is the innermost message of err: the reason, without the chain
// of operation names and fields around it. It is what a caller is told.
func Reason(err error) string {
	var e *Error
	for errors.As(err, &e) && e.Err != nil {
		var inner *Error
		if !errors.As(e.Err, &inner) {
			return e.Err.Error()
		}
		err = e.Err
	}
	return err.Error()
}
