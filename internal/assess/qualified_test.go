package assess

import (
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// qualifiedEvidence are Hollin's pages, as written, that state an amount
// under a condition, over a threshold or to a payer another than the one
// a question asks about.
var qualifiedEvidence = []Evidence{
	{ChunkID: "pol-repairs#0", Title: "Repairs and turnaround", Text: "We aim to repair and return an appliance within 10 working days of receiving it. Collection by courier is free for appliances under warranty. Out-of-warranty repairs carry a £25 inspection fee, which is deducted from the repair price if you go ahead."},
	{ChunkID: "pol-spare-parts#0", Title: "Ordering spare parts", Text: "Spare parts are sold at parts.hollin.example. Standard delivery takes 3 to 5 working days and costs £3.95. Delivery is free on parts orders over £30."},
	{ChunkID: "ntc-x200-recall#0", Title: "Safety notice: X200 jar recall", Text: "X200 jars from batch B-2291 may crack when used with hot liquids. Stop using the jar and order a free replacement at hollin.example/recall. The batch number is printed on the base of the jar."},
}

// TestQualified: builtin:coverage-v31 refuses a question whose only
// amount is said of another kind or to another payer (and, with Condition
// and AmountOf, under the opposite condition), which v30 accepted, names
// it in its reason, and still accepts what the same evidence answers.
func TestQualified(t *testing.T) {
	corpus := append(append(append([]Evidence{}, hollinLike...), qualifiedEvidence...), customerPages...)
	for _, c := range []struct {
		q     string
		ev    []Evidence
		aside string
		ok    []string // questions the evidence answers, accepted by v31
		plus  bool     // the case needs Condition and AmountOf, off in v31
	}{
		{"My blender's out of warranty - what do you charge for the courier to collect it?", qualifiedEvidence[:1], "said under warranty, and the question asks out of warranty",
			[]string{"how much is courier collection for a blender under warranty?", "how much is the inspection fee for an out-of-warranty repair?",
				"if I go ahead with an out-of-warranty repair, do I pay the inspection fee on top of the repair price?"}, true},
		{"How much do you pay the repair firms who come out to people's houses for warranty jobs?", qualifiedEvidence[:1], "the question asks what you pay",
			[]string{"is courier collection free under warranty?"}, false},
		{"How much is next-day delivery on spare parts?", qualifiedEvidence[1:2], "said of Standard delivery",
			[]string{"how much is delivery on spare parts?", "what do you charge to post spare parts out to me?", "How much is delivery on a £40 parts order?"}, false},
	} {
		b, _ := assessorOver(corpus)
		if b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
			t.Fatalf("model %q, want builtin:coverage-v68", b.Model()) // v31's readings, and v32's … v50's (no thesaurus here)
		}
		if c.plus {
			b.Condition, b.AmountOf = true, true
			if b.Model() != BuiltinModel+"+condition+amountof" {
				t.Fatalf("model %q with Condition and AmountOf", b.Model())
			}
		}
		for _, q := range c.ok {
			req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: c.ev}
			if res := assessChecked(t, b, req); !res.Assessment.Sufficient {
				t.Errorf("v31 refused %q: %s", q, res.Assessment.Reason)
			}
		}
		req := Request{Question: c.q, Query: c.q, Groups: []string{"public"}, Evidence: c.ev}
		res := assessChecked(t, b, req)
		if res.Assessment.Sufficient {
			t.Errorf("v31 accepted %q: %s", c.q, res.Assessment.Reason)
		} else if !strings.Contains(res.Assessment.Reason, c.aside) {
			t.Errorf("v31's reason for %q does not say %q: %s", c.q, c.aside, res.Assessment.Reason)
		}
		b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false
		newerIf(b, false)
		b.Gate = false
		if res := assessChecked(t, b, req); !res.Assessment.Sufficient || b.Model() != V30Model {
			t.Errorf("v30 (%s) refused %q (the test no longer shows v31's readings): %s", b.Model(), c.q, res.Assessment.Reason)
		}
	}
}

// TestPayerOther: the payers a question about paying names that are not
// the asker.
func TestPayerOther(t *testing.T) {
	isName := func(w string) bool { return strings.EqualFold(w, "hollin") }
	for q, want := range map[string]string{
		"How much do you pay the repair firms who come out for warranty jobs?": "you",
		"what does it cost hollin to buy in a replacement X200 jar?":           "hollin",
		"How much does Hollin pay partners per repair?":                        "Hollin",
		"how much do you pay for delivery on spare parts?":                     "",
		"do you pay extra for next-day delivery?":                              "",
		"how much does it cost to replace the jar?":                            "",
		"what will it cost me to have it collected?":                           "",
		"how much do I pay the courier?":                                       "",
	} {
		if got, _ := payerOther(q, isName); got != want {
			t.Errorf("payerOther(%q) = %q, want %q", q, got, want)
		}
	}
}

// TestConditionsOf: the conditions a text states (nouns as terms, stemmed).
func TestConditionsOf(t *testing.T) {
	an := terms.New()
	for text, want := range map[string]string{
		"Collection by courier is free for appliances under warranty.": "warranti+",
		"My blender's out of warranty - what do you charge?":           "warranti-",
		"Out-of-warranty repairs carry a £25 inspection fee":           "warranti-",
		"outside the guarantee, is the fee the same?":                  "guarante-",
		"Submit claims within 14 days of the repair.":                  "",
	} {
		var got []string
		for _, c := range conditionsOf(an, text) {
			sign := "-"
			if c.in {
				sign = "+"
			}
			got = append(got, c.noun+sign)
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("conditionsOf(%q) = %q, want %q", text, g, want)
		}
	}
}
