package redisearch

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/assay-rag/assay/internal/backend"
)

// maxPostings is the most postings Holdings reads: the rarest terms,
// while the visible chunks holding them number at most this many in all,
// are answered from which chunks hold them (reading them is cheaper than
// counting their combinations: TestHoldingsCost, SciFact with team ACLs,
// 2.1 against 5.1 ms p50 for a caller who sees half the corpus); the
// other terms, whose posting lists grow with the corpus, are not read:
// which of their combinations chunks hold is checked (see exists).
var maxPostings = 4096

// postingsScorer is the scorer of postings' reads. Every match is read
// and only which chunks match counts, so no score is needed: DOCSCORE
// (the document's stored score, a constant here) spares the engine
// TFIDF, its default, for every posting read. Measured at 50,000 chunks
// (TestHoldingsOnBuilt, 300 queries, public): FT.SEARCH reads 8.8–9.2 →
// 8.3–8.7 ms a Holdings, the same held sets (docs/log/performance-scale.md,
// Round 10). "" is the engine's default.
var postingsScorer = "DOCSCORE"

// maxHoldingCounts bounds the existence checks one Holdings may send:
// past it (many common question terms that many chunks hold together),
// it cannot tell. (A variable for the tests.)
var maxHoldingCounts = 1024

// checkPostings is what one existence check is taken to cost Redis, in
// postings read: when the checks a Holdings has sent and is about to
// send, at this price, reach its common terms' visible document
// frequencies added, it reads those postings instead and answers the
// remaining checks from them (checker). Most questions send few checks or
// none, but those whose common terms many chunks hold together send
// hundreds: at 50,000 chunks one claim's 1,680 checks took Redis 272 ms
// where reading its common terms' 45,948 postings took about 64 ms; a
// check took 46 µs at the median, a posting read 1.3 µs. Chosen by measurement
// (TestHoldingsOnBuilt, 300 claims, public; docs/log/performance-scale.md,
// Round 12): 128. 0: never read them.
var checkPostings = 128

// checkBatch is how many existence checks of one level exists sends in
// one pipeline: after each batch, the sets found held so far bound the
// next level's size from below, and when that bound takes the checks past
// maxHoldingCounts, Holdings cannot tell without the level's other checks
// (the answer is the nil it would give after them). At 500,000 chunks
// the answers that cannot tell were most of the checks a question sends
// (docs/log/round-20-h20b-redis.md).
var checkBatch = 64

// maxCommonPostings bounds the common terms' postings one Holdings may
// read instead of checking (about 40 bytes of reply each): past it,
// it checks, whatever the checks cost.
var maxCommonPostings = 1 << 16

// Holdings reports which sets of terms (bit i: terms[i]) the visible
// chunks that pass f (nil: all of them; its groups are the vocabulary's,
// whatever f says) hold, as the bleve backend does from its postings:
// the keys are the same; a key's value is the exact number of chunks for
// a set holding a rare term (read, below) and 1 for a set of common terms
// only, which is checked for existence, not counted (backend.Vocabulary
// allows it: the assessor reads only the keys).
//
// The terms are split by visible document frequency. The rarest, while
// their frequencies add up to at most maxPostings, are read: for every
// visible chunk holding one (the filter inside the query), which of all
// the terms it holds — one FT.AGGREGATE whose rows are the chunks'
// matched terms (matchedSets), or, for term lists matchedSets cannot
// take (collides), one NOCONTENT search per term and one per other term
// limited to chunks holding a rare one, in one pipeline; that gives
// every chunk holding a rare term its exact mask.
// For the chunks holding only common terms it asks which combinations
// of the common terms some such chunk holds (see exists): level by level
// — pairs only of terms some chunk holds, triples only of pairs some
// chunk holds together, and so on, each level one pipeline — each an
// existence check that stops at the first chunk (FT.AGGREGATE LIMIT 0 1,
// the filter inside the query, chunks holding a rare term left out),
// then, for a combination some chunk holds with more of the common
// terms, whether a chunk holds it and none of the others. So the
// searches sent grow with the number of terms and the combinations of
// the common ones held together, not with the combinations of every
// term, and each common combination costs the engine up to its first
// chunk, not a count of all of them. A common term that more visible
// chunks hold than hold any rare term is held by some chunk holding no
// rare term: its one-term check is not sent.
//
// When those checks would cost Redis more than reading the common terms'
// postings (checkPostings), it reads them and answers the rest of the
// checks from which chunks hold which terms: the same checks, the same
// answers, the same bound. Before its first checks it reads the common
// terms of a sample of those chunks (sampleRows): a check one of them
// answers is not sent.
//
// It returns nil and no error when it cannot tell: more than
// backend.MaxHeld terms, or more than maxHoldingCounts combinations held
// together (the assessor then assumes a chunk that would suffice may
// exist). The rare terms' read (one FT.AGGREGATE) is sent after the
// common terms' checks, so one that cannot tell does not send it
// (rareLast). When Redis does not answer, or answers a read in part, it
// returns the error (typed by redisErr): never a partial answer, and
// never "not held" for a set it could not check.
func (v Vocabulary) Holdings(ctx context.Context, terms []string, f *backend.Filter) (map[uint64]int, error) {
	h, err := v.OpenHoldings(ctx, terms, f)
	if err != nil || h == nil {
		return nil, err
	}
	return h.All(ctx)
}

