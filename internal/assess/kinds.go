package assess

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
)

// V13Model names the builtin assessor without v14's checks that the
// expression found is of the kind asked and its readings of time and
// hedge words (any of Builtin.Calendar, Shaped, WhenClause, PlainAbbrev
// and Hedges off): builtin:coverage-v13, kept selectable.
const V13Model = "builtin:coverage-v13"

// builtin:coverage-v14 asks, of the expression of the expected type a
// chunk holds, whether it is an answer of the kind asked rather than any
// expression the type's finder takes:
//
//   - a period of time (Builtin.Calendar): "how long should fitting the
//     kit take" is answered by a length of time ("3 to 5 working days",
//     "within 14 days"), not by a point in the calendar ("before March",
//     "2026"), which says when, not how long (answertype.Calendar);
//   - a kind of the thing asked (Builtin.Shaped): a noun restricted by a
//     modifier whose shape says it picks out one kind — a hyphenated
//     compound of words ("next-day delivery") or a superlative ("the
//     lowest speed") — is restricted as one restricted by a word no
//     visible chunk holds (see restricted): a sentence naming it only
//     with another modifier ("Standard delivery costs £3.95", "High speed
//     reaches 22,000 RPM") is about another kind. And a question asking
//     for a measure by its unit after "what" ("what rpm does the X200
//     do"; answertype.AskedUnit), which answertype reads as expecting no
//     particular type, expects a measure in that unit's dimension.
//
// and it reads time and hedge words as English does:
//
//   - a clause opening with "when" states a time or a condition
//     (Builtin.WhenClause): "when will I get an email with the tracking"
//     is answered by "We email a tracking link when the courier collects
//     your appliance";
//   - a month's abbreviation is a date word in a plain entity
//     (Builtin.PlainAbbrev, see plain.go): "made Jan 2025" names no
//     document's entity, as "made January 2025" does not;
//   - a word of what is usual or approximate ("the usual turnaround",
//     "roughly how long", "with the usual delivery") is a generic word
//     (Builtin.Hedges, see read.go's hedgeWords): it says how exact an
//     answer is wanted, and names no kind of the thing asked.

// findsMemo keeps finds' answers within one features call (learned.go),
// where the sentence and state readings and the sentence coverage ask
// the same sentences of the same one or two questions.
type findsMemo struct {
	qs   []answertype.Question
	sent []map[string][]string // per question of qs
}

func sameQuestion(a, b answertype.Question) bool {
	return a.Type == b.Type && a.Unit == b.Unit && a.Web == b.Web && slices.Equal(a.Frame, b.Frame)
}

// finds lists the expressions of q's type in one sentence, less those of
// another kind than asked (see above). Its callers may change the slice
// (slices.DeleteFunc): a remembered answer is handed out as a copy.
func (b *Builtin) finds(q answertype.Question, sentence string) []string {
	if b.found == nil {
		return b.find(q, sentence)
	}
	m := b.found
	k := slices.IndexFunc(m.qs, func(x answertype.Question) bool { return sameQuestion(x, q) })
	if k < 0 {
		m.qs = append(m.qs, q)
		m.sent = append(m.sent, map[string][]string{})
		k = len(m.qs) - 1
	}
	out, ok := m.sent[k][sentence]
	if !ok {
		out = b.find(q, sentence)
		m.sent[k][sentence] = out
	}
	return slices.Clone(out)
}

func (b *Builtin) find(q answertype.Question, sentence string) []string {
	if q.Type == answertype.Quantity && q.Unit == sizeUnit {
		var out []string
		for _, d := range sizeDimensions {
			q.Unit = d
			out = append(out, q.Find(sentence)...)
		}
		return out
	}
	out := q.Find(sentence)
	if b.Counts&countsNotTime != 0 && q.Type == answertype.Count {
		// v59: a count of days or a sum of money ("10 working days",
		// "£25 inspection fee") does not count the things a count
		// question asks after ("how many statuses")
		timed := answertype.CountsTimeOrMoney
		if b.Review&reviewExtra != 0 {
			timed = answertype.CountsTimeOrMoneyStrictly // review.go: "3 extra blades"
		}
		out = slices.DeleteFunc(out, func(ex string) bool { return timed(ex, sentence) })
	}
	if b.Review&reviewMeasure != 0 && q.Type == answertype.Count && len(out) > 0 {
		ms := answertype.Find(answertype.Quantity, sentence)
		out = slices.DeleteFunc(out, func(ex string) bool { return measureCount(ex, ms) }) // review.go: "1,200 W"
	}
	if b.Calendar && q.Type == answertype.Period {
		out = slices.DeleteFunc(out, answertype.Calendar)
	}
	if b.WhenClause && q.Type == answertype.Condition {
		for _, m := range reWhen.FindAllStringSubmatch(sentence, -1) {
			if m[2] == "?" {
				continue // "When does the tracking email arrive?" asks when: an FAQ's heading states no time
			}
			out = append(out, m[1])
		}
	}
	return out
}

