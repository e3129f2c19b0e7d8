package auth

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/assay-rag/assay/internal/wire"
)

// ConversationDigest is the Signature digest of a question run read in a
// conversation (the chat endpoint): the question and the earlier turns a
// condense step reads, so that the turns are as bound to the signature
// as the question. Without turns it is QuestionDigest, so runs of
// /v1/questions and runs recorded before conversations verify as before.
// Workflow code calls it: no fmt, no maps.
func ConversationDigest(question string, history []wire.Turn) string {
	if len(history) == 0 {
		return QuestionDigest(question)
	}
	h := sha256.New()
	field := func(s string) { h.Write([]byte(strconv.Itoa(len(s)) + ":" + s)) }
	field("conversation")
	field(question)
	for _, t := range history {
		field(t.Role)
		field(t.Content)
	}
	return hex.EncodeToString(h.Sum(nil))
}
