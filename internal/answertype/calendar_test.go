package answertype

import "testing"

func TestCalendar(t *testing.T) {
	for _, c := range []struct {
		expr string
		want bool
	}{
		{"before March", true}, {"2026", true}, {"31 March 2027", true}, {"Saturday", true},
		{"3 to 5 working days", false}, {"within 14 days", false}, {"overnight", false}, {"5 years", false},
	} {
		if got := Calendar(c.expr); got != c.want {
			t.Errorf("Calendar(%q) = %v, want %v", c.expr, got, c.want)
		}
	}
	// Each calendar expression is one Find(Period) reports: the check
	// is on what a period question's finder takes.
	if got := Find(Period, "Fit the kit to units made before March 2025."); len(got) == 0 || !Calendar(got[0]) {
		t.Errorf("Find(Period) = %q: want a calendar expression first", got)
	}
}

func TestAskedUnit(t *testing.T) {
	for _, c := range []struct {
		q         string
		dim, unit string
	}{
		{"what rpm does the x200 do on its lowest speed", "rotation speed", "rpm"},
		{"Which wattage is the K50?", "power", "wattage"},
		{"what is the rpm of the X200?", "rotation speed", "rpm"},
		{"what does E7 mean?", "", ""},
		{"how many watts is the X200?", "", ""},
	} {
		dim, unit, ok := AskedUnit(c.q)
		if dim != c.dim || unit != c.unit || ok != (c.dim != "") {
			t.Errorf("AskedUnit(%q) = %q, %q, %v; want %q, %q", c.q, dim, unit, ok, c.dim, c.unit)
		}
	}
}

// TestAskedUnitUnclassified pins why AskedUnit exists: Classify reads a
// measure asked for by its unit after "what" as no particular type.
func TestAskedUnitUnclassified(t *testing.T) {
	if q := "what rpm does the x200 do on its lowest speed"; Classify(q).Type != Description {
		t.Errorf("Classify(%q) reads a type: AskedUnit is for the questions it does not", q)
	}
}
