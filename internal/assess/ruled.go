package assess

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/wire"
)

// V51Model names the builtin assessor without Builtin.Ruled:
// builtin:coverage-v51, kept selectable.
const V51Model = "builtin:coverage-v51"

// ruled is Builtin.Ruled's reading (builtin:coverage-v52, round 45's
// a45-yesno): a yes/no question every other reading refused is decided by
// a rule a retrieved chunk states about the thing the question asks of.
//
// A page answers "can I rinse the bottom of my X200 under the tap?" with
// "Never put the motor base in water", "can we fit non-genuine parts on a
// warranty job?" with "Use genuine Hollin parts only", "is it possible to
// have my account erased?" with "You can download or delete your account
// data", "should the customer be billed for the coupling kit?" with "Fit
// coupling kit CPL-X200 at the first repair visit, free of charge". The
// coverage rules refused them: the rule says the asked action in other
// words ("put … in water", "use", "delete"), the question's scene words
// ("sticky", "to save time") are in no rule, and the thing is named
// otherwise ("the bottom bit" for "the base").
//
// Ruled reads, for a yes/no question (answertype.YesNo), the question's
// things (its content words other than its verbs, its frame, generic words,
// its entities and the words of cost and cover) and its asked verbs
// (answertype.Verbs, light verbs left out). A chunk among the first
// ruledRank+1 retrieved decides the question when
//
//  1. it names every entity of the question (title and text);
//  2. one of its sentences states a rule (reRule): a prohibition ("never",
//     "do not", "must not", "cannot"), a requirement ("only", "must"), a
//     permission ("you can", "you may", "allowed") or a statement of cost or
//     cover ("free", "free of charge", "no charge", "not covered", "does
//     not cover");
//  3. that sentence names one of the question's things: its term, a
//     substitute the thesaurus gives, or a word one hypernym or hyponym
//     pointer from a common sense ("base" for "bottom");
//  4. the rule is of the asked action: a statement of cost or cover when
//     the question asks of cost or cover ("pay", "bill", "charge", "free",
//     "warranty", "guarantee"); otherwise the sentence holds an asked verb,
//     a relative of one or a word one taxonomic pointer from it ("delete"
//     for "erase"), or a verb that says any handling of its object ("put",
//     "use", "keep", "leave", "place");
//  5. the chunk covers ruledCoverage of the weight of the question's known
//     content words, verbs and frame left out (scene words no rule holds,
//     "to save a bit", weigh little against the things).
//
// A yes/no question no visible document decides stays refused: a chunk
// that names no thing of the question, no entity of it, or states no rule
// of its action decides nothing. Ruled needs a thesaurus (without one a
// verb said otherwise cannot be told from another action).
func (b *Builtin) ruled(ctx context.Context, req Request, vocab Vocabulary, question string) (Result, bool, error) {
	return b.ruledBy(req, vocab, question, ruledScope{rank: ruledRank, coverage: ruledCoverage, keyed: true, at: -1})
}

// ruledScope bounds the chunks Ruled reads: those up to rank (0 the
// first), only the one at at when at is 0 or more; a chunk must cover
// coverage of the question's known weight and, when keyed, name its most
// specific thing (chunk and rule sentence).
type ruledScope struct {
	rank     int
	coverage float64
	keyed    bool
	at       int
	// loose (Status): any rule sentence naming a thing or an asked verb
	// of the question decides, whatever its kind and the coverage.
	loose bool
}

