package generate

import (
	"maps"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/assess"
)

// UseThesaurus gives the generator the thesaurus the builtin assessor
// reads (loop.thesaurus; nil: none). From v35 a sentence holding a word
// the thesaurus relates to a content word of the question holds that
// word when the opening is chosen (see kin); earlier versions, and v35
// without a thesaurus, answer as they did.
func (g *Extractive) UseThesaurus(t assess.Thesaurus) { g.thes = t }

// maxKinSenses is the most senses a question word may have for a
// relative to stand for it (the builtin rewriter's bound for a
// translation): "set" (45 senses) relates to "put" through one of them.
const maxKinSenses = 20

// kin maps each content term of the question to the terms of the words
// that stand for the question word it came from (v35, with a thesaurus):
// the words the thesaurus relates to it that relate back to it, or to one
// of its base forms, through their own common senses (CommonRelated,
// when the thesaurus knows them), one term each, neither a term of the
// question nor another form of the word ("guarantee" → "warranty",
// "rinse" → "wash"). A relation that holds one way only joins a
// frequent sense of one word to a rare sense of the other ("way" →
// "mean"; "still" → "yet"): a passage using the other word in its own
// common sense says something else. Nil before v35 or without a
// thesaurus.
func (g *Extractive) kin(question string, content []string) map[string][]string {
	if g.Version < 35 || g.thes == nil || len(content) == 0 || !asks(question) {
		return nil
	}
	isContent := map[string]bool{}
	for _, t := range content {
		isContent[t] = true
	}
	back := g.thes.Related
	if cr, ok := g.thes.(assess.CommonRelater); ok {
		back = cr.CommonRelated
	}
	bf, counts := g.thes.(assess.BaseFormer)
	inQuestion := g.an.Set(question)
	out := map[string][]string{}
	for _, raw := range strings.Fields(question) {
		w := strings.ToLower(strings.TrimFunc(raw, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
		ts := g.an.Terms(w)
		if len(ts) != 1 || !isContent[ts[0]] {
			continue
		}
		base := []string{w}
		if counts {
			if bf.Senses(w) > maxKinSenses {
				continue
			}
			base = append(base, bf.BaseForms(w)...)
		}
		isBase := func(x string) bool { return slices.Contains(base, x) }
		for _, r := range g.thes.Related(w) {
			rt := g.an.Terms(r)
			switch {
			case len(rt) != 1 || inQuestion[rt[0]] || slices.Contains(out[ts[0]], rt[0]):
			case strings.HasPrefix(rt[0], ts[0]) || strings.HasPrefix(ts[0], rt[0]) || counts && slices.ContainsFunc(bf.BaseForms(r), isBase):
				// another form of the word: the analyzer's, or none
			case slices.ContainsFunc(back(r), isBase):
				out[ts[0]] = append(out[ts[0]], rt[0])
			}
		}
	}
	return out
}

// asks reports whether question asks something: a clause in the form of
// a question (answertype.AskingClauses) or a question mark. A claim
// ("Mitochondria are uninvolved in apoptosis.") asks nothing: its words
// are the ones a passage confirms or refutes, and no other word stands
// for them.
func asks(question string) bool {
	return answertype.AskingClauses(question) > 0 || strings.HasSuffix(strings.TrimSpace(question), "?")
}

// kinScore sets each sentence's kscore and kown: its score and content
// words when a word that stands for a content word of the question (kin,
// as g.kin gives it) counts as that word, each content word's IDF taken
// over the sentences holding it or such a word. Without kin (before v35,
// no thesaurus, no such word), score and own.
func (g *Extractive) kinScore(kin map[string][]string, all []*sentence, content []string, titles []map[string]bool) {
	for _, s := range all {
		s.kscore, s.kown = s.score, s.own
	}
	if len(kin) == 0 {
		return
	}
	gained := false
	for _, s := range all {
		var set map[string]bool
		for _, q := range content {
			if s.own[q] || len(kin[q]) == 0 {
				continue
			}
			if set == nil {
				set = g.an.Set(s.text)
			}
			if slices.ContainsFunc(kin[q], func(r string) bool { return set[r] }) {
				if len(s.kown) == len(s.own) {
					s.kown = maps.Clone(s.own)
				}
				s.kown[q] = true
				gained = true
			}
		}
	}
	if !gained {
		// no sentence holds a stand-in: score, exactly (kinIDF counts the
		// words a sentence holds through refers, which score's IDF does
		// not)
		return
	}
	idf := kinIDF(all)
	for _, s := range all {
		// as score: in the question's word order, and a title word only
		// beside a word of the sentence
		var sc float64
		for _, q := range content {
			if s.kown[q] {
				sc += idf[q]
			}
		}
		if sc > 0 {
			for _, q := range content {
				if !s.kown[q] && titles[s.source][q] {
					sc += idf[q]
				}
			}
		}
		s.kscore = sc * g.rankWeight(s.source)
	}
}

// kinIDF is the IDF of each content word a sentence holds, or a word
// standing for it (kown), over the candidate sentences.
func kinIDF(all []*sentence) map[string]float64 {
	df := map[string]int{}
	for _, s := range all {
		for q := range s.kown {
			df[q]++
		}
	}
	out := map[string]float64{}
	for q, d := range df {
		out[q] = math.Log(1 + float64(len(all))/float64(d))
	}
	return out
}

// kinMentions is mentions with each content word of the question whose
// stand-in (kin, as g.kin gives it) a source mentions, and whether any
// source gained one; mentions itself when none did.
func kinMentions(kin map[string][]string, content []string, mentions []map[string]bool) ([]map[string]bool, bool) {
	if len(kin) == 0 {
		return mentions, false
	}
	out := slices.Clone(mentions)
	gained := false
	for i, m := range mentions {
		for _, q := range content {
			if m[q] || !slices.ContainsFunc(kin[q], func(r string) bool { return m[r] }) {
				continue
			}
			if len(out[i]) == len(m) {
				out[i] = maps.Clone(m)
			}
			out[i][q] = true
			gained = true
		}
	}
	return out, gained
}

// Thesaurus is the thesaurus UseThesaurus gave (nil: none).
func (g *Extractive) Thesaurus() assess.Thesaurus { return g.thes }
