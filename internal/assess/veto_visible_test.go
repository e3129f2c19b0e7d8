package assess

import (
	"context"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// Round 48 review (rv48): builtin:coverage-v65's veto reads only what the
// asker may see. Its features (the unknown share, the BM25 share, every
// "known" reading), its score and the reason that quotes it are computed
// on the asker's vocabulary (corpus.Visible of the request's groups),
// never the whole corpus's.

// vetoSeen is what the veto reads of req: the rules' verdict (Assess on a
// recording copy, Opposite not applied), the accepted chunk's features as
// vetoAccept builds them and their score; x is nil when the rules do not
// accept on a chunk the features describe.
func vetoSeen(t *testing.T, b *Builtin, req Request) (rules Result, x []float64, p float64) {
	t.Helper()
	on := *b
	on.recording = true
	rules, err := on.assessOn(context.Background(), req, b.corpus.Visible(req.Groups))
	if err != nil {
		t.Fatal(err)
	}
	if !rules.Assessment.Sufficient || len(rules.Accepted) == 0 || rules.cands == nil {
		return rules, nil, math.NaN()
	}
	cands := rules.cands(rules.Accepted[0])
	i := slices.IndexFunc(cands, func(c Candidate) bool { return c.ChunkID == rules.Accepted[0] })
	if i < 0 {
		return rules, nil, math.NaN()
	}
	x = slices.Clone(cands[i].Features)
	x[slices.Index(featureNames, "rules_accept")], x[slices.Index(featureNames, "rules_accept_any")] = 1, 1
	return rules, x, vetoScore(x)
}

// TestVetoVisible: TestVeto's vetoed case (fresh9 r90's question on the
// warranty-claim page) and its kept case, with staff-only pages that use
// the questions' words ("bonus", "turning", "courier", "collect"): the
// public asker's verdict (refused, the score the reason quotes, the
// reason), the accepted chunk's features and their score are those
// without the hidden pages. The control: an asker who may see them gets
// other features and another score, so the test fails if the veto read
// the whole corpus (checked by mutation: Assess's vocabulary with the
// staff group added fails it, and so does the features' BM25 share alone
// read on every group's vocabulary, b.relevance in the cands closure:
// the second retrieved page, faq-repair#0, makes the share relative).
// No stump reads the BM25 share, so that one changes features, not the
// score. TestLearnedVisible has a second retrieved page for the same
// reason (rv48b).
func TestVetoVisible(t *testing.T) {
	page, corpus := warrantyClaimPage()
	// A second retrieved page sharing some of the questions' words, so
	// the BM25 share (a feature relative to the best chunk's) depends on
	// the vocabulary's document frequencies.
	for _, e := range hollinLike {
		if e.ChunkID == "faq-repair#0" {
			page = append(page, e)
		}
	}
	hiddenPages := []string{
		"Staff bonus scheme\nA bonus is paid to every engineer turning a repair round inside 10 days; the bonus is paid monthly.",
		"Bonus rules\nThe turning bonus: repairs turned round fast earn a bonus for the repair team.",
		"Courier desk\nThe courier desk books a courier to collect each appliance; collect slots open at 8.",
		"Repair turnaround targets\nTurning round a repair inside 10 days earns the team's bonus.",
	}
	judge := func(hidden bool, groups []string, q string) (Result, []float64, float64) {
		t.Helper()
		an := terms.New()
		lex := lexiconOf(an, corpus)
		if hidden {
			for _, s := range hiddenPages {
				lex.add(an, []string{"staff"}, s)
			}
		}
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		if !b.Veto {
			t.Fatal("Veto off by default: the test no longer tests the default")
		}
		req := Request{Question: q, Query: q, Groups: groups, Evidence: page}
		res := assessChecked(t, b, req)
		_, x, p := vetoSeen(t, b, req)
		return res, x, p
	}
	public, staff := []string{"public"}, []string{"public", "staff"}
	for _, tt := range []struct {
		q      string
		vetoed bool
	}{
		{"Do we get a bonus from Hollin for turning a repair round inside 10 days?", true},
		{"Do I get a courier to collect my appliance for a repair?", false},
	} {
		want, wantX, wantP := judge(false, public, tt.q)
		if wantX == nil {
			t.Fatalf("%q: the rules do not accept on the page (%+v): the case no longer tests the veto", tt.q, want.Assessment)
		}
		if vetoed := !want.Assessment.Sufficient && strings.Contains(want.Assessment.Reason, "scores it"); vetoed != tt.vetoed {
			t.Fatalf("%q without the hidden pages: %+v (score %.3f), want vetoed %v: the case no longer tests the veto", tt.q, want.Assessment, wantP, tt.vetoed)
		}
		got, gotX, gotP := judge(true, public, tt.q)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: hidden pages change the public asker's verdict:\n got %+v\nwant %+v", tt.q, got.Assessment, want.Assessment)
		}
		if !reflect.DeepEqual(gotX, wantX) || gotP != wantP {
			t.Errorf("%q: hidden pages change the public asker's veto features or score (%.4f, want %.4f):\n got %v\nwant %v", tt.q, gotP, wantP, gotX, wantX)
		}
		for _, w := range []string{"engineer", "monthly", "desk", "team"} {
			if strings.Contains(strings.ToLower(got.Assessment.Reason), w) {
				t.Errorf("%q: the public asker's reason names a hidden page's word %q: %s", tt.q, w, got.Assessment.Reason)
			}
		}
		_, staffX, staffP := judge(true, staff, tt.q)
		if !tt.vetoed {
			if reflect.DeepEqual(staffX, wantX) {
				t.Logf("note: %q: the staff asker's veto features are the public asker's", tt.q)
			}
			continue
		}
		if reflect.DeepEqual(staffX, wantX) || staffP == wantP {
			t.Errorf("%q: the staff asker's veto features and score (%.4f) are the public asker's: the hidden pages change nothing the test can see", tt.q, staffP)
		}
	}
}

