package assess

import (
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/terms"
)

// The focus reading (builtin:coverage-v8) is a second way for the builtin
// assessor to accept a chunk, tried when the coverage rules (see Builtin)
// refuse. It judges a chunk on what the question asks rather than on
// everything the asker wrote:
//
//   - only the clause that asks counts (answertype.Asking): the statement
//     before it ("I make a smoothie every morning - how often ...") sets a
//     scene the documents need not describe;
//   - only words the visible corpus uses count: a word no visible chunk
//     holds ("swap", "dunk", "jug") cannot tell one chunk from another,
//     and whether the chunk answers is left to the answer-type check;
//     frame words ("how often", "can ... go in") never count;
//   - every entity must be named whole, as in the coverage rules, except
//     a name (not a code) that only the scene mentions and that no
//     visible document mentions ("We're moving to Spain."): nothing could
//     be about it, and the question does not ask about it; a code the
//     scene names ("my K50 shows E3") is what the question is about;
//   - when the clause that asks holds no word the documents use ("how
//     long do I leave it?", "what does that mean?"), the entities' words
//     are its words;
//   - the chunk must hold an expression of the question's expected answer
//     type near its words, as in the coverage rules; a question that
//     expects no particular type and holds, in the clause that asks, a
//     word no visible chunk holds ("which firmware version", "what
//     wattage") is never accepted this way: nothing else says the chunk
//     answers it;
//   - a comparison (two or more entities and a comparative word, see
//     answertype.Compares) is judged on the first retrieved chunk naming
//     each entity, together (focusCompared).
//
// A chunk is accepted when it covers at least Builtin.FocusCoverage of the
// IDF weight of the known words of the clause that asks, and it is among
// the first FocusRank+1 retrieved. The words the visible corpus uses
// elsewhere but the chunk lacks are the refusal signal: "how do I descale
// the X300 Pro" against a page on the X300 Pro that never says descale.
type focus struct {
	words   []weighted // known content terms of the clause that asks
	ents    []Entity   // entities the chunk must name whole
	unknown []string   // content terms of the clause that asks no visible chunk holds
	// asksUnknown is true when a word no visible chunk holds says what
	// the question asks for: any of unknown, or with Builtin.Asked only
	// one in the noun phrase a "what"/"which" question asks about (see
	// answertype.AskedPhrase). The focus reading reads it; the wide
	// reading still reads any of unknown (wide.asksUnknown).
	asksUnknown bool
}

// readFocus reads the question the focus way (see focus); ents are the
// question's entities.
func (b *Builtin) readFocus(question string, asked answertype.Question, ents []Entity, vocab Vocabulary) *focus {
	text := answertype.Asking(question)
	frame := b.an.Set(strings.Join(asked.Frame, " "))
	f := &focus{}
	n := vocab.Len()
	seen := map[string]bool{}
	for _, t := range b.an.Content(text) {
		if frame[t] || terms.IsQuestionWord(t) || seen[t] {
			continue
		}
		seen[t] = true
		df := vocab.DocFreq(t)
		if df == 0 {
			f.unknown = append(f.unknown, t)
			continue
		}
		f.words = append(f.words, weighted{term: t, known: true, weight: backend.IDF(n, df)})
	}
	f.asksUnknown = len(f.unknown) > 0
	// The phrase of every what/which of the clause that asks counts, not
	// only the first's: "what does that mean, and which firmware version
	// fixes it?" asks for a kind of thing ("firmware version") too.
	if nps, ok := answertype.AskedPhrases(question); b.Asked && ok {
		inNP := map[string]bool{}
		for _, np := range nps {
			maps.Copy(inNP, b.an.Set(strings.Join(np, " ")))
		}
		f.asksUnknown = slices.ContainsFunc(f.unknown, func(t string) bool { return inNP[t] })
	}
	inAsk := b.an.Set(text)
	for _, e := range ents {
		asking := !slices.ContainsFunc(e.Terms, func(t string) bool { return !inAsk[t] })
		if asking || e.Code || e.known(vocab) {
			f.ents = append(f.ents, e)
		}
	}
	if b.FocusGeneric > 0 {
		// Generic words leave the reading (v13), when it keeps some word
		// (2) or only when they are all its words (1); a question that
		// expects no particular type keeps them rather than be judged on
		// its entities alone ("the X300 Pro: anything new?").
		generic := b.genericTerms()
		rest := slices.DeleteFunc(slices.Clone(f.words), func(w weighted) bool { return generic[w.term] })
		if len(rest) > 0 && b.FocusGeneric == 2 || len(rest) == 0 && asked.Type != answertype.Description {
			f.words = rest
		}
	}
	if len(f.words) == 0 {
		// The clause that asks holds no word the documents use ("how long
		// do I leave it", "what is it?"): it asks about what the scene
		// named, its entities.
		for _, e := range f.ents {
			for _, t := range e.Terms {
				if df := vocab.DocFreq(t); df > 0 && !seen[t] {
					seen[t] = true
					f.words = append(f.words, weighted{term: t, known: true, weight: backend.IDF(n, df)})
				}
			}
		}
	}
	return f
}

