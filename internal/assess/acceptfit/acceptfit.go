// Package acceptfit fits the builtin assessor's acceptance model
// (assess.Acceptance, builtin:coverage-v8) on labelled question sets, and
// measures it by leave-one-set-out cross-validation.
//
// The examples are what the assessor sees on a run's first attempt: each
// question of a set is searched as its principal (its groups) with the
// service's retriever over the Hollin corpus (top 5, the loop's default),
// and every candidate of assess.Builtin.Candidates over the hits is one
// example, labelled positive when its first chunk belongs to a document
// labelled relevant to the question; every candidate of a question the
// corpus cannot answer is negative. Only candidates that name every entity
// of the question whole are fitted on: the others are never accepted (a
// safety rule, not a learned one).
//
// Fit is a logistic regression with an L2 penalty on the weights (not the
// bias), solved by Newton's method for a fixed number of steps: the same
// examples give the same weights. The decision threshold is then chosen
// for no-answer refusal first: strictly above the best candidate of every
// no-answer question of the training sets, halfway (in log-odds) to the
// next answerable question's best candidate, and folded into the bias.
package acceptfit

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"sort"

	"github.com/assay-rag/assay/config"
	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
)

// K is how many hits each question's first attempt retrieves (the loop's
// default top_k).
const K = 5

// Lambda is the L2 penalty on the weights.
const Lambda = 1.0

// newtonSteps is how many Newton steps Fit takes.
const newtonSteps = 40

// Set is one labelled question set.
type Set struct {
	Name string
	Path string
}

// Example is one candidate with its label.
type Example struct {
	Features []float64
	Positive bool
}

// Question is one question's candidates, as the assessor saw them.
type Question struct {
	Set, ID string
	// Answerable: the question has relevant documents.
	Answerable bool
	// Retrieved: a relevant document is among the hits.
	Retrieved bool
	// Candidates are those that name every entity whole; Rule is whether
	// builtin:coverage-v7's rules found the evidence sufficient.
	Candidates []Example
	Rule       bool
}

type corpusOf struct{ backend.Index }

func (c corpusOf) Visible(groups []string) assess.Vocabulary { return c.Index.Visible(groups) }

// Collect builds the corpus at corpusPath into dir with the default
// configuration, searches every question of sets as its principal, and
// returns each question's candidates.
func Collect(ctx context.Context, corpusPath, dir string, sets []Set, th assess.Thesaurus) ([]Question, error) {
	cfg := config.Default()
	cfg.DataDir = dir
	cfg.Index.Corpus = corpusPath
	d, err := live.OpenDirect(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), true)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	an := terms.New()
	b := assess.NewBuiltin(an, corpusOf{d.Index})
	b.Rewriter = assess.NewRewriter(an, corpusOf{d.Index}) // spelling, as the service judges
	if th != nil {
		b.Thesaurus = th
	}
	rules := assess.NewBuiltin(an, corpusOf{d.Index})
	rules.Rewriter = b.Rewriter
	rules.Accept = nil
	var out []Question
	for _, s := range sets {
		qs, err := eval.LoadQuestions(s.Path)
		if err != nil {
			return nil, err
		}
		for _, q := range qs {
			groups := q.Groups
			if len(groups) == 0 {
				groups = []string{"public"}
			}
			res, err := d.Retriever.Search(ctx, retrieval.Request{Query: q.Question, Groups: groups, K: K})
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", s.Name, q.ID, err)
			}
			var ids []string
			for _, h := range res.Hits {
				ids = append(ids, h.ChunkID)
			}
			chunks, err := d.Index.Chunks(ctx, ids)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", s.Name, q.ID, err)
			}
			doc := map[string]string{}
			req := assess.Request{Question: q.Question, Query: q.Question, Groups: groups, K: K}
			qq := Question{Set: s.Name, ID: q.ID, Answerable: len(q.Relevant) > 0}
			for i, c := range chunks {
				doc[c.ID] = c.DocID
				req.Evidence = append(req.Evidence, assess.Evidence{ChunkID: c.ID, Title: c.Title, Text: c.Text, Score: res.Hits[i].Score})
				qq.Retrieved = qq.Retrieved || slices.Contains(q.Relevant, c.DocID)
			}
			for _, c := range b.Candidates(req) {
				if c.Entities {
					qq.Candidates = append(qq.Candidates, Example{Features: c.Features, Positive: slices.Contains(q.Relevant, doc[c.ChunkIDs[0]])})
				}
			}
			r, err := rules.Assess(ctx, req)
			if err != nil {
				return nil, err
			}
			qq.Rule = r.Assessment.Sufficient && r.Assessment.Score >= 0.5
			out = append(out, qq)
		}
	}
	return out, nil
}

// Model is a fitted logistic regression and its decision threshold (in
// log-odds).
type Model struct {
	Weights   []float64
	Bias      float64
	Threshold float64
}

func (m Model) logit(x []float64) float64 {
	z := m.Bias
	for i, w := range m.Weights {
		z += w * x[i]
	}
	return z
}

// best is the highest log-odds of q's candidates, and whether that
// candidate is positive; ok is false when q has none.
func (m Model) best(q Question) (z float64, positive, ok bool) {
	for _, c := range q.Candidates {
		if v := m.logit(c.Features); !ok || v > z {
			z, positive, ok = v, c.Positive, true
		}
	}
	return z, positive, ok
}