// OpenHoldings is Holdings with its last checks left open
// (backend.Held): the sets of common terms some chunk holds together
// with more of them, of which it is not known whether a chunk holds
// exactly that set, are asked only when the caller asks (Held.Exact),
// each with the check Holdings would send ("some visible chunk passing
// the filter holds s and no other term", rare terms included). Those
// the checks already sent answer (a sampled or learned chunk's set, or
// the postings read) are not left open. At 500,000 chunks the last
// checks were 67% of Holdings' Redis time, those that find nothing 45%
// (docs/log/round-33-p33-hold.md).
func (v Vocabulary) OpenHoldings(ctx context.Context, terms []string, f *backend.Filter) (*backend.Held, error) {
	const op = "redisearch.Holdings"
	if len(terms) > backend.MaxHeld || v.ix == nil {
		return nil, nil
	}
	if err := v.Err(); err != nil {
		return nil, err // the statistics already failed (see Err)
	}
	filter := v.filter(f)
	var rare, common uint64 // term sets; terms no visible chunk holds are in neither
	sum := 0                // the rare terms' visible document frequencies
	var dfs []int           // visible document frequencies (nil when unknown)
	if v.s == nil {
		common = 1<<len(terms) - 1
	} else {
		var err error
		if dfs, err = v.ix.docFreqs(ctx, v.s, terms); err != nil {
			return nil, v.ix.redisErr(op, err)
		}
		order := make([]int, len(terms))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return dfs[a] - dfs[b] })
		for _, i := range order {
			switch {
			case dfs[i] == 0:
			case common == 0 && sum+dfs[i] <= maxPostings:
				sum += dfs[i]
				rare |= 1 << i
			default:
				common |= 1 << i
			}
		}
	}
	index, fq := v.scope(filter)
	if common == 0 && rare == 0 {
		return backend.KnownHeld(map[uint64]int{}), nil
	}
	var out map[uint64]int
	var holders map[string]uint64 // the chunks holding a rare term (the searches' way only)
	matched := matchedTerms && !collides(terms, filter, maxMatched-len(terms))
	readRare := func() error {
		var err error
		if matched {
			if out, err = v.matchedSets(ctx, index, terms, rare, rare|common, fq, sum, true); err == nil && out == nil {
				err = fmt.Errorf("FT.AGGREGATE: more chunks hold a rare term than their %d postings", sum)
			}
		} else {
			out, holders, err = v.postings(ctx, terms, rare, common, sum, filter)
		}
		return err
	}
	// The rare terms' read comes after the common terms' checks when
	// those need nothing from it (matched: the checks leave the chunks
	// holding a rare term out in the query, not by their ids), so that a
	// Holdings that cannot tell does not send it (see rareLast).
	late := rare != 0 && common != 0 && matched && rareLast
	if rare != 0 && !late {
		if err := readRare(); err != nil {
			return nil, v.ix.redisErr(op, err)
		}
		if common == 0 {
			return backend.KnownHeld(out), nil
		}
	}
	// A common term more visible chunks hold than hold a rare term (at
	// most sum) is held by some visible chunk holding no rare term: its
	// existence check is known without asking. Only when the filter is
	// the groups alone, since dfs count every visible chunk.
	var surely uint64
	if dfs != nil && filterQuery(filter, false) == "" {
		for i := range terms {
			if common&(1<<i) != 0 && dfs[i] > sum {
				surely |= 1 << i
			}
		}
	}
	c := &checker{v: v, terms: terms, set: common, rare: rare, index: index, fq: fq, holders: holders, matched: matched}
	if dfs != nil && checkPostings > 0 {
		for i := range terms {
			if common&(1<<i) != 0 {
				c.dfs = append(c.dfs, dfs[i])
				c.cost += dfs[i]
			} else {
				c.dfs = append(c.dfs, 0)
			}
		}
	}
	checked, open, err := v.exists(ctx, terms, common, rare, surely, c)
	if err != nil || checked == nil {
		return nil, v.ix.redisErr(op, err)
	}
	if late {
		if err := readRare(); err != nil {
			return nil, v.ix.redisErr(op, err)
		}
	}
	if out == nil {
		out = checked
	} else {
		for m, n := range checked { // sets holding no rare term: none is a key of out
			out[m] += n
		}
	}
	return backend.OpenHeld(out, open, func(ctx context.Context, sets []uint64) ([]bool, error) {
		found, err := c.answer(ctx, c.last(sets), 0)
		if err != nil {
			return nil, v.ix.redisErr(op, err)
		}
		return found, nil
	}), nil
}

