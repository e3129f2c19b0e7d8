package assess

import (
	"fmt"
	"strings"

	"github.com/assay-rag/assay/internal/terms"
)

// V22Model names the builtin assessor with v23's relatives in the
// coverage rules off (Builtin.Kin): builtin:coverage-v22, kept
// selectable.
const V22Model = "builtin:coverage-v22"

// kin (builtin:coverage-v23, Builtin.Kin) maps each question term to the
// relatives the coverage rules credit it with: of the words the thesaurus
// relates to it that the asker's documents use (related), those the
// translate strategy would put for it (mutualOf, through common senses):
// another form of the word ("delivered" → "delivery", "bought" →
// "purchase" through "buy"), or a word related both ways to a question
// word of at most maxTranslateSenses senses ("guarantee" → "warranty").
// A relation one way only, or through a word of many senses ("set" →
// "put"), is not credited. Without a thesaurus, none.
func (b *Builtin) kin(question string, related map[string][]synonym) map[string][]synonym {
	return b.kinOf(question, related, kinForms)
}

// kinOf is kin, crediting another form of a question word too when forms
// is set (Lacks measures what that would credit).
func (b *Builtin) kinOf(question string, related map[string][]synonym, forms bool) map[string][]synonym {
	if b.Thesaurus == nil || len(related) == 0 {
		return nil
	}
	out := map[string][]synonym{}
	for _, raw := range strings.Fields(question) {
		w := bareWord(raw)
		ts := b.an.Terms(w)
		if len(ts) != 1 || len(related[ts[0]]) == 0 || out[ts[0]] != nil {
			continue
		}
		if m := mutualOf(b.Thesaurus, true, forms, w, ts[0], related[ts[0]]); len(m) > 0 {
			out[ts[0]] = m
		}
	}
	return out
}

// kinForms: the coverage rules credit another form of a question word
// too. Off: a form changes what is said ("blending" → "blender",
// "monthly" → "month", "hourly" → "hour").
var kinForms = false

// kinCredited names the relatives j is credited with for the question's
// words it lacks as written (`, reading "guarantee" as "warranty"`), or
// "" when it is credited with none.
func kinCredited(an *terms.Analyzer, question string, qterms []weighted, j *judged, covers func(map[string]bool, string) bool, kin map[string][]synonym) string {
	var out []string
	for _, q := range qterms {
		if covers(j.have, q.term) || j.dropped[q.term] {
			continue
		}
		for _, s := range kin[q.term] {
			if j.have[s.Term] {
				out = append(out, fmt.Sprintf("%q as %q", wordFor(an, question, q.term), s.Word))
				break
			}
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " (reading " + strings.Join(out, ", ") + ")"
}

// judgeFirst judges first again by r's rules with each question word it
// lacks held through a word credit gives it, the paraphrase tolerance
// still reading the words as written, and returns the judgement with what
// named makes of the credit (kinCredited, hypCredited): "" when the
// chunk does not then suffice or names nothing credited.
func (r *reading) judgeFirst(first *judged, covers func(map[string]bool, string) bool, credit map[string][]synonym, an *terms.Analyzer, question string,
	named func(*terms.Analyzer, string, []weighted, *judged, func(map[string]bool, string) bool, map[string][]synonym) string) (*judged, string) {
	kr := *r
	kr.literal = covers // the paraphrase tolerance reads the words as written
	k := kr.judge(first.have, relatedCovers(covers, credit), first.typed)
	k.ev, k.expr, k.own = first.ev, first.expr, first.own
	if !k.fit {
		return nil, ""
	}
	return k, named(an, question, r.qterms, k, covers, credit)
}
