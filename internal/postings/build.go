package postings

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/vellum"

	"github.com/assay-rag/assay/internal/errs"
)

// Builder writes an index. Chunks are added in ordinal order (0, 1, 2, …);
// Finish writes the files. The postings are held in memory, delta-encoded
// (about 2–3 bytes a posting), until Finish.
type Builder struct {
	dir    string
	n      uint32
	ids    map[string]uint32 // term → build-time id (first-seen order)
	terms  []*building       // by build-time id
	norms  []float32
	groups map[string]*roaring.Bitmap // group → the chunks it may see
	tf     map[uint32]uint32          // scratch: one chunk's term counts
	done   bool
}

// building is one term's postings while the index is built: uvarint pairs
// (doc delta, tf).
type building struct {
	term string
	df   uint32
	last uint32
	enc  []byte
}

// NewBuilder starts an index to be written into dir, which is created if
// needed. Files of an earlier index in dir are replaced by Finish.
func NewBuilder(dir string) (*Builder, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, errs.E("postings.NewBuilder", err)
	}
	return &Builder{dir: dir, ids: map[string]uint32{}, groups: map[string]*roaring.Bitmap{}, tf: map[uint32]uint32{}}, nil
}

// Add appends the chunk with ordinal ord, which must be the number of chunks
// added so far. terms are its analyzed content terms (repeats count as the
// term frequency; order does not matter); groups are its ACL: the groups
// that may see it.
func (b *Builder) Add(ord int, terms []string, groups []string) error {
	const op = "postings.Builder.Add"
	switch {
	case b.done:
		return errs.Errorf(op, errs.Invalid, "the builder is finished")
	case ord != int(b.n):
		return errs.Errorf(op, errs.Invalid, "ordinal %d out of order: expected %d", ord, b.n)
	case b.n == math.MaxUint32-1:
		return errs.Errorf(op, errs.Invalid, "too many chunks")
	}
	clear(b.tf)
	for _, t := range terms {
		id, ok := b.ids[t]
		if !ok {
			id = uint32(len(b.terms))
			b.ids[t] = id
			b.terms = append(b.terms, &building{term: t})
		}
		b.tf[id]++
	}
	for id, tf := range b.tf {
		t := b.terms[id]
		delta := b.n - t.last
		if t.df == 0 {
			delta = b.n
		}
		t.enc = binary.AppendUvarint(t.enc, uint64(delta))
		t.enc = binary.AppendUvarint(t.enc, uint64(tf))
		t.last = b.n
		t.df++
	}
	// bleve keeps a field's length as a float32 1/√length.
	b.norms = append(b.norms, float32(1/math.Sqrt(float64(len(terms)))))
	for _, g := range groups {
		docs := b.groups[g]
		if docs == nil {
			docs = roaring.New()
			b.groups[g] = docs
		}
		docs.Add(b.n) // a group named twice in one ACL adds it once
	}
	b.n++
	return nil
}

// Finish writes the index files and releases the builder's memory.
func (b *Builder) Finish() error {
	const op = "postings.Builder.Finish"
	if b.done {
		return errs.Errorf(op, errs.Invalid, "the builder is finished")
	}
	b.done = true
	// Term ids at query time are the terms' ranks in byte order, the order
	// the FST is built in.
	order := make([]uint32, len(b.terms))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(x, y uint32) int {
		switch a, c := b.terms[x].term, b.terms[y].term; {
		case a < c:
			return -1
		case a > c:
			return 1
		}
		return 0
	})
	w, err := newFiles(b.dir)
	if err != nil {
		return errs.E(op, err)
	}
	defer w.abort()
	fst, err := vellum.New(w.fstWriter(), nil)
	if err != nil {
		return errs.E(op, err)
	}
	var (
		docs   []uint32
		tfs    []uint32
		rec    [termRecordSize]byte
		blk    [blockRecordSize]byte
		data   []byte
		blocks []byte
	)
	for r, id := range order {
		t := b.terms[id]
		if err := fst.Insert([]byte(t.term), uint64(r)); err != nil {
			return errs.E(op, err)
		}
		docs, tfs = decodeBuilding(t, docs[:0], tfs[:0])
		blocks, data = blocks[:0], data[:0]
		var maxTF, minLen uint32 = 0, math.MaxUint32
		prev := uint32(0)
		for start := 0; start < len(docs); start += BlockSize {
			end := min(start+BlockSize, len(docs))
			bMaxTF, bMinLen := uint32(0), uint32(math.MaxUint32)
			docsOff := uint32(len(data))
			for i := start; i < end; i++ {
				data = binary.AppendUvarint(data, uint64(docs[i]-prev))
				prev = docs[i]
				bMaxTF = max(bMaxTF, tfs[i])
				bMinLen = min(bMinLen, lengthOf(b.norms[docs[i]]))
			}
			tfsOff := uint32(len(data))
			for i := start; i < end; i++ {
				data = binary.AppendUvarint(data, uint64(tfs[i]))
			}
			putBlock(blk[:], blockRecord{last: docs[end-1], maxTF: bMaxTF, minLen: bMinLen, docsOff: docsOff, tfsOff: tfsOff})
			blocks = append(blocks, blk[:]...)
			maxTF, minLen = max(maxTF, bMaxTF), min(minLen, bMinLen)
		}
		bm := roaring.BitmapOf(docs...)
		bm.RunOptimize()
		bmOff, bmLen, err := w.bitmap(bm)
		if err != nil {
			return errs.E(op, err)
		}
		putTerm(rec[:], termRecord{postOff: w.postOff, bitmapOff: bmOff, bitmapLen: bmLen, df: t.df, maxTF: maxTF, minLen: minLen})
		if err := w.write(w.terms, rec[:], nil); err != nil {
			return errs.E(op, err)
		}
		if err := w.write(w.post, blocks, &w.postOff); err != nil {
			return errs.E(op, err)
		}
		if err := w.write(w.post, data, &w.postOff); err != nil {
			return errs.E(op, err)
		}
		b.terms[id] = nil
	}
	if err := fst.Close(); err != nil {
		return errs.E(op, err)
	}
	var norm [4]byte
	for _, x := range b.norms {
		binary.LittleEndian.PutUint32(norm[:], math.Float32bits(x))
		if err := w.write(w.norms, norm[:], nil); err != nil {
			return errs.E(op, err)
		}
	}
	m := meta{Version: formatVersion, Chunks: b.n, Terms: uint32(len(order)), BlockSize: BlockSize}
	for _, name := range slices.Sorted(maps.Keys(b.groups)) {
		docs := b.groups[name]
		docs.RunOptimize()
		off, n, err := w.bitmap(docs)
		if err != nil {
			return errs.E(op, err)
		}
		m.Groups = append(m.Groups, groupMeta{Name: name, Docs: [2]uint64{off, n}})
	}
	js, err := json.Marshal(m)
	if err != nil {
		return errs.E(op, err)
	}
	if err := w.write(w.meta, js, nil); err != nil {
		return errs.E(op, err)
	}
	b.terms, b.ids, b.norms, b.groups = nil, nil, nil, nil
	if err := w.commit(); err != nil {
		return errs.E(op, err)
	}
	return nil
}

