package generate

import (
	"context"
	"sort"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/terms"
)

// ExtractiveModel names the builtin extractive generator.
const ExtractiveModel = "builtin:extractive-v1"

// Extractive is the offline generator: it answers with the source sentences
// that share the most question terms, each followed by its source's label.
// It never writes a word that is not in a source, so it is grounded by
// construction, and it cannot paraphrase, combine or reason.
type Extractive struct {
	an *terms.Analyzer
	// MaxSentences bounds the answer.
	MaxSentences int
}

// NewExtractive returns the extractive generator.
func NewExtractive(an *terms.Analyzer) *Extractive {
	return &Extractive{an: an, MaxSentences: 2}
}

type candidate struct {
	source, pos int // source index, sentence index within it
	text        string
	score       float64
}

// Generate implements Generator.
func (g *Extractive) Generate(_ context.Context, req Request) (Answer, error) {
	if len(req.Sources) == 0 {
		return Answer{}, errs.Errorf("generate.Extractive", errs.Invalid, "no sources: the extractive generator needs evidence")
	}
	q := g.an.Content(req.Question)
	var cands []candidate
	for si, src := range req.Sources {
		for pi, sent := range Sentences(src.Text) {
			have := g.an.Set(sent)
			var hit float64
			for _, t := range q {
				if have[t] {
					hit++
				}
			}
			if hit == 0 {
				continue
			}
			// Earlier sources rank higher at equal overlap.
			cands = append(cands, candidate{si, pi, sent, hit - 0.01*float64(si)})
		}
	}
	if len(cands) == 0 {
		// Accepted evidence that shares no term with the question: fall back
		// to the top source's opening sentence rather than nothing.
		sents := Sentences(req.Sources[0].Text)
		if len(sents) == 0 {
			return Answer{}, errs.Errorf("generate.Extractive", errs.Invalid, "the top source has no text")
		}
		cands = []candidate{{0, 0, sents[0], 0}}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	if len(cands) > g.MaxSentences {
		cands = cands[:g.MaxSentences]
	}
	// Read in source order, as the sources were ranked.
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].source != cands[j].source {
			return cands[i].source < cands[j].source
		}
		return cands[i].pos < cands[j].pos
	})
	var b strings.Builder
	var cited []Citation
	seen := map[string]bool{}
	for i, c := range cands {
		src := req.Sources[c.source]
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.text)
		b.WriteString(" [" + src.Label + "]")
		if !seen[src.Label] {
			seen[src.Label] = true
			cited = append(cited, Citation{Label: src.Label, ChunkID: src.ID, DocID: src.DocID, Title: src.Title, URL: src.URL})
		}
	}
	return Answer{Text: b.String(), Citations: cited, Model: ExtractiveModel, FinishReason: "stop"}, nil
}

// Sentences splits text after '.', '!' or '?' when whitespace and then a
// non-lower-case letter follow, so "£3.95" and "e.g. this" stay whole.
func Sentences(text string) []string {
	var out []string
	rs := []rune(text)
	start := 0
	for i := 0; i < len(rs); i++ {
		if rs[i] != '.' && rs[i] != '!' && rs[i] != '?' {
			continue
		}
		j := i + 1
		for j < len(rs) && (rs[j] == '"' || rs[j] == ')' || rs[j] == '\'') {
			j++
		}
		if j < len(rs) && !unicode.IsSpace(rs[j]) {
			continue
		}
		k := j
		for k < len(rs) && unicode.IsSpace(rs[k]) {
			k++
		}
		if k < len(rs) && unicode.IsLower(rs[k]) {
			continue
		}
		if s := strings.TrimSpace(string(rs[start:j])); s != "" {
			out = append(out, s)
		}
		start = k
		i = k - 1
	}
	if s := strings.TrimSpace(string(rs[start:])); s != "" {
		out = append(out, s)
	}
	return out
}