var _ backend.TogetherVocabulary = Vocabulary{}

// Together reports whether some visible chunk passing f (its groups
// the vocabulary's, whatever f says) holds every term of all and at
// least one term of anyOf (backend.TogetherVocabulary): one FT.AGGREGATE
// that stops at the first chunk, as each of Holdings' existence checks
// does, where Holdings would check the terms' combinations level by
// level. The assessor asks it before Holdings (builtin:coverage-v41's
// gate, internal/assess): when no chunk holds a question's entities
// with its most specific term, no count is needed to decide. False when
// anyOf is empty; more than backend.MaxHeld terms either way: true (it
// cannot rule one out, as Holdings cannot tell).
func (v Vocabulary) Together(ctx context.Context, all, anyOf []string, f *backend.Filter) (bool, error) {
	const op = "redisearch.Together"
	if len(anyOf) == 0 {
		return false, nil
	}
	if len(all) > backend.MaxHeld || len(anyOf) > backend.MaxHeld || v.ix == nil {
		return true, nil
	}
	if err := v.Err(); err != nil {
		return false, err // the statistics already failed (see Err)
	}
	index, fq := v.scope(v.filter(f))
	q := "@" + fieldContent + ":(" + union(anyOf, 1<<len(anyOf)-1) + ") " + fq
	if len(all) > 0 {
		q = "@" + fieldContent + ":(" + termsOf(all, 1<<len(all)-1) + ") " + q
	}
	cmd := v.ix.do(ctx, "FT.AGGREGATE", index, q, "VERBATIM", "LIMIT", 0, 1, "TIMEOUT", noTimeout, "DIALECT", 2)
	found, err := found1(cmd)
	if err != nil {
		return false, v.ix.redisErr(op, err)
	}
	return found, nil
}

// scope returns the FT index a check of the visible chunks that pass
// filter asks, and the clause that keeps them: the caller's text group's
// index without the ACL clause when it has one (Index.textIndex; every
// chunk in it is visible), otherwise the version's with the whole
// filter. Either way the same chunks: the answers are the same.
func (v Vocabulary) scope(filter backend.Filter) (index, fq string) {
	if v.s != nil {
		if gi := v.ix.textIndex(v.s, filter); gi != "" {
			return gi, filterQuery(filter, false)
		}
	}
	return v.ix.vn, FilterQuery(filter)
}

// filter is f (nil: no condition) with the vocabulary's groups, whatever
// f says: the chunks Holdings and Together ask about.
func (v Vocabulary) filter(f *backend.Filter) backend.Filter {
	filter := backend.Filter{}
	if f != nil {
		filter = *f
	}
	filter.Groups = v.groups
	return filter
}

// last is the last checks of sets (see exists): each set of common terms
// held with no other term of set, and no rare term.
func (c *checker) last(sets []uint64) []check {
	checks := make([]check, len(sets))
	for j, s := range sets {
		checks[j] = check{s, c.rare | c.set&^s}
	}
	return checks
}

