package generate

import (
	"context"
	"testing"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/terms"
)

// FuzzExtractive: v34, v35, v37 (added by rv44), v38 and v39 (the
// default since round 46; added by rv46b) answer any question over any two pages
// (empty titles, titles of punctuation or numbers, Unicode, pages with
// no sentence), the first or the second accepted or neither, without a
// panic, citing only the pages given.
func FuzzExtractive(f *testing.F) {
	f.Add("X300 Pro flashes E4. Which bit do I need to refit?", "X300 Pro error codes", "E4 means the vacuum lid seal is loose. Press it back into its groove.",
		"X300 Pro specifications", "The X300 Pro blender has a vacuum blending mode.", uint8(1))
	f.Add("How long is the warranty on a K50 kettle?", "", "The kettle keeps water warm for up to two hours.", "!!! ---", "Warranty: 2 years.", uint8(2))
	f.Add("Était-ce garanti 5 ans ?", "2026", "Ça coûte 5 €. Garantie : 5 ans.", "¿¡…!?", "日本語のテキスト。", uint8(0))
	f.Add("", "...", "", "123", "   \n\n", uint8(1))
	f.Add("What is 12?", "12 12", "12. 12! 12?", "?", "?", uint8(2))
	f.Add("What's the X200's jug made of, glass or plastic?", "Abroad", "Hollin appliances are made for UK 230 V sockets.", "X200", "The X200 has a 2-litre Tritan jar. High speed reaches 22,000 RPM.", uint8(2))
	f.Add("How fast do the blades on the Pro spin at full whack?", "Warranty", "Blender motors are covered for 5 years.", "X300 Pro", "High speed reaches 30,000 RPM.", uint8(2))
	f.Add("what should I descale it with", "K50", "Descale it with", "with", "with a", uint8(1))
	f.Add("How many different statuses will my repair go through?", "Repairs and turnaround", "We aim to repair it within 10 working days. Out-of-warranty repairs carry a £25 inspection fee.",
		"Tracking a repair", "A repair shows as Booked, In workshop, Repaired, then Dispatched.", uint8(2))
	f.Add("how many, , ,?", "£", "£1, £2, £3. 1 and 2, 3 days, 16 October.", ", , ,", ", , , , ", uint8(2))
	f.Add("how many £25?", "E4", "E4 means one. E7 means two. E9 means three.", "1 and", "between 1 and 16 June, 2, 3, 4", uint8(1))
	an := terms.New()
	gens := []*Extractive{NewExtractiveV34(an), NewExtractiveV35(an), NewExtractiveV37(an), NewExtractiveV38(an), NewExtractive(an)}
	f.Fuzz(func(t *testing.T, q, title1, text1, title2, text2 string, accepted uint8) {
		req := Request{Question: q, Sources: []Source{
			{Label: "1", Chunk: corpus.Chunk{ID: "c1", DocID: "d1", Title: title1, Text: text1}},
			{Label: "2", Chunk: corpus.Chunk{ID: "c2", DocID: "d2", Title: title2, Text: text2}},
		}}
		if a := int(accepted % 3); a > 0 {
			req.Accepted = []string{req.Sources[a-1].ID}
		}
		for _, g := range gens {
			ans, err := g.Generate(context.Background(), req)
			if err != nil {
				continue
			}
			for _, c := range ans.Citations {
				if c.Label != "1" && c.Label != "2" {
					t.Errorf("v%d cites %q, not a page given", g.Version, c.Label)
				}
			}
		}
	})
}