// decodeBuilding appends a term's postings to docs and tfs.
func decodeBuilding(t *building, docs, tfs []uint32) ([]uint32, []uint32) {
	buf := t.enc
	doc := uint32(0)
	for len(buf) > 0 {
		d, n := binary.Uvarint(buf)
		buf = buf[n:]
		tf, m := binary.Uvarint(buf)
		buf = buf[m:]
		doc += uint32(d)
		docs = append(docs, doc)
		tfs = append(tfs, uint32(tf))
	}
	return docs, tfs
}

// files are the index files being written, as temporary files renamed into
// place by commit.
type files struct {
	dir                               string
	meta, fst, terms, post, bm, norms *os.File
	bufs                              map[*os.File]*bufio.Writer
	postOff, bmOff                    uint64
	committed                         bool
}

func newFiles(dir string) (*files, error) {
	w := &files{dir: dir, bufs: map[*os.File]*bufio.Writer{}}
	for _, p := range []struct {
		f    **os.File
		name string
	}{{&w.meta, metaFile}, {&w.fst, fstFile}, {&w.terms, termsFile}, {&w.post, postingsFile}, {&w.bm, bitmapsFile}, {&w.norms, normsFile}} {
		f, err := os.CreateTemp(dir, p.name+".tmp*")
		if err != nil {
			w.abort()
			return nil, err
		}
		*p.f = f
		w.bufs[f] = bufio.NewWriterSize(f, 1<<20)
	}
	return w, nil
}

// vellum writes through this.
func (w *files) fstWriter() *bufio.Writer { return w.bufs[w.fst] }

func (w *files) write(f *os.File, p []byte, off *uint64) error {
	if _, err := w.bufs[f].Write(p); err != nil {
		return err
	}
	if off != nil {
		*off += uint64(len(p))
	}
	return nil
}

// bitmap writes bm into the bitmaps file at an 8-byte aligned offset (roaring
// reads its containers in place) and returns the offset and length.
func (w *files) bitmap(bm *roaring.Bitmap) (uint64, uint64, error) {
	if pad := (8 - w.bmOff%8) % 8; pad > 0 {
		if err := w.write(w.bm, make([]byte, pad), &w.bmOff); err != nil {
			return 0, 0, err
		}
	}
	off := w.bmOff
	n, err := bm.WriteTo(w.bufs[w.bm])
	w.bmOff += uint64(n)
	return off, uint64(n), err
}

// commit renames the files into place, meta.json last, so an interrupted
// commit leaves the earlier meta.json, whose counts Open checks against
// the files' sizes. It is not atomic: rebuild after a failed Finish.
func (w *files) commit() error {
	for _, f := range []struct {
		f    *os.File
		name string
	}{{w.fst, fstFile}, {w.terms, termsFile}, {w.post, postingsFile}, {w.bm, bitmapsFile}, {w.norms, normsFile}, {w.meta, metaFile}} {
		if err := w.bufs[f.f].Flush(); err != nil {
			return err
		}
		if err := f.f.Close(); err != nil {
			return err
		}
		if err := os.Rename(f.f.Name(), filepath.Join(w.dir, f.name)); err != nil {
			return err
		}
	}
	w.committed = true
	return nil
}

// abort removes the temporary files unless they were committed.
func (w *files) abort() {
	if w.committed {
		return
	}
	for _, f := range []*os.File{w.meta, w.fst, w.terms, w.post, w.bm, w.norms} {
		if f != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}
}
