package judge

import (
	"context"
	"fmt"
	"strings"

	"github.com/assay-rag/assay/internal/citation"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
)

// ChunkSource reads chunks by id; *index.Index is one. An unknown id is
// an errs.NotFound error.
type ChunkSource interface {
	Chunks(ctx context.Context, ids []string) ([]corpus.Chunk, error)
}

// Library is what the answer diagnosis knows about the corpus: every
// document's metadata and text, and — when an index was given — whether
// the index holds text for it. It tells missing content (no relevant
// document visible to the asker) from extraction failures (a relevant
// document whose text never reached the index).
type Library struct {
	docs map[string]*corpus.Document
	// indexed says whether the index has a chunk with text for a
	// document; nil when no index was given.
	indexed map[string]bool
	// entities serves UnmentionedEntities.
	entities entityIndex
}

// maxProbe bounds the chunks probed per document.
const maxProbe = 100000

// NewLibrary indexes docs by id. With chunks (the index the worker
// searches, when this process can open it) it also records which
// documents have at least one indexed chunk with non-blank text: chunk
// ids are corpus.ChunkID(doc, 0), (doc, 1), ..., probed until the first
// missing ordinal.
func NewLibrary(ctx context.Context, docs []corpus.Document, chunks ChunkSource) (*Library, error) {
	l := &Library{docs: make(map[string]*corpus.Document, len(docs))}
	for i := range docs {
		l.docs[docs[i].ID] = &docs[i]
	}
	if chunks == nil {
		return l, nil
	}
	l.indexed = make(map[string]bool, len(docs))
	for id := range l.docs {
		for n := 0; n < maxProbe; n++ {
			cs, err := chunks.Chunks(ctx, []string{corpus.ChunkID(id, n)})
			if errs.Is(errs.NotFound, err) {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("eval: reading the chunks of %s: %w", id, err)
			}
			if len(cs) == 1 && strings.TrimSpace(cs[0].Text) != "" {
				l.indexed[id] = true
				break
			}
		}
	}
	return l, nil
}

// Has reports whether the corpus has document id.
func (l *Library) Has(id string) bool { return l.docs[id] != nil }

// Visible reports whether a principal in groups may see document id.
func (l *Library) Visible(id string, groups []string) bool {
	d := l.docs[id]
	return d != nil && d.VisibleTo(groups)
}

// Extracted reports whether document id has text in the corpus and, when
// the library knows the index, in at least one indexed chunk.
func (l *Library) Extracted(id string) bool {
	d := l.docs[id]
	if d == nil || strings.TrimSpace(d.Text) == "" {
		return false
	}
	return l.indexed == nil || l.indexed[id]
}

// Stale reports whether document id is archived or withdrawn.
func (l *Library) Stale(id string) bool {
	d := l.docs[id]
	return d != nil && d.Status != "" && d.Status != corpus.Current
}

// WeakAuthority is the authority below which a cited source counts as
// weak whatever else was in the context (seed 003's threshold).
const WeakAuthority = 0.5

// Weak reports whether document id's authority is below WeakAuthority.
func (l *Library) Weak(id string) bool {
	d := l.docs[id]
	return d != nil && d.Authority < WeakAuthority
}

// sentencesOnlyIn returns the sentences of document id (of at least four
// words) that no document visible to groups also contains: text that could
// only have come from id.
func (l *Library) sentencesOnlyIn(id string, groups []string) []string {
	d := l.docs[id]
	if d == nil {
		return nil
	}
	var out []string
	for _, s := range citation.Sentences(d.Text) {
		s = strings.ToLower(strings.TrimRight(s, ".!?"))
		if len(strings.Fields(s)) < 4 {
			continue
		}
		shared := false
		for _, o := range l.docs {
			if o.ID != id && o.VisibleTo(groups) && strings.Contains(strings.ToLower(o.Text), s) {
				shared = true
				break
			}
		}
		if !shared {
			out = append(out, s)
		}
	}
	return out
}
