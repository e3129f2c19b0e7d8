package answertype

import (
	"strings"
	"testing"
)

// TestValued holds the value questions Classify reads as statements, by
// cause, and statements Valued must leave alone.
func TestValued(t *testing.T) {
	for _, c := range []struct {
		q    string
		want Type
		unit string
	}{
		// no question word, marked by "?" or "please"
		{"Cost price on the HEPA filter, please?", Money, ""},
		{"internal cost for one PMP-X300 pump please", Money, ""},
		{"home visit fee we get from hollin?", Money, ""},
		{"top rpm on the x300 pro?", Quantity, "rotation speed"},
		{"jug capacity of the K50 in litres?", Quantity, "volume"},
		{"K50: 1.5 or 1.7 litres?", Description, ""}, // names the values: which holds
		// a comparative adjective of a measure
		{"Which is dearer for us to stock, the X300 pump or the P9 HEPA filter, and by how much?", Money, ""},
		{"which blender has the beefier motor, the X200 or the X300 Pro?", Description, ""}, // no one dimension
		{"Which of your two blenders has the stronger motor?", Description, ""},
		{"Which blender spins faster at top speed, the X200 or the X300 Pro?", Speed, ""},
		// a unit named after a comma
		{"What's the motor on the X300 Pro rated at, in watts?", Quantity, "power"},
		// a noun of the noun phrase naming the value
		{"what mains voltage are your appliances built for?", Quantity, "voltage"},
		{"What size jug does the X200 come with?", Quantity, ""},
		{"What's the deadline for sending Hollin a warranty labour claim?", Period, ""},
		{"which booking dates are hit by the repair centre move?", Date, ""},
		{"our deal with hollin - what date does it expire?", Description, ""},  // measured: typed, another page with a date
		{"Up to what date does the Calder Fix contract run?", Description, ""}, // measured: typed, the partner pages were refused or a wrong page taken
		{"Which X200s have the motor coupling that wears out early — ones built before when?", Date, ""},
		// money as the clause's verb, or the scene's noun
		{"What do we bill Hollin?", Money, ""},
		{"What's Hollin paying us per hour on warranty jobs?", Money, ""},
		{"For the recall budget I need the unit cost we pay per X200 jar - what is it?", Money, ""},
		// "how" and its value word inside the clause
		{"Just how fast do the blades on the Pro spin at the top setting?", Speed, ""},
		{"if I use my blender every single morning how often should the blades be swapped out", Frequency, ""},
		{"how long's the usual turnaround on a repair once you've got the appliance?", Period, ""},
		// statements stay statements
		{"what's hollin's position if I take my blender to the States and run it off a voltage converter?", Description, ""},
		{"If I decide to go ahead with an out-of-warranty repair, what happens to the fee I paid for the inspection?", Description, ""},
		{"Vitamin D supplementation lowers the price of care.", Description, ""},
		{"What does E7 mean on the X200?", Description, ""},
		{"what slip shows the date I bought it", Description, ""},
		{"which slip and invoice show the purchase date", Description, ""},
		{"moving to the States - if I run my kettle through a voltage converter is it still under warranty?", Description, ""},
	} {
		got := Valued(c.q)
		if got.Type != c.want || got.Unit != c.unit {
			t.Errorf("Valued(%q) = %q unit %q, want %q unit %q", c.q, got.Type, got.Unit, c.want, c.unit)
		}
	}
}

// TestValuedKeepsClassify: a question Classify reads as anything but a
// statement reads the same.
func TestValuedKeepsClassify(t *testing.T) {
	for _, q := range []string{"How often should I descale the K50?", "Can the jar go in the dishwasher?",
		"Where do I send my blender?", "How do I reset the kettle?", "What's the part number of the jar?"} {
		if a, b := Classify(q), Valued(q); a.Type != b.Type || a.Unit != b.Unit {
			t.Errorf("%q: Classify %q, Valued %q", q, a.Type, b.Type)
		}
	}
}

