package assess

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/assay-rag/assay/internal/answertype"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
	"github.com/assay-rag/assay/router"
)

// RewriteModel names the builtin rewriter: the id the router routes to.
const RewriteModel = router.BuiltinRewriteModel

// Model is the rewriter's model id: RewriteModel (builtin:strategies-v5)
// with Targeted, Mutual, Common and Plain on; after UseV4 (Targeted off)
// router.BuiltinRewriteModelV4 with the other three on,
// router.BuiltinRewriteModelV3 with only Mutual on,
// router.BuiltinRewriteModelV2 with all three off; any other
// configuration is v5 or v4 named with the switches that differ
// ("builtin:strategies-v4-nocommon"). Every proposal carries it
// (Proposal.Model), and the trace's rewrite route reports it, as the
// assessor's and generator's routes report theirs.
func (r *Rewriter) Model() string {
	all := r.Mutual && r.Common && r.Plain
	switch {
	case all && r.Targeted:
		return RewriteModel
	case all:
		return router.BuiltinRewriteModelV4
	case r.Targeted:
	case r.Mutual && !r.Common && !r.Plain:
		return router.BuiltinRewriteModelV3
	case !r.Mutual && !r.Common && !r.Plain:
		return router.BuiltinRewriteModelV2
	}
	m := router.BuiltinRewriteModelV4
	if r.Targeted {
		m = RewriteModel
	}
	for _, sw := range []struct {
		on   bool
		name string
	}{{r.Mutual, "mutual"}, {r.Common, "common"}, {r.Plain, "plain"}} {
		if !sw.on {
			m += "-no" + sw.name
		}
	}
	return m
}

// The rewrite strategies. Their names are the vocabulary of the trace and
// the trajectory metrics, for the builtin rewriter and for a model: a
// model's rewrite is recorded as StrategyModel.
const (
	// StrategySpelling corrects question words no visible chunk has into
	// the closest visible index term.
	StrategySpelling = "spelling"
	// StrategyTranslate puts the question's words that the best partial
	// hit lacks into words the principal's visible documents use (the
	// thesaurus's related words), so the next search and assessment read
	// the question in the corpus's vocabulary.
	StrategyTranslate = "translate"
	// StrategyMissingTerms searches for what the best partial hit lacks:
	// the question's entities and the known terms that hit does not have.
	StrategyMissingTerms = "missing-terms"
	// StrategyFeedback adds terms most of the top hits share
	// (pseudo-relevance feedback).
	StrategyFeedback = "feedback"
	// StrategyBestHit adds the best partial hit's most specific terms, to
	// find its neighbours.
	StrategyBestHit = "best-hit-terms"
	// StrategyDropUnknown drops the question words no visible chunk has.
	StrategyDropUnknown = "drop-unknown"
	// StrategyWider repeats the question with twice as many hits.
	StrategyWider = "wider-k"
	// StrategyModel is a rewrite a model proposed.
	StrategyModel = "model"
)

// Proposal is one candidate next query and the strategy that made it
// (defined in the wire contract).
type Proposal = wire.Proposal

// Lexicon is the index vocabulary the rewriter corrects against.
type Lexicon interface {
	Corpus
	// EachTerm calls fn for every analyzed term of the whole index. The
	// rewriter takes its spelling candidates from it and keeps only those
	// the principal's vocabulary has.
	EachTerm(fn func(term string, df int))
}

// Situation is what a strategy sees of one weak attempt. Everything in it
// comes from documents the principal may see.
type Situation struct {
	Request Request
	// Vocab is the principal's visible vocabulary.
	Vocab Vocabulary
	// Question is the question with its misspellings corrected.
	Question string
	// Coverage is the assessor's best coverage of the question.
	Coverage float64
	// Best is the best partial hit, nil when nothing was retrieved.
	Best *Evidence
	// Entities are the question's entities (see Entities).
	Entities []Entity
	// Missing are the question's known content terms the best partial hit
	// lacks, most specific first.
	Missing []string
	// Synonyms maps the question's terms the best partial hit lacks to
	// the visible words a thesaurus relates to them, most used first;
	// empty without a thesaurus.
	Synonyms map[string][]synonym

	// held is what the visible chunks hold of the question (see holding),
	// read once per Situation; heldDone says it was.
	held     *holding
	heldDone bool
	// reached is the count the assessor's visible-chunk check (reach)
	// read in the same assessment, over the same vocabulary and filters;
	// nil when it read none. holding answers from it when it counted
	// every term holding needs, instead of asking the backend again.
	reached *heldAnswer
}

// A Strategy proposes one next query for a weak attempt, or none.
type Strategy interface {
	Name() string
	// Propose may look things up under ctx (the spelling strategy asks a
	// SpellingVocabulary), bound by the run's deadline and cancellation.
	Propose(ctx context.Context, r *Rewriter, s *Situation) (Proposal, bool)
}

