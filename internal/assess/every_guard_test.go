package assess

import (
	"strings"
	"testing"
)

// everyGuardCorpus: a page about every appliance's filter, the K9
// Kettle's own page (it states how often to clean it, not its filter),
// and a page about every appliance's filter that writes a word of a
// code's form ("2-step": a letter and a digit) though it names no
// product (the analyzer reads "2" and "step").
var everyGuardCorpus = []Evidence{
	{ChunkID: "gen#0", Title: "Appliance filters", Text: "Clean the filter of any appliance every two weeks."},
	{ChunkID: "k9#0", Title: "K9 Kettle", Text: "The K9 Kettle boils water fast. Clean it once a month."},
	{ChunkID: "k9care#0", Title: "K9 care", Text: "Clean the K9 once a month."},
	{ChunkID: "kettles#0", Title: "Kettles", Text: "Descale a kettle every month."},
}

// plainKeyCorpus: everyGuardCorpus's filter page, and one that writes a
// word of a code's form.
var plainKeyOther = append([]string{"K9 Kettle\nThe K9 Kettle boils water fast."}, everyGuardOther...)

var plainKeyCorpus = []Evidence{
	everyGuardCorpus[0],
	{ChunkID: "gen2#0", Title: "Appliance filters", Text: "Clean the filter of any appliance every two weeks with a 2-step rinse."},
}

var everyGuardOther = []string{"Opening hours\nWe open at nine.", "Registering your appliance\nRegister it online.", "Switching on\nHold the button to turn it on.",
	"Filters\nClean filters with water.", "Cleaning\nClean the jug.", "Toaster T3\nThe T3 filter is washable.", "Blender B2\nClean the B2 after use."}

// TestEveryOwnValue (round 48, rv47's P3): Every's ownValue. Asked "how
// often should I clean the filter of my kettle" ("kettle" the question's
// most specific term; the filter page holds it only as the class of a
// product), over the filter page for every appliance and the K9 Kettle's
// own page, which states a frequency of the kettle (ownValue holds):
// Every does not take the filter page as the kettle's, so with Alone off
// the K9 Kettle's page is accepted (at its 0.69 coverage), and by default
// Alone's reading takes the filter page only as the question's words the
// documents use — its reason does not say it holds "kettle". Alone, the
// filter page is the kettle's (no own page states a value): accepted
// "including "kettle"". Killing: ownValue made to return false (its first
// guard `!r.every || r.key < 0` replaced by `true`) accepts the filter
// page with Alone off, and by default with the reason "including
// "kettle""; each of ownValue's other guards (the code written, the key
// covered with the product's names, the value typed) forced the other
// way fails it too (see the round 48 log).
func TestEveryOwnValue(t *testing.T) {
	q := "How often should I clean the filter of my kettle?"
	for _, ids := range [][]string{{"gen#0", "k9#0"}, {"k9#0", "gen#0"}} {
		r := judgeAmong(t, everyGuardCorpus, everyGuardOther, func(b *Builtin) { b.Alone, b.Rival = 0, 0 }, q, ids...)
		if acceptedOn(r) != "k9#0" {
			t.Errorf("Alone and Rival off, %q over %v: accepted %v (%s), want k9#0, the kettle's own page", q, ids, r.Accepted, r.Assessment.Reason)
		}
	}
	// The own page names the kettle only by its code ("K9 care"; the
	// K9 Kettle's page names it): read with the product's names.
	for _, ids := range [][]string{{"gen#0", "k9care#0"}, {"k9care#0", "gen#0"}} {
		r := judgeAmong(t, everyGuardCorpus, everyGuardOther, func(b *Builtin) { b.Alone, b.Rival = 0, 0 }, q, ids...)
		if strings.Contains(r.Assessment.Reason, `including "kettle"`) {
			t.Errorf("Alone and Rival off, %q over %v: accepted %v as the kettle's (%s)", q, ids, r.Accepted, r.Assessment.Reason)
		}
	}
	// A page naming no code that holds "kettle" as written is no own
	// page: the filter page stays the kettle's.
	for _, ids := range [][]string{{"gen#0", "kettles#0"}, {"kettles#0", "gen#0"}} {
		r := judgeAmong(t, everyGuardCorpus, everyGuardOther, func(b *Builtin) { b.Alone, b.Rival = 0, 0 }, q, ids...)
		if acceptedOn(r) != "gen#0" {
			t.Errorf("Alone and Rival off, %q over %v: accepted %v (%s), want gen#0, the filter page", q, ids, r.Accepted, r.Assessment.Reason)
		}
	}
	r := judgeAmong(t, everyGuardCorpus, everyGuardOther, func(*Builtin) {}, q, "gen#0")
	if acceptedOn(r) != "gen#0" || !strings.Contains(r.Assessment.Reason, `including "kettle"`) {
		t.Errorf("%q over the filter page alone: accepted %v (%s), want it as the kettle's", q, r.Accepted, r.Assessment.Reason)
	}
}

// TestEveryPlainKey (round 48, rv47's P3): Every's plainKey. A page
// naming no product that writes a word of a code's form ("a 2-step
// rinse") is read by plainKey as a page of one product (writesCode reads
// the text, not the analyzer's terms), so Every does not take it as the
// kettle's: asked "how often should I clean the filter of my kettle", the
// plain filter page is accepted as the kettle's ("including "kettle"")
// and the "2-step" one is not. Killing: classKey's guard `if
// !j.have[plainKey]` dropped (every chunk read as plain), or Assess
// marking every chunk plain (`!writesCode(…)` dropped), accepts the
// "2-step" page as the kettle's.
func TestEveryPlainKey(t *testing.T) {
	q := "How often should I clean the filter of my kettle?"
	if r := judgeAmong(t, plainKeyCorpus, plainKeyOther, func(*Builtin) {}, q, "gen#0"); acceptedOn(r) != "gen#0" || !strings.Contains(r.Assessment.Reason, `including "kettle"`) {
		t.Errorf("the plain filter page: accepted %v (%s), want it as the kettle's", r.Accepted, r.Assessment.Reason)
	}
	if r := judgeAmong(t, plainKeyCorpus, plainKeyOther, func(*Builtin) {}, q, "gen2#0"); strings.Contains(r.Assessment.Reason, `including "kettle"`) {
		t.Errorf("the 2-step filter page: accepted %v as the kettle's (%s)", r.Accepted, r.Assessment.Reason)
	}
}
