package assess

import (
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/answertype"
)

// kindsEvidence are pages whose expression of the expected type is of
// another kind than a question asks for: a date for a period, a speed of
// another setting.
var kindsEvidence = []Evidence{
	{ChunkID: "sb-109#0", Title: "SB-109: X200 motor coupling", Text: "Fit the CPL-X200 coupling kit to X200 blenders made before March 2025. The kit is free to customers."},
	{ChunkID: "man-x200-specs#0", Title: "X200 Blender specifications", Text: "The X200 blender has a 1,200 W motor, a 2-litre jar and three speeds. High speed reaches 22,000 RPM."},
	{ChunkID: "sb-109#1", Title: "SB-109: fitting time", Text: "Fitting the CPL-X200 coupling kit takes about 20 minutes."},
}

// TestCalendarIsNoPeriod: v14 refuses a "how long" question on a page
// whose only period-like expression is a date; v13 accepted it; a page
// stating a length of time is still accepted.
func TestCalendarIsNoPeriod(t *testing.T) {
	b, _ := assessorOver(append(hollinLike, kindsEvidence...))
	q := "How long should fitting a CPL-X200 coupling kit take?"
	req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: kindsEvidence[:1]}
	res := assessChecked(t, b, req)
	if res.Assessment.Sufficient {
		t.Fatalf("v14 accepted %q on a date: %s", q, res.Assessment.Reason)
	}
	if !strings.Contains(res.Assessment.Reason, "a period of time") {
		t.Errorf("reason %q does not name the period asked for", res.Assessment.Reason)
	}
	b.Calendar = false
	if res := assessChecked(t, b, req); !res.Assessment.Sufficient || b.Model() != BuiltinModel+"-nocalendar" {
		t.Fatalf("Calendar off (%s) refused %q: %s (the test no longer shows the calendar check)", b.Model(), q, res.Assessment.Reason)
	}
	b.Calendar = true
	req.Evidence = []Evidence{kindsEvidence[0], kindsEvidence[2]}
	if res := assessChecked(t, b, req); !res.Assessment.Sufficient || len(res.Accepted) == 0 || res.Accepted[0] != "sb-109#1" {
		t.Errorf("v14 on %q with the fitting time = %+v, want accepted on sb-109#1", q, res)
	}
}

// TestShapedKinds: "what rpm" asks for a measure of rotation speed, and
// "the lowest speed" is another kind than "High speed": v14 refuses what
// v13 accepted, and accepts the same page for the speed it states.
func TestShapedKinds(t *testing.T) {
	b, _ := assessorOver(append(hollinLike, kindsEvidence...))
	ev := kindsEvidence[1:2]
	q := "what rpm does the x200 do on its lowest speed"
	req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: ev}
	res := assessChecked(t, b, req)
	if res.Assessment.Sufficient {
		t.Fatalf("v14 accepted %q on the high speed: %s", q, res.Assessment.Reason)
	}
	if !strings.Contains(res.Assessment.Reason, "rotation speed") {
		t.Errorf("reason %q does not name the measure asked for", res.Assessment.Reason)
	}
	b.Shaped, b.Valued, b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false // v26 reads "what rpm" as Shaped does
	newerIf(b, false)
	b.Gate = false
	if res := assessChecked(t, b, req); !res.Assessment.Sufficient {
		t.Fatalf("v13 refused %q: %s (the test no longer shows the shaped kinds)", q, res.Assessment.Reason)
	}
	b.Shaped, b.Valued, b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound = true, true, true, true, true, true, false, true, true, false, true, false, true, true, true, true, true
	for _, q := range []string{
		"what rpm does the x200 do on its highest speed", // "High speed" is the highest's kind
		"what rpm does the X200 reach on high speed?",
	} {
		req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: ev}
		if res := assessChecked(t, b, req); !res.Assessment.Sufficient {
			t.Errorf("v14 refused %q: %s", q, res.Assessment.Reason)
		}
	}
}

