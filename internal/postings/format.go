package postings

import (
	"encoding/binary"
	"math"
)

// The files of an index directory. All integers are little-endian.
//
//	meta.json      chunk and term counts, block size, and per group the
//	               offset of its chunk bitmap in bitmaps.bin
//	terms.fst      vellum FST: term → term id (the term's rank in byte order)
//	terms.bin      one 40-byte record per term id (termRecord)
//	postings.bin   per term: its block table (one 20-byte blockRecord per
//	               block of BlockSize postings), then the blocks' data: per
//	               block the doc ordinals as uvarint deltas (the first from
//	               the previous block's last doc, or from 0), then the term
//	               frequencies as uvarints
//	bitmaps.bin    roaring bitmaps (portable serialization, 8-byte aligned):
//	               per term the chunks holding it; per group the chunks it
//	               may see
//	norms.bin      per chunk a float32 1/√length, as bleve stores it (the
//	               length, in tokens, is recovered exactly: see lengthOf)
//
// Version 1 also stored, per group, the term ids its chunks hold and the
// index's distinct terms (bleve's "average length" came from them); this
// build reads version 1 and ignores them.
const (
	metaFile     = "meta.json"
	fstFile      = "terms.fst"
	termsFile    = "terms.bin"
	postingsFile = "postings.bin"
	bitmapsFile  = "bitmaps.bin"
	normsFile    = "norms.bin"

	formatVersion = 2
	// oldestVersion is the oldest format Open reads.
	oldestVersion = 1
	// BlockSize is the number of postings per block; each block keeps the
	// largest term frequency and smallest length in it, for block bounds.
	BlockSize = 128

	termRecordSize  = 40
	blockRecordSize = 20
)

type meta struct {
	Version   int         `json:"version"`
	Chunks    uint32      `json:"chunks"`
	Terms     uint32      `json:"terms"`
	BlockSize int         `json:"block_size"`
	Groups    []groupMeta `json:"groups"`
}

// groupMeta locates one group's chunk bitmap in bitmaps.bin: [offset, length].
type groupMeta struct {
	Name string    `json:"name"`
	Docs [2]uint64 `json:"docs"`
}

type termRecord struct {
	postOff   uint64 // start of the term's block table in postings.bin
	bitmapOff uint64
	bitmapLen uint64
	df        uint32 // chunks holding the term
	maxTF     uint32 // largest term frequency
	minLen    uint32 // smallest length of a chunk holding the term
}

func putTerm(p []byte, r termRecord) {
	le := binary.LittleEndian
	le.PutUint64(p[0:], r.postOff)
	le.PutUint64(p[8:], r.bitmapOff)
	le.PutUint64(p[16:], r.bitmapLen)
	le.PutUint32(p[24:], r.df)
	le.PutUint32(p[28:], r.maxTF)
	le.PutUint32(p[32:], r.minLen)
}

func getTerm(p []byte) termRecord {
	le := binary.LittleEndian
	return termRecord{postOff: le.Uint64(p[0:]), bitmapOff: le.Uint64(p[8:]), bitmapLen: le.Uint64(p[16:]),
		df: le.Uint32(p[24:]), maxTF: le.Uint32(p[28:]), minLen: le.Uint32(p[32:])}
}

type blockRecord struct {
	last    uint32 // last doc ordinal in the block
	maxTF   uint32
	minLen  uint32
	docsOff uint32 // offsets of the block's docs and tfs, from the end of the block table
	tfsOff  uint32
}

func putBlock(p []byte, r blockRecord) {
	le := binary.LittleEndian
	le.PutUint32(p[0:], r.last)
	le.PutUint32(p[4:], r.maxTF)
	le.PutUint32(p[8:], r.minLen)
	le.PutUint32(p[12:], r.docsOff)
	le.PutUint32(p[16:], r.tfsOff)
}

// lengthOf is the length, in tokens, of a chunk whose stored norm is norm
// (1/√length in float32): 1/norm² is within 1e-6 of it in relative terms,
// so rounding gives the integer back exactly for any chunk length an index
// holds. Scores, block bounds and the average length all use this integer.
func lengthOf(norm float32) uint32 {
	n := float64(norm)
	l := math.Round(1 / (n * n))
	if math.IsInf(l, 0) || l > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(l)
}
