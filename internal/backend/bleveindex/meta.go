package bleveindex

import (
	"context"

	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
)

// chunkMeta is every chunk's status and authority, by ordinal, built at
// Open from the filter bitmaps (filters.json holds one bitmap per status
// and per authority value), so that ranking a candidate needs no read of
// its chunk (backend.MetaSource): 5 bytes a chunk.
type chunkMeta struct {
	statuses    []corpus.Status
	authorities []float64
	status      []uint8  // index into statuses
	authority   []uint32 // index into authorities
}

// newChunkMeta builds the table for n chunks; nil when some chunk has no
// status or authority bitmap (an index the table cannot describe: its
// chunks are then read).
func newChunkMeta(fs *filters, n int) *chunkMeta {
	m := &chunkMeta{status: make([]uint8, n), authority: make([]uint32, n)}
	seenS, seenA := make([]bool, n), make([]bool, n)
	for v, bm := range fs.fields[backend.FieldStatus] {
		if len(m.statuses) == 255 {
			return nil
		}
		m.statuses = append(m.statuses, corpus.Status(v))
		it := bm.Iterator()
		for it.HasNext() {
			i := it.Next()
			if int(i) >= n {
				return nil
			}
			m.status[i], seenS[i] = uint8(len(m.statuses)-1), true
		}
	}
	for v, bm := range fs.fields[backend.FieldAuthority] {
		m.authorities = append(m.authorities, fs.authority[v])
		it := bm.Iterator()
		for it.HasNext() {
			i := it.Next()
			if int(i) >= n {
				return nil
			}
			m.authority[i], seenA[i] = uint32(len(m.authorities)-1), true
		}
	}
	for i := range n {
		if !seenS[i] || !seenA[i] {
			return nil
		}
	}
	return m
}

// ChunkMeta implements backend.MetaSource: visibility from the groups'
// bitmaps, status and authority from the table built at Open (or, for an
// index without one, from the chunks themselves).
func (ix *Index) ChunkMeta(_ context.Context, ids []string, groups []string) ([]backend.ChunkMeta, error) {
	const op = "index.ChunkMeta"
	vis := ix.post.Visible(groups).Docs()
	out := make([]backend.ChunkMeta, len(ids))
	for j, id := range ids {
		ord, ok := ix.store.ordinal(id)
		if !ok {
			return nil, errs.Errorf(op, errs.NotFound, "no chunk %q", id)
		}
		out[j].Visible = len(groups) > 0 && vis.Contains(uint32(ord))
		if m := ix.meta; m != nil {
			out[j].Status, out[j].Authority = m.statuses[m.status[ord]], m.authorities[m.authority[ord]]
			continue
		}
		c, err := ix.store.chunk(ord)
		if err != nil {
			return nil, errs.E(op, errs.Invalid, err)
		}
		out[j].Status, out[j].Authority = c.Status, c.Authority
	}
	return out, nil
}
