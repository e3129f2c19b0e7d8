package assessdev

import (
	"math"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/terms"
)

type cand struct {
	askCov   float64 // known asking weight held
	entities bool
	typed    bool
	expr     string
}

// focusJudge scores one chunk the experimental way.
func focusJudge(an *terms.Analyzer, vocab assess.Vocabulary, question, title, text string) cand {
	asked := answertype.Classify(question)
	frame := an.Set(strings.Join(asked.Frame, " "))
	askText := answertype.Asking(question)
	ents := assess.Entities(an, question, vocab)
	askEnts := assess.Entities(an, askText, vocab)
	have := assess.Mentions(an, title, text)
	n := float64(vocab.Len())
	var tot, got float64
	var topic []string
	for _, t := range an.Content(askText) {
		if frame[t] || terms.IsQuestionWord(t) {
			continue
		}
		df := vocab.DocFreq(t)
		if df == 0 {
			continue
		}
		w := math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
		tot += w
		if have[t] {
			got += w
		}
		topic = append(topic, t)
	}
	c := cand{entities: true}
	if tot > 0 {
		c.askCov = got / tot
	}
	for _, e := range ents {
		inAsk := slices.ContainsFunc(askEnts, func(a assess.Entity) bool { return a.Text == e.Text })
		if !e.CoveredBy(have) && (inAsk || vocab.DocFreq(e.Terms[0]) > 0) {
			c.entities = false
		}
	}
	if asked.Type == answertype.Description {
		c.typed = true
		return c
	}
	sents := citation.Sentences(text)
	on := make([]bool, len(sents))
	for i, s := range sents {
		h := an.Set(s)
		for _, t := range topic {
			on[i] = on[i] || h[t]
		}
		for _, e := range ents {
			on[i] = on[i] || slices.ContainsFunc(e.Terms, func(t string) bool { return h[t] })
		}
	}
	for i := range sents {
		if !on[i] {
			continue
		}
		for _, j := range []int{i, i - 1, i + 1} {
			if j < 0 || j >= len(sents) {
				continue
			}
			if ex := asked.Find(sents[j]); len(ex) > 0 {
				c.typed, c.expr = true, ex[0]
				return c
			}
		}
	}
	return c
}
