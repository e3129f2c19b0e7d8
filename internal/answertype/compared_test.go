package answertype

import "testing"

func TestCompared(t *testing.T) {
	for _, c := range []struct {
		q    string
		typ  Type
		unit string
		ok   bool
	}{
		{"is the Z20 louder than the Z10?", Quantity, "loudness", true},
		{"is the Z20 a lot quicker than the Z10 flat out?", Speed, "", true},
		{"is the Z20 dearer than the Z10?", Money, "", true},
		{"is the Z20’s motor much beefier than the Z10’s?", "", "", false},
		{"is the Z20 more powerful than the Z10?", Quantity, "power", true},
		{"is the Z20 much less heavy than the Z10?", Quantity, "mass", true},
		{"is the Z20 jug more expensive than the Z10's?", Money, "", true},
		{"is the Z20 more reliable than the Z10?", "", "", false},
		{"is the Z20 powerful?", "", "", false},
		{"which lease ends first, the shop's or the depot's?", Date, "", true},
	} {
		q, ok := Compared(c.q)
		if ok != c.ok || q.Type != c.typ || q.Unit != c.unit {
			t.Errorf("Compared(%q) = %+v, %v; want %q %q %v", c.q, q, ok, c.typ, c.unit, c.ok)
		}
	}
}
