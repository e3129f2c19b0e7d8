package assess

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/wire"
)

// V55Model names the builtin assessor without Builtin.Covered:
// builtin:coverage-v55, kept selectable.
const V55Model = "builtin:coverage-v55"

// covered is Builtin.Covered's reading (builtin:coverage-v56, round 46's
// a46-yesno): a yes/no question whether a warranty or guarantee covers
// something ("will Hollin replace it for nothing under the guarantee?",
// "if I run my kettle through a voltage converter is it still under
// warranty?") is decided by a retrieved chunk's statement of what the
// cover takes in or leaves out ("It does not cover blade wear, cracked
// jars, limescale damage or accidental damage", "Using one with a
// voltage converter abroad is not covered by the warranty") when that
// statement names a thing of the question's scene. The coverage rules
// and Ruled refused them: the question's scene ("knocked off the
// worktop", "moving to the States") is told in words no cover statement
// holds, so the page covers under half of the question's weight.
//
// Covered reads, for a yes/no question (answertype.YesNo) asking of cover
// (a word of coverAsk: "warranty", "guarantee", "cover", "free"), the
// question's scene words: its known content words other than the words
// of cost and cover, generic words and its entities' words. A chunk among
// the first coveredRank+1 retrieved decides the question when
//
//  1. it names every entity of the question, a place name credited by
//     the kind of place the documents name (placed: "the States" for
//     "abroad");
//  2. one of its sentences states cover (reCoverStatement: "is not
//     covered", "are covered", "does not cover", "covers", "excludes");
//  3. that sentence names a scene word of the question: its term, a
//     thesaurus relative or a narrower word (namings), or a compound
//     ending in it ("limescale" for "scale");
//  4. the chunk covers coveredCoverage of the weight of the scene words.
//
// A question about a thing no cover statement names stays refused. The
// statement's own subject ("The warranty") is a word of cover, not of the
// scene, and decides nothing.
func (b *Builtin) covered(ctx context.Context, req Request, vocab Vocabulary, question string) (Result, bool, error) {
	if req.part {
		return Result{}, false, nil
	}
	cr, ok := b.coverReading(question, vocab)
	if !ok {
		return Result{}, false, nil
	}
	f, ok := b.coverFound(req, cr, coveredRank, coveredCoverage, -1)
	if !ok {
		return Result{}, false, nil
	}
	return b.coverResult(req, f), true, nil
}

// coverResult is Covered's acceptance of the chunk f found.
func (b *Builtin) coverResult(req Request, f coverFind) Result {
	ev := req.Evidence[f.at]
	reason := fmt.Sprintf("the question asks whether the cover takes something in, and %q covers %.0f%% of the weight of its words your documents use and states what the cover takes in or leaves out about %q: %q",
		ev.Title, 100*f.cov, f.thing, f.said)
	reason = clipReason(reason)
	return Result{
		Usage:      wire.Spent{Model: b.Model()},
		Assessment: Assessment{Sufficient: true, Score: math.Round(max(f.cov, b.MinCoverage)*1000) / 1000, Reason: reason},
		Accepted:   []string{ev.ChunkID},
	}
}

// coverQuestion is a yes/no question of cover as Covered reads it.
type coverQuestion struct {
	ents   []Entity
	placed map[int][]string
	scene  []weighted        // the scene words' terms and weights
	names  []map[string]bool // the terms a document may name each by
	raw    map[string]string // a scene term's word as the question writes it
	total  float64
}

