package assess

import (
	"maps"

	"github.com/assay-rag/assay/internal/names"
	"github.com/assay-rag/assay/internal/terms"
)

// builtin:coverage-v20 (Builtin.Named) reads a model code's name. The
// asker says what kind of thing is meant ("my kettle", "the blender");
// a page about the thing names it by its code ("Pairing the K50 with the
// Hollin Home app", "X200 blade assembly"), and the kind stands only where
// the product's full name is written out ("K50 Smart Kettle", "X200
// Blender specifications"). Named reads those full names in the evidence
// the asker was given (visible documents only, all of it, so the order of
// the chunks changes nothing): a code (a word holding letters and
// digits) followed directly, with no punctuation between, by words that
// begin with a capital letter names a product whose name is those words.
// A chunk naming the code then holds the words of its name too: a chunk
// of the K50 app page covers "kettle" and "smart". Only plain words are
// added, never a run of them, so no entity is named by it: a chunk naming
// "X300" does not name the "X300 Pro".

// productNames maps each code term the evidence writes a full name after
// to the terms of the words of that name (ProductNames over every title
// and text of ev).
func (b *Builtin) productNames(ev []Evidence) map[string]map[string]bool {
	texts := make([]string, 0, 2*len(ev))
	for i := range ev {
		texts = append(texts, ev[i].Title, ev[i].Text)
	}
	return ProductNames(b.an, texts...)
}

// ProductNames maps each code term the texts write a full name after to
// the terms of the words of that name ("K50 Smart Kettle": k50 → smart,
// kettl), each text read apart (a name never runs from one into the
// next). A kind noun written after two codes names neither ("X200
// Blender" and "X300 Pro Blender": "blender" does not say which). The
// builtin assessor (v20) and the builtin generator (v19) read products'
// names with it.
func ProductNames(an *terms.Analyzer, texts ...string) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, text := range texts {
		names.In(an, text, out)
	}
	{ // a kind noun written after two codes names neither
		codes := map[string]int{}
		for _, ws := range out {
			for t := range ws {
				codes[t]++
			}
		}
		for _, ws := range out {
			for t := range ws {
				if codes[t] > 1 {
					delete(ws, t)
				}
			}
		}
	}
	return out
}

// withNames returns have with the name words of each code it holds
// (NamedOnly), each also marked as held only through a name (namedKey);
// have itself when it holds none.
func withNames(have map[string]bool, names map[string]map[string]bool) map[string]bool {
	only := NamedOnly(have, names)
	if len(only) == 0 {
		return have
	}
	out := maps.Clone(have)
	for t := range only {
		out[t] = true
		out[namedKey(t)] = true
	}
	return out
}

// NamedOnly returns the terms have holds only through a product's name
// (ProductNames): the name words of each code in have that have lacks; nil
// when there are none. A chunk of the K50 app page ("Pairing the K50
// with the Hollin Home app") holds "smart" and "kettle" so, where the
// evidence writes "K50 Smart Kettle".
func NamedOnly(have map[string]bool, names map[string]map[string]bool) map[string]bool {
	var out map[string]bool
	for code, ws := range names {
		if !have[code] {
			continue
		}
		for t := range ws {
			if have[t] {
				continue
			}
			if out == nil {
				out = map[string]bool{}
			}
			out[t] = true
		}
	}
	return out
}

// namedKey marks in a chunk's terms a term it holds only through a
// product's name (withNames): such a term is never the most specific
// term a chunk must hold.
func namedKey(t string) string { return runSeparator + "named" + runSeparator + t }
