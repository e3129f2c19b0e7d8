package assess

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"
)

// round45Corpus: the chunks of round 45's readings' tests (Measured,
// Situated, ListedClause), with distinct chunk ids.
func round45Corpus() []Evidence {
	return uniqueEvidence(situatedCorpus, measuredCorpus, listMoved)
}

// round45Builtin is the default assessor (Measured, Situated,
// ListedClause on) over round45Corpus.
func round45Builtin() *Builtin { return defaultOver(round45Corpus()) }

// reSituatedReason is Situated's reason.
var reSituatedReason = regexp.MustCompile(`^(".*") states the question's condition (\(".*"\)), which (".*") does not; judged alone it covers \d+% of the question's weight$`)

// checkRound45 checks res's assessment and, for Situated's reason, that
// every title it names is one of ev's and its condition's words are words
// of the chunk accepted: the caller sees nothing else.
func checkRound45(t *testing.T, q string, ev []Evidence, res Result) {
	t.Helper()
	if err := res.Assessment.Check(); err != nil {
		t.Errorf("%.60q: %v", q, err)
	}
	m := reSituatedReason.FindStringSubmatch(res.Assessment.Reason)
	if m == nil {
		return
	}
	var took, said, other string
	for _, p := range []struct {
		s string
		v *string
	}{{m[1], &took}, {strings.Trim(m[2], "()"), &said}, {m[3], &other}} {
		if _, err := fmtSscanQ(p.s, p.v); err != nil {
			t.Fatalf("%s: %v", p.s, err)
		}
	}
	var acc *Evidence
	titles := map[string]bool{}
	for i, e := range ev {
		titles[e.Title] = true
		if len(res.Accepted) == 1 && res.Accepted[0] == e.ChunkID {
			acc = &ev[i]
		}
	}
	if acc == nil || acc.Title != took || !titles[other] {
		t.Errorf("%.60q: reason %q names a title not given (accepted %v)", q, res.Assessment.Reason, res.Accepted)
		return
	}
	text := strings.ToLower(acc.Text)
	for _, w := range strings.Fields(said) {
		if !strings.Contains(text, w) {
			t.Errorf("%.60q: reason's condition %q: %q is no word of %q", q, said, w, acc.ChunkID)
		}
	}
}

// round45Seeds: odd and realistic questions for the three readings.
var round45Seeds = []string{"", "?", "...", "—", "’s", "before", "before?", "is there", "is there a", "is there a a a", "pay anything",
	"what payment", "how much", "how much?", "much how", "what are", "what statuses as", "what stages are there as it moves along",
	"My K50 keeps clicking off before the water boils. What's the fix?", "before before before before",
	"Is there a minimum spend to get free delivery on spare parts?", "what is the call-out payment we receive for a home visit",
	"How much can the X200 jug hold?", "What statuses will my repair show as it moves along?", "¿Qué pasa before 日本語 hervir? ÄÖÜ",
	"what stages, while, once, until, when, as?", "until: , ; — - ( ) before", "how much how much how much hold"}

// FuzzRound45 (rv45b): the default assessor judges any question over
// round45Corpus without a panic and with a reason that passes its check
// and names only what the caller sees; round 45's readers (Conditions,
// StatesCondition, measuredClassify, fieldsLower, moneyThing) read any
// text.
func FuzzRound45(f *testing.F) {
	for _, s := range round45Seeds {
		f.Add(s)
	}
	b := round45Builtin()
	ev := round45Corpus()
	f.Fuzz(func(t *testing.T, q string) {
		conds := b.an.Conditions(q)
		b.an.StatesCondition(conds, q)
		for _, e := range ev {
			b.an.StatesCondition(conds, e.Text)
		}
		fieldsLower(q)
		moneyThing(q)
		listQuestion(q)
		b.listAside(q)
		for _, order := range [][]Evidence{ev[:4], ev[3:8], ev[7:]} {
			res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: order, Groups: []string{"public"}})
			if err != nil {
				return
			}
			checkRound45(t, q, order, res)
		}
	})
}

// TestRound45OddInput (rv45b): FuzzRound45's seeds, judged twice alike
// over the situated corpus in two orders; and a very long question
// stating many conditions over long chunks stating many, judged in
// bounded time (Conditions and StatesCondition are linear in the text).
func TestRound45OddInput(t *testing.T) {
	b := round45Builtin()
	ev := round45Corpus()
	situated := 0
	for _, q := range round45Seeds {
		for _, order := range [][]Evidence{ev[:3], {ev[1], ev[0], ev[2]}, ev[3:8]} {
			a := assessChecked(t, b, Request{Question: q, Query: q, K: 5, Evidence: order, Groups: []string{"public"}})
			checkRound45(t, q, order, a)
			if reSituatedReason.MatchString(a.Assessment.Reason) {
				situated++
			}
			z := assessChecked(t, b, Request{Question: q, Query: q, K: 5, Evidence: order, Groups: []string{"public"}})
			if a.Assessment.Sufficient != z.Assessment.Sufficient || a.Assessment.Reason != z.Assessment.Reason {
				t.Errorf("%.40q: judged %+v then %+v", q, a.Assessment, z.Assessment)
			}
		}
	}
	if situated == 0 {
		t.Errorf("no seed was judged by Situated: its reason went unchecked")
	}
	long := strings.Repeat("My K50 keeps clicking off before the water boils and after it is filled, until it is unplugged; how much does it cost, is there a minimum spend? ", 300)
	longEv := make([]Evidence, len(ev))
	copy(longEv, ev)
	for i := range longEv {
		longEv[i].Text = strings.Repeat(longEv[i].Text+" It may switch off before boiling, while cold, without water. ", 40)
	}
	start := time.Now()
	conds := b.an.Conditions(long)
	for _, e := range longEv {
		b.an.StatesCondition(conds, e.Text)
	}
	assessChecked(t, b, Request{Question: long, Query: long, K: 5, Evidence: longEv[:4], Groups: []string{"public"}})
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("a long question over long chunks took %v", d)
	}
}
