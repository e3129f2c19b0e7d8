// Package assessdev measures the builtin assessor offline on the Hollin
// development sets, the way the loop's first attempt (and the one-pass
// baseline) sees each question: searched as its asker by the service's
// retriever over the Hollin corpus built with the default configuration,
// top 5, and judged by assess.Builtin. It is how builtin:coverage-v8's
// focus reading was tuned and cross-validated (docs/log/evaluation.md, issue
// 24 round 6), and v9's answer checks measured (round 7). Its tests are
// skipped unless ASSESSDEV=1:
//
//	ASSESSDEV=1 go test ./internal/assess/assessdev -run TestLeaveOneSetOut -v
//	ASSESSDEV=1 ASSESSDEV_OUT=/tmp/v8.txt go test ./internal/assess/assessdev -run TestDump -v
//
// judgeLoop (TestLoopDump, TestLeaveOneSetOutV17) runs each question on
// through the loop's later attempts as workflows/answer.go does (the
// builtin's proposals, up to three searches), so the no-answer questions
// a rewrite gets accepted count too:
//
//	ASSESSDEV=1 ASSESSDEV_THESAURUS=/usr/share/wordnet ASSESSDEV_OUT=/tmp/loop.txt go test ./internal/assess/assessdev -run TestLoopDump -v
//
// "Right" here is what the eval's right source cited comes down to on a
// first attempt: the assessor accepts and a relevant document is among the
// hits; "refused" is a no-answer question the assessor does not accept.
package assessdev

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/assess"
	"github.com/assay-rag/assay/internal/backend"
	"github.com/assay-rag/assay/internal/backend/live"
	"github.com/assay-rag/assay/internal/eval"
	"github.com/assay-rag/assay/internal/eval/devsets"
	"github.com/assay-rag/assay/internal/retrieval"
	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
	"github.com/assay-rag/assay/internal/wire"
)

type corpusOf struct{ backend.Index }

// devCorpus is the corpus collect built, for diagnostics; devDirect the
// index and retriever collect opened, for the loop's later attempts (see
// loop).
var (
	devCorpus corpusOf
	devDirect *live.Direct
)

func (c corpusOf) Visible(groups []string) assess.Vocabulary {
	if holdings {
		return holdingVocab{namingVocab{c.Index.Visible(groups), c.Index, groups}}
	}
	return namingVocab{c.Index.Visible(groups), c.Index, groups}
}

// holdings (ASSESSDEV_HOLDINGS=1) gives the vocabulary the index's
// Holdings, as the service's has (live.filteredVocabulary): the
// visible-chunk check (the reach of a refusal) runs, as end to end;
// without it the check is skipped (a47-gate: Candidate.Hopeless 1–3).
var holdings = os.Getenv("ASSESSDEV_HOLDINGS") != ""

type holdingVocab struct{ namingVocab }

func (v holdingVocab) Holdings(ctx context.Context, terms []string, f wire.Filters) (map[uint64]int, error) {
	hv, ok := v.namingVocab.Vocabulary.(interface {
		Holdings(context.Context, []string, *backend.Filter) (map[uint64]int, error)
	})
	if !ok {
		return nil, nil
	}
	ixf := retrieval.IndexFilter(v.groups, f)
	return hv.Holdings(ctx, terms, &ixf)
}

// namingVocab reads the visible chunks holding a term as the worker's
// vocabulary does (assess.NamingVocabulary, builtin:coverage-v27's class
// reading); the rest is the bare index's vocabulary.
type namingVocab struct {
	backend.Vocabulary
	ix     backend.Index
	groups []string
}

// devAn analyses the harness's searches for Naming.
var devAn = terms.New()

// namingSearches counts the Naming searches the harness made (TestV28Searches).
var namingSearches int

func (v namingVocab) Naming(ctx context.Context, term string, f wire.Filters) ([]string, error) {
	namingSearches++
	return live.NamingTexts(ctx, v.ix, devAn, v.Vocabulary, v.groups, term, f)
}

// EachTerm is the bleve index's, which never fails.
func (c corpusOf) EachTerm(fn func(term string, df int)) { _ = c.Index.EachTerm(fn) }

// sets are the development sets (devsets.Names, a copy of its own).
var sets = devsets.Names()

// validation is the round's validation set, the newest development set:
// read in totals only, once, end to end; the replays here leave it out.
var validation = sets[len(sets)-1]

// asked is one question's first attempt.
type asked struct {
	set, id    string
	q          eval.Question
	req        assess.Request
	docs       []string
	chunkDoc   map[string]string // chunk id → document id, for the hits
	answerable bool
	retrieved  bool // a relevant document is among the hits
}

func collect(t testing.TB) (*assess.Builtin, []asked) {
	t.Helper()
	if os.Getenv("ASSESSDEV") == "" {
		t.Skip("set ASSESSDEV=1 (builds the Hollin index; a few seconds)")
	}
	d := devsets.Open(t)
	an := terms.New()
	devCorpus = corpusOf{d.Index}
	devDirect = d
	// Built by hand, not the worker's (live.Direct.Assessor): the bare
	// index's vocabulary has no visible-chunk check (assess.HoldingVocabulary)
	// nor the worker's spelling lookups. The first attempt's verdicts are
	// the same either way; the worker's assessor proposes fewer rewrites,
	// and the loop is right less often (TestV21's loop total, v21: 826 of
	// 1125 here, 818 with the worker's; docs/log/round-18-c18-fix.md).
	// Kept so that every test's totals stay those of the rounds' logs.
	b := assess.NewBuiltin(an, corpusOf{d.Index})
	b.Rewriter = assess.NewRewriter(an, corpusOf{d.Index}) // spelling, as the service judges
	if dir := os.Getenv("ASSESSDEV_THESAURUS"); dir != "" {
		th, err := thesaurus.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		b.UseThesaurus(th) // as live.go sets it
	}
	var out []asked
	for _, s := range sets {
		qs, err := eval.LoadQuestions(devsets.Questions(s))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			first := devsets.FirstRequest(q)
			found := devsets.Search(t, d, first)
			a := asked{set: s, id: q.ID, q: q, answerable: len(q.Relevant) > 0,
				req: assess.Request{Question: q.Question, Query: first.Query, Groups: first.Groups, K: first.K, Evidence: found.Evidence}, chunkDoc: map[string]string{}}
			for _, c := range found.Chunks {
				a.docs = append(a.docs, c.DocID)
				a.chunkDoc[c.ID] = c.DocID
				a.retrieved = a.retrieved || slices.Contains(q.Relevant, c.DocID)
			}
			out = append(out, a)
		}
	}
	return b, out
}