// Rewriter proposes new queries when evidence is weak, without a model, by
// trying its strategies in order (DefaultStrategies unless set). Every
// strategy that applies contributes one proposal (see Propose for their
// order). The loop tries them in order and skips one whose query or
// results repeat.
//
// When no strategy applies it proposes nothing, and the loop stops with
// insufficient_context: the evidence is weak and no rewrite is worth trying.
type Rewriter struct {
	an    *terms.Analyzer
	lex   Lexicon
	index map[int][]spellingTerm // term length → terms, for spelling candidates
	// english are the terms of English words too general to be the
	// corpus's (genericWords, hedgeWords): never corrected.
	english map[string]bool
	// Strategies are tried in order.
	Strategies []Strategy
	// Mutual (builtin:strategies-v3) makes translate put a question word
	// only into the related words the thesaurus relates back to it (see
	// mutual); off, it is builtin:strategies-v2, which takes the most
	// used related words whatever the direction.
	Mutual bool
	// Common (builtin:strategies-v4) makes that check read the
	// substitute's common senses only, when the thesaurus knows them
	// (CommonRelater): a substitute related to the question word only
	// through a rare sense of its own ("number" for "total", through the
	// verb "the bills number in the thousands") is no translation, since a
	// passage uses it in its common one ("batch number").
	Common bool
	// Plain (builtin:strategies-v4) makes missing-terms write the words
	// the best hit lacks as translate does (plainWord: without quotes and
	// the possessive ending), not only without the punctuation after them.
	Plain bool
	// Targeted (builtin:strategies-v5) marks the v5 strategies
	// (DefaultStrategies, with together); UseV4 turns it off with them.
	Targeted bool
	// Thesaurus, when set, knows English words: a word it relates to
	// others is spelt right and is never corrected, whatever the visible
	// corpus lacks ("comes" is not a misspelt "code"). Nil: only the
	// visible vocabulary and the generic words tell.
	Thesaurus Thesaurus
}

// DefaultStrategies is the builtin rewriter's order since
// builtin:strategies-v5 (Targeted): fix the words, put them in the words
// the documents use, look for the words some visible chunk holds
// together, for what is missing, then further down the ranking. The
// strategies that only add words the retrieved chunks already hold
// (feedback, best-hit-terms) or drop words no visible chunk has
// (drop-unknown) are left out: a search for them ranks the chunks it
// already returned first (see docs/loop.md).
func DefaultStrategies() []Strategy {
	return []Strategy{spelling{}, translate{}, together{}, missingTerms{}, wider{}}
}

// V4Strategies is builtin:strategies-v4's order: fix the words, look for
// what is missing, widen with feedback, then give up words, then look
// further down the ranking.
func V4Strategies() []Strategy {
	return []Strategy{spelling{}, translate{}, missingTerms{}, feedback{}, bestHit{}, dropUnknown{}, wider{}}
}

// UseV4 makes r builtin:strategies-v4: its strategies and order, Targeted
// off.
func (r *Rewriter) UseV4() {
	r.Targeted = false
	r.Strategies = V4Strategies()
}

// NewRewriter builds a rewriter over the index vocabulary.
func NewRewriter(an *terms.Analyzer, lex Lexicon) *Rewriter {
	r := &Rewriter{an: an, lex: lex, index: map[int][]spellingTerm{}, english: map[string]bool{}, Strategies: DefaultStrategies(), Mutual: true, Common: true, Plain: true, Targeted: true}
	for _, w := range append(slices.Clone(genericWords), hedgeWords...) {
		for _, t := range an.Terms(w) {
			r.english[t] = true
		}
	}
	lex.EachTerm(func(t string, _ int) {
		n := len([]rune(t))
		r.index[n] = append(r.index[n], spellingTerm{t, letterSet(t)})
	})
	for _, list := range r.index {
		// EachTerm's order may vary; corrections must not
		slices.SortFunc(list, func(a, b spellingTerm) int { return strings.Compare(a.t, b.t) })
	}
	return r
}

// Rewrite returns the first proposal for req, or "" when none applies
// (v5: also when every strategy's query was tried before; v4 returns
// such a query then). coverage is the assessor's best coverage of the
// question. It uses only words of documents req.Groups can see.
func (r *Rewriter) Rewrite(ctx context.Context, req Request, coverage float64) (query, why string) {
	vocab := visibleIn(ctx, r.lex, req.Groups)
	q, _ := r.Spell(ctx, req.Question, vocab, req.Evidence, req.Filters)
	ps := r.Propose(ctx, &Situation{Request: req, Vocab: vocab, Question: q, Coverage: coverage})
	if len(ps) == 0 {
		return "", ""
	}
	return ps[0].Query, ps[0].Strategy + ": " + ps[0].Why
}

