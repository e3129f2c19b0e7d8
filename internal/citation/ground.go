package citation

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/terms"

	"github.com/assay-rag/assay/internal/wire"
)

// Source is an issued source as the grounding check sees it.
type Source struct {
	Label     string
	DocID     string
	Title     string
	Text      string
	Status    corpus.Status
	Authority float64
}

// FlagKind names what a grounding flag reports.
type FlagKind = wire.GroundingKind

// The grounding flags.
const (
	// StaleSource: the sentence cites an archived or withdrawn source.
	// Prefer names a current source in the context on the same subject,
	// if there was one.
	StaleSource FlagKind = "stale_source"
	// LowerAuthority: the sentence cites a source while a current one of
	// clearly higher authority on the same subject was in the context and
	// the answer cites it nowhere.
	LowerAuthority FlagKind = "lower_authority"
	// Unsupported: too few of the sentence's words, or one of its
	// numbers, appear in the sources it cites.
	Unsupported FlagKind = "unsupported"
	// UncitedSentence: a sentence that states something cites nothing,
	// in an answer that cites elsewhere.
	UncitedSentence FlagKind = "uncited_sentence"
)

// Flag is one grounding finding, for the trace (defined in the wire
// contract).
type Flag = wire.GroundingFlag

// Grounder runs the grounding check. Its thresholds are fields so a caller
// can tune them; NewGrounder sets the defaults.
type Grounder struct {
	an *terms.Analyzer
	// MinSupport is the share of a sentence's terms that must appear in
	// the sources it cites.
	MinSupport float64
	// MinRelated is the share of a sentence's terms that another source
	// must contain to count as being on the same subject.
	MinRelated float64
	// AuthorityGap is how much higher another source's authority must be
	// for a citation to count as lower-authority.
	AuthorityGap float64
	// MinTerms is the fewest terms a sentence needs for the share checks;
	// shorter ones ("Yes. [1]") are checked for numbers only.
	MinTerms int
}

// NewGrounder returns a grounder with the default thresholds.
func NewGrounder(an *terms.Analyzer) *Grounder {
	return &Grounder{an: an, MinSupport: 0.5, MinRelated: 0.5, AuthorityGap: 0.2, MinTerms: 3}
}

// Ground checks every sentence of answer against sources, the sources
// issued to the model. Citations of labels that were not issued are
// ignored (Sanitize removes them first).
func (g *Grounder) Ground(answer string, sources []Source) []Flag {
	bySrc := map[string]*Source{}
	srcTerms := map[string]map[string]bool{}
	for i := range sources {
		s := &sources[i]
		bySrc[s.Label] = s
		srcTerms[s.Label] = g.an.Set(s.Title + "\n" + s.Text)
	}
	sentences := Split(answer)
	citedAnywhere := map[string]bool{}
	for _, s := range sentences {
		for _, l := range s.Labels {
			if bySrc[l] != nil {
				citedAnywhere[l] = true
			}
		}
	}
	citesAny := len(citedAnywhere) > 0
	var flags []Flag
	for i, sent := range sentences {
		words := distinct(g.an.Terms(sent.Text))
		var cited []string
		for _, l := range sent.Labels {
			if bySrc[l] != nil {
				cited = append(cited, l)
			}
		}
		flag := func(kind FlagKind, label, prefer, detail string) {
			flags = append(flags, Flag{Kind: kind, Sentence: i, Text: shorten(sent.Text, 160), Label: label, Prefer: prefer, Detail: detail})
		}
		if len(cited) == 0 {
			if citesAny && len(words) >= g.MinTerms {
				flag(UncitedSentence, "", "", "the sentence states something and cites no source")
			}
			continue
		}

		// Support: the words and numbers must come from the cited sources.
		have := map[string]bool{}
		for _, l := range cited {
			for t := range srcTerms[l] {
				have[t] = true
			}
		}
		var missing, numbers []string
		for _, w := range words {
			if !have[w] {
				missing = append(missing, w)
				if strings.ContainsFunc(w, unicode.IsDigit) {
					numbers = append(numbers, w)
				}
			}
		}
		labels := strings.Join(cited, ", ")
		switch {
		case len(numbers) > 0:
			flag(Unsupported, cited[0], "", fmt.Sprintf("number %s is not in source %s", strings.Join(numbers, ", "), labels))
		case len(words) >= g.MinTerms && share(len(words)-len(missing), len(words)) < g.MinSupport:
			flag(Unsupported, cited[0], "", fmt.Sprintf("only %d of %d terms appear in source %s (missing: %s)",
				len(words)-len(missing), len(words), labels, strings.Join(missing, ", ")))
		}

		// Currency and authority: is there a better source on the same
		// subject that the sentence does not cite?
		citesCurrent := false
		for _, l := range cited {
			if isCurrent(bySrc[l]) {
				citesCurrent = true
			}
		}
		for _, l := range cited {
			src := bySrc[l]
			better := g.better(src, words, cited, sources, srcTerms)
			switch {
			case !isCurrent(src):
				if citesCurrent {
					continue // a current source backs the sentence too
				}
				if better != nil {
					flag(StaleSource, l, better.Label, fmt.Sprintf("source %s (%s) is %s; current source %s (%s) covers the same subject",
						l, src.DocID, src.Status, better.Label, better.DocID))
				} else {
					flag(StaleSource, l, "", fmt.Sprintf("source %s (%s) is %s and no current source in the context covers the same subject",
						l, src.DocID, src.Status))
				}
			case better != nil && better.Authority >= src.Authority+g.AuthorityGap && !citedAnywhere[better.Label]:
				// When the answer cites the better source elsewhere it
				// already rests on it; only an unused one is worth a flag.
				flag(LowerAuthority, l, better.Label, fmt.Sprintf("source %s (%s, authority %.2g) is cited while current source %s (%s, authority %.2g) covers the same subject",
					l, src.DocID, src.Authority, better.Label, better.DocID, better.Authority))
			}
		}
	}
	return flags
}

// better returns the current source with the highest authority (then the
// best coverage) that is on the sentence's subject, is not cited by it,
// and is not src's own document; nil if none.
func (g *Grounder) better(src *Source, words, cited []string, sources []Source, srcTerms map[string]map[string]bool) *Source {
	if len(words) == 0 {
		return nil
	}
	var best *Source
	bestCover := 0.0
	for i := range sources {
		alt := &sources[i]
		if slices.Contains(cited, alt.Label) || alt.DocID == src.DocID || !isCurrent(alt) {
			continue
		}
		n := 0
		for _, w := range words {
			if srcTerms[alt.Label][w] {
				n++
			}
		}
		cover := share(n, len(words))
		if cover < g.MinRelated {
			continue
		}
		if best == nil || alt.Authority > best.Authority || (alt.Authority == best.Authority && cover > bestCover) {
			best, bestCover = alt, cover
		}
	}
	return best
}

// isCurrent treats a source with no status as current, as the corpus
// loader does.
func isCurrent(s *Source) bool { return s.Status == corpus.Current || s.Status == "" }

func share(n, of int) float64 {
	if of == 0 {
		return 1
	}
	return float64(n) / float64(of)
}

func distinct(ts []string) []string {
	var out []string
	for _, t := range ts {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

func shorten(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n-1]) + "…"
}
