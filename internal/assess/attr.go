package assess

import (
	"fmt"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
)

// V24Model names the builtin assessor without v25's check of the thing
// asked for (Builtin.Attr false): builtin:coverage-v24, kept selectable so
// that a workflow history recorded with it replays.
const V24Model = "builtin:coverage-v24"

// attrWords are the content words of the noun phrases a "what" or "which"
// question asks about (answertype.AskedPhrases: "what phone model", "which
// Android version", "what warranty"), as the analyzer spells them, less the
// words that only frame what kind of answer is wanted (answertype's Frame:
// "address" in "what's the street address", a code noun), generic and hedge
// words, the question's entities' words and numbers. They name the kind of
// thing the answer is, which a passage that answers names too.
// AttrRule selects a variant of the check while it is measured (temporary).
var AttrRule int

func (b *Builtin) attrWords(question string, asked answertype.Question, ents []Entity, vocab Vocabulary) []string {
	nps, ok := answertype.AskedPhrases(question)
	if !ok {
		return nil
	}
	frame := b.an.Set(strings.Join(asked.Frame, " "))
	generic := b.genericTerms()
	inEntity := entityTerms(ents)
	var out []string
	seen := map[string]bool{}
	value := asked.Type != answertype.Description && asked.Type != answertype.YesNo && asked.Type != answertype.Procedure
	if AttrRule&4 != 0 && !value {
		return nil
	}
	for _, np := range nps {
		ts := b.an.Terms(strings.Join(np, " "))
		for i, t := range ts {
			if seen[t] || frame[t] || generic[t] || inEntity[t] || strings.ContainsAny(t, "0123456789") {
				continue
			}
			if AttrRule&1 != 0 && vocab.DocFreq(t) > 0 {
				continue
			}
			if AttrRule&2 != 0 && i != len(ts)-1 {
				continue
			}
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// unnamedAttr is the first word of the phrase the question asks about
// (attrWords) that the accepted chunk j holds in none of its forms nor
// through a relative the thesaurus gives (related), or "" when it holds
// them all. builtin:coverage-v25 (Builtin.Attr) refuses an acceptance
// when it is not "": a passage about the question's topic that never names
// the kind of thing asked for ("what phone model", "which Android
// version", "what warranty" against a page on the product with no word of
// them) holds some other fact about the topic, not the one asked.
func (b *Builtin) unnamedAttr(words []string, j *judged, covers func(map[string]bool, string) bool, related map[string][]synonym) string {
	if j == nil {
		return ""
	}
	have := j.terms()
	for _, t := range words {
		if covers(have, t) || relatedCovers(covers, related)(have, t) {
			continue
		}
		held := false
		for h := range have {
			if akin(h, t) {
				held = true
				break
			}
		}
		if !held {
			return t
		}
	}
	return ""
}

// attrReason says why an acceptance was withdrawn, in the question's words.
func (b *Builtin) attrReason(question string, j *judged, t string) string {
	return fmt.Sprintf("the question asks about %q, which %s does not mention: it may state another fact about the same thing", wordFor(b.an, question, t), j.title())
}
