// Package citation checks what an answer cites, after generation and
// before anyone sees it. Everything here is deterministic code over the
// answer text and the sources that were issued to the model:
//
//   - Sanitize repairs: it strips citation markers naming no issued label
//     ("[9]" when three sources were issued) and keeps the answer,
//     recording each strip. It never rejects.
//   - Validate rejects: an empty answer, a refusal, or an answer with no
//     citation although sources were given. It never repairs.
//   - Grounder.Ground reports: sentences citing an archived, withdrawn or
//     lower-authority source when a current, higher-authority one on the
//     same subject was in the context, and sentences with no lexical
//     support in the sources they cite. It neither repairs nor rejects.
//
// With streaming, markers are resolved only once the stream is complete: a
// marker arrives as separate tokens ("[", "1", "]"), so nothing here runs
// on partial text.
//
// Labels are the short request-scoped numbers the prompt issued ("1",
// "2", ...). A marker is a bracketed list of them: "[1]", "[1, 3]",
// "[Source 2]".
package citation

import (
	"regexp"
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/wire"
)

// Marker is one citation marker in a text.
type Marker struct {
	// Start and End are the marker's byte offsets.
	Start, End int
	// Text is the marker as written.
	Text string
	// Labels are the labels it names, in order.
	Labels []string
}

var (
	markerRE     = regexp.MustCompile(`(?i)\[\s*(?:(?:sources?|src|doc|id)\s*[:#=]?\s*)?\d{1,4}(?:\s*(?:,|;|&|and)\s*(?:(?:sources?|src|doc|id)\s*[:#=]?\s*)?\d{1,4})*\s*\]`)
	digitsRE     = regexp.MustCompile(`\d+`)
	spacePunctRE = regexp.MustCompile(`\s+([.,;:!?])`)
)

// Markers finds the citation markers in text, in order.
func Markers(text string) []Marker {
	var out []Marker
	for _, loc := range markerRE.FindAllStringIndex(text, -1) {
		m := Marker{Start: loc[0], End: loc[1], Text: text[loc[0]:loc[1]]}
		for _, d := range digitsRE.FindAllString(m.Text, -1) {
			if d = strings.TrimLeft(d, "0"); d == "" {
				d = "0"
			}
			if !slices.Contains(m.Labels, d) {
				m.Labels = append(m.Labels, d)
			}
		}
		out = append(out, m)
	}
	return out
}

// Cited returns the issued labels that text cites, in order of first
// citation.
func Cited(text string, issued []string) []string {
	var out []string
	for _, m := range Markers(text) {
		for _, l := range m.Labels {
			if slices.Contains(issued, l) && !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	return out
}

// Strip records one marker the sanitizer changed (defined in the wire
// contract).
type Strip = wire.Strip

// Sanitize strips citations of labels that were not issued and keeps the
// rest of the answer unchanged. A marker naming only unknown labels is
// removed with the space before it; one naming some issued labels is
// rewritten to name those only. It returns the repaired text and what it
// stripped, in order.
//
// Removing a marker can join the text around it into a new one ("[[9]9]"
// becomes "[9]"), so Sanitize repeats until a pass strips nothing. Every
// pass that strips shortens the text, so this ends.
func Sanitize(text string, issued []string) (string, []Strip) {
	var all []Strip
	for {
		out, strips := sanitizeOnce(text, issued)
		if len(strips) == 0 {
			return text, all
		}
		all = append(all, strips...)
		text = out
	}
}

// sanitizeOnce is one pass of Sanitize over the markers of text.
func sanitizeOnce(text string, issued []string) (string, []Strip) {
	var b strings.Builder
	var strips []Strip
	last := 0
	for _, m := range Markers(text) {
		var kept, unknown []string
		for _, l := range m.Labels {
			if slices.Contains(issued, l) {
				kept = append(kept, l)
			} else {
				unknown = append(unknown, l)
			}
		}
		if len(unknown) == 0 {
			continue
		}
		s := Strip{Marker: m.Text, Unknown: unknown}
		b.WriteString(text[last:m.Start])
		if len(kept) > 0 {
			s.Kept = "[" + strings.Join(kept, ", ") + "]"
			b.WriteString(s.Kept)
		} else {
			// Drop the space that separated the marker from its sentence,
			// so "5 years [9]." becomes "5 years.".
			out := strings.TrimRight(b.String(), " ")
			b.Reset()
			b.WriteString(out)
			if out == "" || strings.HasSuffix(out, "\n") {
				// Nothing before it on the line: drop the space after
				// instead.
				for m.End < len(text) && text[m.End] == ' ' {
					m.End++
				}
			} else if m.End < len(text) && !strings.ContainsRune(" .,;:!?)\n", rune(text[m.End])) {
				b.WriteByte(' ')
			}
		}
		last = m.End
		strips = append(strips, s)
	}
	if strips == nil {
		return text, nil
	}
	b.WriteString(text[last:])
	return b.String(), strips
}

// stripMarkers removes every marker, for reading a sentence's words.
func stripMarkers(s string) string {
	s = strings.Join(strings.Fields(markerRE.ReplaceAllString(s, " ")), " ")
	return spacePunctRE.ReplaceAllString(s, "$1")
}
