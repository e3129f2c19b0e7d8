package postings

import (
	"context"
	"encoding/binary"
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/assay-rag/assay/internal/backend"
)

// Params are BM25's parameters.
type Params struct {
	K1, B float64
}

// Hit is one scored chunk.
type Hit struct {
	Ord   uint32
	Score float64
}

// boundSlack inflates upper bounds so that rounding in the exact score
// (which sums in query order and multiplies by the coordination factor)
// can never exceed a bound computed in another order.
const boundSlack = 1 + 1e-9

// end is the doc of an exhausted cursor.
const end = math.MaxUint32

// Search returns the k best chunks for the query terms qterms (analyzed by
// the index's analyzer, in query order, repeats kept: each is a clause)
// among the visible chunks that are also in allowed (nil: all visible
// chunks), best first, ties by ordinal. Scores are bleve's BM25 with this
// set's statistics, exactly the bleve backend's formula (searchVisible,
// backend.BM25Query): for each clause i whose term the chunk holds,
// idf_i² · qnorm · √tf·k1 / (√tf + k1·(1 − b + b·len/avgdl)), summed in
// clause order, times the share of clauses matched. Only chunks that can still enter the top k are
// scored (MaxScore with block bounds, see maxScoreWindows); the result
// equals scoring every match.
func (v *Visible) Search(ctx context.Context, qterms []string, allowed *roaring.Bitmap, k int, p Params) ([]Hit, error) {
	hits, _, err := v.search(ctx, qterms, allowed, k, p)
	return hits, err
}

// work counts what one search did, for benchmarks.
type work struct {
	examined int // chunks whose essential terms' contribution was summed
	scored   int // chunks scored exactly
	decoded  int // posting blocks decoded
}

func (v *Visible) search(ctx context.Context, qterms []string, allowed *roaring.Bitmap, k int, p Params) ([]Hit, work, error) {
	q := v.prepare(qterms, p)
	if q == nil || k < 1 {
		return nil, work{}, nil
	}
	cand := v.docs
	if allowed != nil {
		cand = roaring.And(v.docs, allowed)
	}
	if cand.IsEmpty() {
		return nil, work{}, nil
	}
	everyDoc := v.full && allowed == nil
	var dense []uint64
	if !everyDoc && !sparseCand(cand, v.ix.Len()) {
		if allowed == nil {
			dense = v.denseDocs()
		} else {
			dense = denseOf(cand, v.ix.Len())
		}
	}
	hits, err := q.maxScoreWindows(ctx, cand, dense, everyDoc, k)
	for _, c := range q.terms {
		q.work.decoded += c.decoded
	}
	return hits, q.work, err
}

// query is a prepared query: its clauses, weights and term cursors.
type query struct {
	ix      *Index
	p       Params
	avgdl   float64
	clauses []int     // clause → unique term index (-1: no chunk holds it)
	w       []float64 // clause → idf² · qnorm
	terms   []*cursor // unique terms present in the index
	stamp   uint64    // chunks scored so far
	work    work
}

func (v *Visible) prepare(qterms []string, p Params) *query {
	if v.n == 0 || len(qterms) == 0 {
		return nil
	}
	q := &query{ix: v.ix, p: p, avgdl: v.avgdl, clauses: make([]int, len(qterms)), w: make([]float64, len(qterms))}
	idf := make([]float64, len(qterms))
	byTerm := map[string]int{}
	dfs := map[string]int{}
	var sumSq float64
	for i, t := range qterms {
		df, seen := dfs[t]
		if !seen {
			u := -1
			if r, ok := v.ix.term(t); ok {
				df = v.docFreq(r)
				if df > 0 {
					u = len(q.terms)
					q.terms = append(q.terms, newCursor(v.ix, r))
				}
			}
			dfs[t], byTerm[t] = df, u
		}
		q.clauses[i] = byTerm[t]
		idf[i] = backend.IDF(v.n, df)
		sumSq += idf[i] * idf[i]
	}
	qnorm := 1.0
	if sumSq > 0 {
		qnorm = 1 / math.Sqrt(sumSq)
	}
	for i := range qterms {
		q.w[i] = idf[i] * idf[i] * qnorm
		if u := q.clauses[i]; u >= 0 {
			q.terms[u].weight += q.w[i]
			q.terms[u].clauses++
		}
	}
	for _, c := range q.terms {
		c.ub = c.weight * q.termScore(float64(c.rec.maxTF), float64(c.rec.minLen)) * boundSlack
	}
	return q
}

