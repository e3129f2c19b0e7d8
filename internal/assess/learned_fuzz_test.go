package assess

import (
	"context"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// learnedFuzzChunks are the chunks FuzzLearned judges a question over:
// the fuzzed chunk (title and text), TestLearned's receipt page, and
// degenerate ones: empty, a title alone, one word, one long run-on
// sentence and a page of many sentences.
func learnedFuzzChunks(title, text string) []Evidence {
	return []Evidence{
		{ChunkID: "fuzz#0", Title: title, Text: text, Score: 3},
		{ChunkID: "receipt#0", Title: "Proof of purchase", Text: "The receipt shows the date of purchase, the shop, the kettle model and its colour.", Score: 2},
		{ChunkID: "empty#0", Score: 0},
		{ChunkID: "title#0", Title: "Kettle"},
		{ChunkID: "word#0", Text: "kettle", Score: math.SmallestNonzeroFloat64},
		{ChunkID: "long#0", Title: "Sale", Text: strings.Repeat("the kettle shop sale date colour model ", 400), Score: 1e300},
		{ChunkID: "many#0", Text: strings.Repeat("Kettles bought show a tag. ", 300), Score: 1},
	}
}

// learnedFuzzSeeds: questions the learned add scores (TestLearned's) and
// odd ones: empty, punctuation, unicode, one word, a long repetition.
var learnedFuzzSeeds = []struct {
	q, title, text string
	n              byte
}{
	{"what slip shows the date, shop, model and colour of the kettle I bought", "Proof of purchase", "The receipt shows the date of purchase.", 0},
	{"what slip shows the date, shop, model and colour of the kettle I bought", "Proof of purchase", "The receipt shows the date of purchase, the shop, the kettle model and its colour.", 8},
	{"", "", "", 0},
	{"?", "?", "?", 6},
	{"kettle", "", "kettle", 0},
	{"kettle kettle kettle kettle kettle kettle kettle kettle", "Kettle", strings.Repeat("kettle ", 1000), 7},
	{"¿qué recibo muestra la fecha? 日本語", "日本語", "ÄÖÜ ß", 0},
	{"how do I descale the K50 kettle", "K50 kettle", "Descale the K50 with citric acid.", 12},
	{"is the X300 Pro motor covered, and for how many years?", "", "\n\n\n", 7},
	{"what colour is it", "Colour chart", "Red. Blue. 3 colours: red, blue and £19.20.", 15},
}

// FuzzLearned (rv47): the default assessor, the learned add on (and
// OwnOrder off, n&8), judges any question over any chunk with the first
// n%8 of its degenerate neighbours without an
// error or a panic; its assessment passes Check, its score is a number
// in [0, 1]; the learned add's reason names the accepted chunk's own
// title; every feature is finite; a second call gives the same verdict
// and, with OwnOrder (the assessor's own order, not the retrieval's),
// the chunks in reverse order the same features.
func FuzzLearned(f *testing.F) {
	for _, s := range learnedFuzzSeeds {
		f.Add(s.q, s.title, s.text, s.n)
	}
	an := terms.New()
	lex := newLexicon(an, "Sale tags\nKettles bought in the shop sale show a red tag with the sale date.",
		"Proof of purchase\nThe receipt shows the date of purchase, the shop, the kettle model and its colour.",
		"X300 Pro blender receipt", "K50 kettle", "repair date", "the lights show", "shop opening hours", "colour chart", "model numbers")
	own := NewBuiltin(an, lex)
	own.Rewriter = NewRewriter(an, lex)
	plain := NewBuiltin(an, lex)
	plain.Rewriter = own.Rewriter
	plain.OwnOrder = false // TestLearned's
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, q, title, text string, n byte) {
		if len(q) > 2000 || len(text) > 20000 {
			return
		}
		ev := learnedFuzzChunks(title, text)
		ev = ev[:1+int(n%8)%len(ev)]
		b := own
		if n&8 != 0 {
			b = plain
		}
		req := Request{Question: q, Query: q, K: len(ev), Evidence: ev, Groups: []string{"public"}}
		res, err := b.Assess(ctx, req)
		if err != nil {
			t.Fatalf("%.60q: %v", q, err)
		}
		if err := res.Assessment.Check(); err != nil {
			t.Errorf("%.60q: %v", q, err)
		}
		if s := res.Assessment.Score; math.IsNaN(s) || s < 0 || s > 1 {
			t.Errorf("%.60q: score %v", q, s)
		}
		if strings.Contains(res.Assessment.Reason, "a model fitted on the development sets") {
			if len(res.Accepted) != 1 {
				t.Fatalf("%.60q: the learned add accepts %v", q, res.Accepted)
			}
			i := slices.IndexFunc(ev, func(e Evidence) bool { return e.ChunkID == res.Accepted[0] })
			if i < 0 {
				t.Fatalf("%.60q: the learned add accepts %v, no chunk given", q, res.Accepted)
			}
			if name := quotedSpans(res.Assessment.Reason); ev[i].Title != "" && (len(name) == 0 || name[0] != ev[i].Title) && !strings.HasSuffix(res.Assessment.Reason, "...") {
				t.Errorf("%.60q: the learned add's reason %q does not open with the accepted chunk's title %q", q, res.Assessment.Reason, ev[i].Title)
			}
		}
		again, err := b.Assess(ctx, req)
		if err != nil || !reflect.DeepEqual(again, res) {
			t.Errorf("%.60q: a second call: %+v (%v), first %+v", q, again.Assessment, err, res.Assessment)
		}
		_, cands, err := b.Candidates(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cands {
			if len(c.Features) != len(featureNames) {
				t.Fatalf("%.60q: %s has %d features", q, c.ChunkID, len(c.Features))
			}
			for k, x := range c.Features {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Errorf("%.60q: %s: %s is %v", q, c.ChunkID, featureNames[k], x)
				}
			}
		}
		if !b.OwnOrder {
			return // the assessor's order is the retrieval's: the features read it
		}
		rev := req
		rev.Evidence = slices.Clone(ev)
		slices.Reverse(rev.Evidence)
		_, rcands, err := b.Candidates(ctx, rev)
		if err != nil {
			t.Fatal(err)
		}
		byID := func(cs []Candidate) map[string]Candidate {
			m := map[string]Candidate{}
			for _, c := range cs {
				m[c.ChunkID] = c
			}
			return m
		}
		if !reflect.DeepEqual(byID(cands), byID(rcands)) {
			for _, c := range cands {
				r := byID(rcands)[c.ChunkID]
				for k := range c.Features {
					if k < len(r.Features) && c.Features[k] != r.Features[k] {
						t.Errorf("%.60q: %s: %s is %v, %v with the chunks reversed", q, c.ChunkID, featureNames[k], c.Features[k], r.Features[k])
					}
				}
				if c.Hopeless != r.Hopeless {
					t.Errorf("%.60q: %s: hopeless %d, %d reversed", q, c.ChunkID, c.Hopeless, r.Hopeless)
				}
			}
		}
	})
}
