package assess

import (
	"maps"
	"slices"
	"strings"

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
	if asked.Type == answertype.YesNo || asked.Type == answertype.Description || b.SidesMeasure && comparesBy(question) {
		types = nil
		if c, ok := answertype.Compared(question); ok {
			types = append(types, c) // "is the X300 Pro louder than the X200": two loudnesses
		} else {
			for _, t := range sideValues {
				types = append(types, answertype.Question{Type: t})
			}
			if b.SidesMeasure {
				types = append(types, answertype.Question{Type: answertype.Date}) // "which agreement runs out first"
			}
		}
	}
	for _, t := range types {
		if u := b.sidesOf(t, r, all, covers, b.measureTerms(t)); u != nil && u.fit {
			return u, t
		}
	}
	return nil, asked
}

// sidesOf is sides for values of type t: each entity's chunk holding one
// (reading.picks over those chunks), judged together; nil unless two or
// more chunks are picked. measure are the terms of the question's words
// that name what is compared (measureTerms): the picked chunks' values
// answer them, so the chunks judged together hold them.
func (b *Builtin) sidesOf(t answertype.Question, r *reading, all []*judged, covers func(map[string]bool, string) bool, measure []string) *judged {
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
	if len(measure) > 0 {
		have := map[string]bool{}
		for _, j := range picked {
			maps.Copy(have, j.have)
		}
		for _, m := range measure {
			have[m] = true
		}
		u := r.judge(have, covers, true)
		u.ev, u.expr = picked[0].ev, exprs[picked[0]]
		for _, j := range picked[1:] {
			u.with = append(u.with, j.ev)
		}
		return u
	}
	return r.together(picked, covers, true, exprs[picked[0]])
}

// measureTerms are the terms of the words of a comparison that name the
// measure its sides are compared by (Builtin.SidesMeasure): the
// comparative adjective answertype.Compared read ("faster", "more
// powerful"), whose value each side's chunk states in its own words
// ("22,000 RPM", "1,200 W") and so rarely says. Nil without SidesMeasure.
func (b *Builtin) measureTerms(t answertype.Question) []string {
	if !b.SidesMeasure {
		return nil
	}
	var out []string
	for _, w := range t.Frame {
		out = append(out, b.an.Terms(w)...)
	}
	return out
}

// compareVerbs ask how two things stand against each other, or how one
// thing stands against what it was ("how does the top speed of the X300
// Pro compare with the X200's", "how has the motor cover changed between
// the 2024 and the 2026 terms").
var compareVerbs = map[string]bool{"compare": true, "compares": true, "compared": true, "differ": true, "differs": true,
	"differed": true, "change": true, "changes": true, "changed": true}

// askers are the subjects of a "how do" question asking how to act.
var askers = map[string]bool{"i": true, "we": true, "you": true, "they": true, "one": true}

// comparesBy reports whether a question asks "how does (has, did) <thing>
// compare (differ, change)": a comparison the opening words read as a
// procedure ("how does"), though its subject is no one who acts but the
// things compared. Its sides are judged as a comparison asked with no
// expected type is (Builtin.SidesMeasure).
func comparesBy(question string) bool {
	ws := strings.Fields(strings.ToLower(question))
	for i := 0; i+2 < len(ws); i++ {
		if ws[i] != "how" {
			continue
		}
		switch ws[i+1] {
		case "does", "do", "did", "has", "have":
		default:
			return false
		}
		if askers[ws[i+2]] {
			return false
		}
		for _, w := range ws[i+3:] {
			if compareVerbs[strings.Trim(w, ",.?!;:")] {
				return true
			}
		}
		return false
	}
	return false
}

// chooses reports whether the clause that asks opens "which" and offers
// a choice with "or" ("which partner agreement runs out first, Brook
// Street's or Calder Fix's?"): a comparison of the things it names,
// though it holds no comparative word (Builtin.SidesMeasure).
func chooses(question string) bool {
	ws := strings.Fields(strings.ToLower(answertype.Asking(question)))
	return len(ws) > 0 && strings.Trim(ws[0], ",.?!;:") == "which" && slices.Contains(ws, "or")
}
