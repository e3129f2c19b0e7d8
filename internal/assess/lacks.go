package assess

import (
	"context"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/thesaurus"
)

// A Lack is what the first chunk in the assessor's order holds of the
// question, as the coverage rules judged it (a development measurement,
// see assessdev.TestLacksMeasure): each of the question's terms, and the
// coverage and fit the chunk would get were a term it lacks held through
// a relative (Mutual: another form, or a relation both ways from a word
// of few senses, as translate puts; Related: any relative the
// thesaurus gives that the chunk holds).
type Lack struct {
	ChunkID                     string
	Question                    string
	Coverage                    float64
	Typed, Fit, HasKey          bool
	Entities, Ents              int
	MutualCoverage, RelCoverage float64
	MutualFit, RelFit           bool
	// KnownFit, UnknownFit and AnyFit are ceilings: the chunk's fit were
	// every question word it lacks that is no entity's held when the
	// asker's visible documents use it (known: all a relation learned
	// from those documents could ever credit), when none does (unknown:
	// no statistic of those documents can relate it), or either.
	KnownFit, UnknownFit, AnyFit bool
	// VerbFit is KnownFit for the question's verbs only (those of the
	// clause that asks and of its scene, answertype.Verbs).
	VerbFit bool
	// BaseFit is the fit with v24's credit (Kin's relatives and Hyp's
	// taxa); LinkFit, per candidate relation (linkCandidates), the fit
	// with that relation's words credited on top of it.
	BaseFit bool
	LinkFit map[string]bool
	Terms   []TermLack
}

// A TermLack is one question term in a Lack.
type TermLack struct {
	Word, Term            string
	Weight                float64
	Known, Entity, Held   bool
	Dropped, Asked, Scene bool
	Mutual, Related       []string // relatives the chunk holds
	// Links: per candidate relation, the words it reaches that the chunk
	// holds (a lacked term's only).
	Links map[string][]string
}

// linkCandidates are the relations Lacks measures beyond v24's, each the
// words it gives a question word (development measurement, round 24).
func linkCandidates(th Thesaurus) map[string]func(string) []thesaurus.Taxon {
	lk, ok := th.(Linker)
	tx, ok2 := th.(Taxonomer)
	if !ok || !ok2 {
		return nil
	}
	keep := func(ok func(x thesaurus.Taxon) bool) func([]thesaurus.Taxon) []thesaurus.Taxon {
		return func(xs []thesaurus.Taxon) []thesaurus.Taxon {
			var out []thesaurus.Taxon
			for _, x := range xs {
				if ok(x) {
					out = append(out, x)
				}
			}
			return out
		}
	}
	both := keep(func(x thesaurus.Taxon) bool { return x.Common && x.ItsCommon })
	q := keep(func(x thesaurus.Taxon) bool { return x.Common })
	its := keep(func(x thesaurus.Taxon) bool { return x.ItsCommon })
	two := func(w string, sister bool) []thesaurus.Taxon {
		var out []thesaurus.Taxon
		for _, x := range both(tx.Taxa(w)) {
			if strings.Contains(x.Word, " ") {
				continue
			}
			for _, y := range tx.Taxa(x.Word) {
				if y.Its == 0 || !y.ItsCommon || y.Sense != x.Its {
					continue // the step leaves from the sense the first reached
				}
				if (y.Broader == x.Broader) != sister {
					out = append(out, y)
				}
			}
		}
		return out
	}
	return map[string]func(string) []thesaurus.Taxon{
		"deriv":      func(w string) []thesaurus.Taxon { return both(lk.Links(w, "+")) },
		"deriv-q":    func(w string) []thesaurus.Taxon { return q(lk.Links(w, "+")) },
		"deriv-any":  func(w string) []thesaurus.Taxon { return lk.Links(w, "+") },
		"similar":    func(w string) []thesaurus.Taxon { return both(lk.Links(w, "&^")) },
		"similar-q":  func(w string) []thesaurus.Taxon { return q(lk.Links(w, "&^=")) },
		"particip":   func(w string) []thesaurus.Taxon { return q(lk.Links(w, "<\\")) },
		"mero":       func(w string) []thesaurus.Taxon { return both(lk.Links(w, "%#")) },
		"mero-q":     func(w string) []thesaurus.Taxon { return q(lk.Links(w, "%#")) },
		"hyp2":       func(w string) []thesaurus.Taxon { return two(w, false) },
		"sister":     func(w string) []thesaurus.Taxon { return two(w, true) },
		"any":        func(w string) []thesaurus.Taxon { return lk.Links(w, "+=&@~<\\^%#") },
		"hyp-any":    func(w string) []thesaurus.Taxon { return lk.Links(w, "@~") },
		"nonhyp-any": func(w string) []thesaurus.Taxon { return lk.Links(w, "+=&<\\^%#") },
		"nonhyp-q":   func(w string) []thesaurus.Taxon { return q(lk.Links(w, "+=&<\\^%#")) },
		"nonhyp-its": func(w string) []thesaurus.Taxon { return its(lk.Links(w, "+=&<\\^%#")) },
		"any-q":      func(w string) []thesaurus.Taxon { return q(lk.Links(w, "+=&@~<\\^%#")) },
		"any-its":    func(w string) []thesaurus.Taxon { return its(lk.Links(w, "+=&@~<\\^%#")) },
		"any-both":   func(w string) []thesaurus.Taxon { return both(lk.Links(w, "+=&@~<\\^%#")) },
		"union": func(w string) []thesaurus.Taxon {
			return slices.Concat(q(lk.Links(w, "+&^=<\\")), both(lk.Links(w, "%#")), two(w, false))
		},
	}
}