// exists is Holdings over the visible chunks that pass fq and hold no
// term of rare but some of set: the sets of terms of set they hold, each
// with the value 1 (see Holdings); nil when it cannot tell. A
// combination is held (some such chunk holds all of its terms) when
// FT.AGGREGATE finds a first chunk; a held combination none of whose
// extensions by one more term of set is held is some chunk's exact set,
// and one that has a held extension must be asked again with the other
// terms of set excluded (its last check, c.last): exists answers those
// the checks already sent answer (c.free), and returns the others, in
// ascending order, as open (see OpenHoldings). The terms of surely (a subset of set) are known to be
// held alone by such a chunk: their one-term checks are not sent. c
// answers the checks (Redis, or the postings it reads when cheaper).
// Redis's failure is the error; past maxHoldingCounts it returns nil.
func (v Vocabulary) exists(ctx context.Context, terms []string, set, rare, surely uint64, c *checker) (map[uint64]int, []uint64, error) {
	together := map[uint64]int{} // term set → 1 when some chunk holds all of it (and no rare term)
	var level, all []uint64
	for i := range terms {
		if set&(1<<i) != 0 {
			level = append(level, 1<<i)
		}
	}
	sent := 0
	for len(level) > 0 {
		if sent += len(level); sent > maxHoldingCounts {
			return nil, nil, nil
		}
		if foresee && sent+above(c.sample, bits.OnesCount64(level[0]), maxHoldingCounts-sent, nil) > maxHoldingCounts {
			return nil, nil, nil
		}
		// Colex order (a set's highest term first): the sets of the first
		// terms are checked before any set holding a later one, so the
		// held ones found so far bound the next level from below as early
		// as they can (below).
		slices.Sort(level)
		var checks []check
		var at []int // level index of each check
		for j, s := range level {
			if s&^surely != 0 || bits.OnesCount64(s) != 1 {
				checks = append(checks, check{s, rare})
				at = append(at, j)
			}
		}
		var held []uint64
		for _, s := range level {
			if bits.OnesCount64(s) == 1 && s&surely != 0 { // a term of surely, alone
				together[s] = 1
				held = append(held, s)
			}
		}
		// The checks go in batches of checkBatch. The next level holds
		// every set of one more term whose subsets of this level's size
		// are all held (extend), so the sets held among those answered
		// so far give a part of it: when that part alone takes the
		// checks past maxHoldingCounts, the whole next level would too,
		// and Holdings cannot tell without the rest of this level's
		// checks (the same nil as after them).
		for lo := 0; lo < len(checks); lo += checkBatch {
			hi := min(lo+checkBatch, len(checks))
			found, err := c.answer(ctx, checks[lo:hi], len(checks)-hi)
			if err != nil {
				return nil, nil, err
			}
			for i := lo; i < hi; i++ {
				if found[i-lo] {
					s := level[at[i]]
					together[s] = 1
					held = append(held, s)
				}
			}
			next := extend(held, together, len(terms)) // part of the next level
			if hi < len(checks) && sent+len(next) > maxHoldingCounts {
				return nil, nil, nil
			}
			if !foreseeNext {
				next = nil
			}
			if foresee && sent+above(c.sample, bits.OnesCount64(level[0]), maxHoldingCounts-sent, next) > maxHoldingCounts {
				return nil, nil, nil
			}
		}
		slices.Sort(held)
		all = append(all, held...)
		level = extend(held, together, len(terms))
	}
	out := map[uint64]int{}
	var ask []uint64
	for _, s := range all {
		extended := false
		for rest := set &^ s; rest != 0; rest &= rest - 1 {
			if together[s|rest&-rest] != 0 {
				extended = true
				break
			}
		}
		if extended {
			ask = append(ask, s)
		} else {
			out[s] = 1 // every chunk holding s holds no other term of set
		}
	}
	var open []uint64
	for j, k := range c.last(ask) {
		if found, known := c.free(k); !known {
			open = append(open, ask[j])
		} else if found {
			out[k.s] = 1
		}
	}
	return out, open, nil
}

// above counts the sets of more than k terms that are subsets of some
// mask of masks (sets some visible chunk passing the filter holds
// exactly, holding no rare term), stopping once past limit. Every such
// set is held, and so is each of its subsets: it is one of a later
// level's sets (see exists), which counts it against maxHoldingCounts.
// So when the sets of the levels so far and these are more than
// maxHoldingCounts, the levels would pass it before they end: exists
// cannot tell, and knows it without sending the checks in between (the
// same nil). At 500,000 chunks, 28 of the 89 term lists the assessor
// asked end to end could not tell, and sent 48% of the FT.AGGREGATEs
// (docs/log/round-36-p36-hold.md).
//
// next is sets of k+1 terms known to be of the next level (extend of
// the sets found held so far): counted with the masks' subsets, each
// set once, since a set may be both. Neither is counted yet (the levels
// so far have k terms or fewer), so the union is a bound from below too,
// and at least either (see foreseeNext).
func above(masks []uint64, k, limit int, next []uint64) int {
	seen := map[uint64]bool{}
	for _, s := range next {
		if seen[s] = true; len(seen) > limit {
			return len(seen)
		}
	}
	for _, m := range masks {
		p := bits.OnesCount64(m)
		if p <= k {
			continue
		}
		// The sets of more than k of m's terms are m less fewer than p-k
		// of them: enumerate those drops, not every subset of m (2^p
		// with up to backend.MaxHeld terms), stopping past limit.
		var terms []uint64
		for r := m; r != 0; r &= r - 1 {
			terms = append(terms, r&-r)
		}
		var drop func(s uint64, from, left int) bool
		drop = func(s uint64, from, left int) bool {
			if !seen[s] {
				seen[s] = true
				if len(seen) > limit {
					return true
				}
			}
			for i := from; left > 0 && i < len(terms); i++ {
				if drop(s&^terms[i], i+1, left-1) {
					return true
				}
			}
			return false
		}
		if drop(m, 0, p-k-1) {
			break
		}
	}
	return len(seen)
}

// rareLast says whether Holdings reads the rare terms' chunks
// (matchedSets) after the common terms' checks (exists) rather than
// before, when the checks do not use that read (matched). The read's
// answer is only the keys holding a rare term, which Holdings returns
// only when the checks can tell: when they cannot (nil), the read would
// be thrown away, so it is not sent; when they can, the same read is
// sent after them, and the answer is the same. Neither the checks nor
// the read depend on the other's answer: each leaves the other's
// chunks out by its query. At 500,000 chunks the read was as costly as
// all of a list's checks (FT.PROFILE, 35 of ≈ 80 ms a list), and 28
// of the 89 term lists the assessor asked end to end could not tell
// (docs/log/round-36-p36-hold.md, round-36-p36-rare.md). (A variable
// for the tests.)
var rareLast = true