// coverage is the share of the focus words' weight a chunk holding have
// covers; 0 when the clause that asks has no known word.
func (f *focus) coverage(have map[string]bool, covers func(map[string]bool, string) bool) float64 {
	var total, got float64
	for _, w := range f.words {
		total += w.weight
		if covers(have, w.term) {
			got += w.weight
		}
	}
	if total == 0 {
		return 0
	}
	return got / total
}

// focused picks the chunk the focus reading accepts among all (in
// retrieval order), or nil; see focus.
func (b *Builtin) focused(question string, f *focus, asked answertype.Question, r *reading, all []*judged, covers func(map[string]bool, string) bool) (*judged, float64) {
	listed := b.Listed && asked.Type == answertype.Description && f.asksUnknown && listQuestion(question)                      // listed.go
	if len(f.words) == 0 || asked.Type == answertype.Description && f.asksUnknown && !listed || b.KnownAsk && !f.asksKnown() { // topic.go
		return nil, 0
	}
	takes := func(j *judged) (string, float64, bool) { return b.focusTakes(f, asked, r, j, covers) }
	rank := b.FocusRank
	if listed {
		if g := b.listClause(question, f); g != nil { // listed.go (only with ListedClause)
			f = g
		}
		if b.ListedClause { // listed.go: the first two candidates
			rank = b.FocusRank + 1
		}
		takes = func(j *judged) (string, float64, bool) { return b.listTakes(f, j, covers) }
	}
	var pick *judged
	var pickExpr string
	best := 0.0
	for j := range candidates(all, rank, f.ents, r) {
		if expr, c, ok := takes(j); ok && (pick == nil || c > best) {
			pick, pickExpr, best = j, expr, c
		}
	}
	if pick == nil && b.Counts&countsListed != 0 && asked.Type == answertype.Count && countList(question) { // (a list question, listed, asks a description)
		for j := range candidates(all, rank, f.ents, r) { // counts.go
			if expr, c, ok := b.listTakes(f, j, covers); ok && (pick == nil || c > best) &&
				(b.Review&reviewListWord == 0 || b.countedIn(question, j.terms())) {
				pick, pickExpr, best = j, expr, c
			}
			if codes := codeList(j.ev.Text); pick == nil && b.Counts&countsCodes != 0 && codes != "" &&
				(b.Review&reviewCodes == 0 || b.countedIn(question, j.terms())) {
				if c := f.coverage(j.terms(), covers); c >= b.FocusCoverage {
					pick, pickExpr, best = j, codes, c
				}
			}
		}
		if pick != nil {
			pick.expr = pickExpr
			return pick, best
		}
	}
	if pick == nil && !listed && r.act != nil && (len(f.unknown) > 0 || f.entityOnly()) {
		pick, pickExpr, best = b.focusedBelow(f, asked, r, all, covers) // action.go
	}
	if pick == nil && !listed && len(f.ents) > 1 && b.compares(question) {
		return b.focusCompared(f, asked, r, all, covers)
	}
	if pick != nil {
		pick.expr = pickExpr
	}
	return pick, best
}