// coverReading reads question as Covered does; false when it is no yes/no
// question of cover or has no scene word the documents use.
func (b *Builtin) coverReading(question string, vocab Vocabulary) (coverQuestion, bool) {
	asked, frame, ents := b.readQuestion(question, vocab)
	if asked.Type != answertype.YesNo {
		return coverQuestion{}, false
	}
	// A word of cover asks of cover, but "warranty" or "guarantee" before
	// a noun names a kind of thing ("a warranty repair"), as in Ruled.
	askCover := false
	fields := strings.Fields(question)
	for i, raw := range fields {
		if w := strings.ToLower(trimMarks(raw)); !coverAsk[w] || w == "free" && b.Review&reviewFree != 0 {
			continue // review.go: "is it free to fix?" asks of cost
		}
		if b.kindBefore(fields, i) {
			continue
		}
		askCover = true
	}
	if !askCover {
		return coverQuestion{}, false
	}
	costTerms := b.costTerms()
	generic := b.genericTerms()
	inEntity := entityTerms(ents)
	cq := coverQuestion{ents: ents, raw: map[string]string{}}
	for _, f := range fields {
		w := strings.ToLower(trimMarks(f))
		if ts := b.an.Terms(w); len(ts) == 1 {
			if _, ok := cq.raw[ts[0]]; !ok {
				cq.raw[ts[0]] = w
			}
		}
	}
	for _, q := range b.weigh(question, vocab, frame) {
		if !q.known || costTerms[q.term] || generic[q.term] || inEntity[q.term] || len([]rune(q.term)) < 3 {
			continue
		}
		cq.scene = append(cq.scene, q)
		cq.total += q.weight
	}
	if cq.total == 0 {
		return coverQuestion{}, false
	}
	cq.names = make([]map[string]bool, len(cq.scene))
	for i, q := range cq.scene {
		cq.names[i] = map[string]bool{q.term: true}
		if raw, ok := cq.raw[q.term]; ok && b.Thesaurus != nil {
			for t := range b.namings(raw, 'n') {
				cq.names[i][t] = true
			}
		}
	}
	cq.placed = b.placed(question, ents, vocab)
	return cq, true
}

// coverSaid is text's cover statement naming the weightiest scene word of
// cq, and that word; false when none does.
func (b *Builtin) coverSaid(text string, cq coverQuestion) (thing, said string, ok bool) {
	best := 0.0
	for _, s := range citation.Sentences(text) {
		if !b.coverStatement(s) { // review.go
			continue
		}
		st := b.an.Set(s)
		for j, q := range cq.scene {
			if q.weight > best && (anyIn(cq.names[j], st) || compoundOf(st, q.term) ||
				b.Review&reviewCompound != 0 && b.compoundWritten(s, cq.raw[q.term], q.term)) {
				thing, said, best = cq.raw[q.term], s, q.weight
				if thing == "" {
					thing = q.term
				}
			}
		}
	}
	return thing, said, said != ""
}

// coverFind is a chunk Covered takes: its rank, the scene word its cover
// statement names, the statement and the chunk's coverage.
type coverFind struct {
	at          int
	thing, said string
	cov         float64
}

// coverFound is the first chunk among req's first rank+1 (only the one at
// at when at is 0 or more) that names every entity of cq, covers coverage
// of its scene words' weight and states cover about one of them.
func (b *Builtin) coverFound(req Request, cq coverQuestion, rank int, coverage float64, at int) (coverFind, bool) {
	for i, ev := range req.Evidence {
		if i > rank {
			break
		}
		if at >= 0 && i != at {
			continue
		}
		if !allCovered(cq.ents, withPlaces(Mentions(b.an, ev.Title, ev.Text), cq.ents, cq.placed)) {
			continue
		}
		have := b.an.Set(ev.Title + " " + ev.Text)
		var got float64
		for j, q := range cq.scene {
			if anyIn(cq.names[j], have) {
				got += q.weight
			}
		}
		cov := got / cq.total
		if cov < coverage {
			continue
		}
		if thing, said, ok := b.coverSaid(ev.Text, cq); ok {
			return coverFind{at: i, thing: thing, said: said, cov: cov}, true
		}
	}
	return coverFind{}, false
}

// coveredCoverage is the share of the weight of a question's scene words a
// chunk must cover for Covered.
const coveredCoverage = 0.3

// coverAsk are the words of a question asking of cover.
// The noun "cover" is left out: "the motor cover", "the cover
// information" name a thing, not the cover asked of.
var coverAsk = wordSet("warranty", "guarantee", "guaranteed", "covered", "covers", "free")

// reCoverStatement is a sentence stating what a cover takes in or leaves
// out.
var reCoverStatement = regexp.MustCompile(`(?i)\b(?:(?:is|are|be)\s+(?:not\s+)?covered|(?:does|do)\s+not\s+cover|covers|excludes?|excluded|voids?)\b`)

// compoundOf reports whether set holds a compound ending in term
// ("limescale" for "scale"): a term of at least four letters closing a
// longer term.
func compoundOf(set map[string]bool, term string) bool {
	if len(term) < 4 {
		return false
	}
	for t := range set {
		if len(t) > len(term)+2 && strings.HasSuffix(t, term) {
			return true
		}
	}
	return false
}

// coveredRank is the last rank (0 the first) Covered reads.
const coveredRank = 2