// foresee says whether exists stops as soon as the sets chunks are
// known to hold take it past maxHoldingCounts (above). (A variable for
// the tests.)
var foresee = true

// foreseeNext says whether foresee counts, with the known chunks'
// sets, the part of the next level the checks so far give (above's
// next). On the 89 term lists the assessor asked end to end at 500,000
// chunks it spared 197 of the 2,880 FT.AGGREGATEs the 28 that cannot
// tell sent (docs/log/round-37-p37-hold.md). (A variable for the tests.)
var foreseeNext = true

// check asks whether some visible chunk passing the filter holds every
// term of s and no term of out.
type check struct{ s, out uint64 }

// checker answers one Holdings' existence checks (exists) about the
// chunks that hold a term of set: with Redis, one FT.AGGREGATE each that
// stops at the first chunk, until the checks sent and about to be sent
// would cost Redis more than reading the set's postings (checkPostings
// each, against the set's visible document frequencies added, cost);
// then it reads them (one FT.AGGREGATE, or one NOCONTENT search per term
// of set as postings reads the rare ones: readMasks), and answers every
// later check from the chunks' masks, the chunks holding a rare term (holders) left out as the
// checks leave them out. Either way a check's answer is the same (the
// masks are those of every such chunk), so Holdings is too: the same
// checks are asked, the same bound applies.
type checker struct {
	v       Vocabulary
	terms   []string
	set     uint64
	rare    uint64
	index   string // the FT index the checks ask (Vocabulary.scope)
	fq      string
	holders map[string]uint64 // the chunks holding a rare term (postings)
	dfs     []int             // visible document frequencies of the set's terms (0 for the others)
	cost    int               // dfs added; 0: never read
	sent    int               // checks sent to Redis
	masks   []uint64          // once read: the distinct sets of set's terms the chunks hold
	read    bool
	matched bool // read them with one FT.AGGREGATE (matchedSets), not a search per term
	// sample is the sets of set's terms that the first sampleRows such
	// chunks hold (matchedSets, once sampled): a check some such set
	// answers (check.heldBy) is not sent.
	sample  []uint64
	sampled bool
}

// sampleRows is how many chunks holding a common term (and no rare one)
// a Holdings reads the common terms of, once it is about to send at
// least minSampled existence checks: each such chunk's set of common
// terms is exact, so every check it answers (some chunk holds all of s
// and none of out) need not be sent. The checks a sample cannot answer
// (nothing found) are sent as before, so the answer is the same.
// 0: never sample. (Variables for the tests.)
var (
	sampleRows = 256
	minSampled = 8
)

// outside is the rest of the query of a read of set's terms: the chunks
// holding a rare term left out, and the filter.
func (c *checker) outside() string {
	if c.rare == 0 {
		return c.fq
	}
	return "-@" + fieldContent + ":(" + union(c.terms, c.rare) + ") " + c.fq
}

// heldBy reports whether one of masks (sets of terms some chunk holds
// exactly, of those asked) holds every term of k.s and none of k.out.
func (k check) heldBy(masks []uint64) bool {
	for _, m := range masks {
		if m&k.s == k.s && m&k.out == 0 {
			return true
		}
	}
	return false
}

// free answers k when the checks already sent or read answer it without
// Redis (known): from the common terms' postings once read (c.read), or
// when a sampled or learned chunk's set satisfies it (only "found").
func (c *checker) free(k check) (found, known bool) {
	if c.read {
		return k.heldBy(c.masks), true
	}
	if k.heldBy(c.sample) {
		return true, true
	}
	return false, false
}