// ruledBy is Ruled's reading of the chunks scope bounds.
func (b *Builtin) ruledBy(req Request, vocab Vocabulary, question string, scope ruledScope) (Result, bool, error) {
	if b.Thesaurus == nil || req.part {
		return Result{}, false, nil
	}
	asked, frame, ents := b.readQuestion(question, vocab)
	if asked.Type != answertype.YesNo {
		return Result{}, false, nil
	}
	av, sv := answertype.Verbs(question)
	verbTerms := map[string]bool{}
	var verbs []string // the asked verbs as written, light verbs left out
	for _, v := range av {
		ts := b.an.Terms(v)
		if len(ts) != 1 {
			continue
		}
		verbTerms[ts[0]] = true
		if !lightVerbs[v] && !knowVerbs[v] {
			verbs = append(verbs, v)
		}
	}
	for _, v := range sv {
		for _, t := range b.an.Terms(v) {
			verbTerms[t] = true
		}
	}
	asking := b.an.Set(answertype.Asking(question))
	generic := b.genericTerms()
	costTerms := b.costTerms()
	costly := false
	var things []string // raw words of the question's things
	seen := map[string]bool{}
	inEntity := entityTerms(ents)
	prev := ""
	fields := strings.Fields(question)
	for i, raw := range fields {
		w := strings.ToLower(trimMarks(raw))
		after := prev
		prev = w
		ts := b.an.Terms(w)
		if len(ts) != 1 {
			continue
		}
		t := ts[0]
		// verb is a word read as a verb here: an action of the question
		// when the clause that asks holds it ("have my account erased").
		verb := func() {
			verbTerms[t] = true
			if asking[t] && !lightVerbs[w] && !knowVerbs[w] && !slices.Contains(verbs, w) {
				verbs = append(verbs, w)
			}
		}
		if subjects[after] {
			verb() // "the parts we fit"
			continue
		}
		if costTerms[t] || anyIn(costTerms, b.an.Set(strings.ReplaceAll(w, "-", " "))) {
			// "out-of-warranty" asks of cover and names no thing; but
			// "warranty" before a noun ("a warranty job") names the kind
			// of the thing, not the cover asked about.
			if !b.kindBefore(fields, i) {
				costly = true
			}
			continue
		}
		if i > 0 && unicode.IsUpper([]rune(trimMarks(raw) + " ")[0]) && !strings.ContainsAny(fields[i-1], ".?!") {
			continue // a name ("Does Hollin pay us"): no thing
		}
		if seen[t] || verbTerms[t] || frame[t] || generic[t] || inEntity[t] || fillers[w] || parties[w] || len([]rune(w)) < 3 {
			continue
		}
		if g, ok := b.Thesaurus.(Grammar); ok {
			ps := g.Parts(w)
			if ps != "" && !strings.Contains(ps, "n") || strings.HasSuffix(w, "ed") && strings.Contains(ps, "v") {
				if strings.Contains(ps, "v") {
					verb() // "will Hollin replace it", "erased"
				}
				continue // no thing
			}
		}
		if !slices.Contains(b.an.Content(w), t) {
			continue // a stopword
		}
		seen[t] = true
		things = append(things, w)
	}
	if len(things) == 0 {
		return Result{}, false, nil
	}
	// The terms each thing and verb is named by in a document: its own,
	// its substitutes and its common taxa.
	thingTerms := make([]map[string]bool, len(things))
	byTerm := map[string]map[string]bool{}
	for i, w := range things {
		thingTerms[i] = b.namings(w, 'n')
		byTerm[b.an.Terms(w)[0]] = thingTerms[i]
	}
	var verbNames []map[string]bool
	for _, v := range verbs {
		verbNames = append(verbNames, b.namings(v, 'v'))
	}
	// Weight of the known content words, verbs and frame left out.
	var total float64
	var known []weighted
	for _, q := range b.weigh(question, vocab, frame) {
		if !q.known || verbTerms[q.term] || generic[q.term] || costTerms[q.term] {
			continue
		}
		known = append(known, q)
		total += q.weight
	}
	if total == 0 {
		// No content word the asker's documents use: every other reading
		// refuses such a question, and a rule about none of its words
		// decides nothing (rv45's review).
		return Result{}, false, nil
	}
	// The question's most specific known thing (the highest IDF): a chunk
	// must name it, as the coverage rules ask of the most specific term.
	key := ""
	best := 0.0
	handling := b.handling()
	for _, q := range known {
		if byTerm[q.term] != nil && q.weight > best {
			key, best = q.term, q.weight
		}
	}
	if !scope.keyed {
		key = ""
	}
	for i, ev := range req.Evidence {
		if i > scope.rank {
			break
		}
		if scope.at >= 0 && i != scope.at {
			continue
		}
		if !allCovered(ents, Mentions(b.an, ev.Title, ev.Text)) {
			continue
		}
		have := b.an.Set(ev.Title + " " + ev.Text)
		var got float64
		for _, q := range known {
			if have[q.term] || anyIn(byTerm[q.term], have) {
				got += q.weight
			}
		}
		cov := got / total
		if cov < scope.coverage || key != "" && !have[key] && !anyIn(byTerm[key], have) {
			continue
		}
		for _, s := range citation.Sentences(ev.Text) {
			ruleText := reNotCostFree.ReplaceAllString(s, " ") // "hands-free", "feel free to" state no rule
			if !reRule.MatchString(ruleText) && !b.onlyRule(s) {
				continue
			}
			st := b.an.Set(s)
			thing := ""
			for j, w := range things {
				if anyIn(thingTerms[j], st) {
					thing = w
					break
				}
			}
			if scope.loose {
				named := thing != ""
				for _, vn := range verbNames {
					named = named || anyIn(vn, st)
				}
				if named {
					return Result{Assessment: Assessment{Sufficient: true, Reason: s}, Accepted: []string{ev.ChunkID}}, true, nil
				}
				continue
			}
			if thing == "" || key != "" && !st[key] && !anyIn(byTerm[key], st) {
				continue // the rule is not said of the question's most specific thing
			}
			cost := reRuleCost.MatchString(ruleText)
			of := false
			switch {
			case cost && costly:
				of = true
			case cost, costly:
				// a rule of cost decides only a question of cost, and
				// a question of cost only a rule of cost
			default:
				for _, vn := range verbNames {
					if anyIn(vn, st) {
						of = true
					}
				}
				if !of && len(verbs) > 0 {
					of = anyIn(handling, st)
				}
			}
			if !of {
				continue
			}
			reason := fmt.Sprintf("the question asks for a yes/no decision, and %q covers %.0f%% of the weight of its words your documents use and states a rule about %q: %q",
				ev.Title, 100*cov, thing, s)
			reason = clipReason(reason)
			return Result{
				Usage:      wire.Spent{Model: b.Model()},
				Assessment: Assessment{Sufficient: true, Score: cov, Reason: reason},
				Accepted:   []string{ev.ChunkID},
			}, true, nil
		}
	}
	return Result{}, false, nil
}

