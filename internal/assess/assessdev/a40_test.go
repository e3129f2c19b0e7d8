package assessdev

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/eval/devsets"
	"github.com/assay-rag/assay/internal/retrieval"
)

// TestA40Dump (round 40, a40-acc) is TestA35Classify with each chunk's
// place in its attempt: for every question of the sets SKIP_SETS does not
// name that the loop refuses, each hit of each attempt judged alone (A: a
// relevant document's chunk of an answerable question; N: any chunk of a
// no-answer question). ASSESSDEV_OUT receives: group, set, id, attempt,
// rank, retrieval score, the attempt's top retrieval score, document,
// accepted, score, coverage, typed, key held, entities, fit, terms.
func TestA40Dump(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	ctx := context.Background()
	var out []string
	for _, a := range qs {
		l := loop(t, b, a)
		if l.accepted {
			continue
		}
		for i, q := range l.queries {
			ev, chunkDoc := a.req.Evidence, a.chunkDoc
			if i > 0 {
				found := devsets.Search(t, devDirect, retrieval.Request{Query: q, Groups: a.req.Groups, Filters: a.req.Filters, K: 5})
				ev, chunkDoc = found.Evidence, map[string]string{}
				for _, c := range found.Chunks {
					chunkDoc[c.ID] = c.DocID
				}
			}
			top := 0.0
			if len(ev) > 0 {
				top = ev[0].Score
			}
			for rank, e := range ev {
				doc := chunkDoc[e.ChunkID]
				group := "N"
				if a.answerable {
					if !slices.Contains(a.q.Relevant, doc) {
						continue
					}
					group = "A"
				}
				res, lack := aloneLack(ctx, t, b, a, e)
				acc := res.Assessment.Sufficient && res.Assessment.Score >= threshold
				line := fmt.Sprintf("%s\t%s\t%s\t%d\t%d\t%.3f\t%.3f\t%s\t%v\t%.2f", group, a.set, a.id, i+1, rank+1, e.Score, top, doc, acc, res.Assessment.Score)
				out = append(out, line+lack)
			}
		}
	}
	writeOut(t, out)
	t.Logf("%d chunks judged alone", len(out))
}

// TestAgree (round 40, a40-acc) replays builtin:coverage-v44's Agree
// against v43 (Agree 0) for each value of AGREE (default 6035): on the
// design sets per question and set, on the other development sets but
// fresh38 in total unless DESIGN_ONLY is set, both ways (the first
// attempt cannot move: Agree reads only attempts after the first).
func TestAgree(t *testing.T) {
	b, qs := collect(t)
	all := sets
	keep, keepSecond := b.Agree, b.Second
	t.Cleanup(func() { sets = all; b.Agree, b.Second = keep, keepSecond })
	design, other := designAndOther(qs)
	for part := range parts(all, design, other) {
		b.Agree, b.Second = 0, 0
		base, baseLines := judgeLoop(t, b, part.qs)
		total := fmt.Sprintf("v43 %s", training(base, ""))
		for _, n := range envInts("AGREE", 6035) {
			// round 41: the hundred-thousands digit is Second; round 42:
			// the millions digit is Agree's hundred-thousands (agreeAsked)
			// round 43: the ten-millions digit is Agree's millions (agreeHead),
			// the hundred-millions its ten-millions (agreePronoun)
			b.Agree, b.Second = n%100000+n/1000000%10*100000+n/10000000*1000000, n/100000%10
			sc, lines := judgeLoop(t, b, part.qs)
			name := fmt.Sprintf("agree%d", n)
			if part.lines {
				logChanges(t, "loop: "+name+" (against v43)", lines, baseLines)
				for _, s := range sets {
					if *sc[s] != *base[s] {
						t.Logf("loop %-8s v43 %s | %s %s", s, base[s], name, sc[s])
					}
				}
			} else {
				for _, s := range sets {
					if sc[s].right-base[s].right < base[s].refused-sc[s].refused {
						t.Logf("loop %s: a set whose refusal falls more than its right rises", name)
					}
				}
			}
			total += fmt.Sprintf(" | %s %s", name, training(sc, ""))
		}
		b.Agree, b.Second = keep, keepSecond
		t.Logf("%s loop total: %s", part.name, total)
	}
}
