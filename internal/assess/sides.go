package assess

import (
	"maps"

	"github.com/assay-rag/assay/internal/answertype"
)

// sideValues are the types of value that decide a comparison asked as a
// yes/no question or with no expected type ("is the X300 Pro's motor
// much beefier than the X200's?", "how does the top speed of the X300
// Pro compare with the X200's?"): two things are set side by side by a
// value of each.
var sideValues = []answertype.Type{answertype.Quantity, answertype.Speed, answertype.Period, answertype.Money, answertype.Count}

// sides judges a comparison across documents by what decides it
// (Builtin.Sides): for each entity of the question, of the retrieved
// chunks that name it whole and hold a value of what is compared near the
// question's words, the one saying most of the question about that entity
// (ownCoverage); those chunks judged together as one. compared picks each
// entity's chunk by its coverage alone, so a page naming every entity
// ("Blender motors on the X200 and X300 Pro are covered for 5 years") was
// picked for all of them and judged alone, holding no value of what is
// asked, while each model's specification page, holding its own figure,
// was never read beside the other's. What is compared is the question's
// expected type; for a yes/no question or one expecting no particular
// type, the value its comparative adjective names (answertype.Compared:
// "louder", a loudness), or else the first of sideValues that every side
// holds: the sides hold
// values of one kind ("1,500 W" against "1,200 W", not against "5
// years"). It returns the first such judgement that suffices and the type
// its sides hold; nil unless at least two chunks are picked, one per
// entity.
func (b *Builtin) sides(asked answertype.Question, question string, r *reading, all []*judged, covers func(map[string]bool, string) bool) (*judged, answertype.Question) {
	if len(r.ents) < 2 {
		return nil, asked
	}
	// answerIn notes the values it sets aside for a refusal's reason
	// (asideOf, qualifiedAside): the values read here, of types the
	// question may not ask for, are no reason the question is refused.
	aside := maps.Clone(r.aside)
	defer func() { r.aside = aside }()
	types := []answertype.Question{asked}
	if asked.Type == answertype.YesNo || asked.Type == answertype.Description {
		types = nil
		if c, ok := answertype.Compared(question); ok {
			types = append(types, c) // "is the X300 Pro louder than the X200": two loudnesses
		} else {
			for _, t := range sideValues {
				types = append(types, answertype.Question{Type: t})
			}
		}
	}
	for _, t := range types {
		if u := b.sidesOf(t, r, all, covers); u != nil && u.fit {
			return u, t
		}
	}
	return nil, asked
}

// sidesOf is sides for values of type t: each entity's chunk holding one
// (reading.picks over those chunks), judged together; nil unless two or
// more chunks are picked.
func (b *Builtin) sidesOf(t answertype.Question, r *reading, all []*judged, covers func(map[string]bool, string) bool) *judged {
	var valued []*judged
	exprs := map[*judged]string{} // each valued chunk's value
	for _, j := range all {
		if expr, ok := b.answerIn(t, j.ev, r, covers); ok && expr != "" {
			valued = append(valued, j)
			exprs[j] = expr
		}
	}
	picked := r.picks(valued, func(j *judged, i int) float64 { return r.ownCoverage(j.have, covers, i) })
	if len(picked) < 2 {
		return nil
	}
	return r.together(picked, covers, true, exprs[picked[0]])
}
