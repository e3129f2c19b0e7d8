package auth

import (
	"testing"

	"github.com/assay-rag/assay/internal/wire"
)

func TestConversationDigest(t *testing.T) {
	if ConversationDigest("E4", nil) != QuestionDigest("E4") {
		t.Error("without turns the digest is not the question's: runs of /v1/questions would no longer verify")
	}
	a := []wire.Turn{{Role: "user", Content: "What is the warranty on the X200?"}}
	b := []wire.Turn{{Role: "user", Content: "What is the warranty on the X400?"}}
	c := []wire.Turn{{Role: "assistant", Content: "What is the warranty on the X200?"}}
	d := []wire.Turn{{Role: "user", Content: "What is the warranty"}, {Role: "user", Content: " on the X200?"}}
	seen := map[string]bool{QuestionDigest("and for the K50?"): true}
	for _, h := range [][]wire.Turn{a, b, c, d} {
		got := ConversationDigest("and for the K50?", h)
		if seen[got] {
			t.Errorf("ConversationDigest with %v collides", h)
		}
		seen[got] = true
	}
	if ConversationDigest("and for the K50?", a) != ConversationDigest("and for the K50?", a) {
		t.Error("not deterministic")
	}
}