// Propose runs every strategy on s and returns their proposals without
// duplicates: fresh queries of strategies the run has not used first, then
// those of strategies it has. Each group keeps the strategies' order.
// Queries tried before are dropped (builtin:strategies-v5: with none
// left the assessment's verdict ends the run), or with Targeted off (v4)
// put last (the loop skips those; they tell it every strategy is spent).
func (r *Rewriter) Propose(ctx context.Context, s *Situation) []Proposal {
	var out []Proposal
	var keys []string
	tried := []string{QueryKey(s.Request.Query, 0)}
	for i, p := range s.Request.Previous {
		k := 0
		if i < len(s.Request.PreviousK) {
			k = s.Request.PreviousK[i]
		}
		tried = append(tried, QueryKey(p, k))
	}
	for _, st := range r.Strategies {
		p, ok := st.Propose(ctx, r, s)
		if !ok || strings.TrimSpace(p.Query) == "" {
			continue
		}
		p.Strategy, p.Model = st.Name(), r.Model()
		k := QueryKey(p.Query, p.K)
		if slices.Contains(keys, k) {
			continue
		}
		keys = append(keys, k)
		out = append(out, p)
	}
	rank := func(p Proposal) int {
		switch {
		case slices.Contains(tried, QueryKey(p.Query, p.K)):
			return 2
		case slices.Contains(s.Request.Tried, p.Strategy):
			return 1
		}
		return 0
	}
	if r.Targeted {
		// v5: a query tried before is no proposal. When every strategy's
		// is one, none is left, and the assessment's verdict ends the run
		// (insufficient_context) instead of a repeat (repeated_query).
		out = slices.DeleteFunc(out, func(p Proposal) bool { return rank(p) == 2 })
	}
	slices.SortStableFunc(out, func(a, b Proposal) int { return rank(a) - rank(b) })
	return out
}

// QueryKey identifies a query for repeat checks (see wire.QueryKey).
func QueryKey(q string, k int) string { return wire.QueryKey(q, k) }

type spelling struct{}

func (spelling) Name() string { return StrategySpelling }
func (spelling) Propose(ctx context.Context, r *Rewriter, s *Situation) (Proposal, bool) {
	q, fixed := r.Spell(ctx, s.Request.Query, s.Vocab, s.Request.Evidence, s.Request.Filters)
	return Proposal{Query: q, Why: strings.Join(fixed, ", ")}, len(fixed) > 0
}

type translate struct{}

// maxSynonyms bounds the words one question word becomes.
const maxSynonyms = 3

func (translate) Name() string { return StrategyTranslate }
func (translate) Propose(_ context.Context, r *Rewriter, s *Situation) (Proposal, bool) {
	if len(s.Synonyms) == 0 {
		return Proposal{}, false
	}
	var out, why, subs []string
	done := map[string]bool{}
	for _, w := range strings.Fields(s.Question) {
		ts := r.an.Terms(w)
		if len(ts) != 1 || len(s.Synonyms[ts[0]]) == 0 || done[ts[0]] {
			out = append(out, w)
			continue
		}
		done[ts[0]] = true
		bare := plainWord(w)
		syns := s.Synonyms[ts[0]]
		if r.Mutual {
			syns = r.mutual(bare, ts[0], syns)
		}
		if len(syns) == 0 {
			out = append(out, w)
			continue
		}
		var words []string
		for i := 0; i < len(syns) && i < maxSynonyms; i++ {
			words = append(words, syns[i].Word)
		}
		if s.Vocab.DocFreq(ts[0]) > 0 {
			out = append(out, bare) // a word the corpus uses stays searchable
		}
		out = append(out, words...)
		why = append(why, bare+"→"+strings.Join(words, "/"))
		subs = append(subs, words...)
	}
	if len(why) == 0 || r.Targeted && r.translatedBefore(s, subs) {
		return Proposal{}, false
	}
	return Proposal{Query: strings.Join(out, " "), Why: "in the words your documents use: " + strings.Join(why, ", "), Rejudge: true}, true
}

// translatedBefore reports whether one query the run searched already
// carried every substitute of subs (builtin:strategies-v5): the assessor
// has judged the question in those words, so a translation with no new
// substitute (the same one, or fewer words of it once the best hit covers
// some) changes nothing it reads.
func (r *Rewriter) translatedBefore(s *Situation, subs []string) bool {
	for _, q := range append(slices.Clone(s.Request.Previous), s.Request.Query) {
		in := r.an.Set(q)
		if !slices.ContainsFunc(subs, func(w string) bool {
			ts := r.an.Terms(w)
			return len(ts) != 1 || !in[ts[0]]
		}) {
			return true
		}
	}
	return false
}