// termScore is BM25's saturation of a term frequency for a chunk length,
// an upper bound for any larger length or smaller frequency.
func (q *query) termScore(tf, length float64) float64 {
	return q.saturate(tf, q.kLen(length))
}

// kLen is K1 times a chunk's length normalisation: the part of every
// clause's denominator that depends on the chunk only, computed once a
// chunk (a division) instead of once a term. The conversion rounds it as
// the expression inside the denominator is rounded, so the clauses are
// bit-identical to backend.BM25Query.Clause's.
func (q *query) kLen(length float64) float64 {
	return float64(q.p.K1 * q.lenNorm(length))
}

// saturate is termScore for a chunk whose kLen is kl.
func (q *query) saturate(tf, kl float64) float64 {
	s := math.Sqrt(tf)
	return s * q.p.K1 / (s + kl)
}

// lenNorm is BM25's length normalisation of a chunk of length tokens.
func (q *query) lenNorm(length float64) float64 {
	return backend.BM25(q.p).LenNorm(length, q.avgdl)
}

// length is a chunk's length in tokens.
func (q *query) length(doc uint32) float64 { return q.ix.length(doc) }

// hold records, for the chunk being scored (q.stamp), whose kLen is kl,
// that it holds c's term tf times.
func (q *query) hold(c *cursor, tf uint32, kl float64) {
	s := math.Sqrt(float64(tf))
	c.hit, c.sqrtTF, c.den = q.stamp, s, s+kl
}

// held is the score of the chunk whose terms hold recorded: the clauses
// summed in query order, times the share of clauses matched. The
// arithmetic, operation by operation, is backend.BM25Query's (Clause,
// then Score), so the scores are bit-identical to the bleve backend's
// exhaustive scorer.
func (q *query) held() float64 {
	var sum float64
	matched := 0
	for i, u := range q.clauses {
		if u < 0 || q.terms[u].hit != q.stamp {
			continue
		}
		c := q.terms[u]
		sum += q.w[i] * c.sqrtTF * q.p.K1 / c.den
		matched++
	}
	return sum * float64(matched) / float64(len(q.clauses))
}

// cursor walks one term's postings block by block.
type cursor struct {
	rec     termRecord
	blocks  []byte // block table
	data    []byte // blocks' data
	nblocks int
	weight  float64 // Σ of the term's clause weights
	clauses int     // the term's clauses (a repeated query term has several)
	ub      float64 // bound of the term's contribution to any chunk

	blk     int // current block (may be ahead of the decoded one after shallow)
	bound   float64
	boundOf int // block whose bound is in bound, or -1
	dec     int // decoded block, or -1
	docs    [BlockSize]uint32
	tfs     [BlockSize]uint32
	n       int    // postings in the decoded block
	have    int    // docs[:have] decoded (a probe decodes a prefix)
	prev    uint32 // docs[have-1], or the previous block's last doc
	rest    []byte // the block's doc deltas not decoded yet
	tfHave  int    // tfs[:tfHave] decoded
	tfRest  []byte // the block's frequencies not decoded yet (tfHave > 0)
	pos     int
	doc     uint32
	lazy    bool // doc is a lower bound: the block holding the posting is not decoded

	decoded int
	hit     uint64 // scratch for score: query.stamp when the chunk scored holds the term
	sqrtTF  float64
	den     float64
}

func newCursor(ix *Index, r termRecord) *cursor {
	nb := int((r.df + BlockSize - 1) / BlockSize)
	table := ix.post[r.postOff : r.postOff+uint64(nb*blockRecordSize)]
	return &cursor{rec: r, blocks: table, data: ix.post[r.postOff+uint64(len(table)):], nblocks: nb, dec: -1, boundOf: -1}
}