// TestVetoOddInput: the veto on odd input leaves the rules' verdict as it
// is and never panics: no evidence, an acceptance on a chunk the features
// do not describe (cands returns other chunks, none, or nil), features
// that score NaN, and a refusal (nothing to veto).
func TestVetoOddInput(t *testing.T) {
	b, _ := newTestAssessor()
	accepted := Result{Assessment: Assessment{Sufficient: true, Score: 0.9, Reason: "the rules"}, Accepted: []string{"a#0"}}
	low := make([]float64, len(featureNames)) // what the veto scores below vetoBelow: found below
	nan := make([]float64, len(featureNames))
	for i := range nan {
		nan[i] = math.NaN()
	}
	// A vector the veto refuses, to show the cases below would be vetoed
	// if the chunk were found.
	// The stumps add up feature by feature: each feature takes the value,
	// at a cut or just above one, whose stumps add least.
	for k := range low {
		best := math.Inf(1)
		for _, s := range vetoStumps {
			if s.k != k {
				continue
			}
			for _, v := range []float64{s.cut, s.cut + 1e-9} {
				z := 0.0
				for _, u := range vetoStumps {
					if u.k == k && v <= u.cut {
						z += u.left
					} else if u.k == k {
						z += u.right
					}
				}
				if z < best {
					best, low[k] = z, v
				}
			}
		}
	}
	lowX := slices.Clone(low)
	lowX[slices.Index(featureNames, "rules_accept")], lowX[slices.Index(featureNames, "rules_accept_any")] = 1, 1
	if p := vetoScore(lowX); !(p < vetoBelow) {
		t.Fatalf("the low vector scores %.3f, not below %.3f: the cases below no longer test anything", p, vetoBelow)
	}
	with := func(cands []Candidate, nilFunc bool) Result {
		r := accepted
		if !nilFunc {
			r.cands = func(string) []Candidate { return cands }
		}
		return r
	}
	req := Request{Question: "q", Query: "q"}
	if got := b.vetoAccept(req, with([]Candidate{{ChunkID: "a#0", Features: low}}, false)); got.Assessment.Sufficient {
		t.Fatalf("the low vector on the accepted chunk: %+v, want vetoed (the control)", got.Assessment)
	} else if !strings.Contains(got.Assessment.Reason, "the rules accepted a#0") {
		t.Errorf("no evidence titled a#0: reason %q, want the chunk id in place of the title", got.Assessment.Reason)
	}
	for name, r := range map[string]Result{
		"no features":   with(nil, true),
		"no candidates": with(nil, false),
		"another chunk": with([]Candidate{{ChunkID: "b#0", Features: low}}, false),
		"NaN features":  with([]Candidate{{ChunkID: "a#0", Features: nan}}, false),
		"accepted, no chunk named": func() Result {
			r := with([]Candidate{{ChunkID: "a#0", Features: low}}, false)
			r.Accepted = nil
			return r
		}(),
		"refused (nothing to veto)": func() Result {
			r := with([]Candidate{{ChunkID: "a#0", Features: low}}, false)
			r.Assessment.Sufficient = false
			return r
		}(),
		"accepted on an empty chunk id": func() Result {
			r := with([]Candidate{{ChunkID: "", Features: low}}, false)
			r.Accepted = []string{""}
			return r
		}(),
	} {
		var got Result
		func() {
			defer func() {
				if e := recover(); e != nil {
					t.Errorf("%s: panic %v", name, e)
				}
			}()
			got = b.vetoAccept(req, r)
		}()
		if name == "accepted on an empty chunk id" {
			continue // vetoed or not, no panic: an id the service never makes
		}
		if got.Assessment != r.Assessment || !slices.Equal(got.Accepted, r.Accepted) {
			t.Errorf("%s: %+v %v, want the rules' verdict unchanged", name, got.Assessment, got.Accepted)
		}
	}
	// End to end: no evidence, and evidence with nothing in it.
	for _, ev := range [][]Evidence{nil, {{ChunkID: "x#0"}}, {{ChunkID: "x#0", Title: "\x00", Text: "\uFFFD\uFFFD"}}} {
		for _, q := range []string{"", "how do I descale the X300 Pro", strings.Repeat("warranty ", 200)} {
			res, err := b.Assess(context.Background(), Request{Question: q, Query: q, Evidence: ev, Groups: []string{"public"}})
			if err != nil {
				t.Fatal(err)
			}
			if err := res.Assessment.Check(); err != nil {
				t.Errorf("%q on %v: %v", q, ev, err)
			}
			if res.cands != nil {
				t.Errorf("%q on %v: the features' closure escapes Assess", q, ev)
			}
		}
	}
}