// BaseFormer is a Thesaurus that also knows a word's base forms
// ("bought" → "buy") and how many senses it has; WordNet does.
type BaseFormer interface {
	BaseForms(word string) []string
	Senses(word string) int
}

// maxTranslateSenses is the most senses a question word may have for
// translate to trust a relation that is not between forms of one word:
// "set" (45 senses) relates to "put" through one of them, and a passage
// that puts something says nothing of what sets one back. The substitute
// may have more ("relocation" → "move", 21): that it relates back to the
// question word through one of its two most frequent senses is the check.
const maxTranslateSenses = 20

// CommonRelater is a Thesaurus that can also relate a word through its
// common senses only (the senses that hold a fair share of its uses);
// WordNet can, from its semantic concordance's counts.
type CommonRelater interface {
	CommonRelated(word string) []string
}

// mutual keeps the synonyms of the question word w (term t) a translation
// can stand on: another form of the same word (one's term begins the
// other's: "tracker" → "track", "delivered" → "delivery"; or they share
// a base form: "old" → "older"), or a word the
// thesaurus relates back to w or to one of w's base forms, when w has at
// most maxTranslateSenses senses ("bought" → "purchase", "guarantee" →
// "warranty"). A relation that holds one way only joins a
// frequent sense of one word to a rare sense of the other ("older" →
// "used", "phone" → "ring"): a passage using the other word in its own
// common sense says something else. With Common (v4) and a thesaurus
// that knows them (CommonRelater), the relation back must hold through
// the substitute's common senses ("number" relates to "total" only
// through a rare verb sense). Without a thesaurus nothing is kept.
func (r *Rewriter) mutual(w, t string, syns []synonym) []synonym {
	return mutualOf(r.Thesaurus, r.Common, true, w, t, syns)
}

// mutualOf is Rewriter.mutual over thesaurus th, with Common common;
// without forms, another form of the word is not kept.
func mutualOf(th Thesaurus, common, forms bool, w, t string, syns []synonym) []synonym {
	if th == nil {
		return nil
	}
	lw := strings.ToLower(w)
	base := []string{lw}
	bf, counts := th.(BaseFormer)
	if counts {
		base = append(base, bf.BaseForms(lw)...)
	}
	few := !counts || bf.Senses(lw) <= maxTranslateSenses
	var out []synonym
	for _, syn := range syns {
		if sameWord(t, syn.Term) || counts && slices.ContainsFunc(bf.BaseForms(syn.Word), func(x string) bool { return slices.Contains(base, x) }) {
			if forms {
				out = append(out, syn)
			}
			continue
		}
		if !few {
			continue
		}
		back := th.Related
		if cr, ok := th.(CommonRelater); ok && common {
			back = cr.CommonRelated
		}
		if slices.ContainsFunc(back(syn.Word), func(x string) bool { return slices.Contains(base, x) }) {
			out = append(out, syn)
		}
	}
	return out
}

// plainWord is question word w without the punctuation, quotes and
// possessive ending around it ("kettle's", "'descale',", "kettles'"): the
// word the thesaurus knows (its base forms and relatives), and the word a
// rewrite keeps.
func plainWord(w string) string {
	const around = ",.?!;:\"'()“”‘’"
	return strings.Trim(dropPossessive(strings.Trim(w, around)), around)
}

// bareWord is question word raw as the thesaurus is asked about it for
// a credit: without any mark around it, not only plainWord's ("erased…",
// "*erased*", "[erased]", "«erased»" read as "erased"), and without a
// possessive ending ("kettle's"). v24's hypernyms read it so since round
// 23 (rv23), v23's relatives (kin) since round 24 (rv24): kin trimmed
// plainWord's marks only, so "bought…" had no relative where "bought" had
// (TestKinReadsWordsInAnyMarks).
func bareWord(raw string) string {
	return plainWord(trimMarks(raw))
}

