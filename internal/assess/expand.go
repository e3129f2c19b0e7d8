package assess

import (
	"context"
	"strings"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/terms"
)

// Expand is query as a search should run it with the thesaurus
// (loop.expand): its own words, then for each of them the words
// translate would put in its place — its relatives that the documents
// groups may see use, through the relation translate keeps (another form
// of the word, or a relation WordNet holds back through the relative's
// common senses, from a word of at most 20 senses), at most three a word —
// added beside it, not instead. Only a word no visible document uses is
// expanded: it scores nothing as typed, and a word the documents use
// already finds them (expanding "blender" with "blend" ranked pages about
// blending above the answer). None for an entity's words, a question word
// or a word that only frames what is asked ("how long"). added lists
// the words put in, in query order; without a thesaurus, or with nothing
// to add, query comes back as it is and added is empty.
//
// Only the retrieval reads the expanded query: the assessor judges the
// question in its own words, as on any attempt. What is added depends on
// the visible documents alone (their vocabulary, read through
// Corpus.Visible), never on a document the asker may not see.
func (b *Builtin) Expand(query string, groups []string) (expanded string, added []string) {
	return b.ExpandIn(context.Background(), query, groups)
}

// ExpandIn is Expand for a request whose context is ctx: the visible
// vocabulary's reads are made in it (ContextCorpus), so they end at its
// deadline. What it adds is Expand's.
func (b *Builtin) ExpandIn(ctx context.Context, query string, groups []string) (expanded string, added []string) {
	for _, e := range b.expansion(ctx, query, groups) {
		for _, s := range e.syns {
			added = append(added, s.Word)
		}
	}
	if len(added) == 0 {
		return query, nil
	}
	return query + " " + strings.Join(added, " "), added
}

// expanded is one query word's expansion: its term and the relatives
// Expand adds beside it.
type expanded struct {
	term string
	syns []synonym
}

// expansion is what Expand adds to query, word by word in query order
// (only the words it adds to).
func (b *Builtin) expansion(ctx context.Context, query string, groups []string) []expanded {
	if b.Thesaurus == nil || strings.TrimSpace(query) == "" {
		return nil
	}
	vocab := visibleIn(ctx, b.corpus, groups)
	related := b.related(query, Entities(b.an, query, vocab), vocab)
	if len(related) == 0 {
		return nil
	}
	frame := map[string]bool{}
	for _, w := range answertype.Classify(query).Frame {
		frame[strings.ToLower(w)] = true
	}
	have := b.an.Set(query)
	var out []expanded
	for _, raw := range strings.Fields(query) {
		bare := plainWord(raw)
		ts := b.an.Terms(trimMarks(raw))
		if len(ts) != 1 || vocab.DocFreq(ts[0]) > 0 || frame[strings.ToLower(bare)] || terms.IsQuestionWord(ts[0]) {
			continue // a word the visible documents use finds them itself
		}
		e := expanded{term: ts[0]}
		for _, s := range mutualOf(b.Thesaurus, true, true, bare, ts[0], related[ts[0]]) {
			if len(e.syns) == maxSynonyms {
				break
			}
			if have[s.Term] {
				continue
			}
			have[s.Term] = true
			e.syns = append(e.syns, s)
		}
		if len(e.syns) > 0 {
			out = append(out, e)
		}
	}
	return out
}