// reNotCostFree is "free" said of no cost or permission: in a compound
// ("hands-free", "free-standing") or an idiom ("feel free to", "free
// from", "free up").
var reNotCostFree = regexp.MustCompile(`(?i)(?:\w-free\b|\bfree-\w|\bfeel free\b|\bfree (?:from|up|to)\b)`)

// ruledRank and ruledCoverage bound Ruled: the chunks it reads (the first
// ruledRank+1 retrieved) and the share of the question's known weight a
// chunk must cover.
const (
	ruledRank     = 2
	ruledCoverage = 0.6
)

var (
	// reRule is a sentence stating a rule: a prohibition, a requirement, a
	// permission or a statement of cost or cover.
	reRule = regexp.MustCompile(`(?i)\b(?:never|do not|don't|must not|mustn't|should not|shouldn't|cannot|can't|not allowed|not permitted|must|(?:you|we|customers|partners)\s+(?:can|may)|allowed|permitted|free of charge|free|no charge|not covered|does not cover|do not cover)\b`)
	// reRuleCost is a rule of cost or cover.
	reRuleCost = regexp.MustCompile(`(?i)\b(?:free of charge|free|no charge|not covered|does not cover|do not cover)\b`)
)

// reOnly is the word "only".
var reOnly = regexp.MustCompile(`(?i)\bonly\b`)

// reOnlyModal is "only" after a modal: "can only", "may only".
var reOnlyModal = regexp.MustCompile(`(?i)\b(?:can|may|must|should)\s+only\b`)

// onlyRule reports whether sentence states a requirement with "only": in
// an instruction ("Use genuine Hollin parts only": its first word a verb)
// or after a modal ("can only be"). "Only" in a description ("the X200
// has only one speed") rules nothing.
func (b *Builtin) onlyRule(sentence string) bool {
	if !reOnly.MatchString(sentence) {
		return false
	}
	if reOnlyModal.MatchString(sentence) {
		return true
	}
	ws := strings.Fields(sentence)
	if len(ws) == 0 {
		return false
	}
	first := strings.ToLower(trimMarks(ws[0]))
	g, ok := b.Thesaurus.(Grammar)
	return ok && !determiners[first] && strings.Contains(g.Parts(first), "v")
}

// ruleCost are the terms of a question asking of cost or cover.
var ruleCost = wordSet("pay", "paid", "pays", "paying", "bill", "billed", "charge", "charged", "charges", "cost", "costs", "free",
	"cover", "covered", "covers", "warranty", "guarantee", "guaranteed", "invoice", "invoiced", "fee", "fees", "price")

