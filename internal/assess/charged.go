package assess

// V63Model names the builtin assessor without Builtin.Charged:
// builtin:coverage-v63 (round 47, docs/log/round-47-a47-gate2.md), kept
// selectable.
const V63Model = "builtin:coverage-v63"

// Charged (builtin:coverage-v66; round 48, a48-rv, from rv47's proposal
// P4). A yes/no question whose clause that asks names a charge (a word
// answertype.NamesMoney knows: "do you charge an inspection fee for my
// kettle out of warranty?") asks whether there is one, and a statement
// of its amount decides it ("Out-of-warranty repairs of a K50 carry a
// £10 inspection fee"): on the page of a product the question names by
// its class (ownProductPage: the K50 Smart Kettle's page for "my
// kettle"), an amount of money near the question's words is the yes/no
// statement the judgement looks for. The asker's appliance's own page
// then answers, not a page about every appliance (the repairs page,
// whose "free" is said of collection under warranty). Only on such a
// page: read on every page, the amount decided no-answer questions
// ("does hollin pay us mileage on top of the home visit fee?", fresh7
// n95, accepted on a partner rates page; design refusal -1, confirm
// refusal -7 in the replay).

// ownProductPage (Builtin.Charged) reports whether a chunk (own: its
// terms) names a product code whose name holds a word of the question
// (qterms): the page of the product the question names by its class
// ("my kettle": the K50 Smart Kettle's repairs page).
func ownProductPage(own map[string]bool, names map[string]map[string]bool, qterms []weighted) bool {
	for code, ws := range names {
		if !own[code] {
			continue
		}
		for _, q := range qterms {
			if ws[q.term] {
				return true
			}
		}
	}
	return false
}