// trimMarks is w without the characters around it that are neither
// letters nor digits.
func trimMarks(w string) string {
	return strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// sameWord reports whether terms a and b are forms of one word: the
// shorter, of at least four letters, begins the longer.
func sameWord(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return len([]rune(a)) >= 4 && strings.HasPrefix(b, a)
}

type missingTerms struct{}

func (missingTerms) Name() string { return StrategyMissingTerms }
func (missingTerms) Propose(ctx context.Context, r *Rewriter, s *Situation) (Proposal, bool) {
	if s.Best == nil || len(s.Missing) == 0 || r.Targeted && !r.unjudged(ctx, s) {
		return Proposal{}, false
	}
	return r.lackedQuery(s)
}

// StrategySecond (round 41 a41-second's Second, see second.go) searches
// the question's entities with the known words the first attempt's first
// chunk lacks: a search that shares no content word with the first but
// the entities.
const StrategySecond = "second"

// lackedQuery is the question's entities followed by its words whose
// terms are s.Missing, written as the question spells them (plainWord
// with Plain); none when no word is missing or only one word would be
// searched.
func (r *Rewriter) lackedQuery(s *Situation) (Proposal, bool) {
	var words []string
	for _, e := range s.Entities {
		words = append(words, e.Text)
	}
	missing := map[string]bool{}
	for _, t := range s.Missing {
		missing[t] = true
	}
	var lacks []string
	for _, w := range strings.Fields(s.Question) {
		for _, t := range r.an.Terms(w) {
			if missing[t] {
				if r.Plain {
					lacks = append(lacks, plainWord(w))
				} else {
					lacks = append(lacks, strings.Trim(w, ",.?!;:"))
				}
				delete(missing, t)
				break
			}
		}
	}
	words = append(words, lacks...)
	if len(lacks) == 0 || len(words) < 2 {
		return Proposal{}, false // one word alone says too little
	}
	return Proposal{Query: strings.Join(words, " "), Why: "what the best hit lacks: " + strings.Join(lacks, ", ")}, true
}

type feedback struct{}

func (feedback) Name() string { return StrategyFeedback }
func (feedback) Propose(_ context.Context, r *Rewriter, s *Situation) (Proposal, bool) {
	if s.Coverage < prfMinCoverage || s.Coverage >= 1 {
		return Proposal{}, false
	}
	extra := r.feedbackTerms(s.Request, s.Vocab)
	if len(extra) == 0 {
		return Proposal{}, false
	}
	return Proposal{Query: s.Question + " " + strings.Join(extra, " "), Why: "terms the top hits share: " + strings.Join(extra, ", ")}, true
}

type bestHit struct{}

func (bestHit) Name() string { return StrategyBestHit }
func (bestHit) Propose(_ context.Context, r *Rewriter, s *Situation) (Proposal, bool) {
	if s.Best == nil || s.Coverage < prfMinCoverage || s.Coverage >= 1 {
		return Proposal{}, false
	}
	extra := r.specific([]Evidence{*s.Best}, s.Request, s.Vocab, 3)
	if len(extra) == 0 {
		return Proposal{}, false
	}
	return Proposal{Query: s.Question + " " + strings.Join(extra, " "), Why: "the best hit's own terms: " + strings.Join(extra, ", ")}, true
}

type dropUnknown struct{}

func (dropUnknown) Name() string { return StrategyDropUnknown }
func (dropUnknown) Propose(_ context.Context, r *Rewriter, s *Situation) (Proposal, bool) {
	var kept, dropped []string
	known := 0
	for _, w := range strings.Fields(s.Question) {
		ts := r.an.Terms(w)
		unknown := len(ts) > 0 && !isCodeWord(w)
		for _, t := range ts {
			if s.Vocab.DocFreq(t) > 0 {
				unknown = false
			}
		}
		if unknown {
			dropped = append(dropped, w)
			continue
		}
		if len(ts) > 0 && !terms.IsQuestionWord(ts[0]) {
			known++
		}
		kept = append(kept, w)
	}
	if len(dropped) == 0 || known == 0 {
		return Proposal{}, false
	}
	return Proposal{Query: strings.Join(kept, " "), Why: "no visible document uses: " + strings.Join(dropped, ", ")}, true
}

type wider struct{}

func (wider) Name() string { return StrategyWider }
func (wider) Propose(ctx context.Context, r *Rewriter, s *Situation) (Proposal, bool) {
	k := s.Request.K
	if k <= 0 || 2*k > maxWiderK || r.Targeted && !r.unjudged(ctx, s) {
		return Proposal{}, false
	}
	return Proposal{Query: s.Question, K: 2 * k, Why: fmt.Sprintf("%d hits instead of %d", 2*k, k)}, true
}

// maxWiderK bounds the wider strategy's k (the loop's own top-k limit).
const maxWiderK = 50

// SpellingVocabulary is a Vocabulary that can also spell an index term as
// the visible chunks spell it: both backends' vocabularies can, through
// internal/backend/live's adapter. The rewriter uses it to write a
// spelling correction as a word ("kettle"), never as an index term
// ("kettl"), when the attempt's own evidence does not hold the word.
type SpellingVocabulary interface {
	Vocabulary
	// Spellings returns the words of the visible chunks that pass the
	// run's filters f (those a search could return) that analyze to term,
	// lower case, most used first; none when no such chunk holds it (or
	// the backend cannot tell, or ctx ends first).
	Spellings(ctx context.Context, term string, f wire.Filters) []string
}

// Spell corrects the words of text that vocab has never seen (see
// Rewriter) into words it has, and lists the corrections as "typed→word"
// (the typed word without the punctuation around it, which stays around
// the correction in the text: "bioling?" becomes "boiling?").
// A correction is a word, not an index term (a stem): the word of the
// visible texts seen (the attempt's evidence) closest to the typed one
// that analyzes to the corrected term; failing that, the closest of the
// words the principal's visible chunks that pass the run's filters f spell
// the term with (when vocab is a SpellingVocabulary, asked under ctx:
// "kettel" → "kettle", not "kettl"); failing that, a
// spelling of the term a Thesaurus knows, or the typed word's own ending
// put on the term ("mintues" → "minutes"); failing that, the term (see
// word).
//
// English words are never corrected: the words that only frame what a
// question asks ("frequently" in "how frequently", "tell" in "can you
// tell me", see answertype; "frequently" is not a misspelt "request"),
// the words too general to be the corpus's (genericWords) and, with a
// Thesaurus, any word it knows.
func (r *Rewriter) Spell(ctx context.Context, text string, vocab Vocabulary, seen []Evidence, f wire.Filters) (string, []string) {
	frame := map[string]bool{}
	for _, w := range answertype.Classify(text).Frame {
		frame[w] = true
	}
	words := strings.Fields(text)
	var fixed []string
	var surface map[string][]string // term → the words of seen that analyze to it, built on first use
	var looked spellingLookups
	for i, w := range words {
		core := strings.TrimFunc(w, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) })
		clean := strings.ToLower(core)
		if frame[clean] {
			continue
		}
		c, ok := r.correct(clean, vocab)
		if !ok {
			continue
		}
		if surface == nil {
			surface = r.surfaceWords(seen)
		}
		spelt := surface[c]
		if len(spelt) == 0 {
			spelt = looked.spellings(ctx, vocab, c, f) // the visible corpus's words for c, when the evidence has none
		}
		c = r.word(clean, c, spelt)
		fixed = append(fixed, core+"→"+c)
		// the punctuation around the typed word stays around the correction
		start := strings.Index(w, core)
		words[i] = w[:start] + c + w[start+len(core):]
	}
	if len(fixed) == 0 {
		return text, nil
	}
	return strings.Join(words, " "), fixed
}