// score is one set's result: right of answerable, refused of no-answer;
// on is how many accepted questions the chunk the assessor accepted on
// (Result.Accepted's first) is a relevant document's, of accepted: what
// cited-document precision comes down to when the answer opens with the
// chunk that was accepted.
type score struct{ right, answerable, refused, noAnswer, on, accepted int }

// add adds r's counts to s.
func (s *score) add(r *score) {
	s.right += r.right
	s.answerable += r.answerable
	s.refused += r.refused
	s.noAnswer += r.noAnswer
	s.on += r.on
	s.accepted += r.accepted
}

func (s score) String() string {
	return fmt.Sprintf("%d/%d, refusal %d/%d, accepted on a relevant chunk %d/%d", s.right, s.answerable, s.refused, s.noAnswer, s.on, s.accepted)
}

// keepsShare reports whether s's share of acceptances made on a relevant
// chunk is at least base's.
func (s score) keepsShare(base score) bool {
	return s.on*base.accepted >= base.on*s.accepted
}

// training sums res over every development set but held (all of them
// for held "").
func training(res map[string]*score, held string) score {
	var tot score
	for _, s := range sets {
		if s != held {
			tot.add(res[s])
		}
	}
	return tot
}

// keepsRefusal reports whether no development set but held refuses fewer
// no-answer questions in res than in floor.
func keepsRefusal(res, floor map[string]*score, held string) bool {
	for _, s := range sets {
		if s != held && res[s].refused < floor[s].refused {
			return false
		}
	}
	return true
}

// logChanges logs each of judge's lines whose verdict (its first line)
// differs from base's, saying what changes it.
func logChanges(t *testing.T, what string, lines, base []string) {
	t.Helper()
	for i := range lines {
		if strings.SplitN(lines[i], "\n", 2)[0] != strings.SplitN(base[i], "\n", 2)[0] {
			t.Logf("%s changes %s", what, strings.ReplaceAll(lines[i], "\n", " |"))
		}
	}
}

// threshold is the loop's default acceptance threshold: a sufficient
// assessment is accepted only at a score of at least it.
const threshold = 0.5

func judge(t *testing.T, b *assess.Builtin, qs []asked) (map[string]*score, []string) {
	t.Helper()
	return tally(qs, func(a asked) verdict {
		r, err := b.Assess(context.Background(), a.req)
		if err != nil {
			t.Fatal(err)
		}
		v := verdict{accepted: r.Assessment.Sufficient && r.Assessment.Score >= threshold, // as the loop accepts (workflows/answer.go)
			retrieved: a.retrieved, docs: a.docs, reason: r.Assessment.Reason}
		if v.accepted && len(r.Accepted) > 0 {
			v.on = a.chunkDoc[r.Accepted[0]]
		}
		return v
	})
}

// verdict is how one question ended: accepted or not, on which document's
// chunk, whether a relevant document was among the hits judged (docs),
// the (last) reason, and anything more to log (note: the loop's attempts).
type verdict struct {
	accepted, retrieved bool
	on, reason, note    string
	docs                []string
}

// tally scores each question's verdict by run, per set, with one line
// per question (its verdict first).
func tally(qs []asked, run func(asked) verdict) (map[string]*score, []string) {
	out := map[string]*score{}
	var lines []string
	for _, a := range qs {
		v := run(a)
		sc := out[a.set]
		if sc == nil {
			sc = &score{}
			out[a.set] = sc
		}
		on := ""
		if v.accepted {
			sc.accepted++
			on = v.on
			if slices.Contains(a.q.Relevant, on) {
				sc.on++
			} else {
				on += " (not relevant)"
			}
		}
		what := "refused"
		switch {
		case a.answerable && v.accepted && v.retrieved:
			sc.right++
			what = "right"
		case a.answerable && v.accepted:
			what = "accepted, no relevant document retrieved"
		case a.answerable && (a.retrieved || v.retrieved):
			what = "lost (relevant document retrieved, refused)"
		case a.answerable:
			what = "not retrieved"
		case v.accepted:
			what = "no-answer question accepted"
		default:
			sc.refused++
		}
		if a.answerable {
			sc.answerable++
		} else {
			sc.noAnswer++
		}
		lines = append(lines, fmt.Sprintf("%s %s: %s%s\n  q: %s\n  relevant: %s\n  hits: %s\n  accepted on: %s\n  reason: %s", a.set, a.id, what, v.note, a.q.Question, strings.Join(a.q.Relevant, " "), strings.Join(v.docs, " "), on, v.reason))
	}
	return out, lines
}

