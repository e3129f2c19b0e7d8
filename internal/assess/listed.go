package assess

import (
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
)

// V45Model names the builtin assessor without Builtin.Sides,
// Builtin.SidesMeasure, Builtin.Listed (v47), Builtin.Places (v48) and
// Builtin.Matter (v49): builtin:coverage-v45, kept selectable.
const V45Model = "builtin:coverage-v45"

// V54Model names the builtin assessor without Builtin.ListedClause:
// builtin:coverage-v54, kept selectable.
const V54Model = "builtin:coverage-v54"

// The list reading (Builtin.Listed, builtin:coverage-v47). A question
// asking "what" or "which" things of a plural kind ("what statuses will
// my repair show", "what are the different stages ...") is answered by
// an enumeration of such things; the kind's own word is often one no
// document uses ("statuses", where the page says "A repair shows as
// Booked, In workshop, Repaired, then Dispatched"), and the focus reading
// then refuses it: a question expecting no particular type that asks for
// a word no visible chunk holds has nothing else saying the chunk answers
// it. The enumeration is that something else: the focus reading takes a
// list question whose asked kind no document names when one sentence of
// the chunk enumerates three or more items and that sentence itself holds
// the known words of the clause that asks (Builtin.FocusCoverage of their
// weight), at least one of them no entity's (a sentence listing a
// product's parts names the product, not what is asked about it).

// listQuestion reports whether the clause that asks opens "what" or
// "which" with a plural noun as the kind of thing asked for, after any
// be-form, determiner and the words that only say the items differ
// ("what statuses", "what are the different stages", "which parts").
func listQuestion(question string) bool {
	ws := strings.Fields(strings.ToLower(answertype.Asking(question)))
	if len(ws) < 2 {
		return false
	}
	if w := strings.Trim(ws[0], ",.?!;:"); w != "what" && w != "which" {
		return false
	}
	for _, raw := range ws[1:] {
		w := strings.Trim(raw, ",.?!;:'\"")
		if listSkip[w] {
			continue
		}
		return plural(w)
	}
	return false
}

// listSkip are the words between "what"/"which" and the kind a list
// question asks for.
var listSkip = map[string]bool{"are": true, "were": true, "is": true, "the": true, "all": true, "different": true,
	"various": true, "possible": true, "main": true, "other": true, "some": true}

// plural reports whether w reads as a plural noun: a word of four or more
// letters ending in "s" but not "ss", "us" or "is" ("statuses", "stages",
// "parts"; not "address", "status", "basis").
func plural(w string) bool {
	if len(w) < 4 || !strings.HasSuffix(w, "s") {
		return false
	}
	for _, suf := range []string{"ss", "us", "is", "'s"} {
		if strings.HasSuffix(w, suf) {
			return false
		}
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// enumerates is answertype.Enumerates: a sentence listing three or more
// items ("Booked, In workshop, Repaired, then Dispatched").
var enumerates = answertype.Enumerates

// listTakes is focusTakes for a list question (see the list reading):
// the enumerating sentence of chunk j covering most of the focus words
// (returned with its coverage), ok when it covers b.FocusCoverage and
// holds a known word of the clause that asks that is no entity's.
func (b *Builtin) listTakes(f *focus, j *judged, covers func(map[string]bool, string) bool) (string, float64, bool) {
	ent := entityTerms(f.ents)
	best, bestCov, ok := "", 0.0, false
	for _, s := range citation.Sentences(j.ev.Text) {
		if !enumerates(s) {
			continue
		}
		have := b.an.Set(s)
		own := false
		for _, w := range f.words {
			if !ent[w.term] && covers(have, w.term) {
				own = true
			}
		}
		c := f.coverage(have, covers)
		if own && c >= b.FocusCoverage && (!ok || c > bestCov) {
			best, bestCov, ok = s, c, true
		}
	}
	return best, bestCov, ok
}

// listClause is Builtin.ListedClause's reading of a list question: f
// without the words of its closing subordinate clause (listAside), when
// the clause that remains keeps more than half of their weight; nil when
// the question has no such clause. With ListedClause the enumeration of
// any list question is looked for in the first two candidates, not only
// the first (focused): words of the question the enumeration does not
// hold ("moves along") rank a page holding them ("the repair centre is
// moving") above it.
func (b *Builtin) listClause(question string, f *focus) *focus {
	if !b.ListedClause {
		return nil
	}
	aside := b.listAside(question)
	if len(aside) == 0 {
		return nil
	}
	var total, kept float64
	var words []weighted
	for _, w := range f.words {
		total += w.weight
		if !aside[w.term] {
			kept += w.weight
			words = append(words, w)
		}
	}
	if len(words) == len(f.words) || len(words) == 0 || kept <= total/2 {
		return nil
	}
	g := *f
	g.words = words
	return &g
}

// listAside returns the terms of a subordinate clause of time or manner
// closing the clause that asks a list question ("as it moves along",
// "while it is being repaired", "once I send it in"): Builtin.ListedClause.
// Such a clause says when the items are seen, not which items are asked
// for, and the enumeration need not hold its words. The clause counts
// only after the asked kind and a verb of the main clause (three words
// at least), so "what stages" itself is never set aside.
func (b *Builtin) listAside(question string) map[string]bool {
	ws := strings.Fields(strings.ToLower(answertype.Asking(question)))
	for i := 3; i < len(ws); i++ {
		if listSubordinators[strings.Trim(ws[i], ",.?!;:")] {
			aside := b.an.Set(strings.Join(ws[i:], " "))
			for t := range b.an.Set(strings.Join(ws[:i], " ")) {
				delete(aside, t)
			}
			return aside
		}
	}
	return nil
}

// listSubordinators open a subordinate clause of time or manner.
var listSubordinators = map[string]bool{"as": true, "while": true, "whilst": true, "once": true, "until": true, "when": true}