// Fit fits a model on qs (see the package comment).
func Fit(qs []Question) Model {
	n := len(assess.FeatureNames)
	var xs [][]float64
	var ys []float64
	for _, q := range qs {
		for _, c := range q.Candidates {
			xs = append(xs, append([]float64{1}, c.Features...))
			y := 0.0
			if c.Positive {
				y = 1
			}
			ys = append(ys, y)
		}
	}
	d := n + 1
	beta := make([]float64, d)
	for range newtonSteps {
		grad := make([]float64, d)
		hess := make([][]float64, d)
		for i := range hess {
			hess[i] = make([]float64, d)
		}
		for k, x := range xs {
			z := 0.0
			for i := range d {
				z += beta[i] * x[i]
			}
			p := 1 / (1 + math.Exp(-z))
			for i := range d {
				grad[i] += (p - ys[k]) * x[i]
				for j := range d {
					hess[i][j] += p * (1 - p) * x[i] * x[j]
				}
			}
		}
		for i := 1; i < d; i++ {
			grad[i] += Lambda * beta[i]
			hess[i][i] += Lambda
		}
		hess[0][0] += 1e-9
		step := solve(hess, grad)
		for i := range d {
			beta[i] -= step[i]
		}
	}
	m := Model{Bias: beta[0], Weights: beta[1:]}
	// The threshold: above every no-answer question's best candidate,
	// halfway to the next answerable question's best.
	noAnswer := math.Inf(-1)
	var answerable []float64
	for _, q := range qs {
		z, _, ok := m.best(q)
		if !ok {
			continue
		}
		if q.Answerable {
			answerable = append(answerable, z)
		} else {
			noAnswer = max(noAnswer, z)
		}
	}
	sort.Float64s(answerable)
	m.Threshold = noAnswer + 0.5
	for _, z := range answerable {
		if z > noAnswer {
			m.Threshold = (noAnswer + z) / 2
			break
		}
	}
	if math.IsInf(noAnswer, -1) {
		m.Threshold = 0
	}
	return m
}

// solve solves a x = b by Gaussian elimination with partial pivoting.
func solve(a [][]float64, b []float64) []float64 {
	n := len(b)
	m := make([][]float64, n)
	for i := range a {
		m[i] = append(append([]float64{}, a[i]...), b[i])
	}
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		m[c], m[p] = m[p], m[c]
		for r := c + 1; r < n; r++ {
			f := m[r][c] / m[c][c]
			for k := c; k <= n; k++ {
				m[r][k] -= f * m[c][k]
			}
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := m[r][n]
		for k := r + 1; k < n; k++ {
			s -= m[r][k] * x[k]
		}
		x[r] = s / m[r][r]
	}
	return x
}

// Score is how a decision rule does on some questions, first attempt
// only: answerable questions accepted with a relevant document retrieved
// (Right) and with the accepted candidate itself relevant (Picked), and
// no-answer questions refused.
type Score struct {
	Right, Picked, Answerable, Refused, NoAnswer int
}

func (s Score) String() string {
	return fmt.Sprintf("right %d/%d (picked %d), refusal %d/%d", s.Right, s.Answerable, s.Picked, s.Refused, s.NoAnswer)
}

// Accepts reports whether m accepts q, and whether the candidate it
// accepts is positive.
func (m Model) Accepts(q Question) (accepted, positive bool) {
	z, pos, ok := m.best(q)
	return ok && z >= m.Threshold, pos
}

// Evaluate scores m on qs.
func Evaluate(m Model, qs []Question) Score {
	var s Score
	for _, q := range qs {
		acc, pos := m.Accepts(q)
		if q.Answerable {
			s.Answerable++
			if acc && q.Retrieved {
				s.Right++
			}
			if acc && pos {
				s.Picked++
			}
		} else {
			s.NoAnswer++
			if !acc {
				s.Refused++
			}
		}
	}
	return s
}

// EvaluateRules scores builtin:coverage-v7's rules on qs the same way
// (Picked is not known for them: 0).
func EvaluateRules(qs []Question) Score {
	var s Score
	for _, q := range qs {
		if q.Answerable {
			s.Answerable++
			if q.Rule && q.Retrieved {
				s.Right++
			}
		} else {
			s.NoAnswer++
			if !q.Rule {
				s.Refused++
			}
		}
	}
	return s
}

// Acceptance turns m into the assessor's model, its threshold folded
// into the bias.
func (m Model) Acceptance(fitted string) assess.Acceptance {
	return assess.Acceptance{
		Model:     "builtin:coverage-v8",
		Features:  slices.Clone(assess.FeatureNames),
		Weights:   slices.Clone(m.Weights),
		Bias:      m.Bias - m.Threshold,
		Threshold: 1 / (1 + math.Exp(-m.Threshold)),
		Fitted:    fitted,
	}
}

// AtRefusal is m with its threshold lowered to just above the best
// candidate of the misses+1'th highest no-answer question of qs (misses
// no-answer questions then accepted): how much right source a refusal
// lost would buy.
func AtRefusal(m Model, qs []Question, misses int) Model {
	var zs []float64
	for _, q := range qs {
		if z, _, ok := m.best(q); ok && !q.Answerable {
			zs = append(zs, z)
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(zs)))
	if misses < len(zs) {
		m.Threshold = zs[misses] + 1e-9
	} else {
		m.Threshold = math.Inf(-1)
	}
	return m
}
