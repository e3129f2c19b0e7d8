package assess

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/terms"
)

// round46ValuesCorpus: the chunks of Timed's, Every's and Counts' tests
// (timedCorpus, countsPages), with distinct chunk ids.
func round46ValuesCorpus() []Evidence {
	return uniqueEvidence(timedCorpus, countsPages)
}

// round46ValuesBuiltin is the default assessor (Timed, Every, Counts on)
// over round46ValuesCorpus.
func round46ValuesBuiltin() *Builtin { return defaultOver(round46ValuesCorpus()) }

// reQuotedReason is a quoted string in a reason (%q).
var reQuotedReason = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// reCountedList is Counts' clause of the focus reason.
var reCountedList = regexp.MustCompile(`, and lists the things asked to be counted: ("(?:[^"\\]|\\.)*")$`)

// checkRound46Values checks res's assessment and that every string its
// reason quotes is what the caller sees: words of the question, or a
// title or words of a chunk given. Counts' list, a sentence of the chunk
// accepted or its codes (codeList), each in it. A term of the question
// quoted as the analyzer has it is let pass only where wordFor cannot
// find the asker's word (glued to punctuation: "order" for "ordere!10";
// rv46b's log, P-wordFor). Counts' enumeration is a sentence of the
// chunk accepted, whole.
func checkRound46Values(t *testing.T, an *terms.Analyzer, q string, ev []Evidence, res Result) {
	t.Helper()
	if err := res.Assessment.Check(); err != nil {
		t.Errorf("%.60q: %v", q, err)
	}
	reason := res.Assessment.Reason
	seen := seenWords(q)
	var acc *Evidence
	for i, e := range ev {
		maps.Copy(seen, seenWords(e.Title+" "+e.Text))
		if len(res.Accepted) > 0 && res.Accepted[0] == e.ChunkID {
			acc = &ev[i]
		}
	}
	for _, m := range reQuotedReason.FindAllString(reason, -1) {
		s, err := strconv.Unquote(m)
		if err != nil {
			t.Fatalf("%.60q: reason %q: %v", q, reason, err)
		}
		for w := range seenWords(s) {
			if !seen[w] && !(wordFor(an, q, w) == w && slices.Contains(an.Terms(q), w)) {
				t.Errorf("%.60q: reason %q quotes %q, whose %q the caller does not see", q, reason, s, w)
			}
		}
	}
	if m := reCountedList.FindStringSubmatch(reason); m != nil {
		s, _ := strconv.Unquote(m[1])
		if acc == nil || !(strings.Contains(acc.Text, s) && answertype.Enumerates(s) || codesIn(s, acc.Text)) {
			t.Errorf("%.60q: Counts' list %q is no enumeration in the chunk accepted (%v)", q, s, res.Accepted)
		}
	}
}

// seenWords is the set of text's words (runs of letters and digits), lower
// case: a word the asker wrote or a chunk given holds, whatever
// punctuation the reason quotes with it (a spelling correction keeps the
// asker's: "costs#" for "ACost#").
func seenWords(text string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		out[w] = true
	}
	return out
}

// codesIn reports whether s lists three or more codes (Counts' codeList),
// each written in text.
func codesIn(s, text string) bool {
	codes := strings.Split(s, ", ")
	return len(codes) >= 3 && !slices.ContainsFunc(codes, func(c string) bool { return !answertype.IsCode(c) || !strings.Contains(text, c) })
}

