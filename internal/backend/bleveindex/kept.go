package bleveindex

// Kept terms: each chunk's analysed title and text, written at build so
// that the builtin reranker need not analyse its candidates again
// (backend.TermSource; round 29). Without them the reranker analysed the
// whole title and text of each of a search's 20 head candidates only to
// find the query terms' positions: about 2.4 ms of CPU a question at
// 500k chunks, 2.7 at 50k (round 28's profile).
//
// chunks.terms (its offsets memory-mapped, each record read with one pread):
//
//	magic       8 bytes, keptMagic
//	offsets     (n+1) little-endian uint64s: chunk i's record is
//	            data[offsets[i]:offsets[i+1]]
//	data        per chunk in ordinal order: uvarint k+1 (0: not kept,
//	            analyse the text), then k terms, each a uvarint length
//	            and its bytes, then the CRC-32C of the record's bytes
//	            before it (4 bytes, little-endian)
//
// The terms are terms.Analyzer's of Title + "\n" + Text, the string the
// reranker analyses, so kept and analysed terms are the same slice
// (TestKeptTermsEqualAnalysis). An index without the file (built before
// round 29) opens and serves as before: its candidates carry no terms and
// the reranker analyses them; rebuilding it writes the file. So does one
// whose file is round 29's first format (keptMagicV1, records without a
// checksum). A record whose checksum does not match (a damaged file, or
// offsets that no longer frame it) gives no terms, so the chunk is
// analysed: the reranker records kept terms in the analysis cache for the
// later stages (the assessor, the generator), so wrong terms would change
// more than a score (rv29, TestKeptTermsDamaged).

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/assay-rag/assay/internal/corpus"
	"github.com/assay-rag/assay/internal/errs"
	"github.com/assay-rag/assay/internal/mmap"
)

const (
	keptFile  = "chunks.terms"
	keptMagic = "asyterm2"
	// keptMagicV1 is round 29's first format, records without a
	// checksum: opened as none kept.
	keptMagicV1 = "asyterm1"
	keptSum     = 4 // a record's CRC-32C
)

// keptTable is the CRC-32C (Castagnoli) table: hardware-computed on amd64
// and arm64.
var keptTable = crc32.MakeTable(crc32.Castagnoli)

// keptWriter writes chunks.terms a chunk at a time: the records go to a
// temporary file, the offsets are kept (8 bytes a chunk) and written
// first by finish.
type keptWriter struct {
	dir  string
	tmp  *os.File
	w    *bufio.Writer
	offs []uint64
	off  uint64
	buf  []byte
}

func newKeptWriter(dir string, n int) (*keptWriter, error) {
	f, err := os.CreateTemp(dir, keptFile+".data-")
	if err != nil {
		return nil, err
	}
	return &keptWriter{dir: dir, tmp: f, w: bufio.NewWriterSize(f, 1<<20), offs: make([]uint64, 0, n+1)}, nil
}

// add writes the next chunk's terms, or marks them not kept when c's title
// or text is not valid UTF-8 (the chunk store's JSON would not give the
// same string back).
func (k *keptWriter) add(c *corpus.Chunk, ts []string) error {
	k.offs = append(k.offs, k.off)
	b := k.buf[:0]
	if !utf8.ValidString(c.Title) || !utf8.ValidString(c.Text) {
		b = binary.AppendUvarint(b, 0)
	} else {
		b = binary.AppendUvarint(b, uint64(len(ts))+1)
		for _, t := range ts {
			b = binary.AppendUvarint(b, uint64(len(t)))
			b = append(b, t...)
		}
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, keptTable))
	k.buf = b
	k.off += uint64(len(b))
	_, err := k.w.Write(b)
	return err
}

// finish writes chunks.terms (magic, offsets, then the records) and
// removes the temporary file.
func (k *keptWriter) finish() error {
	defer k.abort()
	if err := k.w.Flush(); err != nil {
		return err
	}
	k.offs = append(k.offs, k.off)
	out, err := os.Create(filepath.Join(k.dir, keptFile))
	if err != nil {
		return err
	}
	defer out.Close()
	w := bufio.NewWriterSize(out, 1<<20)
	w.WriteString(keptMagic)
	var b [8]byte
	for _, o := range k.offs {
		binary.LittleEndian.PutUint64(b[:], o)
		w.Write(b[:])
	}
	if _, err := k.tmp.Seek(0, 0); err != nil {
		return err
	}
	if _, err := w.ReadFrom(k.tmp); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return out.Close()
}

// abort removes the temporary file; finish calls it too.
func (k *keptWriter) abort() {
	if k.tmp != nil {
		k.tmp.Close()
		os.Remove(k.tmp.Name())
		k.tmp = nil
	}
}