// costTerms is the set of the terms of ruleCost (Ruled, Covered).
func (b *Builtin) costTerms() map[string]bool {
	out := map[string]bool{}
	for w := range ruleCost {
		for _, t := range b.an.Terms(w) {
			out[t] = true
		}
	}
	return out
}

// coverNouns name the cover or the cost itself; before a noun ("a
// warranty job", "our parts cost list") they name a kind of it.
var coverNouns = wordSet("warranty", "guarantee", "cost", "costs", "price", "fee", "fees")

// kindBefore reports whether fields[i] is a word of coverNouns naming the
// kind of the noun after it in the same clause ("a warranty job", "our
// parts cost list"), not the cover or cost asked about (Ruled, Covered).
func (b *Builtin) kindBefore(fields []string, i int) bool {
	if b.Status && i+1 < len(fields) && verbAfterNoun[strings.ToLower(trimMarks(fields[i+1]))] {
		return false // "the guarantee will replace": the noun is the clause's subject (Status, status.go)
	}
	return coverNouns[strings.ToLower(trimMarks(fields[i]))] && i+1 < len(fields) && !strings.ContainsAny(fields[i], ",.;:?!") &&
		slices.Contains(b.an.Content(fields[i+1]), firstTerm(b, fields[i+1]))
}

// verbAfterNoun are the modals and auxiliaries: after a noun they open its
// clause's verb, so the noun names no kind of a noun after it.
var verbAfterNoun = wordSet("can", "could", "may", "might", "must", "should", "shall", "will", "would",
	"is", "are", "was", "were", "be", "does", "do", "did", "has", "have", "had")

// firstTerm is the analyzed term of raw, "\x00" (no term) when it has
// none or several.
func firstTerm(b *Builtin, raw string) string {
	if ts := b.an.Terms(trimMarks(raw)); len(ts) == 1 {
		return ts[0]
	}
	return "\x00"
}

// parties are the people a question names ("did we give the customer
// …"): a rule said of a party is not said of a thing.
var parties = wordSet("customer", "customers", "agent", "agents", "partner", "partners", "user", "users", "owner", "owners",
	"engineer", "engineers", "staff", "person", "people", "someone", "team", "friend", "family")

// subjects are the pronouns a verb follows in a relative clause ("the
// parts we fit").
var subjects = wordSet("i", "we", "you", "they", "he", "she")

// handlingVerbs say any handling of their object: a rule with one of them
// ("Never put the motor base in water", "Use genuine parts only") rules
// every action on that object.
var handlingVerbs = []string{"put", "use", "keep", "leave", "place"}

// handling is the set of the terms of handlingVerbs.
func (b *Builtin) handling() map[string]bool {
	out := map[string]bool{}
	for _, w := range handlingVerbs {
		for _, t := range b.an.Terms(w) {
			out[t] = true
		}
	}
	return out
}

// namings are the terms a document may name word by (Ruled): its own, its
// thesaurus relatives', and those of the words one hypernym or hyponym
// pointer from its common senses of part of speech pos (for a noun, only
// the narrower: "base" names a kind of "bottom", but "part" names any
// part, not the "top").
func (b *Builtin) namings(word string, pos byte) map[string]bool {
	out := map[string]bool{}
	add := func(w string) {
		if ts := b.an.Terms(w); len(ts) == 1 {
			out[ts[0]] = true
		}
	}
	add(word)
	for _, r := range b.Thesaurus.Related(word) {
		add(r)
	}
	if tx, ok := b.Thesaurus.(Taxonomer); ok {
		for _, x := range tx.Taxa(word) {
			if x.Pos == pos && (x.Common || x.Sense <= 2) && !strings.Contains(x.Word, " ") && (pos == 'v' || !x.Broader) {
				add(x.Word)
			}
		}
	}
	return out
}

// anyIn reports whether any term of a is in b.
func anyIn(a, b map[string]bool) bool {
	for t := range a {
		if b[t] {
			return true
		}
	}
	return false
}

// allCovered reports whether mentions name every entity of ents.
func allCovered(ents []Entity, mentions map[string]bool) bool {
	for _, e := range ents {
		if !e.CoveredBy(mentions) {
			return false
		}
	}
	return true
}