// answer answers checks, in order; ahead more checks of the same level
// are about to follow (exists sends a level in batches), and count with
// these when it weighs reading the postings instead, so that the choice
// is the same as for the whole level at once.
func (c *checker) answer(ctx context.Context, checks []check, ahead int) ([]bool, error) {
	if len(checks) == 0 {
		return nil, nil
	}
	if !c.read && c.cost > 0 && c.cost <= maxCommonPostings && (c.sent+len(checks)+ahead)*checkPostings >= c.cost {
		var err error
		if c.read, err = c.readMasks(ctx); err != nil {
			return nil, err
		}
		if !c.read {
			c.cost = 0 // not again: check
		}
	}
	found := make([]bool, len(checks))
	if c.read {
		for i, k := range checks {
			found[i] = k.heldBy(c.masks)
		}
		return found, nil
	}
	if c.matched && !c.sampled && sampleRows > 0 && len(checks)+ahead >= minSampled {
		c.sampled = true
		sets, err := c.v.matchedSets(ctx, c.index, c.terms, c.set, c.set, c.outside(), sampleRows, false)
		if err != nil {
			return nil, err
		}
		for m := range sets {
			c.sample = append(c.sample, m)
		}
	}
	var send []check
	var at []int // index in checks of each check sent
	for i, k := range checks {
		if k.heldBy(c.sample) {
			found[i] = true
		} else {
			send = append(send, k)
			at = append(at, i)
		}
	}
	if len(send) == 0 {
		return found, nil
	}
	without := func(s uint64) string { // the clause leaving out chunks holding a term of s
		if s == 0 {
			return ""
		}
		return " -@" + fieldContent + ":(" + union(c.terms, s) + ")"
	}
	// A check learns (see learnMasks) only when a chunk it finds may
	// hold terms of set it neither asks for nor leaves out: not the last
	// checks, which leave out every other term of set.
	learns := func(k check) bool { return c.matched && learnMasks && c.set&^(k.s|k.out) != 0 }
	pipe := c.v.ix.rdb.Pipeline()
	cmds := make([]*redis.Cmd, len(send))
	for i, k := range send {
		q := "@" + fieldContent + ":(" + termsOf(c.terms, k.s) + ")" + without(k.out)
		args := []any{"FT.AGGREGATE", c.index}
		if learns(k) {
			q += c.optional(k.out)
			args = append(args, q+" "+c.fq, "VERBATIM", "APPLY", "matched_terms("+strconv.Itoa(maxMatched)+")", "AS", "m")
		} else {
			args = append(args, q+" "+c.fq, "VERBATIM")
		}
		cmds[i] = pipe.Do(ctx, append(args, "LIMIT", 0, 1, "TIMEOUT", noTimeout, "DIALECT", 2)...)
	}
	c.sent += len(send)
	if err := c.v.ix.exec(ctx, pipe); err != nil {
		return nil, err
	}
	for i, k := range send {
		if !learns(k) {
			ok, err := found1(cmds[i])
			if err != nil {
				return nil, err
			}
			found[at[i]] = ok
			continue
		}
		m, ok, err := c.found1Mask(cmds[i])
		if err != nil {
			return nil, err
		}
		found[at[i]] = ok
		if ok && m&k.s == k.s && m&k.out == 0 && !slices.Contains(c.sample, m) {
			c.sample = append(c.sample, m)
		}
	}
	return found, nil
}

// learnMasks says whether a check that finds a chunk also reads which
// terms of set that chunk holds (every term of set an optional clause,
// the row's matched_terms(), as matchedSets reads them), when the terms
// fit matched_terms() (checker.matched). Such a chunk holds no rare
// term (the check leaves those out), so its set is exact, as a sampled
// chunk's is: it joins the sample, and every later check it answers
// (check.heldBy) is not sent — the next levels' checks of the sets it
// holds, and the last ones asking whether a set is held with no other
// term. The checks not answered so are sent as before, so Holdings'
// answer is the same; most checks sent find a chunk (at 50,000 chunks,
// 1,355 of 1,440 in 100 questions, docs/log/round-25-r25-hold.md), and
// each such chunk tells the answer of the checks of the sets it holds.
// (A variable for the tests.)
var learnMasks = true

// optional is every term of set but those of out as an optional clause
// (~), which makes a row's matched_terms() whole for those terms (see
// matchedSets); the check's own terms are among them, as matchedSets
// repeats its gate's.
func (c *checker) optional(out uint64) string {
	var b strings.Builder
	for i, t := range c.terms {
		if c.set&^out&(1<<i) != 0 {
			b.WriteString(" ~@" + fieldContent + ":" + Escape(t))
		}
	}
	return b.String()
}

// found1Mask reads an FT.AGGREGATE ... APPLY matched_terms() AS m LIMIT
// 0 1 reply: whether it found a chunk and, when it did, the terms of
// set that chunk holds (bit i: terms[i]).
func (c *checker) found1Mask(cmd *redis.Cmd) (uint64, bool, error) {
	res, err := cmd.Slice()
	if err != nil {
		return 0, false, err
	}
	if len(res) == 0 {
		return 0, false, fmt.Errorf("FT.AGGREGATE: empty reply")
	}
	if len(res) == 1 {
		return 0, false, nil
	}
	ts, err := rowTerms(res[1])
	if err != nil {
		return 0, false, err
	}
	var m uint64
	for _, t := range ts {
		s, _ := t.(string)
		for i, w := range c.terms {
			if c.set&(1<<i) != 0 && w == s {
				m |= 1 << i
			}
		}
	}
	return m, true, nil
}

