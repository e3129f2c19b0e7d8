package assess

import (
	"context"
	"slices"

	"github.com/assay-rag/assay/internal/names"
	"github.com/assay-rag/assay/internal/wire"
)

// The kind of thing asked about is no action (builtin:coverage-v36,
// Builtin.Kind; round 33,
// docs/log/round-33-a33-kind.md).
//
// Act (action.go) reads what the asked verb acts on from the words after
// it, and a pronoun right after it as the codes the question names. Some
// of those words name *which* thing is meant rather than what is done to
// it: a product's class noun ("send my faulty blender off") and a
// product's model code ("the ring light on my K50 is too bright, how do I
// turn it off" reads "it" as the K50). Every page about the product holds
// them — the X200's error codes page holds "blender" through its name, the
// K50's pairing page holds "K50" — so they state no action, and Act
// checked nothing. Kind leaves out of the objects every word of a visible
// product's full name (a word written after a code: "K50 Smart Kettle",
// "X200 Blender", names.In, without ProductNames' two-codes limit, as
// generalClass reads class nouns) and, of the codes a pronoun stands for,
// every product's code (a code a visible chunk writes a name after); an
// error code the scene says is showing ("E4 … how do I clear it?") names
// no product and stays. The names are read from the evidence, and from the
// asker's visible chunks: through the index's name pairs when the
// vocabulary knows them (PairedNamingVocabulary), else through a search
// for the word (NamingVocabulary).

// V35Model names the builtin assessor with v36's reading of the kind of
// thing asked about (Builtin.Kind) off: builtin:coverage-v35, kept
// selectable.
const V35Model = "builtin:coverage-v35"

// unkind drops from a's objects the words that name which thing is meant
// (see Kind): a word of a product's name, and the terms of a product code
// a pronoun stands for.
func (b *Builtin) unkind(ctx context.Context, a *action, vocab Vocabulary, f wire.Filters, ev []Evidence) error {
	if len(a.objects) == 0 {
		return nil
	}
	inEv := map[string]map[string]bool{}
	for i := range ev {
		names.In(b.an, ev[i].Title, inEv)
		names.In(b.an, ev[i].Text, inEv)
	}
	nv, _ := vocab.(NamingVocabulary)
	var pairs names.Pairs
	paired := false
	// The pairs are the asker's whole visible corpus: under the run's
	// filters (a product, a document type, dates) they would name a thing
	// from chunks the filters leave out, so the filtered search decides.
	if nv != nil && f.IsZero() {
		pairs, paired = namePairs(nv)
	}
	evPairs := names.PairsOf(inEv)
	// named reports whether a visible chunk writes a product name after
	// t (code) and whether one writes t in a product's name (word).
	named := func(t string) (code, word bool, err error) {
		code, word = evPairs.Code(t), evPairs.Word(t)
		switch {
		case code || word:
		case paired:
			code, word = pairs.Code(t), pairs.Word(t)
		case nv != nil:
			texts, err := nv.Naming(ctx, t, f)
			if err != nil {
				return false, false, err
			}
			m := map[string]map[string]bool{}
			for _, x := range texts {
				names.In(b.an, x, m)
			}
			found := names.PairsOf(m)
			code, word = found.Code(t), found.Word(t)
		}
		return code, word, nil
	}
	drop := map[string]bool{}
	for _, e := range a.antecedents {
		for _, t := range e.Terms {
			code, _, err := named(t)
			if err != nil {
				return err
			}
			if code { // a product's code: the pronoun names the product
				for _, t := range e.Terms {
					drop[t] = true
				}
				break
			}
		}
	}
	for i, t := range a.objects {
		if drop[t] {
			continue
		}
		_, word, err := named(t)
		if err != nil {
			return err
		}
		if !word {
			continue
		}
		drop[t] = true
		if a.from[i] < 0 {
			continue
		}
		// the words before it in its phrase describe which one ("my faulty blender")
		for k := a.from[i] - 1; k >= 0 && !determiners[a.words[k]] && !phraseEnds[a.words[k]] && !particles[a.words[k]]; k-- {
			for m, at := range a.from {
				if at == k {
					drop[a.objects[m]] = true
				}
			}
		}
	}
	a.objects = slices.DeleteFunc(a.objects, func(t string) bool { return drop[t] })
	if len(a.verbs) == 0 && len(a.objects) == 0 && a.unknownVerb {
		a.unknown = true // "how do I zap my K50": the verb no document uses, and nothing but which thing
	}
	return nil
}
