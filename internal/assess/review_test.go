package assess

import (
	"github.com/assay-rag/assay/internal/terms"
	"slices"
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
	{ChunkID: "recall#0", Title: "Safety notice: X200 jar recall", Text: "X200 jars from batch B-2291 may crack when used with hot liquids. Stop using the jar and order a free replacement at hollin.example/recall."},
}

// TestReview: builtin:coverage-v61's Review, each bit on a case showing
// a defect round 46's reviews listed (docs/log/round-46-rv46.md,
// round-46-rv46b.md): the chunk accepted with every other bit of v61 on
// and the bit off, then with it on ("": refused), and a word the reason
// then quotes.
func TestReview(t *testing.T) {
	for _, c := range []struct {
		bit      int
		q        string
		ids      []string
		old, acc string
		quote    string // a word the reason quotes with the bit
		oldNot   string // and does not quote without it
		off      int    // bits off in both judgements
	}{
		// rv46 P3: "isn't covered" states cover as "is not covered" does
		{reviewCoverNeg, "My Hollin blender got damaged on a voltage converter abroad. Is it under warranty?", []string{"abroad#0"}, "", "abroad#0", "isn't covered", "", 0},
		// rv46 P2: "what are they" is answered by a page naming them, not
		// by the X200's specifications, which name no colour
		{reviewCounted, "How many colours does the X200 jar come in, and what are they?", []string{"recall#0", "track#0"}, "recall#0", "", "", "", 0},
		// rv46b P1: a list of error codes is no count of beeps
		{reviewCodes, "How many beeps does the Z10 make on a cold winter morning?", []string{"z10err#0"}, "z10err#0", "", "", "", 0},
		{reviewCodes, "How many error codes can the Z10 show?", []string{"z10err#0", "z10#0"}, "z10err#0", "z10err#0", "F2, F5, F8", "", 0},
		// rv46b P2: "1,200 W" counts no speeds; "three speeds" does
		// (reviewKind, off here, drops "1,200 W" too: a count of W)
		{reviewMeasure, "How many speeds does the Z10 blender have?", []string{"z10#0"}, "z10#0", "z10#0", "three speeds", "three speeds", reviewKind},
		// rv46b P3: "3 extra blades" counts blades, not time
		{reviewExtra, "How many blades does the Z10 come with?", []string{"box#0"}, "", "box#0", "3 extra", "", 0},
		// rv46 P3: an amount stated by its currency's name is the asker's
		// value, not a name a page must hold
		{reviewAmount, "My parts basket comes to 28.50 pounds. Do I pay for delivery?", []string{"parts#0"}, "", "parts#0", "delivery", "", 0},
		// rv46 P3: "what're they" asks them to be named as "what are they" does
		// (without it the count-list reading takes the page, not as the
		// question for the things named)
		{reviewNames, "How many statuses will my repair show, and which ones?", []string{"rep#0", "track#0"}, "track#0", "track#0", "read as \"What statuses", "read as", 0},
		// a count of another kind the documents name is none
		{reviewKind, "How many jars does the Z10 blender have?", []string{"z10#0"}, "z10#0", "", "", "", 0},
		{reviewKind, "How many motors does the Z10 have?", []string{"z10#0"}, "z10#0", "", "", "", 0},
		{reviewKind, "How many speed settings does the Z10 have?", []string{"z10#0"}, "z10#0", "z10#0", "three speeds", "", 0},
	} {
		var got [2]Result
		for i, bits := range []int{reviewV61 &^ c.bit &^ c.off, reviewV61 &^ c.off} {
			got[i] = judgeAmong(t, uniqueEvidence(reviewCorpus, countsPages), []string{"Opening hours", "Registering your appliance", "Switching on\nHold the button to turn it on."},
				func(b *Builtin) { b.Review = bits }, c.q, c.ids...)
			t.Logf("Review %d: %q: %v %q", bits, c.q, got[i].Accepted, got[i].Assessment.Reason)
		}
		if a := acceptedOn(got[0]); a != c.old || c.oldNot != "" && strings.Contains(got[0].Assessment.Reason, c.oldNot) {
			t.Errorf("without bit %d, Assess(%q) accepted %q, want %q: the case no longer shows the defect", c.bit, c.q, a, c.old)
		}
		if a := acceptedOn(got[1]); a != c.acc || c.acc != "" && !strings.Contains(got[1].Assessment.Reason, c.quote) {
			t.Errorf("with bit %d, Assess(%q) accepted %q (%q), want %q quoting %q", c.bit, c.q, a, got[1].Assessment.Reason, c.acc, c.quote)
		}
	}
}

// TestReviewCompound: Covered's compound reading (rv46 P1) finds
// "limescale" for the asker's "scale" only on the written words: the
// analyzer writes "limescale" as "limescal".
func TestReviewCompound(t *testing.T) {
	an := terms.New()
	// "scale" is a word of the documents (a page on descaling), as the
	// scene words Covered reads must be
	b := builtinOver(an, append(slices.Clone(reviewCorpus), Evidence{ChunkID: "descale#0", Title: "Descaling", Text: "Descaling removes scale from the element."}))
	if compoundOf(an.Set(reviewCorpus[0].Text), "scale") {
		t.Errorf("compoundOf found %q on the terms: the case no longer shows the defect", "scale")
	}
	if !b.compoundWritten(reviewCorpus[0].Text, "scale", "scale") {
		t.Errorf("compoundWritten(%q, scale) = false, want true (limescale)", reviewCorpus[0].Text)
	}
	if b.compoundWritten("The blades are covered.", "scale", "scale") || b.compoundWritten("Lime is excluded.", "lim", "lim") {
		t.Errorf("compoundWritten found a compound in a sentence holding none (or of a word under four letters)")
	}
	q := "My blender is full of scale - will you replace it for nothing under the warranty?"
	for _, bits := range []int{0, reviewCompound} {
		b.Review = bits
		cq, ok := b.coverReading(q, b.corpus.Visible([]string{"public"}))
		if !ok {
			t.Fatalf("coverReading(%q) refused", q)
		}
		thing, said, ok := b.coverSaid(reviewCorpus[0].Text, cq)
		t.Logf("Review %d: %q %q %v", bits, thing, said, ok)
		if want := bits != 0; ok != want || ok && thing != "scale" {
			t.Errorf("Review %d: coverSaid = %q, %q, %v; want a statement %v", bits, thing, said, ok, want)
		}
	}
}

// TestReviewTimed: Timed's particle and extreme bits (rv46b P4).
func TestReviewTimed(t *testing.T) {
	for _, c := range []struct {
		q             string
		particle, ext bool
		want          answertype.Type
	}{
		{"When will the X300 Pro show E4?", false, false, answertype.Period},
		{"When will the X300 Pro show E4?", true, false, answertype.Classify("When will the X300 Pro show E4?").Type},
		{"When should my parcel turn up?", true, false, answertype.Period},
		{"When will it show up?", true, false, answertype.Period},
		{"So what is the latest it will be done by?", true, false, answertype.Description},
		{"So what is the latest it will be done by?", true, true, answertype.Period},
		{"What's the latest it will be done by?", true, true, answertype.Period},
	} {
		if got := timedClassify(c.q, answertype.Classify(c.q), c.particle, c.ext); got.Type != c.want {
			t.Errorf("timedClassify(%q, particle %v, extreme %v) = %+v, want %s", c.q, c.particle, c.ext, got, c.want)
		}
	}
	if answertype.Classify("When will the X300 Pro show E4?").Type == answertype.Period {
		t.Errorf("the case no longer shows the defect: Classify reads a period already")
	}
}
