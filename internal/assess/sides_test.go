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

// TestSides: builtin:coverage-v34 (Builtin.Sides) judges a comparison
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
	if m := b.Model(); m != BuiltinModel+"+sides" {
		t.Errorf("model %q, want %s+sides", m, BuiltinModel)
	}
}