// shapedKind reports whether a word of a question restricts the noun after
// it by its shape (Builtin.Shaped): a hyphenated compound of two or more
// words of letters ("next-day"), or a superlative: a word of at least six
// letters ending in "est" whose positive, by English's spelling of
// superlatives, is a word known reports ("low" for "lowest", "late" for
// "latest", "big" for "biggest", "early" for "earliest"). Without the
// positive, "interest", "request" and "harvest" would be superlatives.
// English words whose "est" is no suffix (notSuperlatives) never are,
// whatever the documents hold: "modest" is not the superlative of the
// "mode" a document names, nor "honest" of "hone" or "earnest" of "earn".
func shapedKind(w string, known func(positive string) bool) bool {
	w = strings.ToLower(strings.Trim(w, "\"'()"))
	if w == "" || strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) {
		return false
	}
	if parts := strings.Split(w, "-"); len(parts) > 1 {
		return !slices.Contains(parts, "")
	}
	if len(w) < 6 || !strings.HasSuffix(w, "est") || notSuperlatives[w] {
		return false
	}
	return slices.ContainsFunc(positives(strings.TrimSuffix(w, "est")), known)
}

// notSuperlatives are English words of six letters or more ending in
// "est" that are no superlative, though English spelling reads a positive
// in each ("mode" in "modest", "hone" in "honest", "earn" in "earnest").
// The list is general English: no product's own words.
var notSuperlatives = wordSet("modest", "immodest", "honest", "dishonest", "earnest", "interest", "disinterest",
	"request", "harvest", "forest", "rainforest", "deforest", "reforest", "protest", "contest", "suggest", "digest",
	"ingest", "invest", "reinvest", "divest", "arrest", "attest", "detest", "infest", "molest", "congest", "manifest",
	"conquest", "inquest", "bequest", "behest", "tempest", "unrest", "priest", "breast", "abreast", "incest",
	"retest", "pretest", "midwest", "northwest", "southwest", "everest")

// positives lists the words a superlative's stem (the word less "est")
// may be the superlative of: the stem itself ("low"), with an "e"
// ("late"), with its doubled last consonant single ("big"), and with a
// final "i" read as "y" ("early").
func positives(stem string) []string {
	out := []string{stem, stem + "e"}
	if n := len(stem); n >= 2 && stem[n-1] == stem[n-2] && !strings.ContainsRune("aeiou", rune(stem[n-1])) {
		out = append(out, stem[:n-1])
	}
	if strings.HasSuffix(stem, "i") {
		out = append(out, strings.TrimSuffix(stem, "i")+"y")
	}
	return out
}

// reWhen is a clause opening with "when" (Builtin.WhenClause), up to the
// next punctuation, and the question mark that ends it if one does (finds
// drops such a clause: a question asking when, not a clause saying it; a
// "when" clause after it in the same sentence is still found: "When does
// it arrive? when the courier collects it"). answertype's conditions open
// with "if", "once", "whenever", "as soon as", "unless" or "in case".
var reWhen = regexp.MustCompile(`(?i)\b(when\s+[^,.;:?]+)(\??)`)

// sizeUnit is the expected unit of a question asking how big, large or
// small a thing is (Builtin.Sized): a size, a measure in one of
// sizeDimensions. answertype leaves these adjectives' dimension open, as
// they ask for more than one; none of them is a power ("1,500 W"), a
// speed or a temperature.
const sizeUnit = "size"

// sizeDimensions are the dimensions a size is measured in.
var sizeDimensions = []string{"length", "volume", "mass"}

// sizeAdjectives after "how" ask for a size.
var sizeAdjectives = map[string]bool{"big": true, "large": true, "small": true}

// asksSize reports whether the clause that asks holds "how" followed by a
// size adjective ("how big is the jug").
func asksSize(question string) bool {
	ws := strings.Fields(strings.ToLower(answertype.Asking(question)))
	for i := 0; i+1 < len(ws); i++ {
		if strings.Trim(ws[i], ",.?!;:") == "how" && sizeAdjectives[strings.Trim(ws[i+1], ",.?!;:")] {
			return true
		}
	}
	return false
}
