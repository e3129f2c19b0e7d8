package assess

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// round46Corpus: the chunks of Covered's and Follow's tests, Covered's ids
// prefixed ("cv-") to keep every chunk id distinct.
func round46Corpus() []Evidence {
	var out []Evidence
	for _, e := range coveredCorpus {
		e.ChunkID = "cv-" + e.ChunkID
		out = append(out, e)
	}
	return append(out, followCorpus...)
}

// round46Builtin is the default assessor (Covered and Follow on) over
// round46Corpus.
func round46Builtin() *Builtin { return defaultOver(round46Corpus()) }

// round46Seeds: odd and realistic questions for Covered and Follow: empty
// and punctuation-only text, unicode, the words the two readings key on
// alone ("warranty", "how many", "what are they", "which one's", "£"),
// and questions of many "and"s and "or"s.
var round46Seeds = []string{"", "?", "...", "—", "’s", "£", "£?", "$.", "warranty", "warranty?", "free", "covered?",
	"is it covered", "free free free free", "warranty warranty guarantee", "Is the warranty?", "a warranty repair?",
	"how many", "how many?", "how many, and what are they?", "how many and what are they", "And what are they?",
	"what are they?", "and how much?", "and by how much?", ", and how much?", "which one's", "which one’s", "WHICH ONE'S?",
	"which oneſ faster", "Which ones, and which one?", "how much, and how much, and how much?",
	"I knocked my blender off the worktop and the jar cracked - will you replace it for nothing under the warranty?",
	"If I use my blender abroad with a voltage converter is it still under warranty?",
	"My lid snapped when the dog chewed it, is the lid under warranty?",
	"Can we fit a cheaper blade in a warranty repair to save a bit?",
	"How many stages does a repair go through, and what are they?",
	"My basket comes to £19.20. Do I pay for delivery, and how much?",
	"Which one's faster at full power, the X200 or the X300 Pro, and by how much?",
	"Which one's cheaper, the X200 or the X300 Pro, and by how much?",
	"How many colours does the X200 jar come in, and what are they?",
	"My basket comes to £. Do I pay for delivery, and how much?", "£19.20 £19.20 $19.20 €19.20, and how much?",
	"¿Está cubierto por la garantía? 日本語の保証 ÄÖÜ warranty?", "how many 日本語, and what are they?",
	"is the jar and the lid and the blade and the motor and the base covered by the warranty or the guarantee or not?",
	"how many and or and or and or and or and or and or and or and or and or, and what are they?",
	"and and and and and and and and and and, and how much?", "or or or or or or or or or or or, and by how much?"}

// round46Visible is what the caller of an assessment over ev sees: the
// question and the chunks' titles and text, lower-cased.
func round46Visible(q string, ev []Evidence) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(q))
	for _, e := range ev {
		b.WriteString("\n" + strings.ToLower(e.Title) + "\n" + strings.ToLower(e.Text))
	}
	return b.String()
}

// quotedSpans are the Go-quoted strings (%q) of reason, outermost first.
func quotedSpans(reason string) []string {
	var out []string
	for i := 0; i < len(reason); {
		if reason[i] != '"' {
			i++
			continue
		}
		p, err := strconv.QuotedPrefix(reason[i:])
		if err != nil {
			i++
			continue
		}
		u, _ := strconv.Unquote(p)
		out = append(out, u)
		i += len(p)
	}
	return out
}