// Lacks is Assess, with the Lack of each reading assess made (the last
// one is the question as the service reads it).
func (b *Builtin) Lacks(ctx context.Context, req Request) (Result, []Lack, error) {
	c := *b
	var out []Lack
	c.lacks = &out
	res, err := c.Assess(ctx, req)
	return res, out, err
}

// lackOf is the Lack of j, judged on r.
func (b *Builtin) lackOf(question string, r *reading, j *judged, covers func(map[string]bool, string) bool, related map[string][]synonym, ents []Entity, vocab Vocabulary) Lack {
	l := Lack{ChunkID: j.ev.ChunkID, Question: question, Coverage: j.coverage, Typed: j.typed, Fit: j.fit, HasKey: j.hasKey(r, covers), Entities: j.entities, Ents: len(r.ents)}
	mutual := b.kin(question, related)
	for _, q := range r.qterms {
		t := TermLack{Word: wordFor(b.an, question, q.term), Term: q.term, Weight: q.weight, Known: q.known, Entity: entityTerm(r.ents, q.term),
			Held: covers(j.have, q.term), Dropped: j.dropped[q.term], Asked: r.askedVerbs[q.term], Scene: r.sceneVerbs[q.term]}
		for _, s := range mutual[q.term] {
			if j.have[s.Term] {
				t.Mutual = append(t.Mutual, s.Word)
			}
		}
		for _, s := range related[q.term] {
			if j.have[s.Term] && !slices.Contains(t.Mutual, s.Word) {
				t.Related = append(t.Related, s.Word)
			}
		}
		l.Terms = append(l.Terms, t)
	}
	mj := r.judge(j.have, relatedCovers(covers, mutual), j.typed)
	rj := r.judge(j.have, relatedCovers(covers, related), j.typed)
	l.MutualCoverage, l.MutualFit = mj.coverage, mj.fit
	l.RelCoverage, l.RelFit = rj.coverage, rj.fit
	credit := func(known, unknown, verbs bool) func(map[string]bool, string) bool {
		return func(have map[string]bool, t string) bool {
			if covers(have, t) {
				return true
			}
			i := slices.IndexFunc(r.qterms, func(q weighted) bool { return q.term == t })
			if i < 0 || entityTerm(r.ents, t) || verbs && !r.askedVerbs[t] && !r.sceneVerbs[t] {
				return false
			}
			return r.qterms[i].known && known || !r.qterms[i].known && unknown
		}
	}
	l.KnownFit = r.judge(j.have, credit(true, false, false), j.typed).fit
	l.UnknownFit = r.judge(j.have, credit(false, true, false), j.typed).fit
	l.AnyFit = r.judge(j.have, credit(true, true, false), j.typed).fit
	l.VerbFit = r.judge(j.have, credit(true, false, true), j.typed).fit
	var base map[string][]synonym
	if b.Kin {
		base = mutual
	}
	if b.Hyp && b.Thesaurus != nil {
		base = withTaxa(base, b.taxa(question, ents, vocab, j.have))
	}
	fits := func(credit map[string][]synonym) bool {
		kr := *r
		kr.literal = covers
		return kr.judge(j.have, relatedCovers(covers, credit), j.typed).fit
	}
	l.BaseFit = fits(base)
	if b.Thesaurus != nil { // "forms": another form of the word, as translate puts it (kinForms)
		forms := map[string][]synonym{}
		for t, ss := range b.kinOf(question, related, true) {
			for _, s := range ss {
				if j.have[s.Term] && !containsTerm(mutual[t], s.Term) {
					forms[t] = append(forms[t], s)
				}
			}
		}
		if l.LinkFit == nil {
			l.LinkFit = map[string]bool{}
		}
		l.LinkFit["forms"] = fits(withTaxa(base, forms))
		for i, t := range l.Terms {
			if t.Held || t.Dropped || t.Entity || len(forms[t.Term]) == 0 {
				continue
			}
			if l.Terms[i].Links == nil {
				l.Terms[i].Links = map[string][]string{}
			}
			for _, s := range forms[t.Term] {
				l.Terms[i].Links["forms"] = append(l.Terms[i].Links["forms"], s.Word)
			}
		}
	}
	if cands := linkCandidates(b.Thesaurus); cands != nil {
		if l.LinkFit == nil {
			l.LinkFit = map[string]bool{}
		}
		for name, fetch := range cands {
			words := b.linked(question, ents, vocab, j.have, fetch)
			l.LinkFit[name] = fits(withTaxa(base, words))
			for i, t := range l.Terms {
				if t.Held || t.Dropped || t.Entity {
					continue
				}
				for _, s := range words[t.Term] {
					if l.Terms[i].Links == nil {
						l.Terms[i].Links = map[string][]string{}
					}
					l.Terms[i].Links[name] = append(l.Terms[i].Links[name], s.Word)
				}
			}
		}
	}
	return l
}
