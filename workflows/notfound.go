package workflows

import (
	"fmt"
	"strings"

	"github.com/assay-rag/assay/internal/wire"
)

// NotFound is the answer when the loop stops without accepted evidence:
// it says so plainly, lists what was searched, and says what the user can
// do. No model is asked: an answer without evidence would be invented. It
// does not say whether documents exist that the user may not see.
func NotFound(question string, queries []string) wire.Answer {
	var b strings.Builder
	b.WriteString("I could not find an answer to this question in the documents available to you, so I will not guess.")
	var tried []string
	for _, q := range queries {
		if q = strings.TrimSpace(q); q != "" {
			tried = append(tried, fmt.Sprintf("%q", q))
		}
	}
	if len(tried) > 0 {
		b.WriteString(" I searched for: " + strings.Join(tried, "; ") + ".")
	}
	b.WriteString(" You could: name the product or model you mean; use the words the documents would use, such as an error code or a part number; ask one question at a time; or, if the answer may be in documents you cannot access, ask someone who can.")
	return wire.Answer{Text: b.String(), Model: wire.NotFoundModel, FinishReason: "no_evidence"}
}
