package vectors

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/assay-rag/assay/internal/errs"
)

// Subset is the 1-bit records of a fixed set of ordinals, copied back to
// back into the heap in increasing ordinal order. A caller who sees part
// of the corpus scans codes scattered through the mapped file: for the
// anonymous caller of the scale benchmark (half of the corpus) that
// costs about what scanning all of them does, bound by reaching the
// records rather than by scoring them (docs/log/performance-scale.md, "bleve
// end to end at 500k"). Over a Subset the same records are read in
// order. A Bit search over a Subset scores the same records with the same
// expression and offers them in the same order as one over its bitmap,
// so it returns the same hits.
//
// Where subsetBlocks holds (a CPU with AVX2), the codes are sliced by
// byte into blocks of 32 records (blocks.go) and the headers kept apart:
// the same records, counted by nibble lookups instead of popcounts, to
// the same integers.
//
// A Subset is immutable and safe for concurrent use. It belongs to the
// Store that made it.
type Subset struct {
	s       *Store
	allowed *roaring.Bitmap
	ords    []uint32
	recs    []uint64 // len(ords) records of 1+words words, or nil
	heads   []uint64 // with blocks: the records' header words
	blocks  []byte   // or ⌈len(ords)/32⌉ blocks of codes (sliceRecord)
	// masked: with blocks, every header's count of ones is below 2^31,
	// as aboveBlocks needs (a count is at most 64·words in codes
	// BuildCodes writes), so the block scan tests estimates against the
	// floor 32 at a time.
	masked bool
}

// blockWordsMax is the widest code the block layout takes: a record's
// sum (at most 8·words·120) must fit countBlocks32's 16-bit lanes.
const blockWordsMax = 68

// useBlocks is whether a subset of codes of words words is laid out in
// blocks.
func useBlocks(words int) bool { return subsetBlocks && words <= blockWordsMax }

// NewSubset copies the 1-bit records of the ordinals in allowed, which
// the caller must not modify afterwards (the Subset keeps it for the
// searches that do not use the codes). It fails with errs.Unsupported
// when the store has no 1-bit codes.
func (s *Store) NewSubset(allowed *roaring.Bitmap) (*Subset, error) {
	const op = "vectors.NewSubset"
	s.mu.RLock()
	defer s.mu.RUnlock()
	switch {
	case s.closed:
		return nil, errs.Errorf(op, errs.Invalid, "the store for %s is closed", s.path)
	case s.bits == nil:
		return nil, errs.Errorf(op, errs.Unsupported, "no bit codes beside %s: build them with BuildCodes", s.path)
	case allowed == nil:
		return nil, errs.FieldError(op, "allowed", "must not be nil: a search of every vector reads the codes in order already")
	case !allowed.IsEmpty() && int(allowed.Maximum()) >= s.n:
		return nil, errs.FieldError(op, "allowed", fmt.Sprintf("holds ordinal %d, the store has %d vectors", allowed.Maximum(), s.n))
	}
	stride := 1 + s.bits.words
	n := int(allowed.GetCardinality())
	sub := &Subset{s: s, allowed: allowed, ords: allowed.ToArray()}
	if w := s.bits.words; useBlocks(w) {
		sub.heads = make([]uint64, n)
		sub.blocks = make([]byte, (n+blockRecs-1)/blockRecs*blockBytes(w))
		sub.masked = true
		for j, i := range sub.ords {
			sliceRecord(sub.blocks, sub.heads, j, s.bits.recs[int(i)*stride:][:stride], w)
			if sub.heads[j]>>32 >= 1<<31 {
				sub.masked = false
			}
		}
		return sub, nil
	}
	sub.recs = make([]uint64, n*stride)
	for j, i := range sub.ords {
		copy(sub.recs[j*stride:(j+1)*stride], s.bits.recs[int(i)*stride:])
	}
	return sub, nil
}

// Len is the number of ordinals in the subset.
func (sub *Subset) Len() int { return len(sub.ords) }

// Bytes is the heap the subset holds.
func (sub *Subset) Bytes() int {
	return 4*len(sub.ords) + 8*len(sub.recs) + 8*len(sub.heads) + len(sub.blocks)
}

// SubsetBytes is the heap a subset of n ordinals would hold (its Bytes),
// known before it is made; 0 for a store without bit codes.
func (s *Store) SubsetBytes(n int) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	switch w := s.bits; {
	case w == nil:
		return 0
	case useBlocks(w.words):
		return 12*n + (n+blockRecs-1)/blockRecs*blockBytes(w.words)
	default:
		return 4*n + 8*n*(1+w.words)
	}
}