// kept is an open chunks.terms. The offsets are read from a mapping; a
// record is read with one pread, not through the mapping: a fault on a
// mapped page maps its cached neighbours too (fault-around, 64 KiB), so
// reading records through the mapping grew the worker's resident size by
// about 180 MiB over a 500k end-to-end run, for pages it read once.
type kept struct {
	f    *os.File
	m    []byte // the mapping
	offs []byte // the offsets, in the mapping
	head int64  // where the records begin
	size uint64 // the records' length
	// damaged counts the records refused (checksum, bounds or a failed
	// read); the first is logged once, naming the file, so an operator
	// learns that the reranker is analysing text it should have read.
	damaged atomic.Int64
	warn    sync.Once
}

// openKept opens chunks.terms in dir for n chunks; (nil, nil) when the
// index has none (built before round 29) or has round 29's first format
// (keptMagicV1).
func openKept(dir string, n int) (*kept, error) {
	path := filepath.Join(dir, keptFile)
	m, err := mmap.Map(path)
	if errs.Is(errs.NotFound, err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	k := &kept{m: m}
	if len(m) >= len(keptMagicV1) && string(m[:len(keptMagicV1)]) == keptMagicV1 {
		k.close()
		return nil, nil
	}
	head := len(keptMagic) + 8*(n+1)
	if len(m) < head || string(m[:len(keptMagic)]) != keptMagic {
		k.close()
		return nil, fmt.Errorf("%s: %d bytes, not %d chunks' kept terms: rebuild it", keptFile, len(m), n)
	}
	k.offs, k.head, k.size = m[len(keptMagic):head], int64(head), uint64(len(m)-head)
	if last := binary.LittleEndian.Uint64(k.offs[8*n:]); last != k.size {
		k.close()
		return nil, fmt.Errorf("%s: records end at %d, the file holds %d: rebuild it", keptFile, last, k.size)
	}
	if k.f, err = os.Open(path); err != nil {
		k.close()
		return nil, err
	}
	return k, nil
}

func (k *kept) close() error {
	if k == nil {
		return nil
	}
	var err error
	if k.m != nil {
		err = mmap.Unmap(k.m)
	}
	if k.f != nil {
		if e := k.f.Close(); e != nil && err == nil {
			err = e
		}
	}
	k.f, k.m, k.offs = nil, nil, nil
	return err
}

// terms returns the kept terms of ordinal i, nil when none are kept or
// the record is damaged (its checksum) or cannot be read (the reranker
// then analyses the chunk). The strings are substrings of one copy of the
// record.
func (k *kept) terms(i int) []string {
	out, err := k.read(i)
	if err != nil {
		k.damaged.Add(1)
		k.warn.Do(func() {
			slog.Warn("bleveindex: a damaged kept-terms record; the reranker analyses such chunks' text instead (same results, more CPU): rebuild the index",
				"file", k.f.Name(), "chunk", i, "err", err)
		})
	}
	return out
}

var errDamaged = errors.New("damaged record")

// read reads ordinal i's record (see terms); an error when it is damaged
// or cannot be read.
func (k *kept) read(i int) ([]string, error) {
	from := binary.LittleEndian.Uint64(k.offs[8*i:])
	to := binary.LittleEndian.Uint64(k.offs[8*i+8:])
	if from >= to || to > k.size || to-from <= keptSum {
		return nil, fmt.Errorf("%w: offsets %d to %d of %d", errDamaged, from, to, k.size)
	}
	rec := make([]byte, to-from)
	if _, err := k.f.ReadAt(rec, k.head+int64(from)); err != nil {
		return nil, err
	}
	rec, sum := rec[:len(rec)-keptSum], rec[len(rec)-keptSum:]
	if crc32.Checksum(rec, keptTable) != binary.LittleEndian.Uint32(sum) {
		return nil, fmt.Errorf("%w: checksum", errDamaged)
	}
	n, w := binary.Uvarint(rec)
	if w <= 0 || n == 0 || n-1 > uint64(len(rec)) {
		return nil, fmt.Errorf("%w: term count", errDamaged)
	}
	s := string(rec) // one copy; the terms are its substrings
	out := make([]string, n-1)
	p := w
	for j := range out {
		l, w := binary.Uvarint(rec[p:])
		if w <= 0 || l > uint64(len(s)-p-w) {
			return nil, fmt.Errorf("%w: term %d", errDamaged, j)
		}
		p += w
		out[j] = s[p : p+int(l)]
		p += int(l)
	}
	if p != len(s) {
		return nil, fmt.Errorf("%w: %d bytes after the terms", errDamaged, len(s)-p)
	}
	return out, nil
}
