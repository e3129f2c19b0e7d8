package assess

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/router"
)

// RewriteModel names the builtin rewriter.
const RewriteModel = router.BuiltinRewriteModel

// Lexicon is the index vocabulary the rewriter corrects against.
type Lexicon interface {
	Corpus
	// EachTerm calls fn for every analyzed term of the whole index. The
	// rewriter takes its spelling candidates from it and keeps only those
	// the principal's vocabulary has.
	EachTerm(fn func(term string, df int))
}

// Rewriter proposes a new query when evidence is weak, without a model:
//
//  1. spelling: a question word whose term the index has never seen is
//     replaced by the closest index term (edit distance 1, or 2 for words
//     of eight letters or more; four-letter words only by an inserted,
//     dropped or swapped letter; words of up to five letters never
//     shrink; words with digits, like model codes, are never touched);
//  2. pseudo-relevance feedback, on the first attempt only and only when
//     the evidence partly covers the question: up to two terms that most
//     of the top chunks share are added to the query.
//
// When neither applies it proposes nothing, and the loop stops with
// insufficient_context: the evidence is weak and no rewrite is worth trying.
type Rewriter struct {
	an    *terms.Analyzer
	lex   Lexicon
	index map[int][]string // term length → terms, for spelling candidates
}

// NewRewriter builds a rewriter over the index vocabulary.
func NewRewriter(an *terms.Analyzer, lex Lexicon) *Rewriter {
	r := &Rewriter{an: an, lex: lex, index: map[int][]string{}}
	lex.EachTerm(func(t string, _ int) {
		n := len([]rune(t))
		r.index[n] = append(r.index[n], t)
	})
	for _, list := range r.index {
		sort.Strings(list) // EachTerm's order may vary; corrections must not
	}
	return r
}

// Rewrite returns a new query for req, or "" when none is worth trying.
// coverage is the assessor's best coverage of the question. It uses only
// words of documents req.Groups can see.
func (r *Rewriter) Rewrite(req Request, coverage float64) (query, why string) {
	return r.rewrite(req, coverage, r.lex.Visible(req.Groups))
}

func (r *Rewriter) rewrite(req Request, coverage float64, vocab Vocabulary) (query, why string) {
	if q, fixed := r.Spell(req.Query, vocab); len(fixed) > 0 && !seen(req, q) {
		return q, "spelling: " + strings.Join(fixed, ", ")
	}
	if len(req.Previous) == 0 && coverage >= prfMinCoverage && coverage < 1 {
		if extra := r.feedbackTerms(req, vocab); len(extra) > 0 {
			q := req.Query + " " + strings.Join(extra, " ")
			if !seen(req, q) {
				return q, "feedback terms from the top chunks: " + strings.Join(extra, ", ")
			}
		}
	}
	return "", ""
}

// Spell corrects the words of text that vocab has never seen (see
// Rewriter) into words it has, and lists the corrections as "typed→term".
func (r *Rewriter) Spell(text string, vocab Vocabulary) (string, []string) {
	words := strings.Fields(text)
	var fixed []string
	for i, w := range words {
		if c, ok := r.correct(w, vocab); ok {
			fixed = append(fixed, w+"→"+c)
			words[i] = c
		}
	}
	if len(fixed) == 0 {
		return text, nil
	}
	return strings.Join(words, " "), fixed
}

// prfMinCoverage is the least coverage at which feedback terms are worth
// adding: below it the top chunks are probably about something else.
const prfMinCoverage = 0.34

func seen(req Request, q string) bool {
	n := normalize(q)
	if n == normalize(req.Query) {
		return true
	}
	for _, p := range req.Previous {
		if normalize(p) == n {
			return true
		}
	}
	return false
}

func normalize(q string) string { return strings.Join(strings.Fields(strings.ToLower(q)), " ") }

// correct returns the index term closest to word's term when the index has
// never seen that term. Distances are between analyzed terms (stems); the
// length rules use the word as typed.
func (r *Rewriter) correct(word string, vocab Vocabulary) (string, bool) {
	clean := strings.TrimFunc(strings.ToLower(word), func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) })
	n := len([]rune(clean))
	if n < 4 || strings.IndexFunc(clean, unicode.IsDigit) >= 0 {
		return "", false
	}
	ts := r.an.Terms(clean)
	if len(ts) != 1 || vocab.DocFreq(ts[0]) > 0 {
		return "", false // a stop word, several tokens, or already known
	}
	stem := ts[0]
	sn := len([]rune(stem))
	maxDist := 1
	if n >= 8 {
		maxDist = 2
	}
	best, bestDist, bestDF := "", maxDist+1, 0
	for l := sn - maxDist; l <= sn+maxDist; l++ {
		if n <= 5 && l < sn {
			continue // "peru" must not become "per": short words only grow or change
		}
		for _, cand := range r.index[l] {
			d := distance(stem, cand, maxDist)
			if d > maxDist || n <= 4 && d == 1 && l == sn && !transposed(stem, cand) {
				// Four-letter words collide with index terms by one
				// substitution far too often ("sink" → "link").
				continue
			}
			df := vocab.DocFreq(cand)
			if df == 0 {
				continue // only in documents this principal cannot see
			}
			if d < bestDist || d == bestDist && df > bestDF {
				best, bestDist, bestDF = cand, d, df
			}
		}
	}
	if best == "" {
		return "", false
	}
	return best, true
}

// transposed reports whether a and b differ by one swap of adjacent letters.
func transposed(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) != len(rb) {
		return false
	}
	for i := 0; i+1 < len(ra); i++ {
		if ra[i] != rb[i] {
			return ra[i] == rb[i+1] && ra[i+1] == rb[i] && string(ra[i+2:]) == string(rb[i+2:])
		}
	}
	return false
}

// feedbackTerms picks up to two terms shared by most of the top chunks that
// the query lacks, weighted by IDF.
func (r *Rewriter) feedbackTerms(req Request, vocab Vocabulary) []string {
	top := req.Evidence
	if len(top) > 3 {
		top = top[:3]
	}
	if len(top) < 2 {
		return nil
	}
	inQuery := r.an.Set(req.Query + " " + req.Question)
	count := map[string]int{}
	for _, e := range top {
		for t := range r.an.Set(e.Title + "\n" + e.Text) {
			if !inQuery[t] && !terms.IsQuestionWord(t) && strings.IndexFunc(t, unicode.IsLetter) >= 0 {
				count[t]++
			}
		}
	}
	n := float64(vocab.Len())
	type cand struct {
		t string
		w float64
	}
	var cands []cand
	for t, c := range count {
		if c*2 <= len(top) {
			continue // not shared by most of the top chunks
		}
		df := float64(vocab.DocFreq(t))
		cands = append(cands, cand{t, float64(c) * math.Log(1+(n-df+0.5)/(df+0.5))})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].w != cands[j].w {
			return cands[i].w > cands[j].w
		}
		return cands[i].t < cands[j].t
	})
	var out []string
	for i := 0; i < len(cands) && i < 2; i++ {
		out = append(out, cands[i].t)
	}
	return out
}

// distance is the optimal-string-alignment edit distance between a and b,
// giving up early (returning max+1) once it must exceed max.
func distance(a, b string, max int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > max || -d > max {
		return max + 1
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
