// Package names reads products' full names in a text: a code (a word
// holding letters and digits, answertype.IsCode) followed directly, with
// no punctuation between, by words that begin with a capital letter
// ("K50 Smart Kettle"). The builtin assessor (assess.ProductNames) and
// generator read names with In; the index backends keep, per ACL group,
// the (code, name word) pairs In reads in single chunk titles and texts
// (Table), so the assessor's class reading searches a word only when a
// chunk the asker may see could name a product with it.
package names

import (
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/terms"
)

// In adds to out the full names text writes after a code: the code's
// term maps to the terms of its name's words.
func In(an *terms.Analyzer, text string, out map[string]map[string]bool) {
	if strings.IndexFunc(text, unicode.IsDigit) < 0 {
		return // no word holds a digit, so none is a code
	}
	ws := nameWords(text)
	for i := 0; i < len(ws); i++ {
		if !answertype.IsCode(ws[i].w) {
			continue
		}
		ct := an.Terms(ws[i].w)
		if len(ct) != 1 {
			continue
		}
		var name []string
		for j := i + 1; j < len(ws) && !ws[j].gap && unicode.IsUpper([]rune(ws[j].w)[0]) && !answertype.IsCode(ws[j].w); j++ {
			name = append(name, an.Terms(ws[j].w)...)
		}
		if len(name) == 0 {
			continue
		}
		if out[ct[0]] == nil {
			out[ct[0]] = map[string]bool{}
		}
		for _, t := range name {
			out[ct[0]][t] = true
		}
	}
}

// nameWord is one word of a text; gap is set when punctuation (anything
// but spaces) stands between it and the word before.
type nameWord struct {
	w   string
	gap bool
}

// nameWords splits text into words of letters, digits, and inner hyphens
// or apostrophes, marking where punctuation separates two.
func nameWords(text string) []nameWord {
	var out []nameWord
	rs := []rune(text)
	gap := true
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			j := i
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) ||
				(rs[j] == '-' || rs[j] == '\'') && j+1 < len(rs) && (unicode.IsLetter(rs[j+1]) || unicode.IsDigit(rs[j+1]))) {
				j++
			}
			out = append(out, nameWord{w: string(rs[i:j]), gap: gap})
			gap = false
			i = j
		case unicode.IsSpace(r):
			i++
		default:
			gap = true
			i++
		}
	}
	return out
}
