package citation

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/terms"
)

func TestMarkers(t *testing.T) {
	tests := []struct {
		in   string
		want [][]string
	}{
		{"covered for 5 years [1].", [][]string{{"1"}}},
		{"a [1][2] b [3, 4] c [Source 5] d [source 6 and source 7] e [1; 02]", [][]string{{"1"}, {"2"}, {"3", "4"}, {"5"}, {"6", "7"}, {"1", "2"}}},
		{"costs £3.95 [ 2 ]", [][]string{{"2"}}},
		{"no markers, a [note] and [a1] and [12345]", nil},
		{"[1,1]", [][]string{{"1"}}},
	}
	for _, tt := range tests {
		var got [][]string
		for _, m := range Markers(tt.in) {
			got = append(got, m.Labels)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Markers(%q) labels (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestSanitize(t *testing.T) {
	issued := []string{"1", "2", "3"}
	tests := []struct {
		name   string
		in     string
		want   string
		strips []Strip
	}{
		{"valid markers untouched", "Motors are covered for 5 years [1]. Blades are not [2, 3].",
			"Motors are covered for 5 years [1]. Blades are not [2, 3].", nil},
		{"unknown label stripped before the full stop", "Motors are covered for 5 years [9].",
			"Motors are covered for 5 years.", []Strip{{Marker: "[9]", Unknown: []string{"9"}}}},
		{"unknown label after the full stop", "Covered for 5 years. [9] Blades are not. [1]",
			"Covered for 5 years. Blades are not. [1]", []Strip{{Marker: "[9]", Unknown: []string{"9"}}}},
		{"mixed marker keeps issued labels", "Covered [1, 9] and [4][2].",
			"Covered [1] and [2].", []Strip{
				{Marker: "[1, 9]", Unknown: []string{"9"}, Kept: "[1]"},
				{Marker: "[4]", Unknown: []string{"4"}},
			}},
		{"marker at the start of a line", "[7] Covered for 5 years.", "Covered for 5 years.",
			[]Strip{{Marker: "[7]", Unknown: []string{"7"}}}},
		{"marker between words keeps one space", "covered [8] for five years", "covered for five years",
			[]Strip{{Marker: "[8]", Unknown: []string{"8"}}}},
		{"label zero is never issued", "Covered [0].", "Covered.", []Strip{{Marker: "[0]", Unknown: []string{"0"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, strips := Sanitize(tt.in, issued)
			if got != tt.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if diff := cmp.Diff(tt.strips, strips); diff != "" {
				t.Errorf("Sanitize(%q) strips (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	issued := []string{"1", "2", "3"}
	tests := []struct {
		name     string
		answer   string
		issued   []string
		wantRule Rule // "" accepts
		wantKind errs.Kind
	}{
		{"cited answer passes", "Motors are covered for 5 years. [1]", issued, "", errs.Other},
		{"apology that still answers and cites passes", "I'm sorry, but blade wear is not covered [1].", issued, "", errs.Other},
		{"empty", "  ", issued, RuleEmpty, errs.Schema},
		{"only markers", "[1] [2].", issued, RuleEmpty, errs.Schema},
		{"not found sentinel", "NOT_FOUND", issued, RuleRefusal, errs.Refused},
		{"not found sentinel with punctuation", " NOT_FOUND. ", issued, RuleRefusal, errs.Refused},
		{"free-form refusal", "I'm sorry, I cannot find that in the sources.", issued, RuleRefusal, errs.Refused},
		{"sources do not say", "The provided sources do not mention electric scooters.", issued, RuleRefusal, errs.Refused},
		{"no citation although sources were given", "Motors are covered for 5 years.", issued, RuleUncited, errs.Schema},
		{"only unknown citations", "Motors are covered for 5 years [9].", issued, RuleUncited, errs.Schema},
		{"no sources, no citation needed", "Motors are covered for 5 years.", nil, "", errs.Other},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.answer, tt.issued)
			var rej *Rejection
			if tt.wantRule == "" {
				if err != nil {
					t.Fatalf("Validate(%q) = %v, want accepted", tt.answer, err)
				}
				return
			}
			if !errors.As(err, &rej) || rej.Rule != tt.wantRule {
				t.Fatalf("Validate(%q) = %v, want rejection by %q", tt.answer, err, tt.wantRule)
			}
			if got := errs.KindOf(err); got != tt.wantKind {
				t.Errorf("Validate(%q) kind = %q, want %q", tt.answer, got, tt.wantKind)
			}
			if tt.wantKind.Retryable() {
				t.Errorf("rejection kind %q is retryable; a rejection must be final", tt.wantKind)
			}
		})
	}
}

func TestSplit(t *testing.T) {
	got := Split("Motors are covered for 5 years. [1] Blades are not covered [2, 3]. [9] Yes.")
	want := []Sentence{
		{Text: "Motors are covered for 5 years.", Labels: []string{"1"}},
		{Text: "Blades are not covered.", Labels: []string{"2", "3", "9"}},
		{Text: "Yes."},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Split (-want +got):\n%s", diff)
	}
}

// The Hollin warranty documents: 2026 terms are current, 2024 archived;
// a staff ticket repeats the current cover with low authority.
var (
	w2026 = Source{Label: "1", DocID: "pol-warranty-2026", Title: "Warranty terms (2026)", Status: corpus.Current, Authority: 1,
		Text: "Every Hollin appliance has a 2-year warranty from the date of purchase. Blender motors on the X200 and X300 Pro are covered for 5 years. The warranty covers manufacturing faults. It does not cover blade wear, cracked jars, limescale damage or accidental damage. You need proof of purchase to claim."}
	w2024 = Source{Label: "2", DocID: "pol-warranty-2024", Title: "Warranty terms (2024, archived)", Status: corpus.Archived, Authority: 1,
		Text: "Every Hollin appliance has a 1-year warranty from the date of purchase. Blender motors are covered for 2 years. The warranty covers manufacturing faults and cracked jars. You need proof of purchase to claim."}
	ticket = Source{Label: "3", DocID: "tkt-30501", Title: "Case 30501", Status: corpus.Current, Authority: 0.3,
		Text: "Case 30501. Agent told the customer the X300 Pro motor is covered for 2 years. Note from team lead: this followed the archived 2024 warranty terms; the current cover is 5 years."}
	spares = Source{Label: "4", DocID: "pol-spare-parts", Title: "Ordering spare parts", Status: corpus.Current, Authority: 1,
		Text: "Spare parts are sold at parts.hollin.example. Standard delivery takes 3 to 5 working days and costs £3.95. Delivery is free on parts orders over £30."}
)

func TestGround(t *testing.T) {
	g := NewGrounder(terms.New())
	all := []Source{w2026, w2024, ticket, spares}
	type want struct {
		kind          FlagKind
		sentence      int
		label, prefer string
	}
	tests := []struct {
		name    string
		answer  string
		sources []Source
		want    []want
	}{
		{"current source, supported", "Blender motors on the X300 Pro are covered for 5 years. [1]", all, nil},
		{"q02: archived terms cited while the current terms were given",
			"Blender motors are covered for 2 years. [2]", all,
			[]want{{StaleSource, 0, "2", "1"}}},
		{"archived cited alongside the current source is not flagged",
			"Every appliance has a warranty from the date of purchase. [1, 2]", all, nil},
		{"archived cited with no current source on the subject",
			"The warranty covers cracked jars. [2]", []Source{w2024, spares},
			[]want{{StaleSource, 0, "2", ""}}},
		{"low-authority ticket cited while the policy was given",
			"The X300 Pro motor is covered for 5 years. [3]", all,
			[]want{{LowerAuthority, 0, "3", "1"}}},
		{"low-authority ticket cited with the policy is fine",
			"The X300 Pro motor is covered for 5 years. [1, 3]", all, nil},
		{"low-authority ticket cited while the answer cites the policy elsewhere is fine",
			"The X300 Pro motor is covered for 5 years. [3] Blender motors on the X200 and X300 Pro are covered for 5 years. [1]", all, nil},
		{"a number the cited source does not have",
			"Blender motors are covered for 7 years. [1]", all,
			[]want{{Unsupported, 0, "1", ""}}},
		{"words the cited source does not have",
			"Spare parts ship by drone from the Wakefield warehouse overnight. [4]", all,
			[]want{{Unsupported, 0, "4", ""}}},
		{"uncited statement in a cited answer",
			"Delivery costs £3.95. [4] Engineers visit your home within a day of booking.", all,
			[]want{{UncitedSentence, 1, "", ""}}},
		{"unrelated current source does not make an archived citation better",
			"Blender motors are covered for 2 years. [2]", []Source{w2024, spares},
			[]want{{StaleSource, 0, "2", ""}}},
		{"a sentence citing only unissued labels counts as uncited",
			"Delivery costs £3.95 [4]. Delivery is free over £30 [9].", all,
			[]want{{UncitedSentence, 1, "", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			flags := g.Ground(tt.answer, tt.sources)
			var got []want
			for _, f := range flags {
				got = append(got, want{f.Kind, f.Sentence, f.Label, f.Prefer})
				if f.Detail == "" || f.Text == "" {
					t.Errorf("flag %+v has no detail or text", f)
				}
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("Ground(%q) (-want +got):\n%s\nflags: %v", tt.answer, diff, flags)
			}
		})
	}
}
