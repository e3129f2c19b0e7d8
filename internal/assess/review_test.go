package assess

import (
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/answertype"
)

// reviewCorpus: pages the review's cases are judged on.
var reviewCorpus = []Evidence{
	{ChunkID: "warranty#0", Title: "Warranty terms", Text: "Every Hollin appliance has a 2-year warranty from the date of purchase. The warranty covers manufacturing faults. It does not cover blade wear, cracked jars, limescale damage or accidental damage."},
	{ChunkID: "abroad#0", Title: "Using appliances abroad", Text: "Hollin appliances are made for UK 230 V sockets. Damage from a voltage converter abroad isn't covered by the warranty."},
	{ChunkID: "z10#0", Title: "Z10 specifications", Text: "The Z10 blender has a 1,200 W motor, a 2-litre jar and three speeds."},
	{ChunkID: "z10err#0", Title: "Z10 error codes", Text: "F2 means the lid is open: close it. F5 means the motor is hot: let it cool. F8 means a sensor fault: call support."},
	{ChunkID: "box#0", Title: "In the Z10 box", Text: "The Z10 comes with 3 extra blades."},
	{ChunkID: "x200#0", Title: "X200 Blender specifications", Text: "The X200 blender has a 1,200 W motor, a 2-litre Tritan jar and three speeds. High speed reaches 22,000 RPM."},
	{ChunkID: "track#0", Title: "Tracking a repair", Text: "Track your repair online with your case number. A repair shows as Booked, In workshop, Repaired, then Dispatched."},
	{ChunkID: "parts#0", Title: "Ordering spare parts", Text: "Order spare parts online. Delivery costs £3.95, and orders over £25 are delivered free."},
	{ChunkID: "scale#0", Title: "Kettle care", Text: "Descale the kettle once a month. Damage from limescale is not covered."},
}

func TestReviewProbe(t *testing.T) {
	for _, c := range []struct {
		bit int
		q   string
		ids []string
	}{
		{reviewCompound, "The jar of my blender is full of scale - is that covered by the warranty?", []string{"warranty#0"}},
		{reviewCompound, "I live in a hard water area and my blender jar has scale in it, will the guarantee pay for a new jar?", []string{"warranty#0"}},
		{reviewCompound, "My blender blades have scale all over them. Is that covered under warranty?", []string{"warranty#0"}},
		{reviewCoverNeg, "I'm moving abroad and will use my blender with a voltage converter - will the warranty still cover it?", []string{"abroad#0", "warranty#0"}},
		{reviewCoverNeg, "My Hollin blender got damaged on a voltage converter abroad. Is it under warranty?", []string{"abroad#0"}},
		{reviewCounted, "How many colours does the X200 jar come in, and what are they?", []string{"x200#0", "track#0"}},
		{reviewCounted, "How many statuses will my repair show, and what are they?", []string{"track#0"}},
		{reviewCodes, "How many beeps does the Z10 make on a cold winter morning?", []string{"z10err#0", "z10#0"}},
		{reviewCodes, "How many error codes can the Z10 show?", []string{"z10err#0", "z10#0"}},
		{reviewMeasure, "How many speeds does the Z10 blender have?", []string{"z10#0"}},
		{reviewExtra, "How many blades does the Z10 come with?", []string{"box#0"}},
		{reviewAmount, "My parts basket comes to 28.50 pounds. Do I pay for delivery?", []string{"parts#0"}},
		{reviewKind, "How many colours does the X200 jar come in?", []string{"x200#0"}},
		{reviewKind, "How many blades does the Z10 come with?", []string{"box#0"}},
		{reviewKind, "How many speed settings does the Z10 have?", []string{"z10#0"}},
		{reviewListWord, "How many different statuses will my repair go through?", []string{"track#0"}},
	} {
		for _, bits := range []int{(reviewV62 | reviewKind) &^ c.bit, reviewV62 | reviewKind} {
			r := judgeAmong(t, uniqueEvidence(reviewCorpus, countsPages), []string{"Opening hours", "Registering your appliance", "Switching on\nHold the button to turn it on."},
				func(b *Builtin) { b.Review = bits }, c.q, c.ids...)
			t.Logf("bit %d on=%v %q: %v %v %q", c.bit, bits&c.bit != 0, c.q, r.Assessment.Sufficient, r.Accepted, r.Assessment.Reason)
		}
	}
	for _, q := range []string{"When will the X300 Pro show E4?", "When should my parcel turn up?", "When will it show up?", "When does the light turn green?"} {
		t.Logf("%q: %+v -> %+v", q, timedClassify(q, answertype.Classify(q), false, false), timedClassify(q, answertype.Classify(q), true, true))
	}
	_ = strings.Contains
}