// maxSpellingLookups bounds the SpellingVocabulary.Spellings calls one
// Spell makes: each is a search of the visible chunks, and a long
// question of typos would otherwise make one per word. A correction past
// the bound is spelt the other ways Spell knows.
const maxSpellingLookups = 8

// spellingLookups asks a SpellingVocabulary for a term's words at most
// once per term and at most maxSpellingLookups times in all.
type spellingLookups struct {
	done map[string][]string
}

func (l *spellingLookups) spellings(ctx context.Context, vocab Vocabulary, term string, f wire.Filters) []string {
	sv, ok := vocab.(SpellingVocabulary)
	if !ok {
		return nil
	}
	if ws, ok := l.done[term]; ok {
		return ws
	}
	if len(l.done) >= maxSpellingLookups {
		return nil
	}
	if l.done == nil {
		l.done = map[string][]string{}
	}
	ws := sv.Spellings(ctx, term, f)
	l.done[term] = ws
	return ws
}

// SurfaceWords lists the words of text, lower case, in order: the runs of
// letters and digits, then each whitespace-separated token with inner
// punctuation, without the punctuation around it, for the terms the
// analyzer reads from such a token whole ("parts.hollin.example"). The
// rewriter and the backends' Spellings read words this one way.
func SurfaceWords(text string) []string {
	text = strings.ToLower(text)
	notWord := func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }
	ws := strings.FieldsFunc(text, notWord)
	for _, f := range strings.Fields(text) {
		if w := strings.TrimFunc(f, notWord); strings.IndexFunc(w, notWord) >= 0 {
			ws = append(ws, w) // a token with inner punctuation
		}
	}
	return ws
}

// surfaceWords maps the terms of the words of seen (SurfaceWords) to
// those words, each once, in order.
func (r *Rewriter) surfaceWords(seen []Evidence) map[string][]string {
	out := map[string][]string{}
	done := map[string]bool{}
	for _, e := range seen {
		for _, w := range SurfaceWords(e.Title + "\n" + e.Text) {
			if done[w] {
				continue
			}
			done[w] = true
			if ts := r.an.Terms(w); len(ts) == 1 {
				out[ts[0]] = append(out[ts[0]], w)
			}
		}
	}
	return out
}

