package citation

import (
	"slices"
	"strings"
	"unicode"
)

// Sentences splits text after '.', '!' or '?' (and any closing quote or
// bracket) when whitespace and then a non-lower-case letter follow, so
// "£3.95" and "e.g. this" stay whole.
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

// Sentence is one sentence of an answer and the labels it cites.
type Sentence struct {
	// Text is the sentence without its markers.
	Text string
	// Labels are the labels its markers name, issued or not, in order.
	Labels []string
}

// Split splits an answer into sentences and gives each the labels it
// cites. Markers written after a sentence's full stop ("... 5 years. [1]")
// belong to that sentence, not to the next.
func Split(answer string) []Sentence {
	var out []Sentence
	for _, raw := range Sentences(answer) {
		lead, rest := leadingMarkers(raw)
		if len(lead) > 0 && len(out) > 0 {
			prev := &out[len(out)-1]
			for _, l := range lead {
				if !slices.Contains(prev.Labels, l) {
					prev.Labels = append(prev.Labels, l)
				}
			}
			lead = nil
		}
		s := Sentence{Text: stripMarkers(rest), Labels: lead}
		for _, m := range Markers(rest) {
			for _, l := range m.Labels {
				if !slices.Contains(s.Labels, l) {
					s.Labels = append(s.Labels, l)
				}
			}
		}
		if s.Text == "" {
			if len(out) == 0 && len(s.Labels) > 0 {
				out = append(out, s)
			}
			continue
		}
		out = append(out, s)
	}
	return out
}

// leadingMarkers returns the labels of the markers that open s and what
// follows them.
func leadingMarkers(s string) ([]string, string) {
	var labels []string
	for {
		s = strings.TrimLeft(s, " ")
		ms := Markers(s)
		if len(ms) == 0 || ms[0].Start != 0 {
			return labels, s
		}
		labels = append(labels, ms[0].Labels...)
		s = s[ms[0].End:]
	}
}