// focusTakes reports whether the focus reading takes chunk j: it holds an
// expression of the expected type (returned), with FocusTopic a topic
// word, with Act (when the clause that asks holds words no document uses
// or falls back to its entities) states the asked action, and covers
// b.FocusCoverage of the clause that asks (returned).
func (b *Builtin) focusTakes(f *focus, asked answertype.Question, r *reading, j *judged, covers func(map[string]bool, string) bool) (string, float64, bool) {
	expr, typed := b.answerIn(asked, j.ev, r, covers)
	if !typed || b.FocusTopic && !f.topicHeld(j.terms(), covers) || r.act != nil && (len(f.unknown) > 0 || f.entityOnly()) && !b.statesAction(r.act, asked, j.ev, covers) { // action.go
		return "", 0, false
	}
	c := f.coverage(j.terms(), covers)
	return expr, c, c >= b.FocusCoverage
}

// candidates yields the chunks among the first rank+1 of all, in
// retrieval order, that a reading may accept at all: each judged alone
// (not a comparison's union), naming every entity of ents whole and the
// kind of code asked for (reading.namesCode). The focus, wide and sentence
// readings each judge these.
func candidates(all []*judged, rank int, ents []Entity, r *reading) iter.Seq[*judged] {
	return func(yield func(*judged) bool) {
		for _, j := range all[:max(0, min(len(all), rank+1))] {
			if j.with != nil || !r.namesCode(j.have) || slices.ContainsFunc(ents, func(e Entity) bool { return !e.CoveredBy(j.have) }) {
				continue
			}
			if !yield(j) {
				return
			}
		}
	}
}

// focusCompared judges a comparison the focus way (see compared): for each
// entity the first retrieved chunk naming it whole, judged together (the
// union of what they hold, an answer of the expected type in any).
func (b *Builtin) focusCompared(f *focus, asked answertype.Question, r *reading, all []*judged, covers func(map[string]bool, string) bool) (*judged, float64) {
	var picked []*judged
	for _, en := range f.ents {
		i := slices.IndexFunc(all, func(j *judged) bool { return j.with == nil && en.CoveredBy(j.have) })
		if i < 0 {
			return nil, 0
		}
		if !slices.Contains(picked, all[i]) {
			picked = append(picked, all[i])
		}
	}
	if len(picked) < 2 {
		return nil, 0
	}
	u := &judged{have: map[string]bool{}, ev: picked[0].ev}
	typed := false
	for _, j := range picked {
		maps.Copy(u.have, j.have)
		if expr, ok := b.answerIn(asked, j.ev, r, covers); ok && !typed {
			typed, u.expr = true, expr
		}
	}
	for _, j := range picked[1:] {
		u.with = append(u.with, j.ev)
	}
	c := f.coverage(u.have, covers)
	if !typed || c < b.FocusCoverage {
		return nil, 0
	}
	return u, c
}

// focusReason is the trace's reason for a chunk the focus reading
// accepted, in the asker's words.
func (b *Builtin) focusReason(question string, asked answertype.Question, f *focus, j *judged, cov float64) string {
	s := fmt.Sprintf("%s covers %.0f%% of the weight of the words the clause that asks shares with your documents", j.title(), math.Round(100*cov))
	if len(f.unknown) > 0 {
		s += fmt.Sprintf(" (no document you can see uses %s)", b.quoted(question, f.unknown))
	}
	if asked.Type == answertype.Count && b.Counts&countsListed != 0 && enumerates(j.expr) {
		s += fmt.Sprintf(", and lists the things asked to be counted: %q", j.expr)
	} else if asked.Type != answertype.Description {
		s += fmt.Sprintf(", and holds %s near them: %q", asked.Describe(), j.expr)
	} else if j.expr != "" && b.Listed && enumerates(j.expr) {
		s += fmt.Sprintf(", and lists the things asked for in one sentence with them: %q", j.expr)
	}
	return s
}

// quoted lists terms as question spells them, quoted, for a reason.
func (b *Builtin) quoted(question string, terms []string) string {
	var ws []string
	for _, t := range terms {
		ws = append(ws, fmt.Sprintf("%q", wordFor(b.an, question, t)))
	}
	return strings.Join(ws, ", ")
}