// TestDump writes every development question's first-attempt verdict and
// reason, with builtin:coverage-v14 (the default, v16, is v14 without a
// thesaurus; with ASSESSDEV_THESAURUS its first row is v16), v13 (v14's checks of
// the kind found off), v12 (v13's plain
// entities and generic focus words off), v10 (v12's sentence reading and
// refusal rules off too), v9 (the wide reading off too), v8 (answer checks
// off too) and v8 with the focus reading off; ASSESSDEV_OUT receives
// v14's, ASSESSDEV_OUT_V13 v13's, ASSESSDEV_OUT_V12 v12's, ASSESSDEV_OUT_V10 v10's,
// ASSESSDEV_OUT_V9 v9's and ASSESSDEV_OUT_V8 v8's.
func TestDump(t *testing.T) {
	b, qs := collect(t)
	for _, m := range []struct {
		name                                string
		v14, v13, v12, read, answers, focus bool
		out                                 string
	}{{"v14", true, true, true, true, true, true, "ASSESSDEV_OUT"}, {"v13", false, true, true, true, true, true, "ASSESSDEV_OUT_V13"},
		{"v12", false, false, true, true, true, true, "ASSESSDEV_OUT_V12"},
		{"v10", false, false, false, true, true, true, "ASSESSDEV_OUT_V10"}, {"v9", false, false, false, false, true, true, "ASSESSDEV_OUT_V9"},
		{"v8", false, false, false, false, false, true, "ASSESSDEV_OUT_V8"}, {"v8 nofocus", false, false, false, false, false, false, ""}} {
		v13 := v13Point{} // off
		if m.v13 {
			v13 = v13Point{plain: 2, focusGeneric: 1, counted: true, stated: true} // NewBuiltin's
		}
		v13.apply(b)
		if m.v14 {
			v14Point{calendar: true, shaped: true, when: true, abbrev: true, hedges: true}.apply(b) // NewBuiltin's
		}
		b.Sentence, b.Dimensions, b.Topical = m.v12, m.v12, m.v12
		b.Read, b.Answers, b.Focus = m.read, m.answers, m.focus
		res, lines := judge(t, b, qs)
		for _, s := range sets {
			t.Logf("%-10s %-8s %s", m.name, s, res[s])
		}
		if p := os.Getenv(m.out); m.out != "" && p != "" {
			if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestLeaveOneSetOut chooses the focus reading's two settings
// (FocusCoverage, FocusRank) on all development sets but one and scores
// the one left out, for each set. A setting qualifies when no training
// set's no-answer refusal falls below builtin:coverage-v7's (main before
// this round); among those, the most right on the training sets wins,
// ties going to the higher coverage, then the lower rank.
//
// It runs twice: with builtin:coverage-v9's answer checks off (v8) and on
// (v9, the default); the checks have no setting of their own.
func TestLeaveOneSetOut(t *testing.T) {
	b, qs := collect(t)
	v13Point{}.apply(b) // v13 off
	b.Sentence, b.Dimensions, b.Topical = false, false, false
	b.Read = false // v8 against v9; v10's wide reading has its own (TestLeaveOneSetOutV10)
	for _, on := range []bool{false, true} {
		b.Answers = on
		t.Logf("answer checks (v9) %v:", on)
		leaveOneSetOut(t, b, qs)
	}
}

func leaveOneSetOut(t *testing.T, b *assess.Builtin, qs []asked) {
	// builtin:coverage-v7's first-attempt refusals, measured by this
	// harness at main a5a2b3a (the same as its eval's one-pass column);
	// fresh5 was not a development set then and asks none.
	v7 := map[string]int{"hollin": 6, "heldout": 5, "fresh": 7, "fresh2": 7, "fresh3": 7, "fresh4": 12}
	grid := gridOf(t, b, qs, []float64{1, 0.9, 0.8, 0.7, 0.6, 0.5}, []int{0, 1, 4}, func(cov float64, rank int) {
		b.FocusCoverage, b.FocusRank = cov, rank
	})
	var total score
	for _, held := range sets {
		pick, pickRight := choose(grid, held, func(s string) int { return v7[s] })
		if pick == nil {
			t.Fatalf("%s: no setting keeps every training set's refusal", held)
		}
		r := pick.res[held]
		t.Logf("left out %-8s chosen coverage %.1f rank %d (training right %d): %s", held, pick.cov, pick.rank, pickRight, r)
		total.add(r)
	}
	t.Logf("leave-one-set-out total: %s", total)
}

// TestLeaveOneSetOutV10 chooses builtin:coverage-v10's wide reading's two
// settings (ReadCoverage, ReadRank) on all development sets but one and
// scores the one left out against builtin:coverage-v9 (the wide reading
// off), for each set. A setting qualifies when no training set's
// no-answer refusal falls below v9's; among those, the most right on the
// training sets wins, ties going to the higher coverage, then the lower
// rank. The focus reading keeps its defaults.
func TestLeaveOneSetOutV10(t *testing.T) {
	b, qs := collect(t)
	v13Point{}.apply(b) // v13 off
	b.Sentence, b.Dimensions, b.Topical = false, false, false
	b.Read = false
	v9, _ := judge(t, b, qs)
	b.Read = true
	grid := gridOf(t, b, qs, []float64{1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4}, []int{0, 1}, func(cov float64, rank int) {
		b.ReadCoverage, b.ReadRank = cov, rank
	})
	var total9, total10 score
	for _, held := range sets {
		pick, pickRight := choose(grid, held, func(s string) int { return v9[s].refused })
		if pick == nil {
			t.Logf("left out %-8s no setting keeps every training set's refusal: v10 is v9 there: %s", held, v9[held])
			total9.add(v9[held])
			total10.add(v9[held])
			continue
		}
		t.Logf("left out %-8s chosen coverage %.1f rank %d (training right %d): v9 %s | v10 %s", held, pick.cov, pick.rank, pickRight, v9[held], pick.res[held])
		total9.add(v9[held])
		total10.add(pick.res[held])
	}
	t.Logf("leave-one-set-out total: v9 %s | v10 %s", total9, total10)
}

// setting is one point of a leave-one-set-out grid: a reading's coverage
// and rank, and the harness's score on every set with them.
type setting struct {
	cov  float64
	rank int
	res  map[string]*score
}

// gridOf judges every set at each coverage and rank, set applying them to
// the assessor, and logs each point.
func gridOf(t *testing.T, b *assess.Builtin, qs []asked, covs []float64, ranks []int, set func(cov float64, rank int)) []setting {
	var grid []setting
	for _, cov := range covs {
		for _, rank := range ranks {
			set(cov, rank)
			res, _ := judge(t, b, qs)
			grid = append(grid, setting{cov, rank, res})
			var cells []string
			for _, s := range sets {
				cells = append(cells, fmt.Sprintf("%s %s", s, res[s]))
			}
			t.Logf("coverage %.1f rank %d: %s", cov, rank, strings.Join(cells, "; "))
		}
	}
	return grid
}

// choose picks, with held left out, the grid's setting that is right most
// often on the other sets while no other set's no-answer refusal falls
// below floor's; ties go to the earlier point (higher coverage, lower
// rank). It returns nil when no setting qualifies.
func choose(grid []setting, held string, floor func(set string) int) (*setting, int) {
	var pick *setting
	pickRight := -1
	for i := range grid {
		g := &grid[i]
		right, ok := training(g.res, held).right, true
		for _, s := range sets {
			ok = ok && (s == held || g.res[s].refused >= floor(s))
		}
		if ok && right > pickRight {
			pick, pickRight = g, right
		}
	}
	return pick, pickRight
}

// TestLeaveOneSetOutV12 chooses builtin:coverage-v12's sentence reading's
// two settings (which topic words a sentence must hold: all, SentenceAll,
// shown as coverage 2; the heaviest, SentenceKey, 1; or any, 0; and
// SentenceRank in {0, 1, 2, 4}) on all development sets but one
// and scores the one left out against builtin:coverage-v10 (the sentence
// reading off), for each set, with the same rule as TestLeaveOneSetOutV10:
// a setting qualifies when no training set's no-answer refusal falls below
// v10's and the share of the training sets' acceptances made on a
// relevant chunk does not fall below v10's; among those, the most right on
// the training sets wins, ties going to the stricter words, then the lower
// rank.
func TestLeaveOneSetOutV12(t *testing.T) {
	b, qs := collect(t)
	v13Point{}.apply(b) // v13 off
	b.Sentence, b.Dimensions, b.Topical = false, false, false
	v10, base := judge(t, b, qs)
	// v12's two refusal rules have no setting: each is scored on every
	// set, then both are on for the sentence reading's grid.
	for _, m := range []struct {
		name                string
		dimensions, topical bool
	}{{"dimensions", true, false}, {"topical", false, true}, {"both", true, true}} {
		b.Dimensions, b.Topical = m.dimensions, m.topical
		res, lines := judge(t, b, qs)
		var cells []string
		var tot score
		for _, s := range sets {
			cells = append(cells, fmt.Sprintf("%s %s", s, res[s]))
			tot.add(res[s])
		}
		t.Logf("refusal rules %s: %s; total %s", m.name, strings.Join(cells, "; "), tot)
		for i := range lines {
			if lines[i] != base[i] {
				t.Logf("refusal rules %s change %s", m.name, strings.ReplaceAll(lines[i], "\n", " |"))
			}
		}
	}
	var tot10 score
	for _, s := range sets {
		tot10.add(v10[s])
	}
	t.Logf("v10 total %s", tot10)
	v10, base = judge(t, b, qs) // both refusal rules on: the sentence reading's baseline
	b.Sentence = true
	grid := gridOf(t, b, qs, []float64{2, 1, 0}, []int{0, 1, 2, 4}, func(key float64, rank int) {
		b.SentenceAll, b.SentenceKey, b.SentenceRank = key == 2, key == 1, rank
	})
	var total10, total12 score
	for _, held := range sets {
		// Besides refusal, the share of the training sets' acceptances
		// made on a relevant chunk must not fall below v10's (the rule
		// m9-read's fitted scorer was chosen by): an acceptance on the
		// wrong chunk counts as right here whenever a relevant document
		// is retrieved too.
		var qualifying []setting
		for _, g := range grid {
			if training(g.res, held).keepsShare(training(v10, held)) {
				qualifying = append(qualifying, g)
			}
		}
		pick, pickRight := choose(qualifying, held, func(s string) int { return v10[s].refused })
		if pick == nil {
			t.Logf("left out %-8s no setting keeps every training set's refusal: v12 is v10 there: %s", held, v10[held])
			total10.add(v10[held])
			total12.add(v10[held])
			continue
		}
		t.Logf("left out %-8s chosen words %s rank %d (training right %d): v10 %s | v12 %s", held, map[float64]string{2: "all", 1: "heaviest", 0: "any"}[pick.cov], pick.rank, pickRight, v10[held], pick.res[held])
		total10.add(v10[held])
		total12.add(pick.res[held])
	}
	t.Logf("leave-one-set-out total: v10 %s | v12 %s", total10, total12)
	// What each setting changes, question by question.
	for _, g := range []struct {
		all, key bool
		rank     int
	}{{true, false, 4}, {false, true, 4}} {
		b.SentenceAll, b.SentenceKey, b.SentenceRank = g.all, g.key, g.rank
		_, lines := judge(t, b, qs)
		for i := range lines {
			if lines[i] != base[i] {
				t.Logf("all %v key %v rank %d changes %s", g.all, g.key, g.rank, strings.ReplaceAll(lines[i], "\n", " |"))
			}
		}
	}
}

// v13Point is one setting of builtin:coverage-v13's grid
// (TestLeaveOneSetOutV13) and the harness's score on every set with it.
type v13Point struct {
	plain        int // 0 off, 1 frame words, ordinals and thousands, 2 and months, 3 and weekdays
	focusGeneric int // 0 generic words count in the focus reading (v12), 1 not when they are all its words, 2 never
	counted      bool
	stated       bool
	res          map[string]*score
}

func (p v13Point) String() string {
	return fmt.Sprintf("plain %d, generic words out of the focus reading %d, counted phrase %v, stated %v", p.plain, p.focusGeneric, p.counted, p.stated)
}

// apply sets p on b, with v14's checks off (v14Point sets them).
func (p v13Point) apply(b *assess.Builtin) {
	b.Plain, b.PlainMonths, b.PlainWeekdays = p.plain >= 1, p.plain >= 2, p.plain >= 3
	b.FocusGeneric, b.Counted, b.Stated = p.focusGeneric, p.counted, p.stated
	v14Point{}.apply(b)
}

// TestLeaveOneSetOutV13 chooses builtin:coverage-v13's settings — which
// entity shapes are read as plain words (Builtin.Plain, PlainMonths,
// PlainWeekdays), whether generic words leave the focus reading
// (FocusGeneric) and whether the sentence reading takes a count of one
// word of the counted phrase for the phrase (Counted) — on all development sets but one and
// scores the one left out against builtin:coverage-v12, for each set, with
// TestLeaveOneSetOutV12's rule: a setting qualifies when no training set's
// no-answer refusal falls below v12's and the share of the training sets'
// acceptances made on a relevant chunk does not fall below v12's; the most
// right on the training sets wins, ties going to the earlier (smaller)
// setting. It fails unless the sets left out, together, are right more
// often than with v12, refuse at least as many no-answer questions, and
// are accepted on a relevant chunk at least as often in share.
func TestLeaveOneSetOutV13(t *testing.T) {
	b, qs := collect(t)
	off := v13Point{}
	off.apply(b)
	v12, base := judge(t, b, qs)
	var grid []v13Point
	for _, stated := range []bool{false, true} {
		for _, counted := range []bool{false, true} {
			for gen := range 3 {
				for plain := range 4 {
					p := v13Point{plain: plain, focusGeneric: gen, counted: counted, stated: stated}
					p.apply(b)
					p.res, _ = judge(t, b, qs)
					t.Logf("%s: total %s", p, training(p.res, ""))
					grid = append(grid, p)
				}
			}
		}
	}
	var total12, total13 score
	chosen := map[string]int{}
	for _, held := range sets {
		ref := training(v12, held)
		pick, pickRight := -1, -1
		for i, g := range grid {
			gt := training(g.res, held)
			if keepsRefusal(g.res, v12, held) && gt.keepsShare(ref) && gt.right > pickRight {
				pick, pickRight = i, gt.right
			}
		}
		g := grid[pick] // the first point is v12 itself, which always qualifies
		chosen[g.String()]++
		t.Logf("left out %-8s chosen %s (training right %d): v12 %s | v13 %s", held, g, pickRight, v12[held], g.res[held])
		total12.add(v12[held])
		total13.add(g.res[held])
	}
	t.Logf("leave-one-set-out total: v12 %s | v13 %s", total12, total13)
	for s, n := range chosen {
		t.Logf("chosen by %d folds: %s", n, s)
	}
	if total13.right <= total12.right || total13.refused < total12.refused || !total13.keepsShare(total12) {
		t.Errorf("leave-one-set-out: v13 %s is not better than v12 %s", total13, total12)
	}
	// What v13 changes, question by question.
	v13Point{plain: 2, focusGeneric: 1, counted: true, stated: true}.apply(b)
	_, lines := judge(t, b, qs)
	logChanges(t, "the default", lines, base)
}

// v14Point is one setting of builtin:coverage-v14's grid
// (TestLeaveOneSetOutV14) and the harness's score on every set with it.
type v14Point struct {
	calendar, shaped, when, abbrev, hedges bool
	res                                    map[string]*score
}

func (p v14Point) String() string {
	return fmt.Sprintf("calendar %v, shaped %v, when %v, abbrev %v, hedges %v", p.calendar, p.shaped, p.when, p.abbrev, p.hedges)
}

// apply sets p on b.
func (p v14Point) apply(b *assess.Builtin) {
	b.Calendar, b.Shaped, b.WhenClause, b.PlainAbbrev, b.Hedges = p.calendar, p.shaped, p.when, p.abbrev, p.hedges
}

// TestLeaveOneSetOutV14 chooses builtin:coverage-v14's checks that the
// expression found is of the kind asked (Builtin.Calendar, Shaped) and its
// readings of time and hedge words (WhenClause, PlainAbbrev, Hedges), each
// on or off, on all development sets but one and scores the one left out
// against builtin:coverage-v13 (all off), for each set. v14 is meant to
// refuse more, so the choice is the other way round from
// TestLeaveOneSetOutV13's: a setting qualifies when the training sets are
// right at least as often as with v13, no training set's no-answer
// refusal falls below v13's, and the share of the training sets'
// acceptances made on a relevant chunk does not fall; the most refusals
// on the training sets wins, then the most right, and ties go to the
// later point (more checks): a check that costs the training sets nothing
// is kept, and the set left out says whether it costs anything there. It
// fails unless the sets left out, together, refuse more no-answer
// questions than with v13, are right at least as often and are accepted
// on a relevant chunk at least as often in share.
func TestLeaveOneSetOutV14(t *testing.T) {
	b, qs := collect(t)
	v13Point{plain: 2, focusGeneric: 1, counted: true, stated: true}.apply(b) // v13: NewBuiltin's, v14 off
	v13, base := judge(t, b, qs)
	var grid []v14Point
	for i := range 32 {
		p := v14Point{calendar: i&1 != 0, shaped: i&2 != 0, when: i&4 != 0, abbrev: i&8 != 0, hedges: i&16 != 0}
		p.apply(b)
		var lines []string
		p.res, lines = judge(t, b, qs)
		t.Logf("%s: total %s", p, training(p.res, ""))
		if i&(i-1) == 0 && i > 0 { // what each alone changes
			logChanges(t, p.String(), lines, base)
		}
		grid = append(grid, p)
	}
	var total13, total14 score
	chosen := map[string]int{}
	for _, held := range sets {
		ref := training(v13, held)
		pick, pickRefused, pickRight := -1, -1, -1
		for i, g := range grid {
			gt := training(g.res, held)
			if !keepsRefusal(g.res, v13, held) || gt.right < ref.right || !gt.keepsShare(ref) {
				continue
			}
			if gt.refused > pickRefused || gt.refused == pickRefused && gt.right >= pickRight {
				pick, pickRefused, pickRight = i, gt.refused, gt.right
			}
		}
		g := grid[pick] // the first point is v13 itself, which always qualifies
		chosen[g.String()]++
		t.Logf("left out %-8s chosen %s (training refused %d, right %d): v13 %s | v14 %s", held, g, pickRefused, pickRight, v13[held], g.res[held])
		total13.add(v13[held])
		total14.add(g.res[held])
	}
	t.Logf("leave-one-set-out total: v13 %s | v14 %s", total13, total14)
	for s, n := range chosen {
		t.Logf("chosen by %d folds: %s", n, s)
	}
	if total14.refused <= total13.refused || total14.right < total13.right || !total14.keepsShare(total13) {
		t.Errorf("leave-one-set-out: v14 %s is not better than v13 %s", total14, total13)
	}
	// What the default changes, question by question.
	def := assess.NewBuiltin(terms.New(), devCorpus)
	def.Rewriter = b.Rewriter
	_, lines := judge(t, def, qs)
	logChanges(t, "the default", lines, base)
}

// TestLeaveOneSetOutV16 scores builtin:coverage-v16's related reading
// (Builtin.Related: the wide reading counts a question word as held by a
// visible word the thesaurus relates to it) against builtin:coverage-v14
// (off) with each set left out, by TestLeaveOneSetOutV13's rule: on
// qualifies for a fold when no training set's no-answer refusal falls
// below v14's and the share of the training sets' acceptances made on a
// relevant chunk does not fall; the more right on the training sets wins,
// ties going to v14. It needs the thesaurus
// (ASSESSDEV_THESAURUS=/usr/share/wordnet; without one v16 is v14), and
// fails unless the sets left out, together, are right more often than
// with v14, refuse as many no-answer questions and are accepted on a
// relevant chunk as often in share. It scores the fourteen sets the
// choice was made on in round 14 (hollin to fresh12): with fresh17 added
// in round 19 the folds' choices over all nineteen are right 850 against
// v14's 849 but refuse 268 no-answer questions against 269 (fresh17's
// fold takes v16 and refuses one fewer), which this rule calls no better
// (docs/log/evaluation.md, round 19); the test keeps guarding the decision
// as it was made.
func TestLeaveOneSetOutV16(t *testing.T) {
	b, qs := collect(t)
	if b.Thesaurus == nil {
		t.Skip("set ASSESSDEV_THESAURUS (v16 without a thesaurus is v14)")
	}
	all := sets
	t.Cleanup(func() { sets = all })
	sets = all[:slices.Index(all, "fresh12")+1]
	b.Related = false
	v14, base := judge(t, b, qs)
	b.Related = true
	v16, lines := judge(t, b, qs)
	logChanges(t, "the related reading", lines, base)
	foldChoice(t, "", "v14", "v16", v14, v16)
}

// foldChoice scores a candidate reading (cand) against a reference one
// (ref) leaving each set out in turn: a fold takes the candidate when, on
// the other sets, it keeps their refusals and the share accepted on a
// relevant chunk and is right more often; in total the folds' choices
// must beat the reference. prefix starts every log line.
func foldChoice(t *testing.T, prefix, refName, candName string, ref, cand map[string]*score) {
	t.Helper()
	var totalRef, totalCand score
	for _, held := range sets {
		r, c := training(ref, held), training(cand, held)
		pick := ref
		if keepsRefusal(cand, ref, held) && c.keepsShare(r) && c.right > r.right {
			pick = cand
		}
		t.Logf("%sleft out %-8s chosen %s %v (training right %d vs %d): %s %s | chosen %s", prefix, held, candName, pick[held] == cand[held], c.right, r.right, refName, ref[held], pick[held])
		totalRef.add(ref[held])
		totalCand.add(pick[held])
	}
	t.Logf("%sleave-one-set-out total: %s %s | %s %s", prefix, refName, totalRef, candName, totalCand)
	if totalCand.right <= totalRef.right || totalCand.refused < totalRef.refused || !totalCand.keepsShare(totalRef) {
		t.Errorf("%sleave-one-set-out: %s %s is not better than %s %s", prefix, candName, totalCand, refName, totalRef)
	}
}

// maxAttempts is the loop's default attempt budget (loop.max_attempts).
const maxAttempts = 3

// looped is one question as the loop would run it (see loop).
type looped struct {
	accepted  bool
	attempt   int      // the accepting attempt, or the last run
	docs      []string // the accepting (or last) attempt's hits' documents
	on        string   // the document of the chunk accepted first
	reason    string   // the last assessment's reason
	queries   []string // the queries searched
	retrieved bool     // a relevant document is among docs
}

// loop runs a's question through the loop's attempts as workflows/answer.go
// does with the builtin assessor: search, assess, and on a refusal the
// newest untried proposal, up to maxAttempts searches; an attempt whose
// hits repeat an earlier one's is not assessed unless its proposal asks
// for a rejudging. The first attempt is a's own (collect's).
func loop(t *testing.T, b *assess.Builtin, a asked) looped {
	t.Helper()
	ctx := context.Background()
	var out looped
	var seenQ, seenSets []string
	var pending []assess.Proposal
	var prev []string
	var prevChunks [][]string // each earlier attempt's hits (Builtin.Agree)
	next := assess.Proposal{Query: a.q.Question}
	for n := 1; n <= maxAttempts; n++ {
		seenQ = append(seenQ, assess.QueryKey(next.Query, next.K))
		req := a.req
		docs := a.docs
		chunkDoc := a.chunkDoc
		if n > 1 {
			k := 5
			if next.K > 0 {
				k = next.K
			}
			found := search(t, retrieval.Request{Query: next.Query, Groups: a.req.Groups, Filters: a.req.Filters, K: k})
			req = assess.Request{Question: a.q.Question, Query: next.Query, Previous: slices.Clone(prev), PreviousChunks: slices.Clone(prevChunks), Groups: a.req.Groups, K: k, Evidence: found.Evidence}
			docs, chunkDoc = nil, map[string]string{}
			for _, c := range found.Chunks {
				docs = append(docs, c.DocID)
				chunkDoc[c.ID] = c.DocID
			}
		}
		prev = append(prev, next.Query)
		out.queries = append(out.queries, next.Query)
		var ids []string
		for _, e := range req.Evidence {
			ids = append(ids, e.ChunkID)
		}
		prevChunks = append(prevChunks, ids)
		set := strings.Join(ids, " ")
		repeated := len(ids) > 0 && slices.Contains(seenSets, set) && !next.Rejudge
		var props []assess.Proposal
		if !repeated {
			seenSets = append(seenSets, set)
			var r assess.Result
			var err error
			if loopRecord != nil {
				var cands []assess.Candidate
				r, cands, err = b.Candidates(ctx, req)
				loopRecord(a, n, chunkDoc, cands)
			} else {
				r, err = b.Assess(ctx, req)
			}
			if err != nil {
				t.Fatal(err)
			}
			out.attempt, out.docs, out.reason = n, docs, r.Assessment.Reason
			if r.Assessment.Sufficient && r.Assessment.Score >= threshold && len(req.Evidence) > 0 {
				out.accepted = true
				if len(r.Accepted) > 0 {
					out.on = chunkDoc[r.Accepted[0]]
				}
				break
			}
			props = r.ProposalList()
			if len(props) == 0 {
				break
			}
			pending = append(slices.Clip(props), pending...)
		}
		for len(pending) > 0 && slices.Contains(seenQ, assess.QueryKey(pending[0].Query, pending[0].K)) {
			pending = pending[1:]
		}
		if len(pending) == 0 {
			break
		}
		next, pending = pending[0], pending[1:]
	}
	for _, d := range out.docs {
		out.retrieved = out.retrieved || slices.Contains(a.q.Relevant, d)
	}
	return out
}

// search is how loop's later attempts search req: devsets.Search, or
// expandSearch when set (the worker's loop.expand, expanded_test.go).
func search(t *testing.T, req retrieval.Request) devsets.Found {
	t.Helper()
	if expandSearch != nil {
		return expandSearch(t, req)
	}
	return devsets.Search(t, devDirect, req)
}

// expandSearch, when set, is how the worker's search runs a request
// (loop.expand: assess.Builtin.Expand, and ExpandMerge's merge).
var expandSearch func(t *testing.T, req retrieval.Request) devsets.Found

// loopRecord, when set, receives each attempt loop assesses: its number,
// its hits' documents by chunk and its chunks' features (the learned decision's, see
// learned_test.go).
var loopRecord func(a asked, n int, chunkDoc map[string]string, cands []assess.Candidate)

// judgeLoop is judge with each question run through loop.
func judgeLoop(t *testing.T, b *assess.Builtin, qs []asked) (map[string]*score, []string) {
	t.Helper()
	return tally(qs, func(a asked) verdict {
		l := loop(t, b, a)
		return verdict{accepted: l.accepted, retrieved: l.retrieved, on: l.on, docs: l.docs, reason: l.reason,
			note: fmt.Sprintf(" (attempt %d; queries: %s)", l.attempt, strings.Join(l.queries, " || "))}
	})
}

// TestLoopDump runs every development question through the first attempt
// (judge) and the loop (judgeLoop) with the default assessor and logs each
// set's score; ASSESSDEV_OUT_FIRST and ASSESSDEV_OUT receive every
// question's verdict and (last) reason.
func TestLoopDump(t *testing.T) {
	b, qs := collect(t)
	for _, way := range []struct {
		name, out string
		judge     func(*testing.T, *assess.Builtin, []asked) (map[string]*score, []string)
	}{{"first", "ASSESSDEV_OUT_FIRST", judge}, {"loop", "ASSESSDEV_OUT", judgeLoop}} {
		res, lines := way.judge(t, b, qs)
		var tot score
		for _, s := range sets {
			t.Logf("%s %-8s %s", way.name, s, res[s])
			tot.add(res[s])
		}
		t.Logf("%s total %s", way.name, tot)
		if p := os.Getenv(way.out); p != "" {
			if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestLeaveOneSetOutV17 scores builtin:coverage-v17 (Builtin.Joint and
// Builtin.Sized) against builtin:coverage-v16 (both off) with each set left
// out, by TestLeaveOneSetOutV16's rule, on the first attempt (judge) and
// on the loop's attempts (judgeLoop): on qualifies for a fold when no
// training set's no-answer refusal falls below v16's and the training
// sets' share of acceptances made on a relevant chunk does not fall; the
// more right on the training sets wins, ties going to v16. It fails
// unless, both ways, the sets left out together are right more often
// than with v16, refuse as many no-answer questions and are accepted on a
// relevant chunk as often in share.
func TestLeaveOneSetOutV17(t *testing.T) {
	b, qs := collect(t)
	for _, way := range ways {
		b.Joint, b.Sized = false, false
		v16, base := way.judge(t, b, qs)
		b.Joint, b.Sized = true, true
		v17, lines := way.judge(t, b, qs)
		logChanges(t, way.name+": v17", lines, base)
		foldChoice(t, way.name+": ", "v16", "v17", v16, v17)
	}
}

// TestV18 compares builtin:coverage-v18 (Builtin.OwnOrder: the evidence
// judged in the assessor's own order, so that its order changes nothing)
// with builtin:coverage-v17 on every development set, on the first attempt
// (judge) and through the loop's attempts (judgeLoop), and logs each set's
// score and each question whose verdict changes. v18 is a correctness fix,
// not a gain: it fails only when v18 refuses fewer no-answer questions or
// is right less often in total, either way.
func TestV18(t *testing.T) {
	b, qs := collect(t)
	b.Asked, b.Named, b.Scene, b.States, b.Kin = false, false, false, false, false // v18 as it was, before v19 (TestV19)
	compareVersions(t, b, qs, "v17", "v18", func(on bool) { b.OwnOrder = on }, func(way string, _, _ map[string]*score, a, z score) {
		t.Logf("%s total: v17 %s | v18 %s", way, a, z)
		if z.refused < a.refused || z.right < a.right {
			t.Errorf("%s: v18 %s refuses less or is right less often than v17 %s", way, z, a)
		}
	})
}

// TestV19 compares builtin:coverage-v19 (Builtin.Asked: a word no visible
// chunk holds refuses a question expecting no particular type in the focus
// and wide readings only when it is in the noun phrase a "what"/"which"
// question asks about) with builtin:coverage-v18 on every development
// set, on the first attempt and through the loop's attempts, and logs
// each set's score and each question whose verdict changes. It fails when
// v19 refuses fewer no-answer questions on any set, is right less often in
// total, or accepts on a relevant chunk a smaller share of the time,
// either way.
func TestV19(t *testing.T) {
	b, qs := collect(t)
	b.Named, b.Scene, b.States, b.Kin = false, false, false, false // v19 as it was, before v20 (TestV20)
	compareVersions(t, b, qs, "v18", "v19", func(on bool) { b.Asked = on }, keepsRefusalAndShare(t, "v18", "v19"))
}

// TestV20 compares builtin:coverage-v19 (Named off) with v20 on every
// set, first attempt and loop, as TestV19 does.
func TestV20(t *testing.T) {
	b, qs := collect(t)
	b.Scene, b.States, b.Kin = false, false, false // v20 as it was, before v21 (TestV21)
	compareVersions(t, b, qs, "v19", "v20", func(on bool) { b.Named = on }, keepsRefusalAndShare(t, "v19", "v20"))
}

// TestV21 compares builtin:coverage-v20 (Scene off) with v21 (a word only
// the question's scene holds weighs half, or nothing when no visible chunk
// holds it) on every set, first attempt and loop. It fails when v21
// refuses fewer no-answer questions on any set or is right less often in
// total, either way. The share of acceptances made on a relevant chunk is
// logged, not required: v21 trades a little of it for more right answers
// (docs/log/round-18-a18-assess.md).
func TestV21(t *testing.T) {
	b, qs := collect(t)
	b.States, b.Kin = false, false // v21 as it was, before v22 (TestV22)
	compareVersions(t, b, qs, "v20", "v21", func(on bool) { b.Scene = on }, func(way string, v20, v21 map[string]*score, a, z score) {
		refusesNoFewer(t, way, "v20", "v21", v20, v21)
		t.Logf("%s total: v20 %s (%.2f%% on a relevant chunk) | v21 %s (%.2f%%)", way, a, 100*float64(a.on)/float64(a.accepted), z, 100*float64(z.on)/float64(z.accepted))
		if z.right <= a.right {
			t.Errorf("%s: v21 %s is not right more often than v20 %s", way, z, a)
		}
	})
}

// TestV22 compares builtin:coverage-v21 (Builtin.States off) with v22
// (the statement reading, see assess/states.go) on every development set,
// first attempt and loop: v22 must refuse as many no-answer questions on
// every set, be right more often in total, and accept on a relevant chunk
// no smaller a share of the time.
func TestV22(t *testing.T) {
	b, qs := collect(t)
	b.Kin = false // v22 as it was, before v23 (TestV23)
	compareVersions(t, b, qs, "v21", "v22", func(on bool) { b.States = on }, func(way string, v21, v22 map[string]*score, a, z score) {
		refusesNoFewer(t, way, "v21", "v22", v21, v22)
		t.Logf("%s total: v21 %s (%.2f%% on a relevant chunk) | v22 %s (%.2f%%)", way, a, 100*float64(a.on)/float64(a.accepted), z, 100*float64(z.on)/float64(z.accepted))
		if z.right <= a.right || !z.keepsShare(a) {
			t.Errorf("%s: v22 %s is not right more often than v21 %s, or on a relevant chunk less often", way, z, a)
		}
	})
}

// ways are the two ways a version is measured: on the first attempt
// (judge) and through the loop's attempts (judgeLoop).
var ways = []struct {
	name  string
	judge func(*testing.T, *assess.Builtin, []asked) (map[string]*score, []string)
}{{"first attempt", judge}, {"loop", judgeLoop}}

// compareVersions judges qs each way with version older (set(false)) and
// newer (set(true)), logs each question whose verdict changes and each
// set's scores, and hands check each way's scores per set and in total
// (older, then newer).
func compareVersions(t *testing.T, b *assess.Builtin, qs []asked, older, newer string, set func(on bool), check func(way string, o, n map[string]*score, a, z score)) {
	t.Helper()
	for _, way := range ways {
		set(false)
		o, base := way.judge(t, b, qs)
		set(true)
		n, lines := way.judge(t, b, qs)
		logChanges(t, way.name+": "+newer, lines, base)
		for _, s := range sets {
			t.Logf("%s %-8s %s %s | %s %s", way.name, s, older, o[s], newer, n[s])
		}
		check(way.name, o, n, training(o, ""), training(n, ""))
	}
}

// refusesNoFewer fails when newer refuses fewer no-answer questions than
// older on any set.
func refusesNoFewer(t *testing.T, way, older, newer string, o, n map[string]*score) {
	t.Helper()
	for _, s := range sets {
		if n[s].refused < o[s].refused {
			t.Errorf("%s: %s: %s refuses %d no-answer questions, %s %d", way, s, newer, n[s].refused, older, o[s].refused)
		}
	}
}

// keepsRefusalAndShare is TestV19's and TestV20's check: newer refuses
// no fewer no-answer questions on any set, and in total is right no less
// often and accepts on a relevant chunk no smaller a share of the time.
func keepsRefusalAndShare(t *testing.T, older, newer string) func(way string, o, n map[string]*score, a, z score) {
	return func(way string, o, n map[string]*score, a, z score) {
		refusesNoFewer(t, way, older, newer, o, n)
		t.Logf("%s total: %s %s | %s %s", way, older, a, newer, z)
		if z.right < a.right || !z.keepsShare(a) {
			t.Errorf("%s: %s %s is right less often or on a relevant chunk less often than %s %s", way, newer, z, older, a)
		}
	}
}