func (c *cursor) blockField(i, f int) uint32 {
	return binary.LittleEndian.Uint32(c.blocks[i*blockRecordSize+f*4:])
}

func (c *cursor) blockLast() uint32 {
	if c.blk >= c.nblocks {
		return end - 1
	}
	return c.blockField(c.blk, 0)
}

// shallow moves to the block that would hold d without decoding it.
func (c *cursor) shallow(d uint32) {
	lo, hi := c.blk, c.nblocks
	if lo < hi && c.blockField(lo, 0) >= d {
		return
	}
	for lo < hi { // first block whose last doc ≥ d
		m := int(uint(lo+hi) >> 1)
		if c.blockField(m, 0) < d {
			lo = m + 1
		} else {
			hi = m
		}
	}
	c.blk = lo
}

// blockBound bounds the term's contribution to any chunk of the current
// block.
func (c *cursor) blockBound(q *query) float64 {
	if c.blk >= c.nblocks {
		return 0
	}
	if c.boundOf != c.blk {
		c.bound = c.weight * q.termScore(float64(c.blockField(c.blk, 1)), float64(c.blockField(c.blk, 2))) * boundSlack
		c.boundOf = c.blk
	}
	return c.bound
}

// skipTo moves to the first posting at or after d, decoding nothing: when
// that posting lies in a block not decoded yet, the cursor becomes lazy and
// its doc is d, a lower bound, until materialize.
func (c *cursor) skipTo(d uint32) {
	if c.doc >= d {
		return
	}
	c.shallow(d)
	switch {
	case c.blk >= c.nblocks:
		c.doc, c.lazy = end, false
	case c.dec == c.blk:
		c.advance(d)
	default:
		c.doc, c.lazy = d, true
	}
}

// materialize decodes a lazy cursor's block and finds its posting.
func (c *cursor) materialize() {
	if c.lazy {
		c.advance(c.doc)
	}
}

// advance moves to the first posting at or after d, decoding the block's
// docs only as far as that posting (a probe of a non-essential term needs
// no more; the rest is decoded when a later advance or the window's
// accumulation needs it).
func (c *cursor) advance(d uint32) {
	c.lazy = false
	c.shallow(d)
	if c.blk >= c.nblocks {
		c.doc = end
		return
	}
	if c.dec != c.blk {
		c.open()
	}
	if c.have == 0 || c.prev < d {
		c.docsTo(d)
	}
	for c.docs[c.pos] < d { // docs[have-1] ≥ d: the block's last doc is ≥ d
		c.pos++
	}
	c.doc = c.docs[c.pos]
}

func (c *cursor) next() {
	c.pos++
	if c.pos < c.n {
		if c.pos >= c.have {
			c.docsTo(end)
		}
		c.doc = c.docs[c.pos]
		return
	}
	c.blk++
	if c.blk >= c.nblocks {
		c.doc = end
		return
	}
	c.decode()
	c.doc = c.docs[0]
}

// decode reads all of the current block's docs; tfs wait for tf.
func (c *cursor) decode() {
	c.open()
	c.docsTo(end)
}

// open makes the current block the decoded one, nothing of it read yet.
func (c *cursor) open() {
	c.dec, c.pos, c.have, c.tfHave = c.blk, 0, 0, 0
	c.decoded++
	c.n = BlockSize
	if c.blk == c.nblocks-1 {
		c.n = int(c.rec.df) - c.blk*BlockSize
	}
	c.prev = 0
	if c.blk > 0 {
		c.prev = c.blockField(c.blk-1, 0)
	}
	c.rest = c.data[c.blockField(c.blk, 3):]
}

