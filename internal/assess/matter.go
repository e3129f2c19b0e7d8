package assess

import (
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
)

// V48Model names the builtin assessor without Builtin.Matter:
// builtin:coverage-v48, kept selectable.
const V48Model = "builtin:coverage-v48"

// matter is Builtin.Matter's reading (builtin:coverage-v49, round 44's
// a44-mat): a question asking what a thing is made of or what substance to
// use on it (answertype.MaterialQuestion: "what's the X200's jug actually
// made of, glass or plastic?", "what should I descale the K50 with?")
// expects a material (answertype.FindMaterial: "a 2-litre Tritan jar",
// "with citric acid"), so a page holding none of the question's material
// answers it not, and the words that only name the kind or offer answers
// ("made", "kind", "glass", "vinegar") are frame; a speed question's motion
// verb, the moving part its subject names and its phrase for the top of
// the range ("how fast do the blades spin ... at full whack") are frame
// (answertype.SpeedFrame): a specification states the thing's top speed
// ("High speed reaches 30,000 RPM").
//
// In both, a possessive's "s" ("the X200's jug": the analyzer's term "s")
// is frame, no word the documents could hold.
func (b *Builtin) matter(question string, q answertype.Question) answertype.Question {
	add := func(ws ...string) {
		for _, w := range ws {
			if !slices.Contains(q.Frame, w) {
				q.Frame = append(q.Frame, w)
			}
		}
	}
	possessive := strings.Contains(question, "'s ") || strings.Contains(question, "’s ")
	if q.Type == answertype.Description || q.Type == answertype.YesNo {
		if m, ok := answertype.MaterialQuestion(question); ok {
			q = m
			if possessive {
				add("s")
			}
			return q
		}
	}
	if q.Type == answertype.Speed || q.Type == answertype.Quantity && q.Unit == "rotation speed" {
		add(answertype.SpeedFrame(question)...)
		if possessive {
			add("s")
		}
	}
	return q
}
