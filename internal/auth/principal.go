// Package auth says who is asking: API keys, stored as SHA-256 hashes, map
// to a principal and its ACL groups, and each key has its own rate limit.
// Groups come only from the key, never from a request.
package auth

import (
	"strings"

	"github.com/assay-rag/assay/internal/wire"
)

// Principal is the caller a question is asked for (defined in the wire
// contract: runs carry it).
type Principal = wire.Principal

// AnonymousID names the principal of unauthenticated callers when
// anonymous access is allowed (assay dev without keys, auth.allow_anonymous).
const AnonymousID = "anonymous"

// EvaluatorID names the principals `assay eval answers` asks as (with each
// labelled question's groups), so its runs are easy to find
// (AssayPrincipal="assay-eval") and to tell from users'. A key may not take
// it: its holder would see the evaluator's runs as its own.
const EvaluatorID = "assay-eval"

// Reserved reports whether name belongs to assay's own principals
// (anonymous, the evaluator), in any letter case, so no key may take it.
func Reserved(name string) bool {
	name = strings.TrimSpace(name)
	return strings.EqualFold(name, AnonymousID) || strings.EqualFold(name, EvaluatorID)
}

// Anonymous is the dev-mode principal: public documents only.
func Anonymous() Principal {
	return Principal{ID: AnonymousID, Groups: []string{wire.PublicGroup}}
}
