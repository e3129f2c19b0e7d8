package assess

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// sidesLike: a policy page naming both blenders with a period, and each
// blender's specification page with its own figures.
var sidesLike = []Evidence{
	{ChunkID: "pol#0", Title: "Warranty terms", Text: "Every appliance has a 2-year warranty. Blender motors on the Z10 and Z20 Max are covered for 5 years."},
	{ChunkID: "z20#0", Title: "Z20 Max specifications", Text: "The Z20 Max blender has a 1,500 W motor and ten speeds. High speed reaches 30,000 RPM."},
	{ChunkID: "z10#0", Title: "Z10 specifications", Text: "The Z10 blender has a 1,200 W motor and three speeds. High speed reaches 22,000 RPM."},
	{ChunkID: "kettle#0", Title: "K5 kettle", Text: "The K5 kettle boils 1.7 litres in about four minutes. Descale it once a month."},
	{ChunkID: "track#0", Title: "Tracking a repair", Text: "We email a tracking link when the courier collects your appliance."},
}

// TestSides: builtin:coverage-v33+sides (Builtin.Sides) judges a comparison
// that no chunk answers alone on each named thing's own chunk holding a
// value of what is compared, where the page naming both things (and no
// such value) was judged alone and refused. Without Sides the same
// questions are refused; a comparison whose value no side holds ("louder":
// no loudness on either page) is refused with it too.
func TestSides(t *testing.T) {
	an := terms.New()
	b := builtinOver(an, sidesLike)
	for _, c := range []struct {
		q      string
		accept bool
		reason string
	}{
		{"is the Z20 Max's motor much beefier than the Z10's?", true, `holds a measure with a unit near it: "1,500 W"`},
		{"Which one's faster at full power, the Z10 or the Z20 Max?", true, "holds a speed or time near it"},
		{"is the Z20 Max louder than the Z10?", false, ""},
	} {
		for _, on := range []bool{false, true} {
			b.Sides = on
			res, err := b.Assess(context.Background(), Request{Question: c.q, Query: c.q, Evidence: sidesLike, Groups: []string{"public"}})
			if err != nil {
				t.Fatal(err)
			}
			a := res.Assessment
			want := c.accept && on
			if a.Sufficient != want {
				t.Errorf("Sides %v: Assess(%q) = %+v, want sufficient %v", on, c.q, a, want)
				continue
			}
			if !want {
				continue
			}
			if !slices.Contains(res.Accepted, "z10#0") || !slices.Contains(res.Accepted, "z20#0") || slices.Contains(res.Accepted, "pol#0") {
				t.Errorf("Assess(%q) accepted %v, want the two specification pages", c.q, res.Accepted)
			}
			if !strings.Contains(a.Reason, c.reason) || !strings.Contains(a.Reason, `with "Z`) {
				t.Errorf("Assess(%q) reason %q, want both pages and %q", c.q, a.Reason, c.reason)
			}
		}
	}
	// One page naming both things, with one value of another matter (a
	// cover period), decides no comparison of their motors: Sides needs
	// a chunk of each side's own.
	b.Sides = true
	onePage := []Evidence{sidesLike[0], sidesLike[3], sidesLike[4]}
	q := "is the Z20 Max's motor much beefier than the Z10's?"
	if res := assessChecked(t, b, Request{Question: q, Query: q, Evidence: onePage, Groups: []string{"public"}}); res.Assessment.Sufficient {
		t.Errorf("Sides accepted %q on one page naming both: %s", q, res.Assessment.Reason)
	}
	if m := b.Model(); m != BuiltinModel {
		t.Errorf("model %q, want %s (v47 turns Sides on)", m, BuiltinModel)
	}
}

// TestSidesRefusesAsWithout (rv32): where Sides judges no comparison
// sufficient, the assessment is the one without it (sides returns only a
// judgement that suffices). sides reads each
// chunk for values of types the question does not ask for (a count for
// "beefier"), and answerIn notes what it sets aside for a refusal's
// reason: "2.5 stars" set aside as "a decimal, not a count" was reported
// for a yes/no question ("holds none near "Z20", only "2.5 stars" (a
// decimal, not a count)").
func TestSidesRefusesAsWithout(t *testing.T) {
	an := terms.New()
	starred := []Evidence{{ChunkID: "pol#0", Title: "Warranty terms", Text: "The Z10 and Z20 Max motors: 2.5 stars."}, sidesLike[3], sidesLike[4]}
	for _, c := range []struct {
		q  string
		ev []Evidence
	}{
		{"is the Z20 Max's motor much beefier than the Z10's?", starred},
		{"is the Z20 Max's motor beefier than the Z10's when grinding coffee beans?", sidesLike},
		// the two specification pages together hold a value each but
		// not "warranty": sides' judgement, short of sufficing, is not
		// the one refused
		{"is the Z20 Max's motor beefier than the Z10's under warranty?", sidesLike},
		{"is the Z20 Max louder than the Z10?", sidesLike},
	} {
		b := builtinOver(an, c.ev)
		// Covered (v56) reads "under warranty" as a question of cover
		// and takes "Blender motors ... are covered for 5 years": off,
		// this test is of Sides
		b.Covered = false
		var res [2]Result
		for i, on := range []bool{false, true} {
			b.Sides = on
			res[i] = assessChecked(t, b, Request{Question: c.q, Query: c.q, Evidence: c.ev, Groups: []string{"public"}})
		}
		if res[0].Assessment.Sufficient {
			t.Fatalf("Assess(%q) accepted without Sides: the case no longer tests a refusal", c.q)
		}
		if res[1].Assessment != res[0].Assessment || !slices.Equal(res[1].Accepted, res[0].Accepted) {
			t.Errorf("Assess(%q): Sides %+v %v, without %+v %v", c.q, res[1].Assessment, res[1].Accepted, res[0].Assessment, res[0].Accepted)
		}
	}
}
