// Package auth says who is asking: API keys, stored as SHA-256 hashes, map
// to a principal and its ACL groups, and each key has its own rate limit.
// Groups come only from the key, never from a request.
package auth

import (
	"github.com/assay-rag/assay/internal/wire"
)

// Principal is the caller a question is asked for (defined in the wire
// contract: runs carry it).
type Principal = wire.Principal

// AnonymousID names the principal of unauthenticated callers in dev mode.
const AnonymousID = "anonymous"

// Anonymous is the dev-mode principal: public documents only.
func Anonymous() Principal {
	return Principal{ID: AnonymousID, Groups: []string{wire.PublicGroup}}
}