// docsTo decodes the block's docs from docs[have] on until one ≥ d is
// decoded (up to seven more after it) or the block is read; at least one
// is decoded when any is left.
func (c *cursor) docsTo(d uint32) {
	prev, buf, i := c.prev, c.rest, c.have
	docs := c.docs[:c.n]
	for i < len(docs) {
		// eight one-byte deltas at once when the next eight bytes have no
		// continuation bit (dense postings: most deltas are under 128)
		if i+8 <= len(docs) && len(buf) >= 8 {
			if w := binary.LittleEndian.Uint64(buf); w&continuation8 == 0 {
				for b := range 8 {
					prev += uint32(byte(w >> (8 * b)))
					docs[i+b] = prev
				}
				i, buf = i+8, buf[8:]
				if prev >= d {
					break
				}
				continue
			}
		}
		x, m := uvarint(buf)
		buf = buf[m:]
		prev += x
		docs[i] = prev
		i++
		if prev >= d {
			break
		}
	}
	c.prev, c.rest, c.have = prev, buf, i
}

// continuation8 is the continuation bits of eight uvarint bytes.
const continuation8 = 0x8080808080808080

// tf is the frequency of the current posting, decoding the block's
// frequencies as far as it.
func (c *cursor) tf() uint32 {
	if c.pos >= c.tfHave {
		c.tfsTo(c.pos + 1)
	}
	return c.tfs[c.pos]
}

// tfsTo decodes the block's frequencies from tfs[tfHave] on until at
// least the first k are (up to seven more).
func (c *cursor) tfsTo(k int) {
	i, buf := c.tfHave, c.tfRest
	if i == 0 {
		buf = c.data[c.blockField(c.dec, 4):]
	}
	tfs := c.tfs[:c.n]
	for i < k {
		// eight one-byte frequencies at once, as docsTo does
		if i+8 <= len(tfs) && len(buf) >= 8 {
			if w := binary.LittleEndian.Uint64(buf); w&continuation8 == 0 {
				for b := range 8 {
					tfs[i+b] = uint32(byte(w >> (8 * b)))
				}
				i, buf = i+8, buf[8:]
				continue
			}
		}
		x, m := uvarint(buf)
		buf = buf[m:]
		tfs[i] = x
		i++
	}
	c.tfHave, c.tfRest = i, buf
}

// uvarint decodes a uvarint of at most 32 bits, with a fast path for one
// byte.
func uvarint(b []byte) (uint32, int) {
	if b[0] < 0x80 {
		return uint32(b[0]), 1
	}
	x, n := binary.Uvarint(b)
	return uint32(x), n
}

// topK keeps the k best (score desc, ordinal asc) hits in a min-heap.
type topK struct {
	k int
	h []Hit
}

func newTopK(k int) *topK { return &topK{k: k, h: make([]Hit, 0, min(k, 1024))} }

// worse reports whether a ranks below b.
func worse(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score < b.Score
	}
	return a.Ord > b.Ord
}

// threshold is the score a chunk must exceed to enter (0 while not full:
// every score is positive).
func (t *topK) threshold() float64 {
	if len(t.h) < t.k {
		return 0
	}
	return t.h[0].Score
}

func (t *topK) push(ord uint32, score float64) {
	x := Hit{ord, score}
	if len(t.h) < t.k {
		t.h = append(t.h, x)
		for i := len(t.h) - 1; i > 0; {
			p := (i - 1) / 2
			if !worse(t.h[i], t.h[p]) {
				break
			}
			t.h[i], t.h[p] = t.h[p], t.h[i]
			i = p
		}
		return
	}
	if !worse(t.h[0], x) {
		return
	}
	t.h[0] = x
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(t.h) && worse(t.h[l], t.h[m]) {
			m = l
		}
		if r < len(t.h) && worse(t.h[r], t.h[m]) {
			m = r
		}
		if m == i {
			break
		}
		t.h[i], t.h[m] = t.h[m], t.h[i]
		i = m
	}
}

func (t *topK) sorted() []Hit {
	out := slices.Clone(t.h)
	slices.SortFunc(out, func(a, b Hit) int {
		switch {
		case worse(b, a):
			return -1
		case worse(a, b):
			return 1
		}
		return 0
	})
	return out
}
