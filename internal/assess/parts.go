package assess

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/wire"
)

// V50Model names the builtin assessor without Builtin.Parts:
// builtin:coverage-v50, kept selectable.
const V50Model = "builtin:coverage-v50"

// V56Model names the builtin assessor without Builtin.Follow:
// builtin:coverage-v56, kept selectable.
const V56Model = "builtin:coverage-v56"

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
	if manyOpeners(question) {
		return Result{}, false, nil
	}
	ps := answertype.AskingParts(question)
	if len(ps) < 2 || len(ps) > maxParts {
		return Result{}, false, nil
	}
	_, _, ents := b.readQuestion(question, vocab)
	scene := sceneOf(question) // "The app says my K50 is on firmware 2.1."
	var sceneEnts []Entity
	if b.Follow {
		ps = countedNamedBy(withAsides(question, ps), b.namesThem())
		if len(ps) < 2 {
			return Result{}, false, nil // judged first: counted
		}
		if scene != "" {
			sceneEnts = Entities(b.an, scene, vocab) // written before each part already
		}
	}
	out := Result{Usage: wire.Spent{Model: b.Model()}, Assessment: Assessment{Sufficient: true, Score: 1}}
	var reasons []string
	for i, p := range ps {
		pq := withEntities(b, p, ents, vocab)
		if b.Follow {
			p = whichOne(p)
			ps[i] = p
			pq = b.partEntities(p, ents, sceneEnts, vocab)
		}
		if !b.ownWords(pq, vocab) {
			switch {
			case !b.Follow || !asksValue(p):
				return Result{}, false, nil // "and which one should it be on?": nothing of its own to judge
			case i > 0 && asksValue(ps[i-1]):
				// "which is faster, A or B, and by how much?": the values
				// the part before was accepted on answer it too
				reasons = append(reasons, fmt.Sprintf("%q: by the values of the part before", strings.TrimSpace(p)))
				continue
			case i > 0:
				// "will I pay for delivery, and how much?": a value of what
				// the part before asks about
				pq = b.partEntities(followUp(p, ps[i-1]), ents, sceneEnts, vocab)
			case len(Entities(b.an, p, vocab)) < 2:
				return Result{}, false, nil
			}
			// "which is faster, the X200 or the X300 Pro": a value of
			// each named thing, which the typed readings look for
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
	out.Assessment.Reason = clipReason("each part of the question is answered: " + strings.Join(reasons, "; "))
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

// clipReason is reason cut to maxReason runes, "..." closing it when cut:
// the bound every reading of Ruled, Covered and Parts keeps its reason to
// (a part's reason quotes the part, which may be the whole question).
func clipReason(reason string) string {
	if r := []rune(reason); len(r) > maxReason {
		return string(r[:maxReason-3]) + "..."
	}
	return reason
}

// maxReason is the most runes of a reason clipReason keeps.
const maxReason = 1000

// manyOpeners reports whether question holds more than maxPartOpeners
// conjunctions (partOpeners): too many for Parts to split (rv44b).
func manyOpeners(question string) bool {
	openers := 0
	for _, w := range strings.Fields(question) {
		if partOpeners[strings.ToLower(strings.Trim(w, ",;"))] {
			openers++
		}
	}
	return openers > maxPartOpeners
}

// sceneOf is what question states before the clause that asks
// (answertype.Asking), "" when it states nothing before it.
func sceneOf(question string) string {
	if asking := answertype.Asking(question); asking != question && strings.HasSuffix(question, asking) {
		return strings.TrimSpace(strings.TrimSuffix(question, asking))
	}
	return ""
}

// unopened is the words of part without an opening conjunction ("and how
// much?": "how much?"), unless that is its only word.
func unopened(part string) []string {
	ws := strings.Fields(part)
	if len(ws) > 1 && partOpeners[strings.ToLower(ws[0])] {
		return ws[1:]
	}
	return ws
}

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

// withAsides gives each part of ps (answertype.AskingParts of question)
// the clauses after it in question that ask nothing, up to the next part:
// "Which one's faster at full power, the X200 or the X300 Pro, and by how
// much?" holds the part "Which one's faster at full power, the X200 or
// the X300 Pro," — AskingParts leaves out the clause naming the two
// things offered, which the choice is about (Builtin.Follow).
func withAsides(question string, ps []string) []string {
	q := strings.Join(strings.Fields(question), " ")
	starts := make([]int, len(ps))
	from := 0
	for i, p := range ps {
		j := strings.Index(q[from:], p)
		if j < 0 {
			return ps
		}
		starts[i] = from + j
		from = starts[i] + len(p)
	}
	out := make([]string, len(ps))
	for i := range ps {
		end := len(q)
		if i+1 < len(ps) {
			end = starts[i+1]
		}
		out[i] = strings.TrimSpace(q[starts[i]:end])
	}
	return out
}

// partEntities is withEntities for Builtin.Follow: the entities of the
// whole question (ents) are written after part only when part names none
// of its own ("or do I need the Pro?" asks about the Pro, not the X200
// the part before names), and never those the question's scene names
// (sceneEnts: the scene is written before each part).
func (b *Builtin) partEntities(part string, ents, sceneEnts []Entity, vocab Vocabulary) string {
	own := Entities(b.an, part, vocab)
	var rest []Entity
	for _, e := range ents {
		if len(own) > 0 || slices.ContainsFunc(sceneEnts, func(o Entity) bool { return slices.Equal(o.Terms, e.Terms) }) {
			continue
		}
		rest = append(rest, e)
	}
	return withEntities(b, part, rest, vocab)
}

// asksValue reports whether a part asks for a value (a count, a period, a
// frequency, a speed, a measure, an amount of money, a date): "and by how
// much?", "and how much?", "how many has it got?".
func asksValue(part string) bool {
	switch answertype.Classify(part).Type {
	case answertype.Count, answertype.Period, answertype.Frequency, answertype.Speed, answertype.Quantity, answertype.Money, answertype.Date:
		return true
	}
	return false
}

// followUp is a follow-up part asking for a value with no word of its own
// ("and how much?") written with the part before it (prev), which says
// what the value is of: "how much (Will I pay for delivery)?".
func followUp(part, prev string) string {
	ws, ws0 := unopened(part), unopened(prev)
	return strings.TrimRight(strings.Join(ws, " "), "?.!,;: ") + " (" + strings.TrimRight(strings.Join(ws0, " "), "?.!,;: ") + ")?"
}

// whichOne drops the pro-form of a choice: "which one's faster" is "which
// is faster", "which one costs" "which costs"; "one" stands for the things
// offered, which no page calls "one" (its term, "on", would otherwise be
// the part's rarest word).
func whichOne(part string) string {
	return whichOneRe.ReplaceAllStringFunc(part, func(m string) string {
		if strings.HasSuffix(strings.ToLower(m), "'s") || strings.HasSuffix(m, "’s") {
			return m[:5] + " is"
		}
		return m[:5]
	})
}

var whichOneRe = regexp.MustCompile(`(?i)\bwhich (one's|one’s|ones|one)\b`)

// countedNamed reads "how many X …, and what are they?" as the one
// question it asks, "what X …": the things counted, each named (a
// sentence enumerating them answers both the count and the names). ps are
// the parts; the count part and its follow-up become one part.
func countedNamed(ps []string) []string { return countedNamedBy(ps, namesThem) }

// countedNamedBy is countedNamed with names the follow-up that asks the
// things counted to be named (namesThem, or Review's namesThemV61Re).
func countedNamedBy(ps []string, names *regexp.Regexp) []string {
	for i := 0; i+1 < len(ps); i++ {
		if !names.MatchString(strings.TrimSpace(ps[i+1])) {
			continue
		}
		ws := unopened(ps[i])
		if len(ws) < 3 || !strings.EqualFold(ws[0], "how") || !strings.EqualFold(ws[1], "many") {
			continue
		}
		merged := "What " + strings.TrimRight(strings.Join(ws[2:], " "), "?.!,;: ") + "?"
		return slices.Concat(ps[:i], []string{merged}, ps[i+2:])
	}
	return ps
}

// namesThemIn finds a follow-up namesThem reads at the end of a question.
var namesThemIn = regexp.MustCompile(`(?i)\b(what|which) (are|were) (they|them|those|these|their names)( called| named)?\s*\?*\s*$`)

var namesThem = regexp.MustCompile(`(?i)^(and |but |also |then )?(what|which) (are|were) (they|them|those|these|their names)( called| named)?\s*\?*$`)

// counted judges a question countedNamed reads as one ("How many
// statuses will my repair show, and what are they?": "What statuses will
// my repair show?"), with its scene before it, by the whole assessor,
// before the question's own judgement (Builtin.Follow): a sentence
// stating a count of something else ("within 10 working days") names
// none of the things asked for.
func (b *Builtin) counted(ctx context.Context, req Request, vocab Vocabulary, question string) (Result, bool, error) {
	if req.part {
		return Result{}, false, nil
	}
	in := namesThemIn
	if b.Review&reviewNames != 0 {
		in = namesThemInV61
	}
	if !strings.Contains(strings.ToLower(question), "how many") || !in.MatchString(question) {
		return Result{}, false, nil // cheap first: AskingParts reads a long question slowly (rv44b)
	}
	if manyOpeners(question) {
		return Result{}, false, nil
	}
	ps := answertype.AskingParts(question)
	if len(ps) != 2 {
		return Result{}, false, nil
	}
	ps = countedNamedBy(withAsides(question, ps), b.namesThem())
	if len(ps) != 1 {
		return Result{}, false, nil
	}
	scene := sceneOf(question)
	res, ok, err := b.assessPart(ctx, req, vocab, ps[0], scene)
	if ok && b.Review&reviewCounted != 0 && !namesCounted(req.Evidence, res.Accepted) {
		return Result{}, false, nil // review.go: a page naming none of the things counted
	}
	return res, ok, err
}

// assessPart judges the one question countedNamed made of a question's
// parts (with its scene before it) by the whole assessor.
func (b *Builtin) assessPart(ctx context.Context, req Request, vocab Vocabulary, part, scene string) (Result, bool, error) {
	preq := req
	preq.Question = strings.TrimSpace(scene + " " + part)
	preq.part = true
	res, err := b.assessOn(ctx, preq, vocab)
	if err != nil || !res.Assessment.Sufficient {
		return Result{}, false, err
	}
	res.Assessment.Reason = clipReason(fmt.Sprintf("read as %q: %s", part, res.Assessment.Reason))
	return res, true, nil
}

// statedAmount reports whether e is an amount of money the question states
// ("My parts basket comes to £28.50."): a value the asker gives, to be
// weighed against what a page states ("free delivery over £25"), not a
// name a page must mention (Builtin.Follow).
func statedAmount(question string, e Entity) bool {
	if !e.Code || len(e.Terms) != 1 {
		return false
	}
	for _, cur := range []string{"£", "$", "€"} {
		if strings.Contains(question, cur+e.Text) {
			return true
		}
	}
	return false
}
