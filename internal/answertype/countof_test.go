package answertype

import (
	"strings"
	"testing"
	"time"
)

// TestCountsTimeOrMoneyEach (rv46b): each reading of CountsTimeOrMoney
// is needed: a time unit, a working/extra word, a month, a weekday, a
// function word, each currency sign (with or without a space after it),
// and a count of things ("3 blades", "5 settings") is none. An empty or
// blank expr counts nothing and returns at once (it would be found at
// every offset of the sentence).
func TestCountsTimeOrMoneyEach(t *testing.T) {
	for _, c := range []struct {
		expr, sentence string
		want           bool
	}{
		{"3 days", "It takes 3 days.", true},
		{"two hours", "Allow two hours.", true},
		{"10 working", "within 10 working days", true},
		{"2 extra", "may take 2 extra working days", true},
		{"16 October", "until 16 October", true},
		{"3 Monday", "from 3 Monday", true},
		{"1 and", "between 1 and 16 June", true},
		{"1 or", "press 1 or 2", true},
		{"25 inspection", "carry a £25 inspection fee", true},
		{"25 inspection", "carry a £ 25 inspection fee", true},
		{"40 deposit", "a $40 deposit", true},
		{"30 voucher", "a €30 voucher", true},
		{"500 fee", "a ¥500 fee", true},
		{"25 inspection", "25 inspection points, then a £25 inspection fee", true},
		{"3 blades", "The X300 Pro has 3 blades and ten speeds.", false},
		{"5 settings", "£4 buys 5 settings", false},
		{"", "anything at all", true},
		{"  ", "anything  at all", true},
	} {
		done := make(chan bool, 1)
		go func() { done <- CountsTimeOrMoney(c.expr, c.sentence) }()
		select {
		case got := <-done:
			if got != c.want {
				t.Errorf("CountsTimeOrMoney(%q, %q) = %v, want %v", c.expr, c.sentence, got, c.want)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("CountsTimeOrMoney(%q, %q) does not return", c.expr, c.sentence)
		}
	}
	long := strings.Repeat("carry 25 inspection points, ", 20000) + "£25 inspection"
	if !CountsTimeOrMoney("25 inspection", long) {
		t.Errorf("a sum after the 20001st mention not found")
	}
}

// TestCountsTimeOrMoneyStrictly (a47-rv, rv46b P3): "extra", "full",
// "whole" and the kinds of day after a number count time only before a
// unit of time; CountsTimeOrMoney takes "3 extra" in "3 extra blades" for
// time.
func TestCountsTimeOrMoneyStrictly(t *testing.T) {
	for _, c := range []struct {
		expr, sentence string
		loose, strict  bool
	}{
		{"3 extra", "The Z10 comes with 3 extra blades.", true, false},
		{"2 full", "Fill 2 full jugs.", true, false},
		{"2 extra", "Repairs booked then may take 2 extra working days.", true, true},
		{"10 working", "We aim to repair it within 10 working days.", true, true},
		{"3 days", "It takes 3 days.", true, true},
		{"25 inspection", "Out-of-warranty repairs carry a £25 inspection fee.", true, true},
		{"1 and", "Repairs booked between 1 and 16 October.", true, true},
		{"3 blades", "The X300 Pro has ten speeds and 3 blades.", false, false},
		{"2 whole", "It takes 2 extra blades, then 2 whole weeks.", true, true},
	} {
		if got := CountsTimeOrMoney(c.expr, c.sentence); got != c.loose {
			t.Errorf("CountsTimeOrMoney(%q, %q) = %v, want %v", c.expr, c.sentence, got, c.loose)
		}
		if got := CountsTimeOrMoneyStrictly(c.expr, c.sentence); got != c.strict {
			t.Errorf("CountsTimeOrMoneyStrictly(%q, %q) = %v, want %v", c.expr, c.sentence, got, c.strict)
		}
	}
	if !CountsTimeOrMoneyStrictly("", "anything") {
		t.Errorf("CountsTimeOrMoneyStrictly of an empty expr = false, want true")
	}
}

// TestMeasureUnit (a47-rv, rv46b P2): units of a measure with a dimension,
// not the things a kitchen counts.
func TestMeasureUnit(t *testing.T) {
	for w, want := range map[string]bool{"W": true, "kW": true, "litres": true, "rpm": true, "mm": true, "°C": true,
		"cups": false, "cup": false, "speeds": false, "settings": false, "blades": false, "%": false} {
		if got := MeasureUnit(w); got != want {
			t.Errorf("MeasureUnit(%q) = %v, want %v", w, got, want)
		}
	}
}
