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