// Allowed is the subset's ordinals, as NewSubset was given them; the
// caller must not modify it.
func (sub *Subset) Allowed() *roaring.Bitmap { return sub.allowed }

// SearchSubset is Search over the ordinals of sub, with the same results:
// a Bit search scans sub's contiguous records instead of reaching each
// allowed record in the mapped file; other types search sub's bitmap.
func (s *Store) SearchSubset(ctx context.Context, query []float32, sub *Subset, k int, t Type, overfetch int) ([]Hit, error) {
	if sub == nil || sub.s != s {
		return nil, errs.FieldError("vectors.SearchSubset", "subset", "must be made by this store (NewSubset)")
	}
	return s.search(ctx, query, sub.allowed, sub, k, t, overfetch)
}

// scanSubset is scanBits over sub's records: the same estimate
// (bitQuery.estimate) of the same record, offered in the same (increasing ordinal) order, with the
// context checked every checkEvery records.
func (s *Store) scanSubset(ctx context.Context, sub *Subset, est *bitEstimator, top *bestSet) error {
	if sub.blocks != nil {
		return s.scanSubsetBlocks(ctx, sub, est, top)
	}
	w := est.c.words
	stride := 1 + w
	packed := est.packed
	q := est.bitQuery
	var pops [256]int64 // a batch's sums, counted in one kernel call (checkEvery is a multiple of its size)
	for b := 0; b < len(sub.ords); b += len(pops) {
		if b%checkEvery == 0 && ctx.Err() != nil {
			return errs.E(errs.Timeout, ctx.Err())
		}
		ords := sub.ords[b:min(b+len(pops), len(sub.ords))]
		recs := sub.recs[b*stride : (b+len(ords))*stride]
		counts := pops[:len(ords)]
		weightedPopcounts(packed, recs, w, counts)
		for j, i := range ords {
			score := q.estimate(recs[j*stride], int(counts[j]))
			if top.full && score <= top.floorScore {
				continue
			}
			top.offer(i, score)
		}
	}
	return nil
}

// scanSubsetBlocks is scanSubset over a subset laid out in blocks: the
// same records' estimates from the same integers (countBlocks), offered
// in the same order, the context checked every checkEvery records.
//
// Once top has a floor, whole blocks of a batch are first tested against
// the floor it had when the batch began (aboveBlocks: the same estimates
// in vector registers, 32 records to a mask), and only the records whose
// bit is set go through the loop's own estimate and test against the
// current floor. The floor only rises, so a record left out has an
// estimate ≤ a floor no higher than the current one, which the loop would
// have dropped too: the same offers in the same order. On the 500k
// index's real codes (the anonymous caller's 250k, 300 SciFact claims)
// 2.8% of the masked records pass with k×overfetch 1,000 and 4.9% with
// 2,000 (TestRealScanCounts, docs/log/round-30-p30-vec.md).
func (s *Store) scanSubsetBlocks(ctx context.Context, sub *Subset, est *bitEstimator, top *bestSet) error {
	w := est.c.words
	bb := blockBytes(w)
	tables := blockTables(est.packed, w)
	q := est.bitQuery
	var pops [256]uint16 // a batch's sums, 8 blocks (checkEvery is a multiple of its size)
	var masks [len(pops) / blockRecs]uint32
	for b := 0; b < len(sub.ords); b += len(pops) {
		if b%checkEvery == 0 && ctx.Err() != nil {
			return errs.E(errs.Timeout, ctx.Err())
		}
		ords := sub.ords[b:min(b+len(pops), len(sub.ords))]
		heads := sub.heads[b:][:len(ords)]
		nb := (len(ords) + blockRecs - 1) / blockRecs
		first := b / blockRecs
		counts := pops[:nb*blockRecs]
		countBlocks(tables, sub.blocks[first*bb:(first+nb)*bb], w, counts)
		from := 0 // the records before from went through the masks
		if top.full && sub.masked {
			m := masks[:len(ords)/blockRecs]
			aboveBlocks(q, top.floorScore, heads, counts, m)
			for k, above := range m {
				for ; above != 0; above &= above - 1 {
					j := k*blockRecs + bits.TrailingZeros32(above)
					score := q.estimate(heads[j], int(counts[j]))
					if score <= top.floorScore {
						continue
					}
					top.offer(ords[j], score)
				}
			}
			from = len(m) * blockRecs
		}
		for j := from; j < len(ords); j++ {
			score := q.estimate(heads[j], int(counts[j]))
			if top.full && score <= top.floorScore {
				continue
			}
			top.offer(ords[j], score)
		}
	}
	return nil
}