// checkRound46 checks res's assessment and, when Covered or Follow
// decided it, that its reason names only what the caller sees: Covered's
// title is the accepted chunk's, its thing a word of the question and its
// statement a sentence of the chunk; each quoted span of Follow's reasons
// (a part, or what the part's own reading quotes) is made of words of the
// question, of the given chunks, or of the words a part is read with
// ("what", "is", the brackets withEntities and followUp add).
func checkRound46(t *testing.T, q string, ev []Evidence, res Result) {
	t.Helper()
	if err := res.Assessment.Check(); err != nil {
		t.Errorf("%.60q: %v", q, err)
	}
	reason := res.Assessment.Reason
	if n := len([]rune(reason)); n > 1000 && (strings.HasPrefix(reason, coveredReasonPrefix) || strings.HasPrefix(reason, "read as ")) {
		t.Errorf("%.60q: reason of %d runes, want at most 1000", q, n)
	}
	if strings.HasSuffix(reason, "...") {
		return // clipped: its last span is cut
	}
	visible := round46Visible(q, ev)
	switch {
	case strings.HasPrefix(reason, coveredReasonPrefix):
		spans := quotedSpans(strings.TrimPrefix(reason, coveredReasonPrefix))
		if len(spans) != 3 || len(res.Accepted) != 1 {
			t.Fatalf("%.60q: Covered's reason %q: want three quoted spans and one chunk accepted (%v)", q, reason, res.Accepted)
		}
		var acc *Evidence
		for i := range ev {
			if ev[i].ChunkID == res.Accepted[0] {
				acc = &ev[i]
			}
		}
		if acc == nil || acc.Title != spans[0] || !strings.Contains(acc.Text, spans[2]) {
			t.Errorf("%.60q: Covered's reason %q names a title or statement not of the chunk accepted (%v)", q, reason, res.Accepted)
		}
		if !strings.Contains(strings.ToLower(q), spans[1]) {
			t.Errorf("%.60q: Covered's reason names %q, no word of the question", q, spans[1])
		}
	case strings.HasPrefix(reason, "read as ") || strings.HasPrefix(reason, "each part of the question is answered: "):
		for _, s := range quotedSpans(reason) {
			for _, w := range strings.Fields(strings.ToLower(s)) {
				w = strings.Trim(trimMarks(w), "()?,.")
				if w != "" && w != "what" && w != "is" && !strings.Contains(visible, w) {
					t.Errorf("%.60q: reason %q quotes %q: %q is no word the caller sees", q, reason, s, w)
				}
			}
		}
	}
}

// coveredReasonPrefix opens Covered's reason.
const coveredReasonPrefix = "the question asks whether the cover takes something in, and "

// round46Orders are the evidence orders the round-46 tests judge each
// question over: Covered's pages first, Follow's, and the two mixed.
func round46Orders(ev []Evidence) [][]Evidence {
	byID := map[string]Evidence{}
	for _, e := range ev {
		byID[e.ChunkID] = e
	}
	pick := func(ids ...string) []Evidence {
		var out []Evidence
		for _, id := range ids {
			out = append(out, byID[id])
		}
		return out
	}
	return [][]Evidence{
		pick("cv-warranty#0", "cv-specs#0", "cv-recall#0"),
		pick("cv-abroad#0", "cv-warranty#0", "cv-repair#0"),
		pick("repairs#0", "track#0", "parts#0"),
		pick("parts#0", "k50#0", "warranty#0"),
		pick("x300#0", "x200#0", "warranty#0", "cv-lid#0"),
		pick("track#0", "cv-warranty#0", "parts#0", "x200#0", "repairs#0"),
	}
}

// TestFollowChoice (rv46): over round46Corpus's vocabulary, a choice
// between two named things followed by "and by how much?", the page
// naming both ranked after the two, is accepted part by part: the
// choice read with "which one's" as "which is" and its clause naming the
// things offered, the follow-up by the values of the part before. Each
// of Follow's conditions on a part (whichOne, withAsides, asksValue,
// partEntities) fails it when removed.
func TestFollowChoice(t *testing.T) {
	b := round46Builtin()
	q := "Which one's faster at full power, the X200 or the X300 Pro, and by how much?"
	r := assessChecked(t, b, Request{Question: q, Query: q, K: 5, Evidence: round46Orders(round46Corpus())[4], Groups: []string{"public"}})
	want := `each part of the question is answered: "Which is faster at full power, the X200 or the X300 Pro,": `
	if !r.Assessment.Sufficient || !slices.Equal(r.Accepted, []string{"x200#0", "x300#0"}) || !strings.HasPrefix(r.Assessment.Reason, want) ||
		!strings.HasSuffix(r.Assessment.Reason, `; "and by how much?": by the values of the part before`) {
		t.Errorf("%q: %+v %v, want accepted on x200#0 and x300#0 part by part", q, r.Assessment, r.Accepted)
	}
}

