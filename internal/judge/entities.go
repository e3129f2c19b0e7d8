package judge

import (
	"slices"
	"strings"
	"sync"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/terms"
)

// entityIndex is what the entity check knows of the corpus: each
// document's analyzed title and text terms, and term counts per set of
// groups. Built on first use.
type entityIndex struct {
	once  sync.Once
	an    *terms.Analyzer
	terms map[string]map[string]bool // document id → its terms

	mu     sync.Mutex
	vocabs map[string]*docVocab // groups, joined → their visible documents' counts
}

// docVocab counts terms over the documents a set of groups may see
// (assess.Vocabulary, by document rather than chunk).
type docVocab struct {
	df map[string]int
	n  int
}

func (v *docVocab) DocFreq(t string) int { return v.df[t] }
func (v *docVocab) Len() int             { return v.n }

func (l *Library) entityIndex() *entityIndex {
	e := &l.entities
	e.once.Do(func() {
		e.an = terms.New()
		e.terms = make(map[string]map[string]bool, len(l.docs))
		for id, d := range l.docs {
			e.terms[id] = e.an.Set(d.Title + "\n" + d.Text)
		}
		e.vocabs = map[string]*docVocab{}
	})
	return e
}

// vocab returns the term counts over the documents groups may see.
func (l *Library) vocab(groups []string) *docVocab {
	e := l.entityIndex()
	key := strings.Join(slices.Sorted(slices.Values(groups)), "\x00")
	e.mu.Lock()
	defer e.mu.Unlock()
	if v, ok := e.vocabs[key]; ok {
		return v
	}
	v := &docVocab{df: map[string]int{}}
	for id, d := range l.docs {
		if d.VisibleTo(groups) {
			v.n++
			for t := range e.terms[id] {
				v.df[t]++
			}
		}
	}
	e.vocabs[key] = v
	return v
}

// UnmentionedEntities lists the entities of question (assess.Entities:
// model numbers, codes, names, found with the statistics of the documents
// groups may see) that none of the cited documents mentions: an answer
// whose sources never name what was asked about is about something else.
// Empty when the question names no entity or nothing was cited.
func (l *Library) UnmentionedEntities(question string, groups, cited []string) []string {
	if len(cited) == 0 {
		return nil
	}
	e := l.entityIndex()
	ents := assess.Entities(e.an, question, l.vocab(groups))
	if len(ents) == 0 {
		return nil
	}
	mentions := make([]map[string]bool, len(cited)) // the whole entity must stand in a title or text
	for i, id := range cited {
		if d, ok := l.docs[id]; ok {
			mentions[i] = assess.Mentions(e.an, d.Title, d.Text)
		}
	}
	var out []string
	for _, en := range ents {
		mentioned := slices.ContainsFunc(mentions, en.CoveredBy)
		if !mentioned {
			out = append(out, en.Text)
		}
	}
	return out
}
