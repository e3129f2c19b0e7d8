package assess

// The gate before reach's count (builtin:coverage-v41, Builtin.Gate;
// issue 20, round 38, branch p38-gate).
//
// reach counts which sets of the question's terms (and their thesaurus
// words, and the entities' terms) the visible chunks hold. On RediSearch
// that count cannot tell for some term lists (too many combinations held),
// and the assessor then assumes a chunk that would suffice may exist and
// goes on rewriting, where bleve's exact count decides; most such lists
// at 500,000 chunks would have been hopeless (docs/log/round-37-p37-hold.md
// §2). One hopeless form needs no count: no set passes (holds every
// entity and the most specific term, or a thesaurus word for it) when no
// visible chunk holds the entities' terms together with a term that could
// be some set's most specific one — one existence check.

import (
	"context"
	"slices"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/wire"
)

// V40Model names the builtin assessor without Builtin.Gate:
// builtin:coverage-v40, selectable by turning Gate off.
const V40Model = "builtin:coverage-v40"

// TogetherVocabulary is a HoldingVocabulary that can also tell whether
// some visible chunk passing f holds every term of all and at least one
// term of anyOf (internal/backend/live's adapter: backend.TogetherOf).
type TogetherVocabulary interface {
	HoldingVocabulary
	Together(ctx context.Context, all, anyOf []string, f wire.Filters) (bool, error)
}

// keyTerms are the indices in qterms of the known terms some set reach
// judges may take as its most specific (judge's judged.key): in
// descending weight, the earliest first among equals, each up to the
// first that no set may pass over. judge passes over a term a set lacks
// only when it is left out (dropped: a verb of the question, or with
// Frame a qualifier) or set aside (a term only the circumstances hold),
// so the first term that is neither is the key of every set that holds
// no heavier one, and a set's key is it or a heavier term.
func (r *reading) keyTerms() []int {
	var order []int
	for i, q := range r.qterms {
		if q.known {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch wa, wb := r.qterms[a].weight, r.qterms[b].weight; {
		case wa > wb:
			return -1
		case wa < wb:
			return 1
		}
		return 0
	})
	for n, i := range order {
		t := r.qterms[i].term
		if !r.circ[t] && !r.askedVerbs[t] && !r.sceneVerbs[t] && !r.qualifiers[t] {
			return order[:n+1]
		}
	}
	return order
}

// apart reports whether no set of list (reach's terms) can pass — hold
// every entity and its most specific term, or a thesaurus word for it in
// list — asking hv only whether some visible chunk passing f holds every
// entity's terms with a term of keyTerms or one of their thesaurus words
// in list. A set passes only if its chunk holds all of those entity
// terms (an entity is covered only when every one of its terms is held:
// assumeTogether) and covers its key, one of keyTerms (reach's have
// holds list terms only, so hasKey's named-key exception never applies
// there, and leaving it out can only answer "some" more often); so when
// no chunk does, no set passes, as the full count would find. False (a
// set may pass) when the question names no entity, when an entity has
// no term, or when hv cannot answer the question without counting.
func (r *reading) apart(ctx context.Context, hv HoldingVocabulary, f wire.Filters, related map[string][]synonym, list []string) (bool, error) {
	tv, ok := hv.(TogetherVocabulary)
	if !ok || len(r.ents) == 0 || len(list) > backend.MaxHeld {
		return false, nil
	}
	var all, anyOf []string
	for _, e := range r.ents {
		if len(e.Terms) == 0 {
			return false, nil
		}
		for _, t := range e.Terms {
			if !slices.Contains(all, t) {
				all = append(all, t)
			}
		}
	}
	for _, i := range r.keyTerms() {
		t := r.qterms[i].term
		if !slices.Contains(anyOf, t) {
			anyOf = append(anyOf, t)
		}
		for _, s := range related[t] {
			if slices.Contains(list, s.Term) && !slices.Contains(anyOf, s.Term) {
				anyOf = append(anyOf, s.Term)
			}
		}
	}
	if len(anyOf) == 0 {
		return false, nil
	}
	some, err := tv.Together(ctx, all, anyOf, f)
	return err == nil && !some, err
}
