package assess

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Expanded (builtin:coverage-v39, Builtin.Expanded, bits): on an attempt
// whose search the worker expanded (loop.expand, Builtin.ExpandedSearch),
// a question word is covered by a chunk holding one of the relatives
// Expand added beside it (expandCredit), as a rewritten attempt's query
// credits translate's substitutes (see substitutes): the search looked
// for the question's word in those words, so the evidence is judged in
// them too; with expandOrder the assessor's own order (OwnOrder) reads the
// evidence by the query the search ran, not the query as sent. Expand
// reads only the asker's visible vocabulary, so what is credited depends
// on what the caller may see alone. Off, or without a thesaurus, or when
// the worker's searches do not expand, the attempt is judged as before.
const (
	expandCredit = 1 << iota
	expandOrder
)

// searched is what the worker's search added to req.Query, word by word
// (Expand's expansion: Builtin.Expanded with ExpandedSearch and a
// thesaurus); nil when the search ran req.Query as it is.
func (b *Builtin) searched(ctx context.Context, req Request) []expanded {
	if b.Expanded == 0 || !b.ExpandedSearch || b.Thesaurus == nil {
		return nil
	}
	return b.expansion(ctx, req.Query, req.Groups)
}

// searchedQuery is the query the search ran: query with what searched
// added.
func searchedQuery(query string, searched []expanded) string {
	for _, e := range searched {
		for _, s := range e.syns {
			query += " " + s.Word
		}
	}
	return query
}

// expandedSubs is, for each question term, the relatives the search
// added beside that very word (a query word the question holds), less
// those the query itself carries (a rewrite's substitutes, subs) and
// those the question holds: what the expansion alone credits. Nil when
// the search was not expanded or Expanded does not credit.
func (b *Builtin) expandedSubs(question string, searched []expanded, subs map[string][]string) map[string][]string {
	if len(searched) == 0 || b.Expanded&expandCredit == 0 {
		return nil
	}
	inQuestion := b.an.Set(question)
	out := map[string][]string{}
	for _, e := range searched { // a word only a rewrite has is no question term: never read
		for _, s := range e.syns {
			if !inQuestion[s.Term] && !slices.Contains(subs[e.term], s.Term) {
				out[e.term] = append(out[e.term], s.Term)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// withSubs is subs with more's words added, a new map; subs when more is
// empty.
func withSubs(subs, more map[string][]string) map[string][]string {
	if len(more) == 0 {
		return subs
	}
	out := maps.Clone(subs)
	if out == nil {
		out = map[string][]string{}
	}
	for t, ss := range more {
		out[t] = append(slices.Clone(out[t]), ss...)
	}
	return out
}

// expandCredited names, for the reason of an accepted chunk holding have,
// the question words it holds only as a relative the expanded search
// added (`; "lumps" held as "chunks" (WordNet, added to the search)`), or
// "" when none.
func (b *Builtin) expandCredited(question string, qterms []weighted, have map[string]bool, esubs map[string][]string, searched []expanded) string {
	if len(esubs) == 0 || have == nil {
		return ""
	}
	var out []string
	for _, q := range qterms {
		if have[q.term] {
			continue
		}
		for _, s := range esubs[q.term] {
			if !have[s] {
				continue
			}
			word := s
			for _, e := range searched {
				if i := slices.IndexFunc(e.syns, func(y synonym) bool { return y.Term == s }); e.term == q.term && i >= 0 {
					word = e.syns[i].Word
				}
			}
			out = append(out, fmt.Sprintf("%q held as %q", wordFor(b.an, question, q.term), word))
			break
		}
	}
	if len(out) == 0 {
		return ""
	}
	name := "the thesaurus"
	if b.Thesaurus != nil {
		name = b.Thesaurus.Name()
	}
	return "; " + strings.Join(out, ", ") + " (" + name + ", added to the search)"
}