// word spells the correction of typed into term as a word: the one of
// words (the words of the visible texts seen, or else of the visible
// chunks, that analyze to term) closest to typed, ties to the first. Failing that, a spelling of term made from
// typed or term alone: with a Thesaurus, the closest to typed of those it
// knows that analyze to term, among typed's own ending put on term and
// term with an ending the analyzer strips ("kettl"+"e"); without one, or
// when it knows none, typed's ending on term when that analyzes to term
// ("mintues": "mintu"+"es" → "minut"+"es"); else term itself.
func (r *Rewriter) word(typed, term string, words []string) string {
	if w := closest(typed, words); w != "" {
		return w
	}
	own := r.ending(typed, term)
	if r.Thesaurus != nil {
		forms := []string{own}
		for _, in := range inflections {
			if strings.HasSuffix(term, in[0]) {
				forms = append(forms, strings.TrimSuffix(term, in[0])+in[1])
			}
		}
		var known []string
		for _, f := range forms {
			if got := r.an.Terms(f); f != "" && len(got) == 1 && got[0] == term && len(r.Thesaurus.Related(f)) > 0 {
				known = append(known, f)
			}
		}
		if w := closest(typed, known); w != "" {
			return w
		}
	}
	if own != "" {
		return own
	}
	return term
}

// closest returns the one of words closest to typed, ties to the first;
// "" when there are none.
func closest(typed string, words []string) string {
	best, bestDist := "", 0
	for _, w := range words {
		if d := distance(typed, w, len(typed)+len(w)); best == "" || d < bestDist {
			best, bestDist = w, d
		}
	}
	return best
}

// inflections are the endings ending puts back: those the analyzer strips
// from a word whose term is a prefix of it, and "y" for a term's "i"
// ("warranty", "warranti"). Other endings ("-ation", "-ful") belong to
// derived words, and put on another term make no word ("relocation" is
// "reloc"+"ation": "replac"+"ation" is none). Each is a term's tail and
// the word's tail in its place; word tries them in this order.
var inflections = [][2]string{{"", ""}, {"", "e"}, {"", "s"}, {"", "es"}, {"", "ed"}, {"", "ing"}, {"i", "y"}}

// ending puts typed's inflection after its own term on term ("mintues",
// "mintu"+"es" → "minut"+"es"), or returns "" when typed's ending is no
// inflection or the result does not analyze to term.
func (r *Rewriter) ending(typed, term string) string {
	ts := r.an.Terms(typed)
	if len(ts) != 1 {
		return ""
	}
	tw, st := []rune(typed), []rune(ts[0])
	p := 0
	for p < len(tw) && p < len(st) && tw[p] == st[p] {
		p++
	}
	stemTail, typedTail := string(st[p:]), string(tw[p:])
	if !slices.Contains(inflections, [2]string{stemTail, typedTail}) || !strings.HasSuffix(term, stemTail) {
		return ""
	}
	w := strings.TrimSuffix(term, stemTail) + typedTail
	if got := r.an.Terms(w); len(got) == 1 && got[0] == term {
		return w
	}
	return ""
}

// prfMinCoverage is the least coverage at which feedback terms are worth
// adding: below it the top chunks are probably about something else.
const prfMinCoverage = 0.34

// correct returns the index term closest to the term of clean (a word,
// lower case, without punctuation) when the visible vocabulary has never
// seen that term. Distances are between analyzed terms (stems); the
// length rules use the word as typed, and since builtin:strategies-v5
// (Targeted) the stem's length too (two edits need a stem of six; a
// stem of four changes by a transposition, not a substitution, when
// the candidate is as long, and never loses a letter — "tubing",
// "tube" stays, not "tub" — though it may still grow).
func (r *Rewriter) correct(clean string, vocab Vocabulary) (string, bool) {
	n := len([]rune(clean))
	if n < 4 || strings.IndexFunc(clean, unicode.IsDigit) >= 0 {
		return "", false
	}
	ts := r.an.Terms(clean)
	if len(ts) != 1 || vocab.DocFreq(ts[0]) > 0 || r.english[ts[0]] {
		return "", false // a stop word, several tokens, already known, or a generic English word
	}
	if r.Thesaurus != nil && len(r.Thesaurus.Related(clean)) > 0 {
		return "", false // an English word the corpus does not use
	}
	stem := ts[0]
	sn := len([]rune(stem))
	maxDist := 1
	if n >= 8 && (!r.Targeted || sn >= 6) {
		// v5: the distance is between stems, so the stem must be long
		// too: two edits make another word of a four-letter stem
		// ("swapping", "swap" → "seal"; "shipping" → "shows").
		maxDist = 2
	}
	short := n <= 4 || r.Targeted && sn <= 4 // v5: the stem's length, not the typed word's ("packed", "pack" → "back")
	best, bestDist, bestDF := "", maxDist+1, 0
	var ed editDistance // one set of buffers for every candidate
	stemRunes := []rune(stem)
	stemLetters := letterSet(stem)
	for l := sn - maxDist; l <= sn+maxDist; l++ {
		if (n <= 5 || r.Targeted && sn <= 4) && l < sn {
			// "peru" must not become "per": short words only grow or
			// change; since v5 short stems too ("tubing", "tube" must
			// not become "tub")
			continue
		}
		for _, it := range r.index[l] {
			if bits.OnesCount64(stemLetters^it.letters) > 2*maxDist {
				continue // farther than maxDist (letterSet)
			}
			cand := it.t
			d := ed.distance(stemRunes, cand, maxDist)
			if d > maxDist || short && d == 1 && l == sn && !transposed(stem, cand) {
				// Four-letter words collide with index terms by one
				// substitution far too often ("sink" → "link"); since v5
				// so do the four-letter stems of longer words ("rated",
				// "rate" → "date"; "sells" → "seal"; "house" → "hour").
				continue
			}
			df := vocab.DocFreq(cand)
			if df == 0 {
				continue // only in documents this principal cannot see
			}
			if d < bestDist || d == bestDist && df > bestDF {
				best, bestDist, bestDF = cand, d, df
			}
		}
	}
	if best == "" {
		return "", false
	}
	return best, true
}

