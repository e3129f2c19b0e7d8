package assess

import (
	"slices"
	"strings"
)

// Second (round 41, a41-second; off in builtin:coverage-v45) is the second search Agree
// (agree.go) asks for when the first attempt's first chunk is refused only
// for its coverage or its most specific word (Agree's confirm): instead of
// leaving the next query to the rewriter's strategies (mostly the question
// with one word translated, which finds the same chunks), the first
// proposal is the question's entities with the known words that chunk
// lacks (StrategySecond). That search shares only the entities with the
// first: a chunk it ranks among its hits again is found by two wordings
// that differ in every content word, and a page holding the lacked words
// with the entities, which the first search ranked below its hits, is
// found and judged. The rewriter's own proposals follow it.
//
// Values: 0 off; 1 the second search proposed (with Agree it accepts a
// chunk both searches found); 2 the second search proposed, Agree's
// acceptance off (the search measured alone).
func (b *Builtin) second(s *Situation, first *judged, qterms []weighted, ents []Entity, frame []string, ps []Proposal) []Proposal {
	if b.Second == 0 || b.Rewriter == nil || first == nil {
		return ps
	}
	t := *s
	t.Best = first.ev
	t.Missing = lacking(qterms, ents, first.terms())
	if len(t.Missing) == 0 {
		return ps
	}
	p, ok := b.Rewriter.lackedQuery(&t)
	if !ok {
		return ps
	}
	if b.Second >= 3 {
		// 3, 4 (measured): the question's frame words (what kind of
		// answer it asks for: "cost", "how fast") after them.
		for _, w := range frame {
			if ts := b.an.Terms(w); len(ts) > 0 && !strings.Contains(" "+p.Query+" ", " "+w+" ") {
				p.Query += " " + w
			}
		}
	}
	p.Strategy, p.Model = StrategySecond, b.Rewriter.Model()
	p.Why = "the entities with what the first chunk lacks: " + p.Why[len("what the best hit lacks: "):]
	key := QueryKey(p.Query, 0)
	if key == QueryKey(s.Request.Query, 0) || slices.ContainsFunc(s.Request.Previous, func(q string) bool { return QueryKey(q, 0) == key }) {
		return ps
	}
	out := []Proposal{p}
	for _, q := range ps {
		if QueryKey(q.Query, q.K) != QueryKey(p.Query, p.K) {
			out = append(out, q)
		}
	}
	return out
}
