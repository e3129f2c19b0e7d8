package generate

import (
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestV41: asked "Are blunt blades something the guarantee will
// replace?" (design question fresh9 r60) with the blade page ranked first
// and the warranty terms accepted (builtin:coverage-v68's Status), v40
// opens with the blade page's instruction, which decides nothing; v41
// opens with the accepted page's "It does not cover blade wear". When the
// other page's opening states a status too, v41 opens as v40 does.
func TestV41(t *testing.T) {
	an := terms.New()
	blades := titled("1", "man-x200-blades", "X200 blade assembly", "A grinding noise, or food left in chunks, usually means the blades are worn. Replace the blade assembly, part BLD-X200, about once a year with daily use.")
	clean := titled("2", "man-x200-cleaning", "X200 cleaning and care", "Wash the jar and blades in warm soapy water or in the dishwasher. Never put the motor base in water; wipe it with a damp cloth.")
	war := titled("3", "pol-warranty-2026", "Warranty terms (2026)", "Every Hollin appliance has a 2-year warranty from the date of purchase. Blender motors on the X200 and X300 Pro are covered for 5 years. The warranty covers manufacturing faults. It does not cover blade wear, cracked jars, limescale damage or accidental damage. You need proof of purchase to claim.")
	q := "Are blunt blades something the guarantee will replace?"
	req := Request{Question: q, Sources: []Source{blades, clean, war}, Accepted: []string{war.ID}}
	if o := openingOf(t, NewExtractiveV40(an), req); !strings.Contains(o, "Replace the blade assembly") {
		t.Fatalf("v40 opens with %q: the test no longer shows the fault", o)
	}
	if o := openingOf(t, NewExtractiveV41(an), req); !strings.Contains(o, "does not cover blade wear") {
		t.Errorf("v41 opens with %q, want the accepted warranty terms", o)
	}
	wash := "Can I put the motor base of my X200 in water?"
	both := Request{Question: wash, Sources: []Source{clean, war}, Accepted: []string{war.ID}}
	if a, b := openingOf(t, NewExtractiveV40(an), both), openingOf(t, NewExtractiveV41(an), both); a != b {
		t.Errorf("both openings state a status: v40 opens with %q, v41 with %q", a, b)
	}
	if NewExtractive(an).Model() != ExtractiveModel || ExtractiveModel != "builtin:extractive-v41" {
		t.Errorf("model %q, want builtin:extractive-v41", NewExtractive(an).Model())
	}
}