// readMasks reads which visible chunks passing the filter hold which
// terms of set, leaving out those holding a rare term — with one
// FT.AGGREGATE (matchedSets) when matched, else one search a term in
// one pipeline, the chunks holding a rare term (holders) left out here —
// and keeps the distinct sets of those terms the chunks hold. It reports
// false (nothing kept: the checks answer instead) when Redis returned
// part of a list or more chunks than counted, and Redis's failure as the
// error.
func (c *checker) readMasks(ctx context.Context) (bool, error) {
	if c.matched {
		sets, err := c.v.matchedSets(ctx, c.index, c.terms, c.set, c.set, c.outside(), c.cost, true)
		if err != nil || sets == nil {
			return false, err
		}
		for m := range sets {
			c.masks = append(c.masks, m)
		}
		return true, nil
	}
	pipe := c.v.ix.rdb.Pipeline()
	cmds := make([]*redis.Cmd, len(c.terms))
	for i, t := range c.terms {
		if c.set&(1<<i) == 0 {
			continue
		}
		args := []any{"FT.SEARCH", c.index, textQuery([]string{t}, c.fq, nil), "NOCONTENT", "VERBATIM"}
		if postingsScorer != "" {
			args = append(args, "SCORER", postingsScorer)
		}
		cmds[i] = pipe.Do(ctx, append(args, "LIMIT", 0, c.dfs[i], "TIMEOUT", noTimeout, "DIALECT", 2)...)
	}
	if err := c.v.ix.exec(ctx, pipe); err != nil {
		return false, err
	}
	held := map[string]uint64{}
	for i, cmd := range cmds {
		if cmd == nil {
			continue
		}
		raw, err := cmd.Slice()
		if err != nil {
			return false, err
		}
		if len(raw) == 0 {
			return false, nil
		}
		total, _ := raw[0].(int64)
		if total != int64(len(raw)-1) {
			return false, nil // partial or longer than counted: check instead
		}
		for _, id := range raw[1:] {
			s, _ := id.(string)
			if _, ok := c.holders[s]; !ok {
				held[s] |= 1 << i
			}
		}
	}
	distinct := map[uint64]bool{}
	for _, m := range held {
		if !distinct[m] {
			distinct[m] = true
			c.masks = append(c.masks, m)
		}
	}
	return true, nil
}

// found1 reads an FT.AGGREGATE ... LIMIT 0 1 reply (RESP2: the number of
// results, then one row per result): whether it found a chunk.
func found1(cmd *redis.Cmd) (bool, error) {
	res, err := cmd.Slice()
	if err != nil {
		return false, err
	}
	if len(res) == 0 {
		return false, fmt.Errorf("FT.AGGREGATE: empty reply")
	}
	return len(res) > 1, nil
}

// extend returns the sets of one more term than those in held (all of
// one size) whose every subset of that size is held: the only ones some
// chunk may hold together.
func extend(held []uint64, together map[uint64]int, n int) []uint64 {
	var out []uint64
	for _, set := range held {
		top := 63 - bits.LeadingZeros64(set)
		for j := top + 1; j < n; j++ {
			next := set | 1<<j
			ok := true
			for rest := next; rest != 0; rest &= rest - 1 {
				if together[next&^(rest&-rest)] == 0 {
					ok = false
					break
				}
			}
			if ok {
				out = append(out, next)
			}
		}
	}
	return out
}

// termsOf is the terms of set, escaped, space-separated: an intersection.
func termsOf(terms []string, set uint64) string { return joinSet(terms, set, " ") }

// union is the terms of set, escaped, as alternatives.
func union(terms []string, set uint64) string { return joinSet(terms, set, " | ") }

// joinSet is the terms of set, escaped, joined by sep.
func joinSet(terms []string, set uint64, sep string) string {
	var b strings.Builder
	for i := range terms {
		if set&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteString(sep)
			}
			b.WriteString(Escape(terms[i]))
		}
	}
	return b.String()
}

// postings is Holdings over the visible chunks that pass filter and hold
// a term of rare (sum: their visible document frequencies added, an upper
// bound of those chunks), read from the rare terms' posting lists and,
// for each term of common, the chunks holding it and a rare term; and
// those chunks (their keys) with their sets. Redis's failure, or a list
// shorter than its count, is an error.
func (v Vocabulary) postings(ctx context.Context, terms []string, rare, common uint64, sum int, filter backend.Filter) (map[uint64]int, map[string]uint64, error) {
	pipe := v.ix.rdb.Pipeline()
	cmds := make([]*redis.FTSearchCmd, len(terms))
	anyRare := "@" + fieldContent + ":(" + union(terms, rare) + ")"
	index, fq := v.scope(filter)
	for i, t := range terms {
		var q string
		switch {
		case rare&(1<<i) != 0:
			q = textQuery([]string{t}, fq, nil)
		case common&(1<<i) != 0:
			q = "@" + fieldContent + ":" + Escape(t) + " " + anyRare + " " + fq
		default:
			continue
		}
		cmds[i] = pipe.FTSearchWithArgs(ctx, index, q, &redis.FTSearchOptions{
			Verbatim: true, NoContent: true, Limit: sum, DialectVersion: 2, Scorer: postingsScorer, Timeout: noTimeout,
		})
	}
	if err := v.ix.exec(ctx, pipe); err != nil {
		return nil, nil, err
	}
	held := map[string]uint64{}
	for i, c := range cmds {
		if c == nil {
			continue
		}
		res := c.Val()
		if len(res.Docs) != res.Total {
			// Partial: counting them could refuse wrongly.
			return nil, nil, fmt.Errorf("FT.SEARCH %q: read %d of %d chunks", terms[i], len(res.Docs), res.Total)
		}
		for _, d := range res.Docs {
			held[d.ID] |= 1 << i
		}
	}
	out := map[uint64]int{}
	for _, m := range held {
		out[m]++
	}
	return out, held, nil
}