// TestValuedTwoParts: a question asking a second thing after "and" reads
// as Classify reads it; "and by how much" asks the same value's size.
func TestValuedTwoParts(t *testing.T) {
	for _, q := range []string{
		"For the X300 Pro, what's the top speed in rpm and what model number should I put on the repair form?",
		"Remind me of our labour rate with Hollin, and until what date is the agreement good for?",
	} {
		if got := Valued(q); got.Type != Description {
			t.Errorf("Valued(%q) = %q, want a statement", q, got.Type)
		}
	}
	if got := Valued("Which is dearer for us to stock, the X300 pump or the P9 HEPA filter, and by how much?"); got.Type != Money {
		t.Errorf("and by how much: %q, want %q", got.Type, Money)
	}
}

// TestValuedSceneMoney: "what is it" after a scene reads the scene for
// money only, as Valued's documentation says; a scene that names a
// measure's dimension or unit only describes the thing asked about ("what
// is it" asks what the code or the mark is).
func TestValuedSceneMoney(t *testing.T) {
	wantValued(t, map[string]Type{
		"For the recall budget I need the unit cost we pay per X200 jar - what is it?":              Money,
		"Team lead wants the internal cost of a PMP-X300 pump for a goodwill decision. What is it?": Money,
		"My kettle shows E7 on the temperature display - what is it?":                               Description,
		"The X200 jug has a 1.5 litres mark with a red symbol beside it - what is it?":              Description,
	})
}

// wantValued checks the type Valued reads each question as.
func wantValued(t *testing.T, want map[string]Type) {
	t.Helper()
	for q, w := range want {
		if got := Valued(q); got.Type != w {
			t.Errorf("Valued(%q) = %q unit %q, want %q", q, got.Type, got.Unit, w)
		}
	}
}

// TestValuedTypographic: a question written with typographic apostrophes
// (’) or with its question mark inside closing quotes or brackets, or
// full-width, reads as the same question written plainly.
func TestValuedTypographic(t *testing.T) {
	for _, c := range []struct{ typographic, plain string }{
		{"Who’s responsible for paying the call-out fee?", "Who's responsible for paying the call-out fee?"},
		{"What’s the deadline for sending Hollin a warranty labour claim?", "What's the deadline for sending Hollin a warranty labour claim?"},
		{"What’s Hollin paying us per hour on warranty jobs?", "What's Hollin paying us per hour on warranty jobs?"},
		{"how long’s the usual turnaround on a repair?", "how long's the usual turnaround on a repair?"},
		{"“top rpm on the x300 pro?”", "top rpm on the x300 pro?"},
		{"(cost price of the HEPA filter?)", "cost price of the HEPA filter?"},
		{"top rpm on the x300 pro？", "top rpm on the x300 pro?"},
	} {
		got, want := Valued(c.typographic), Valued(c.plain)
		if got.Type != want.Type || got.Unit != want.Unit {
			t.Errorf("Valued(%q) = %q unit %q, want %q unit %q as for %q", c.typographic, got.Type, got.Unit, want.Type, want.Unit, c.plain)
		}
	}
}

// TestValuedHowUnit: "how" inside the clause reads a unit the clause
// names as Classify does where "how" opens it ("how much does it weigh in
// kilos": a mass).
func TestValuedHowUnit(t *testing.T) {
	for _, q := range []string{"Just how much does it weigh in kilos?", "if I fill it to the top how much does the jug hold in litres"} {
		inner := q[strings.Index(q, "how"):]
		got, want := Valued(q), Classify(inner)
		if want.Unit == "" || got.Type != want.Type || got.Unit != want.Unit {
			t.Errorf("Valued(%q) = %q unit %q, want %q unit %q as Classify(%q)", q, got.Type, got.Unit, want.Type, want.Unit, inner)
		}
	}
}

// TestValuedByHowMuch: "by how much" after a comparative asks the size of
// the difference the comparative names (see twoPart), with a comma before
// it or not.
func TestValuedByHowMuch(t *testing.T) {
	wantValued(t, map[string]Type{
		"Which is dearer for us to stock, the X300 pump or the P9 HEPA filter, and by how much?": Money,
		"Which is dearer for us to stock and by how much?":                                       Money,
		"Between the X200 and X300 Pro, which one spins quicker flat out and by how much?":       Speed,
	})
}