// TestVetoConcurrent: concurrent Assess calls on one Builtin with Veto on
// (the default) each get the verdict a lone call gets, including TestVeto's
// vetoed and kept cases. Run with -race.
func TestVetoConcurrent(t *testing.T) {
	page, corpus := warrantyClaimPage()
	b, _ := assessorOver(corpus)
	if !b.Veto {
		t.Fatal("Veto off by default")
	}
	reqs := []Request{
		{Question: "Do we get a bonus from Hollin for turning a repair round inside 10 days?", Evidence: page},
		{Question: "Do I get a courier to collect my appliance for a repair?", Evidence: page},
		{Question: "how many years is the X300 Pro motor covered for", Evidence: hollinLike},
		{Question: "how do I descale the X300 Pro", Evidence: hollinLike},
		{Question: "", Evidence: hollinLike},
	}
	want := make([]Result, len(reqs))
	for i := range reqs {
		reqs[i].Query, reqs[i].Groups = reqs[i].Question, []string{"public"}
		want[i] = assessChecked(t, b, reqs[i])
	}
	if want[0].Assessment.Sufficient || !want[1].Assessment.Sufficient {
		t.Fatalf("alone: %+v / %+v, want TestVeto's vetoed and kept cases", want[0].Assessment, want[1].Assessment)
	}
	assessConcurrently(t, b, reqs, want)
	if !b.Veto || b.recording {
		t.Errorf("after the calls: Veto %v, recording %v, want the Builtin unchanged", b.Veto, b.recording)
	}
}

// warrantyClaimPage is TestVeto's page (faq-warranty-claim#0) as evidence,
// and the corpus it is judged in.
func warrantyClaimPage() (page, corpus []Evidence) {
	for _, e := range deciderPages {
		if e.ChunkID == "faq-warranty-claim#0" {
			page = append(page, e)
		}
	}
	return page, append(append([]Evidence{}, hollinLike...), deciderPages...)
}

// assessConcurrently asks b each of reqs four times at once, every other
// round after a concurrent Candidates call on it, and checks each verdict
// is want's, the lone call's. Run with -race: the copies Assess and
// Candidates make share the analyzer, the corpus and the memo caches.
func assessConcurrently(t *testing.T, b *Builtin, reqs []Request, want []Result) {
	t.Helper()
	type got struct {
		i   int
		res Result
		err error
	}
	out := make(chan got)
	const rounds = 4
	for r := 0; r < rounds; r++ {
		for i := range reqs {
			go func() {
				if r%2 == 1 {
					if _, _, err := b.Candidates(context.Background(), reqs[i]); err != nil {
						out <- got{i, Result{}, err}
						return
					}
				}
				res, err := b.Assess(context.Background(), reqs[i])
				out <- got{i, res, err}
			}()
		}
	}
	for range rounds * len(reqs) {
		g := <-out
		if g.err != nil {
			t.Fatal(g.err)
		}
		if !reflect.DeepEqual(g.res, want[g.i]) {
			t.Errorf("%q concurrently: %+v, alone %+v", reqs[g.i].Question, g.res.Assessment, want[g.i].Assessment)
		}
	}
}
