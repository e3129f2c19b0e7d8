package assess

import (
	"maps"
	"slices"
	"strings"
)

// V47Model names the builtin assessor without Builtin.Places:
// builtin:coverage-v47, kept selectable.
const V47Model = "builtin:coverage-v47"

// Places' bits: placesNamed credits a place name (placed), placesGeneral
// a product's model code to a chunk naming no code, for a yes/no question
// (generalModels).
const (
	placesNamed = 1 << iota
	placesGeneral
	placesAnyType // placesGeneral for every question, not only yes/no (measured, off)
	placesV48     = placesNamed | placesGeneral
)

// Placer is a Thesaurus that knows the words it defines by a kind a
// proper name is an instance of; WordNet does (thesaurus.WordNet.Placed:
// "Spain", an instance of a European country, a country, gives "abroad",
// "to or in a foreign country").
type Placer interface {
	Placed(name string) []string
}

// placed (Builtin.Places, builtin:coverage-v48) maps each name entity of
// ents (not a code) that no visible document mentions to the visible
// terms the thesaurus defines by a kind it is an instance of: the place a
// question names ("we're moving to Spain", "the States") is one the
// documents speak of only as a kind ("using one ... abroad"). The name is
// read with the "the" the question writes before it, when WordNet knows
// that form ("the States"), else as written. A name no such word stands
// for stays unmentioned (no document you can see mentions it).
func (b *Builtin) placed(question string, ents []Entity, vocab Vocabulary) map[int][]string {
	if b.Places&placesNamed == 0 || b.Thesaurus == nil {
		return nil
	}
	p, ok := b.Thesaurus.(Placer)
	if !ok {
		return nil
	}
	lower := " " + strings.ToLower(strings.Join(strings.Fields(question), " "))
	var out map[int][]string
	for i, e := range ents {
		if e.Code || e.known(vocab) {
			continue
		}
		names := []string{e.Text}
		if strings.Contains(lower, " the "+strings.ToLower(e.Text)) {
			names = []string{"the " + e.Text, e.Text}
		}
		for _, n := range names {
			var ts []string
			for _, w := range p.Placed(n) {
				if t := b.an.Terms(w); len(t) == 1 && vocab.DocFreq(t[0]) > 0 && !slices.Contains(ts, t[0]) {
					ts = append(ts, t[0])
				}
			}
			if len(ts) > 0 {
				if out == nil {
					out = map[int][]string{}
				}
				out[i] = ts
				break
			}
		}
	}
	return out
}

// withPlaces is a chunk's mentions own with each entity placed stands
// for a kind of credited (its terms and its key) when own holds one of
// the words that kind defines; own itself when none is.
func withPlaces(own map[string]bool, ents []Entity, placed map[int][]string) map[string]bool {
	out, cloned := own, false
	for i, ts := range placed {
		if !slices.ContainsFunc(ts, func(t string) bool { return own[t] }) {
			continue
		}
		if !cloned {
			out, cloned = maps.Clone(own), true
		}
		for _, t := range ents[i].Terms {
			out[t] = true
		}
		for _, k := range ents[i].keys() {
			out[k] = true
		}
	}
	return out
}

// generalModels credits, for a yes/no question, each code entity the
// evidence writes a product's full name after ("X300 Pro": "X300 Pro
// Blender") to each chunk naming no code (holdsOwnCode): a page about
// every appliance ("Using Hollin appliances abroad") decides for the
// asker's model too. Only a chunk holding two of the question's terms
// that are no code's (a place placed credits counts) is credited: a page
// about every appliance is about the asker's model only when it is about
// what the question asks, not one word of it ("Can I set the K50 to 80
// degrees": "Settings" of the account-data page).
func (b *Builtin) generalModels(ev []Evidence, owns []map[string]bool, ents []Entity, qterms []weighted) []map[string]bool {
	var models []int
	codes := map[string]bool{} // the code entities' terms
	names := b.productNames(ev)
	for i, e := range ents {
		if !e.Code {
			continue
		}
		for _, t := range e.Terms {
			codes[t] = true
		}
		if len(e.Terms) > 0 && names[e.Terms[0]] != nil {
			models = append(models, i)
		}
	}
	if len(models) == 0 {
		return owns
	}
	out := make([]map[string]bool, len(owns))
	for i, own := range owns {
		out[i] = own
		if holdsOwnCode(own) {
			continue
		}
		held := 0
		for _, q := range qterms {
			if own[q.term] && !codes[q.term] {
				held++
			}
		}
		if held < 2 {
			continue
		}
		out[i] = maps.Clone(own)
		for _, m := range models {
			for _, t := range ents[m].Terms {
				out[i][t] = true
			}
			for _, k := range ents[m].keys() {
				out[i][k] = true
			}
		}
	}
	return out
}
