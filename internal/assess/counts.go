package assess

import (
	"slices"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/citation"
)

// V58Model names the builtin assessor without Builtin.Counts:
// builtin:coverage-v58, kept selectable.
const V58Model = "builtin:coverage-v58"

// Builtin.Counts' bits (builtin:coverage-v59).
const (
	countsNotTime = 1 << iota // a count is no number of days, sum of money or number before a function word
	countsListed              // an enumeration answers a count of a plural kind
	countsCodes               // so do three or more sentences each opening with a code
	countsV59     = countsNotTime | countsListed | countsCodes
)

// countList reports whether a count question counts things of a plural
// kind ("how many different statuses", "how many steps"): the phrase after
// "how many" (answertype.CountedPhrase) ends in a plural noun. An
// enumeration of such things ("A repair shows as Booked, In workshop,
// Repaired, then Dispatched") answers how many there are.
func countList(question string) bool {
	p := answertype.CountedPhrase(question)
	return len(p) > 0 && plural(p[len(p)-1])
}

// codeList returns the codes that open three or more of a chunk's
// sentences, joined ("E4, E7, E9"), or "": a manual's list of error codes
// ("E4 means ... E7 means ... E9 means ...") enumerates them one sentence
// each (Builtin.Counts' countsCodes).
func codeList(text string) string {
	var codes []string
	for _, s := range citation.Sentences(text) {
		f := strings.Fields(s)
		if len(f) == 0 {
			continue
		}
		w := strings.TrimRight(f[0], ",:;.")
		if answertype.IsCode(w) && !slices.Contains(codes, w) {
			codes = append(codes, w)
		}
	}
	if len(codes) < 3 {
		return ""
	}
	return strings.Join(codes, ", ")
}
