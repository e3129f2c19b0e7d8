package assess

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/assay-rag/assay/internal/terms"
)

// partsJudge judges q against the evidence of matterCorpus named by ids,
// in that order, with Parts as set; the visible documents also hold an
// account page ("Settings"), so that "settings" is a word they use.
func partsJudge(t *testing.T, parts bool, q string, ids ...string) Result {
	t.Helper()
	return judgeAmong(t, matterCorpus, []string{"Warranty terms", "Opening hours", "Your account data\nDownload a copy of your data from Settings.", "Registering your appliance"},
		func(b *Builtin) { b.Parts = parts }, q, ids...)
}

// TestParts: with Parts (builtin:coverage-v51), a question asking two
// things that the whole question's coverage refuses ("settings" is on no
// X200 page, so the specification covers too little of both parts'
// words) is accepted when each part is answered: the top speed by "High
// speed reaches 22,000 RPM", the count by "three speeds". A question one
// part of which nothing retrieved answers (the X200's weight) is still
// refused. Without Parts, all are refused. (A part asking nothing of its
// own, "and which one should it be on?", is TestDecider's +unnamed case.)
func TestParts(t *testing.T) {
	checkSwitch(t, "Parts", func(on bool, q string, ids ...string) Result { return partsJudge(t, on, q, ids...) }, []switchCase{
		{"What's the top speed of the X200, and how many speed settings has it got?", []string{"x200#0", "x300#0"}, "", "x200#0"},
		// the count asked first: the whole question's reading takes it
		{"How many speed settings has the X200 got, and what's its top speed?", []string{"x200#0", "x300#0"}, "x200#0", "x200#0"},
		{"What's the top speed of the X200, and how many settings does its app have?", []string{"x200#0", "x300#0"}, "", ""},
		{"What's the top speed of the X200, and how heavy is it?", []string{"x200#0", "x300#0"}, "", ""},
	})
	b := NewBuiltin(terms.New(), newLexicon(terms.New(), "x"))
	if !b.Parts || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("default Parts %v, model %q, want on and builtin:coverage-v68", b.Parts, b.Model())
	}
	if b.Parts, b.Ruled, b.Measured, b.Situated, b.ListedClause, b.Covered, b.Follow, b.Timed, b.Every, b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = false, false, false, false, false, false, false, false, false, 0, false, 0, false, false, false, false; b.Model() != V50Model {
		t.Errorf("without Parts, model %q, want %s", b.Model(), V50Model)
	}
}

// TestPartsOnce: a part is judged with the question's scene before it,
// and a scene may hold a clause AskingParts reads as asking though Asking
// passes it over ("what about the warranty."), so a part's judgement may
// find two parts again, the same ones; on the evaluation's confirm sets
// one question was judged so without end. A part's request (Request.part)
// is never split again.
func TestPartsOnce(t *testing.T) {
	an := terms.New()
	var texts []string
	var ev []Evidence
	for _, e := range matterCorpus {
		texts = append(texts, e.Title+"\n"+e.Text)
		if e.ChunkID == "x200#0" || e.ChunkID == "x300#0" {
			ev = append(ev, e)
		}
	}
	lex := newLexicon(an, append(texts, "Your account data\nDownload a copy of your data from Settings.")...)
	b := NewBuiltin(an, lex)
	q := "What's the top speed of the X200, and how many speed settings has it got?"
	req := Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}}
	vocab := lex.Visible(req.Groups)
	if _, ok, err := b.parts(context.Background(), req, vocab, q); !ok || err != nil {
		t.Fatalf("parts of %q: %v %v, want accepted", q, ok, err)
	}
	req.part = true
	if _, ok, _ := b.parts(context.Background(), req, vocab, q); ok {
		t.Errorf("a part's request split again")
	}
}

// TestPartsBounded (rv44b): Parts judges at most maxParts parts, each with
// the whole assessor; a question asking TestParts' two things three
// times over (six parts) is left to the whole question's refusal. A
// question of hundreds of conjunctions is not split at all: AskingParts
// would take seconds reading it.
func TestPartsBounded(t *testing.T) {
	one := "What's the top speed of the X200, and how many speed settings has it got?"
	if r := partsJudge(t, true, one+" "+one, "x200#0", "x300#0"); !r.Assessment.Sufficient {
		t.Errorf("two times over (four parts): refused, want accepted: %s", r.Assessment.Reason)
	}
	if r := partsJudge(t, true, one+" "+one+" "+one, "x200#0", "x300#0"); r.Assessment.Sufficient {
		t.Errorf("three times over (six parts): accepted, want refused: %s", r.Assessment.Reason)
	}
	an := terms.New()
	lex := newLexicon(an, "X200\nHigh speed reaches 22,000 RPM.")
	b := NewBuiltin(an, lex)
	q := strings.Repeat("and ", 400) + "what speed?"
	req := Request{Question: q, Query: q, K: 5, Groups: []string{"public"}}
	start := time.Now()
	if _, ok, _ := b.parts(context.Background(), req, lex.Visible(req.Groups), q); ok {
		t.Errorf("400 conjunctions: split")
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("400 conjunctions: %v to decline, want well under a second", d)
	}
}

// TestPartJudgedOnly (rv44b): a part's refusal is never returned (the
// whole question's is), so its judgement skips the reach check and the
// rewrite proposals, a search per term on RediSearch; the same question
// judged whole still gets them.
func TestPartJudgedOnly(t *testing.T) {
	b := matterBuiltin()
	q := "how heavy is the X200 jar (X200)?"
	req := Request{Question: q, Query: q, K: 5, Evidence: matterCorpus[1:2], Groups: []string{"public"}}
	vocab := b.corpus.Visible(req.Groups)
	whole, err := b.assessOn(context.Background(), req, vocab)
	if err != nil || whole.Assessment.Sufficient || len(whole.Proposals) == 0 {
		t.Fatalf("judged whole: %+v, %d proposals, %v; want a refusal with proposals", whole.Assessment, len(whole.Proposals), err)
	}
	req.part = true
	part, err := b.assessOn(context.Background(), req, vocab)
	if err != nil || part.Assessment.Sufficient != whole.Assessment.Sufficient || len(part.Proposals) > 0 || part.Assessment.Rewrite != "" {
		t.Errorf("judged as a part: %+v, %d proposals, %v; want the same refusal without proposals", part.Assessment, len(part.Proposals), err)
	}
}