// round46ValuesSeeds: odd and realistic questions for Timed, Every and
// Counts: a time to come, its extreme, counts of things, of days, of
// money, of dates, numbers and currency in odd places.
var round46ValuesSeeds = []string{"", "?", "...", "—", "’s", "when", "when?", "when will", "when will it", "what's the latest",
	"what's the latest?", "latest latest latest", "how many", "how many?", "how many how many", "many how", "how many £",
	"how many £25?", "how many 10 working days?", "how many 16 October", "how many 1 and 2 and 3", "how many , , , ?",
	"how many F2, F5, F8?", "how many E4?", "how many codes, then?", "when £3.95 arrive", "when will 16 October turn up?",
	"ordered a spare part today on standard delivery, when should it turn up?",
	"Sent a request to delete my account data on the 1st. What's the latest it will be done by?",
	"On which dates will spare part orders turn up?", "when will my spare part arrive at the courier's depot?",
	"How many different statuses will my repair go through?", "How many error codes can the Z10 show?",
	"How many repair centres will my repair pass through?", "How many working days will my repair take?",
	"do you charge anything just to look at my kettle", "how long is the warranty on my toaster?",
	"¿Cuándo llegará? 日本語 ÄÖÜ how many Stücke", "what's the soonest it'll come, £5 or $5 or €5 or ¥5?",
	"how many 2026-12-07 things, 1,200 W, 1.5 litres?", "when: , ; — - ( ) turn up"}

// FuzzRound46Values (rv46b): the default assessor judges any question
// over round46ValuesCorpus, in three evidence orders, without a panic and
// with a reason that passes its check and quotes only what the caller
// sees; round 46's value readers (timedClassify, countList, codeList,
// writesCode, CountsTimeOrMoney on each count Find finds) read any text.
func FuzzRound46Values(f *testing.F) {
	for _, s := range round46ValuesSeeds {
		f.Add(s)
	}
	b := round46ValuesBuiltin()
	ev := round46ValuesCorpus()
	f.Fuzz(func(t *testing.T, q string) {
		timedClassify(q, b.classify(q), true, true)
		countList(q)
		codeList(q)
		writesCode(q)
		for _, ex := range answertype.Find(answertype.Count, q) {
			answertype.CountsTimeOrMoney(ex, q)
		}
		for _, order := range [][]Evidence{ev[:4], ev[3:7], ev[5:]} {
			res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: order, Groups: []string{"public"}})
			if err != nil {
				return
			}
			checkRound46Values(t, b.an, q, order, res)
		}
	})
}

// TestRound46ValuesOddInput (rv46b): FuzzRound46Values' seeds judged
// twice alike in three orders, Counts' list reason reached (its check is
// not vacuous); a very long question asking when and how many over long
// chunks of counts, days, sums and codes, judged in bounded time.
func TestRound46ValuesOddInput(t *testing.T) {
	b := round46ValuesBuiltin()
	ev := round46ValuesCorpus()
	listed := 0
	for _, q := range round46ValuesSeeds {
		for _, order := range [][]Evidence{ev[:4], {ev[6], ev[5], ev[7], ev[8]}, ev[3:8]} {
			a := assessChecked(t, b, Request{Question: q, Query: q, K: 5, Evidence: order, Groups: []string{"public"}})
			checkRound46Values(t, b.an, q, order, a)
			if reCountedList.MatchString(a.Assessment.Reason) {
				listed++
			}
			z := assessChecked(t, b, Request{Question: q, Query: q, K: 5, Evidence: order, Groups: []string{"public"}})
			if a.Assessment.Sufficient != z.Assessment.Sufficient || a.Assessment.Reason != z.Assessment.Reason {
				t.Errorf("%.40q: judged %+v then %+v", q, a.Assessment, z.Assessment)
			}
		}
	}
	if listed < 2 {
		t.Errorf("Counts' list reason reached %d times, want an enumeration and a code list: its check went unchecked", listed)
	}
	long := strings.Repeat("How many different statuses will my repair go through, and when should it turn up, what's the latest, £25 or 10 working days? ", 300)
	longEv := make([]Evidence, len(ev))
	copy(longEv, ev)
	for i := range longEv {
		longEv[i].Text = strings.Repeat(longEv[i].Text+" E1 means one. E2 means two. Between 1 and 16 June, £5, 3 days, A, B, C, D. ", 40)
	}
	start := time.Now()
	for _, order := range [][]Evidence{longEv[:4], longEv[5:]} {
		assessChecked(t, b, Request{Question: long, Query: long, K: 5, Evidence: order, Groups: []string{"public"}})
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("a long question over long chunks took %v", d)
	}
}
