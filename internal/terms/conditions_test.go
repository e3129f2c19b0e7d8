package terms

import "testing"

// TestConditions: a question's condition ("before the water boils") is
// stated by a text with the same connective and one of its words within
// ConditionSpan ("before boiling"), not by one using the words without it
// ("boils 1.7 litres") nor another connective ("after boiling").
func TestConditions(t *testing.T) {
	a := New()
	conds := a.Conditions("My K50 keeps clicking off before the water boils. What's the fix?")
	if len(conds) != 1 || conds[0].Conn != "before" || !conds[0].Terms["boil"] || !conds[0].Terms["water"] {
		t.Fatalf("conditions %v, want before → water, boil", conds)
	}
	for text, want := range map[string]bool{
		"K50 kettles on firmware 2.1 may switch off before boiling.":   true,
		"The K50 smart kettle boils 1.7 litres in about four minutes.": false,
		"Let it cool after boiling.":                                   false,
		"Descale it before the first use, then boil the water.":        false, // "before" ends its clause at the comma
		"Unplug it before you boil more, please.":                      true,
	} {
		if _, got := a.StatesCondition(conds, text); got != want {
			t.Errorf("%q states the condition: %v, want %v", text, got, want)
		}
	}
	if got := a.Conditions("How often should I descale my K50?"); len(got) != 0 {
		t.Errorf("no connective: %v", got)
	}
}

// TestConditionsBounds (rv45b): a condition's words end at the next
// connective ("while the light is on" is no word of "before"), a text
// states it only within ConditionSpan words of its connective, and a
// comma or a spaced dash ends its clause. TestConditions passed with each
// bound taken out.
func TestConditionsBounds(t *testing.T) {
	a := New()
	conds := a.Conditions("It clicks off before the water boils while the light is on")
	if len(conds) != 2 || conds[0].Conn != "before" || conds[0].Terms["light"] || !conds[1].Terms["light"] {
		t.Fatalf("conditions %v, want before → water, boil; while → light", conds)
	}
	for text, want := range map[string]bool{
		"Unplug it before you can finally get it to boil.": false, // "boil" is the seventh word after "before"
		"Switch it off before use, boiling water scalds.":  false,
		"Switch it off before use - boiling water scalds.": false,
		"Switch it off before use boiling water.":          true,
	} {
		if _, got := a.StatesCondition(conds, text); got != want {
			t.Errorf("%q states the condition: %v, want %v", text, got, want)
		}
	}
}