// spellingTerm is an index term and its letterSet.
type spellingTerm struct {
	t       string
	letters uint64
}

// letterSet is the set of w's letters, a bit each (a rune's low six
// bits: letters may share one). One edit of the distance correct
// measures changes it by at most two bits (a substitution takes one
// letter away and brings another; an insertion or deletion one; a
// transposition none), so two words whose sets differ in more than 2d
// bits are more than d edits apart, and correct skips them unmeasured:
// most index terms of a similar length (TestLetterSetBound).
func letterSet(w string) uint64 {
	var set uint64
	for _, c := range w {
		set |= 1 << (uint(c) & 63)
	}
	return set
}

// transposed reports whether a and b differ by one swap of adjacent letters.
func transposed(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) != len(rb) {
		return false
	}
	for i := 0; i+1 < len(ra); i++ {
		if ra[i] != rb[i] {
			return ra[i] == rb[i+1] && ra[i+1] == rb[i] && string(ra[i+2:]) == string(rb[i+2:])
		}
	}
	return false
}

// feedbackTerms picks up to two terms shared by most of the top chunks that
// the query lacks, weighted by IDF, as words those chunks use.
func (r *Rewriter) feedbackTerms(req Request, vocab Vocabulary) []string {
	top := req.Evidence
	if len(top) > 3 {
		top = top[:3]
	}
	if len(top) < 2 {
		return nil
	}
	return r.specific(top, req, vocab, 2)
}

// specific picks up to max terms of the chunks in top that most of them
// share and the query and question lack, by IDF times how many share them,
// and returns them as words those chunks use (their index terms are stems,
// which neither a query nor a trace should show).
func (r *Rewriter) specific(top []Evidence, req Request, vocab Vocabulary, max int) []string {
	inQuery := r.an.Set(req.Query + " " + req.Question)
	count := map[string]int{}
	for _, e := range top {
		for t := range r.an.Set(e.Title + "\n" + e.Text) {
			if !inQuery[t] && !terms.IsQuestionWord(t) && strings.IndexFunc(t, unicode.IsLetter) >= 0 {
				count[t]++
			}
		}
	}
	n := vocab.Len()
	type cand struct {
		t string
		w float64
	}
	var cands []cand
	for t, c := range count {
		if c*2 <= len(top) {
			continue // not shared by most of the top chunks
		}
		cands = append(cands, cand{t, float64(c) * backend.IDF(n, vocab.DocFreq(t))})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].w != cands[j].w {
			return cands[i].w > cands[j].w
		}
		return cands[i].t < cands[j].t
	})
	// Each term as the top chunks spell it ("descale", not "descal"): the
	// first of their words that analyzes to it, in their order.
	surface := r.surfaceWords(top)
	var out []string
	for i := 0; i < len(cands) && i < max; i++ {
		w := cands[i].t
		if ws := surface[w]; len(ws) > 0 {
			w = ws[0]
		}
		out = append(out, w)
	}
	return out
}

// distance is the optimal-string-alignment edit distance between a and b,
// giving up early (returning max+1) once it must exceed max.
func distance(a, b string, max int) int {
	var ed editDistance
	return ed.distance([]rune(a), b, max)
}

// editDistance holds distance's buffers, reused from one call to the next
// (correct measures a word against every index term of a similar length).
type editDistance struct {
	rb               []rune
	prev2, prev, cur []int
}

// distance is distance(string(ra), b, max).
func (ed *editDistance) distance(ra []rune, b string, max int) int {
	ed.rb = ed.rb[:0]
	for _, c := range b {
		ed.rb = append(ed.rb, c)
	}
	rb := ed.rb
	if d := len(ra) - len(rb); d > max || -d > max {
		return max + 1
	}
	row := func(r []int) []int {
		if cap(r) < len(rb)+1 {
			return make([]int, len(rb)+1)
		}
		return r[:len(rb)+1]
	}
	ed.prev2, ed.prev, ed.cur = row(ed.prev2), row(ed.prev), row(ed.cur)
	prev2, prev, cur := ed.prev2, ed.prev, ed.cur
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
