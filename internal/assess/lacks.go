package assess

import (
	"context"
	"slices"
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
	Terms   []TermLack
}

// A TermLack is one question term in a Lack.
type TermLack struct {
	Word, Term            string
	Weight                float64
	Known, Entity, Held   bool
	Dropped, Asked, Scene bool
	Mutual, Related       []string // relatives the chunk holds
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
func (b *Builtin) lackOf(question string, r *reading, j *judged, covers func(map[string]bool, string) bool, related map[string][]synonym) Lack {
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
	return l
}