// TestShapedModifiers: the modifiers read as picking out a kind by their
// shape, and those that are not: a word ending in "est" is a superlative
// only when its positive is a known word ("interest", "request" and
// "harvest" are not, whatever the documents say), and never when it is an
// English word whose "est" is no suffix ("modest", though the documents
// name a "mode").
func TestShapedModifiers(t *testing.T) {
	known := func(p string) bool {
		return slices.Contains([]string{"low", "fast", "late", "big", "early", "interests", "requests", "harvests",
			"mode", "hone", "earn", "earne", "interest", "request", "harvest"}, p)
	}
	for w, want := range map[string]bool{
		"next-day": true, "lowest": true, "fastest": true, "\"same-day\"": true, "latest": true, "biggest": true, "earliest": true,
		"best": false, "x-200": false, "30-day": false, "low": false, "-day": false, "test": false,
		"interest": false, "request": false, "harvest": false, "slowest": false, // "slow" not known
		"modest": false, "honest": false, "earnest": false, "Modest": false, // no superlatives, whatever is known
	} {
		if got := shapedKind(w, known); got != want {
			t.Errorf("shapedKind(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestWhenClause: a "when" clause states the time a "when will I" question
// asks for; v13 found none in it.
func TestWhenClause(t *testing.T) {
	b, _ := newTestAssessor()
	q := "when will I get an email with the tracking for my repair?"
	req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: hollinLike[4:5]}
	res := assessChecked(t, b, req)
	if !res.Assessment.Sufficient || !strings.Contains(res.Assessment.Reason, "when the courier collects your appliance") {
		t.Fatalf("v14 on %q = %+v, want accepted on the when clause", q, res.Assessment)
	}
	b.WhenClause = false
	if res := assessChecked(t, b, req); res.Assessment.Sufficient {
		t.Fatalf("v13 accepted %q: %s (the test no longer shows the when clause)", q, res.Assessment.Reason)
	}
}

// TestWhenQuestionIsNoClause: a page that only asks the question ("When
// does the tracking email for a repair arrive?", an FAQ heading) states no
// time: its "when" opens a question, not a clause saying when.
func TestWhenQuestionIsNoClause(t *testing.T) {
	ev := []Evidence{{ChunkID: "faq-tracking#0", Title: "Repair tracking", Text: "When does the tracking email for a repair arrive? Please contact our team for help."}}
	b, _ := assessorOver(append(hollinLike, ev...))
	q := "when will I get an email with the tracking for my repair?"
	req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: ev}
	if res := assessChecked(t, b, req); res.Assessment.Sufficient {
		t.Fatalf("v14 accepted %q on a page asking it: %s", q, res.Assessment.Reason)
	}
	if got := b.finds(answertype.Question{Type: answertype.Condition}, "When does the tracking email arrive?"); len(got) != 0 {
		t.Errorf("finds in a when question = %q, want none", got)
	}
	if got := b.finds(answertype.Question{Type: answertype.Condition}, "We email a tracking link when the courier collects your appliance."); len(got) != 1 {
		t.Errorf("finds in a when clause = %q, want it", got)
	}
}

// TestWhenClauseAfterQuestion: a question mark ends a "when" question, so
// a "when" clause after it in the same sentence (the splitter keeps a "?"
// followed by a lower-case word in one sentence) is still found.
func TestWhenClauseAfterQuestion(t *testing.T) {
	b, _ := newTestAssessor()
	s := "When does the tracking email arrive? when the courier collects your appliance."
	got := b.finds(answertype.Question{Type: answertype.Condition}, s)
	if !slices.Contains(got, "when the courier collects your appliance") {
		t.Errorf("finds(%q) = %q, want the when clause after the question", s, got)
	}
	if slices.ContainsFunc(got, func(f string) bool { return strings.Contains(f, "arrive") }) {
		t.Errorf("finds(%q) = %q: the question asking when states no time", s, got)
	}
}

// TestPlainAbbrev: a month's abbreviation with a year is a date, not an
// entity no document mentions.
func TestPlainAbbrev(t *testing.T) {
	b, lex := newTestAssessor()
	vocab := lex.Visible([]string{"public"})
	q := "X200 in for its first repair, made Jan 2025. Is the motor covered?"
	names := func() []string {
		var out []string
		for _, e := range b.plainEntities(Entities(b.an, q, vocab), nil) {
			out = append(out, e.Text)
		}
		return out
	}
	if got := names(); len(got) != 1 || got[0] != "X200" {
		t.Errorf("v14 entities of %q: %v, want [X200]", q, got)
	}
	b.PlainAbbrev = false
	if got := names(); len(got) != 2 {
		t.Errorf("v13 entities of %q: %v, want X200 and the date (the test no longer shows PlainAbbrev)", q, got)
	}
}

// TestHedges: "the usual delivery" names no kind of delivery: v14 reads
// "usual" as a generic word, v13 read it as a kind that "Standard
// delivery" is another of, and refused.
func TestHedges(t *testing.T) {
	ev := []Evidence{{ChunkID: "pol-spare-parts#0", Title: "Ordering spare parts", Text: "Spare parts are sold at parts.hollin.example. Standard delivery takes 3 to 5 working days and costs £3.95."}}
	b, _ := assessorOver(append(hollinLike, ev...))
	q := "Roughly how long do spare parts take to turn up with the usual delivery?"
	req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: ev}
	if res := assessChecked(t, b, req); !res.Assessment.Sufficient || !strings.Contains(res.Assessment.Reason, "3 to 5 working days") {
		t.Fatalf("v14 on %q = %+v, want accepted on the standard delivery time", q, res.Assessment)
	}
	b.Hedges = false
	if res := assessChecked(t, b, req); res.Assessment.Sufficient || b.Model() != BuiltinModel+"-nohedges" {
		t.Fatalf("Hedges off (%s) accepted %q: %s (the test no longer shows the hedge words)", b.Model(), q, res.Assessment.Reason)
	}
	b.Hedges = true
	if g := b.genericTerms(); !g["usual"] || !g["roughli"] && !g["roughly"] || g["normal"] {
		t.Errorf("hedge words: usual %v, roughly %v, normal %v; want generic, generic, not", g["usual"], g["roughli"] || g["roughly"], g["normal"])
	}
}