// matchedTerms says whether Holdings reads which chunks hold which terms
// with one FT.AGGREGATE whose rows are each chunk's matched terms
// (matchedSets) rather than with one search a term whose chunk keys it
// joins (postings, and checker.readMasks): the same sets, read once
// instead of once a term. (A variable for the tests.)
var matchedTerms = true

// matchedSets asks, in one FT.AGGREGATE, which terms of with every
// visible chunk holding a term of gate (and matching tail: the filter,
// and any exclusion) holds: the query is the union of gate's terms
// intersected with each term of with as an optional clause (~), and the
// rows are each chunk's matched terms (APPLY matched_terms()). It
// returns the sets of with's terms (bit i: terms[i]) those chunks hold,
// with how many chunks hold each. The optional clauses are what make
// the rows whole: a union's own matched terms are not (at 50,000
// chunks, @content:(0|dimension) reported both terms for 1 of the 6
// chunks holding both). limit is an upper bound of the chunks matching
// (their terms' document frequencies added); when more rows come back
// it returns nil (the counts were wrong, or the index changed), never a
// part. matched_terms() reports gate's terms twice and the filter's tag
// values too, at most maxMatched in all: the caller keeps this for term
// lists that fit and none of which is a tag value (collides).
func (v Vocabulary) matchedSets(ctx context.Context, index string, terms []string, gate, with uint64, tail string, limit int, whole bool) (map[uint64]int, error) {
	at := make(map[string]uint64, len(terms))
	var q strings.Builder
	q.WriteString("@" + fieldContent + ":(" + union(terms, gate) + ")")
	for i, t := range terms {
		if with&(1<<i) != 0 {
			at[t] |= 1 << i
			q.WriteString(" ~@" + fieldContent + ":" + Escape(t))
		}
	}
	query := q.String() + " " + tail
	rows := limit
	if whole {
		rows++
	}
	raw, err := v.ix.do(ctx, "FT.AGGREGATE", index, query, "VERBATIM", "APPLY", "matched_terms("+strconv.Itoa(maxMatched)+")", "AS", "m",
		"LIMIT", 0, rows, "TIMEOUT", noTimeout, "DIALECT", 2).Slice()
	if err != nil {
		return nil, err
	}
	if len(raw) == 0 {
		return nil, fmt.Errorf("FT.AGGREGATE: empty reply")
	}
	if whole && len(raw)-1 > limit {
		return nil, nil
	}
	out := map[uint64]int{}
	for _, row := range raw[1:] {
		ts, err := rowTerms(row)
		if err != nil {
			return nil, err
		}
		var m uint64
		for _, t := range ts {
			s, _ := t.(string)
			m |= at[s]
		}
		if m == 0 {
			return nil, fmt.Errorf("FT.AGGREGATE: row %v matched none of the terms", row)
		}
		out[m]++
	}
	return out, nil
}

// rowTerms is the terms of an FT.AGGREGATE row of APPLY matched_terms()
// AS m.
func rowTerms(row any) ([]any, error) {
	kv, ok := row.([]any)
	if !ok || len(kv) != 2 {
		return nil, fmt.Errorf("FT.AGGREGATE: row %v: want m and its terms", row)
	}
	ts, ok := kv[1].([]any)
	if !ok {
		return nil, fmt.Errorf("FT.AGGREGATE: row %v: want a list of terms", row)
	}
	return ts, nil
}

// maxMatched is the most terms matched_terms() reports a row (its
// argument).
const maxMatched = 100

// collides reports whether one of terms is a tag value of filter, which
// matched_terms() would report for every chunk as if it held it, or
// whether the terms and the tag values together may be more than max,
// past which it would leave some out.
func collides(terms []string, filter backend.Filter, max int) bool {
	n := len(terms)
	for _, c := range filter.Conditions() {
		if c.Kind != backend.AnyOf {
			continue
		}
		if n += len(c.Values); n >= max {
			return true
		}
		for _, v := range c.Values {
			for _, t := range terms {
				if strings.EqualFold(t, v) {
					return true
				}
			}
		}
	}
	return false
}
