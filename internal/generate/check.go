package generate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/guard"
	"github.com/assay-rag/assay/internal/terms"
)

// Checker is the after-generation pipeline. Safe for concurrent use.
type Checker struct {
	grounder *citation.Grounder
}

// NewChecker returns a checker that grounds with an.
func NewChecker(an *terms.Analyzer) *Checker {
	return &Checker{grounder: citation.NewGrounder(an)}
}

// Check completes ans, generated for req, in this order:
//
//  1. scan each source for prompt injection: flags in Injections only;
//  2. sanitize: strip citation markers naming labels that were not issued
//     (req's labels minus those the budget dropped), recording each strip;
//  3. validate: reject an empty answer, a refusal or an uncited one with a
//     final (non-retryable) *errs.Error wrapping a *citation.Rejection;
//  4. ground: flag stale or lower-authority citations and unsupported or
//     uncited sentences;
//  5. set Citations to the issued sources the answer cites, in order of
//     first citation.
//
// Every finding is also added to Warnings. On rejection the returned
// Answer still carries what was found, for diagnosis.
func (c *Checker) Check(req Request, ans Answer) (Answer, error) {
	const op = "generate.Check"
	dropped := map[string]bool{}
	for _, d := range ans.Dropped {
		dropped[d.Label] = true
		ans.Warnings = append(ans.Warnings, fmt.Sprintf("prompt: the token budget dropped source %s (%s, %d tokens)", d.Label, d.ChunkID, d.Tokens))
	}
	var issued []string
	var sources []citation.Source
	for _, s := range req.Sources {
		if dropped[s.Label] {
			continue
		}
		issued = append(issued, s.Label)
		sources = append(sources, citation.Source{Label: s.Label, DocID: s.DocID, Title: s.Title, Text: s.Text, Status: s.Status, Authority: s.Authority})
		// Flags stay structured here; the Assess activity has already put
		// the same documents' flags in the trace's warnings.
		ans.Injections = append(ans.Injections, guard.Scan(fmt.Sprintf("source %s (%s)", s.Label, s.ID), s.Title+"\n"+s.Text)...)
	}

	text, strips := citation.Sanitize(ans.Text, issued)
	ans.Text = strings.TrimSpace(text)
	ans.Stripped = strips
	for _, s := range strips {
		what := "removed it"
		if s.Kept != "" {
			what = "kept " + s.Kept
		}
		ans.Warnings = append(ans.Warnings, fmt.Sprintf("sanitizer: citation %s names %s, never issued (issued: %s); %s",
			s.Marker, strings.Join(s.Unknown, ", "), strings.Join(issued, ", "), what))
	}

	if err := citation.Validate(ans.Text, issued); err != nil {
		ans.Warnings = append(ans.Warnings, err.Error())
		return ans, errs.E(op, err)
	}

	ans.Grounding = c.grounder.Ground(ans.Text, sources)
	for _, f := range ans.Grounding {
		ans.Warnings = append(ans.Warnings, f.String())
	}

	ans.Citations = nil
	for _, l := range citation.Cited(ans.Text, issued) {
		i := slices.IndexFunc(req.Sources, func(s Source) bool { return s.Label == l })
		s := req.Sources[i]
		ans.Citations = append(ans.Citations, Citation{Label: l, ChunkID: s.ID, DocID: s.DocID, Title: s.Title, URL: s.URL})
	}
	return ans, nil
}