// FuzzRound46 (rv46): the default assessor judges any question over
// round46Corpus without a panic and with a reason that passes its check
// and names only what the caller sees; Follow's readers (withAsides,
// countedNamed, whichOne, followUp, asksValue, statedAmount) read any
// text.
func FuzzRound46(f *testing.F) {
	for _, s := range round46Seeds {
		f.Add(s)
	}
	b := round46Builtin()
	ev := round46Corpus()
	orders := round46Orders(ev)
	f.Fuzz(func(t *testing.T, q string) {
		whichOne(q)
		asksValue(q)
		parts := strings.SplitAfter(q, ",")
		withAsides(q, parts)
		countedNamed(parts)
		if len(parts) > 1 {
			followUp(parts[1], parts[0])
		}
		for _, e := range Entities(b.an, q, b.corpus.Visible([]string{"public"})) {
			statedAmount(q, e)
		}
		for _, order := range orders {
			res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: order, Groups: []string{"public"}})
			if err != nil {
				return
			}
			checkRound46(t, q, order, res)
		}
	})
}

// TestRound46OddInput (rv46): FuzzRound46's seeds, judged twice alike over
// each order; Covered and Follow each decide some seed (so their reasons
// are checked); and very long questions of many "and"s, "or"s and cover
// words, over long chunks, judged in bounded time.
func TestRound46OddInput(t *testing.T) {
	b := round46Builtin()
	ev := round46Corpus()
	seen := map[string]int{}
	for _, q := range round46Seeds {
		for _, order := range round46Orders(ev) {
			a := assessChecked(t, b, Request{Question: q, Query: q, K: 5, Evidence: order, Groups: []string{"public"}})
			checkRound46(t, q, order, a)
			for _, p := range []string{coveredReasonPrefix, "read as ", "each part of the question is answered: "} {
				if strings.HasPrefix(a.Assessment.Reason, p) {
					seen[p]++
				}
			}
			z := assessChecked(t, b, Request{Question: q, Query: q, K: 5, Evidence: order, Groups: []string{"public"}})
			if a.Assessment.Sufficient != z.Assessment.Sufficient || a.Assessment.Reason != z.Assessment.Reason {
				t.Errorf("%.40q: judged %+v then %+v", q, a.Assessment, z.Assessment)
			}
		}
	}
	for _, p := range []string{coveredReasonPrefix, "read as ", "each part of the question is answered: "} {
		if seen[p] == 0 {
			t.Errorf("no seed was decided by a reason opening %q: it went unchecked", p)
		}
	}
	longEv := round46Corpus()
	for i := range longEv {
		longEv[i].Text = strings.Repeat(longEv[i].Text+" It is not covered by the warranty and does not cover the jar, the lid or the blade. ", 40)
	}
	orders := round46Orders(longEv)
	for _, long := range []string{
		strings.Repeat("I knocked my blender off the worktop and the jar cracked and the lid or the blade broke, ", 25) + "will you replace it for nothing under the warranty?",
		"How many " + strings.Repeat("stages and steps or statuses and ", 60) + "does a repair go through, and what are they?",
		"Which one's faster, " + strings.Repeat("the X200 or the X300 Pro, ", 70) + "and by how much?",
		strings.Repeat("and how much? ", 140),
		strings.Repeat("how many, and what are they? ", 70),
		strings.Repeat("£19.20 ", 280) + "Do I pay for delivery, and how much?",
		"How many " + strings.Repeat("stages ", 280) + "does a repair go through, and what are they?",
	} {
		start := time.Now()
		for _, order := range orders {
			res := assessChecked(t, b, Request{Question: long, Query: long, K: 5, Evidence: order, Groups: []string{"public"}})
			checkRound46(t, long, order, res)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%.40q (%d bytes) over long chunks took %v", long, len(long), d)
		}
	}
}
