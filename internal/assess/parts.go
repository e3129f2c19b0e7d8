package assess

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/wire"
)

// V50Model names the builtin assessor without Builtin.Parts:
// builtin:coverage-v50, kept selectable.
const V50Model = "builtin:coverage-v50"

// parts is Builtin.Parts's reading (builtin:coverage-v51, round 44's
// a44-two): a question asking two or more things ("What's the top speed of
// the X200, and how many speed settings has it got?") that every other
// reading refused is judged part by part. Its parts are answertype's
// AskingParts ("What's the top speed of the X200", "how many speed
// settings has it got?"); each is judged as a question of its own (its own
// expected type, its own words: coverage is no longer counted over both
// parts' words, so a chunk answering both no longer falls short for
// holding neither part's words in full), with the entities the whole
// question names and the part does not written after it ("how many speed
// settings has it got (X200)?": "it" is the X200). The evidence suffices
// only when every part is accepted on the retrieved chunks; its score is
// the lowest part's, and the chunks accepted are each part's, the first
// part's first. A part no retrieved chunk answers refuses the whole
// question, as before: the asker is not answered half of what was asked.
func (b *Builtin) parts(ctx context.Context, req Request, vocab Vocabulary, question string) (Result, bool, error) {
	if req.part {
		return Result{}, false, nil
	}
	openers := 0
	for _, w := range strings.Fields(question) {
		if partOpeners[strings.ToLower(strings.Trim(w, ",;"))] {
			openers++
		}
	}
	if openers > maxPartOpeners {
		return Result{}, false, nil
	}
	ps := answertype.AskingParts(question)
	if len(ps) < 2 || len(ps) > maxParts {
		return Result{}, false, nil
	}
	_, _, ents := b.readQuestion(question, vocab)
	scene := ""
	if asking := answertype.Asking(question); asking != question && strings.HasSuffix(question, asking) {
		scene = strings.TrimSpace(strings.TrimSuffix(question, asking)) // "The app says my K50 is on firmware 2.1."
	}
	out := Result{Usage: wire.Spent{Model: b.Model()}, Assessment: Assessment{Sufficient: true, Score: 1}}
	var reasons []string
	for _, p := range ps {
		pq := withEntities(b, p, ents, vocab)
		if !b.ownWords(pq, vocab) {
			return Result{}, false, nil // "and which one should it be on?": nothing of its own to judge
		}
		if scene != "" {
			pq = scene + " " + pq
		}
		preq := req
		preq.Question = pq
		preq.part = true
		res, err := b.assessOn(ctx, preq, vocab)
		if err != nil {
			return Result{}, false, err
		}
		if !res.Assessment.Sufficient {
			return Result{}, false, nil
		}
		out.Assessment.Score = min(out.Assessment.Score, res.Assessment.Score)
		for _, id := range res.Accepted {
			if !slices.Contains(out.Accepted, id) {
				out.Accepted = append(out.Accepted, id)
			}
		}
		reasons = append(reasons, fmt.Sprintf("%q: %s", strings.TrimSpace(p), res.Assessment.Reason))
	}
	out.Assessment.Reason = "each part of the question is answered: " + strings.Join(reasons, "; ")
	if r := []rune(out.Assessment.Reason); len(r) > 1000 {
		out.Assessment.Reason = string(r[:997]) + "..."
	}
	return out, true, nil
}

// maxParts and maxPartOpeners bound what Parts splits (rv44b). Each part
// is judged by the whole assessor, so a question of many parts (the
// gateway lets one run to 2,000 bytes: fifty parts and more) would cost
// as many judgements, at each round of the loop; and AskingParts reads
// the rest of a clause at each conjunction, so a clause of hundreds of
// "and"s costs seconds to split (2.7 s for 2,000 bytes of them). A
// question with more parts, or more conjunctions, than these is left to
// the other readings' refusal. The design sets' questions ask at most
// three things and hold at most three conjunctions.
const (
	maxParts       = 4
	maxPartOpeners = 8
)

// ownWords reports whether part holds a word the visible documents use
// that is no entity's and no generic word ("which one should it be on
// (K50)?" holds none): a part asking only of the entities would be
// covered by any chunk naming them.
func (b *Builtin) ownWords(part string, vocab Vocabulary) bool {
	_, frame, ents := b.readQuestion(part, vocab)
	wide := maps.Clone(frame)
	maps.Copy(wide, b.genericTerms())
	return slices.ContainsFunc(b.weigh(part, vocab, wide), func(q weighted) bool { return q.known && !entityTerm(ents, q.term) })
}

// partOpeners are the conjunctions answertype.AskingParts splits a
// clause at, which open the part after them.
var partOpeners = map[string]bool{"and": true, "but": true, "or": true, "also": true, "then": true}

// withEntities writes after part the entities of the whole question (ents)
// that part does not name: "how many speed settings has it got (X200)?".
func withEntities(b *Builtin, part string, ents []Entity, vocab Vocabulary) string {
	own := Entities(b.an, part, vocab)
	var missing []string
	for _, e := range ents {
		if !slices.ContainsFunc(own, func(o Entity) bool { return slices.Equal(o.Terms, e.Terms) }) {
			missing = append(missing, e.Text)
		}
	}
	part = strings.TrimSpace(part)
	if ws := strings.Fields(part); len(ws) > 1 && partOpeners[strings.ToLower(ws[0])] {
		part = strings.Join(ws[1:], " ") // "and how many ...": the conjunction opened the part
	}
	part = strings.TrimRight(part, ",;: ")
	if len(missing) == 0 {
		return part
	}
	end := ""
	if strings.HasSuffix(part, "?") {
		end = "?"
	}
	part = strings.TrimRight(part, "?.!,;: ")
	return part + " (" + strings.Join(missing, ", ") + ")" + end
}
