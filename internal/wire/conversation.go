package wire

import (
	"fmt"

	"github.com/assay-rag/assay/router"
)

// CondenseActivity is the name of the activity that turns a follow-up
// into a standalone question (activities.Activities.Condense). Runs
// without History never call it, so their histories are unchanged.
const CondenseActivity = "Condense"

// Turn roles.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// MaxHistoryTurns bounds AnswerInput.History: a follow-up needs the last
// few turns, not the whole conversation, and the input is in the history
// of the run.
const MaxHistoryTurns = 8

// MaxTurnBytes bounds the text of one turn of History.
const MaxTurnBytes = 4000

// Turn is one earlier message of a conversation (the OpenAI-compatible
// chat endpoint's messages before the last user message).
type Turn struct {
	Role    string `json:"role"` // user or assistant
	Content string `json:"content"`
}

// CheckHistory checks the shape of a conversation's earlier turns.
func CheckHistory(turns []Turn) error {
	if len(turns) > MaxHistoryTurns {
		return fmt.Errorf("history: at most %d turns, got %d", MaxHistoryTurns, len(turns))
	}
	for i, t := range turns {
		switch {
		case t.Role != RoleUser && t.Role != RoleAssistant:
			return fmt.Errorf("history[%d].role: want user or assistant, got %q", i, t.Role)
		case len(t.Content) > MaxTurnBytes:
			return fmt.Errorf("history[%d].content: %d bytes; the limit is %d", i, len(t.Content), MaxTurnBytes)
		}
	}
	return nil
}

// CondenseInput is the input of Condense.
type CondenseInput struct {
	// Question is the last user message, as asked.
	Question string `json:"question"`
	// History is the conversation before it, oldest first.
	History []Turn          `json:"history"`
	Route   router.Decision `json:"route"`
}

// CondenseOutput is the output of Condense.
type CondenseOutput struct {
	// Question is the standalone question; Question of the input when it
	// already stood alone.
	Question string `json:"question"`
	// Carried lists what the builtin carry-over took from earlier turns
	// (entities such as "X200"); empty for a model's rewrite.
	Carried []string `json:"carried,omitempty"`
	Usage   Spent    `json:"usage"`
}

// Condensed records, in the trace, how a follow-up became the question a
// run answered.
type Condensed struct {
	// Question is the standalone question the run searched for and
	// answered; Trace.Question is the message as asked.
	Question string `json:"question"`
	// Model made the rewrite: the builtin carry-over or a chat model.
	Model string `json:"model"`
	// Carried lists what the builtin carry-over took from earlier turns.
	Carried []string `json:"carried,omitempty"`
	// Turns is how many earlier turns were read.
	Turns int `json:"turns"`
}
