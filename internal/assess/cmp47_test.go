package assess

import (
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestSidesMeasure: builtin:coverage-v47's SidesMeasure. With Sides alone
// (v45+sides) a comparison by a measure the documents never name ("more
// powerful": the pages say "1,500 W"), one asked "how does X compare"
// (read as a procedure) and a which-or choice by a date ("runs out
// first") are refused; with SidesMeasure each side's own chunk holding a
// value of the compared measure answers them. A comparison whose measure
// no side holds ("louder") stays refused.
func TestSidesMeasure(t *testing.T) {
	agreements := []Evidence{
		{ChunkID: "hb#0", Title: "Partner handbook", Text: "Each partner agreement sets an hourly rate. Claims are paid within 14 days."},
		{ChunkID: "ash#0", Title: "Brook Street Repairs: partner agreement", Text: "Hollin pays Brook Street Repairs £42 per hour. The agreement runs to 31 March 2027."},
		{ChunkID: "elm#0", Title: "Calder Fix: partner agreement", Text: "Hollin pays Calder Fix £39 per hour. The agreement runs to 30 June 2027."},
		{ChunkID: "k5#0", Title: "K5 kettle", Text: "The K5 kettle boils 1.7 litres in about four minutes."},
	}
	for _, c := range []struct {
		q    string
		ev   []Evidence
		want bool
		on   []string // chunks the acceptance names
	}{
		{"Is the Z20 Max much more powerful than the Z10, or is it mostly marketing?", sidesLike, true, []string{"z10#0", "z20#0"}},
		{"How does the top speed of the Z20 Max compare with the Z10's?", sidesLike, true, []string{"z10#0", "z20#0"}},
		{"Which partner agreement runs out first, Brook Street's or Calder Fix's?", agreements, true, []string{"ash#0", "elm#0"}},
		{"is the Z20 Max louder than the Z10?", sidesLike, false, nil},
	} {
		an := terms.New()
		b := builtinOver(an, append(slices.Clone(c.ev), otherPages...))
		var got [2]bool
		for i, on := range []bool{false, true} {
			b.SidesMeasure = on
			res := assessChecked(t, b, Request{Question: c.q, Query: c.q, Evidence: c.ev, Groups: []string{"public"}})
			got[i] = res.Assessment.Sufficient
			if on && c.want {
				for _, id := range c.on {
					if !slices.Contains(res.Accepted, id) {
						t.Errorf("SidesMeasure: Assess(%q) accepted %v, want %v", c.q, res.Accepted, c.on)
					}
				}
			}
		}
		if got[0] {
			t.Errorf("Assess(%q) accepted without SidesMeasure: the case no longer tests it", c.q)
		}
		if got[1] != c.want {
			t.Errorf("SidesMeasure: Assess(%q) sufficient %v, want %v", c.q, got[1], c.want)
		}
	}
}

// otherPages are pages of other matters: a name on one page of the few a
// test's evidence holds would be background (backgroundShare).
var otherPages = []Evidence{
	{ChunkID: "f1#0", Title: "Privacy", Text: "We keep your account data for six years."},
	{ChunkID: "f2#0", Title: "Delivery", Text: "Standard delivery takes 3 to 5 working days."},
	{ChunkID: "f3#0", Title: "Registration", Text: "Register your appliance online."},
	{ChunkID: "f4#0", Title: "Hard water", Text: "Descale the kettle once a month in hard water areas."},
}

// listLike: the tracking page lists a repair's statuses; the
// specification page lists a blender's parts; the repairs page names a
// repair with no list.
var listLike = []Evidence{
	{ChunkID: "track#0", Title: "Tracking a repair", Text: "We email a tracking link when the courier collects your appliance. A repair shows as Booked, In workshop, Repaired, then Dispatched."},
	{ChunkID: "rep#0", Title: "Repairs and turnaround", Text: "We aim to repair and return an appliance within 10 working days of receiving it."},
	{ChunkID: "z10#0", Title: "Z10 specifications", Text: "The Z10 blender has a 1,200 W motor, a 2-litre jar, a pulse button, and three speeds."},
	{ChunkID: "k5#0", Title: "K5 kettle", Text: "The K5 kettle boils 1.7 litres in about four minutes."},
}

// TestListed: builtin:coverage-v47's Listed. A list question whose asked
// kind no document names ("statuses") is refused without it and taken
// with it on the sentence that enumerates the items beside the clause's
// known words; a list question about a product whose page enumerates its
// parts ("what colours does the Z10 come in") is refused either way: the
// enumeration holds no known word of the question but the product's
// name; and so is one whose enumeration lacks its words ("what stages
// will my repair pass through in the workshop's queue").
func TestListed(t *testing.T) {
	for _, c := range []struct {
		q    string
		want bool
	}{
		{"What statuses will my repair show as it goes along?", true},
		{"what are the different statuses my repair goes through on the tracker", true},
		{"What colours does the Z10 come in?", false},
		{"What grades will the courier give my appliance on arrival?", false},
	} {
		an := terms.New()
		b := builtinOver(an, listLike)
		var got [2]Result
		for i, on := range []bool{false, true} {
			b.Listed = on
			got[i] = assessChecked(t, b, Request{Question: c.q, Query: c.q, Evidence: listLike, Groups: []string{"public"}})
		}
		if got[0].Assessment.Sufficient {
			t.Errorf("Assess(%q) accepted without Listed: the case no longer tests it (%s)", c.q, got[0].Assessment.Reason)
		}
		if got[1].Assessment.Sufficient != c.want {
			t.Errorf("Listed: Assess(%q) = %+v, want sufficient %v", c.q, got[1].Assessment, c.want)
			continue
		}
		if c.want && (!slices.Equal(got[1].Accepted, []string{"track#0"}) || !strings.Contains(got[1].Assessment.Reason, "lists the things asked for")) {
			t.Errorf("Listed: Assess(%q) accepted %v: %s, want track#0 and its list", c.q, got[1].Accepted, got[1].Assessment.Reason)
		}
	}
}

func TestEnumerates(t *testing.T) {
	for s, want := range map[string]bool{
		"A repair shows as Booked, In workshop, Repaired, then Dispatched.":                  true,
		"A receipt, an order email, or a bank statement.":                                    true,
		"The X200 blender has a 1,200 W motor, a 2-litre Tritan jar and three speeds.":       false,
		"Book a repair with your model number, the date you bought it and a photo.":          false,
		"It covers faults, not wear that comes from everyday use over many years, or dents.": false,
	} {
		if got := enumerates(s); got != want {
			t.Errorf("enumerates(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestListQuestion(t *testing.T) {
	for q, want := range map[string]bool{
		"What statuses will my repair show?":                   true,
		"what are the different stages my repair goes through": true,
		"Which parts are on the internal price list?":          true,
		"What is the status of my repair?":                     false,
		"what else can I use to prove I bought it?":            false,
		"How many speeds does it have?":                        false,
		"What address do I send it to?":                        false,
	} {
		if got := listQuestion(q); got != want {
			t.Errorf("listQuestion(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestComparesBy: "how does/has X compare/change" is a comparison, "how
// do I change" a procedure.
func TestComparesBy(t *testing.T) {
	for q, want := range map[string]bool{
		"How does the top speed of the X300 Pro compare with the X200's?":                 true,
		"How has the blender motor cover changed between the 2024 and the 2026 warranty?": true,
		"How do I change the blades on the X200?":                                         false,
		"How does the X200 clean itself?":                                                 false,
	} {
		if got := comparesBy(q); got != want {
			t.Errorf("comparesBy(%q) = %v, want %v", q, got, want)
		}
	}
}
