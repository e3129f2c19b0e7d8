package assess

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// Round 47 review (rv47): builtin:coverage-v62's learned add reads only
// what the asker may see. Its features (the unknown share, the BM25
// share, every "known" reading), the score its reason quotes ("scores it
// 0.70") and the gate's Hopeless finding are computed on the asker's
// vocabulary (corpus.Visible of the request's groups), never the whole
// corpus's.

// TestLearnedVisible: TestLearned's receipt case with staff-only pages
// that use the question's words ("slip", "colour", "kettle"): the public
// asker's verdict (accepted, score, reason) and every feature are those
// without the hidden pages. The control: an asker who may see them gets
// other features, so the test would fail if the learned path read the
// whole corpus (e.g. b.corpus.Visible of every group). The second
// retrieved page (round 48, rv48b) makes it fail also when only the
// features' BM25 share reads the whole corpus (checked by mutation:
// b.relevance in the cands closure on the public and staff groups'
// vocabulary; with the receipt alone that mutation passed).
func TestLearnedVisible(t *testing.T) {
	q := "what slip shows the date, shop, model and colour of the kettle I bought"
	receipt := Evidence{ChunkID: "receipt#0", Title: "Proof of purchase", Text: "The receipt shows the date of purchase, the shop, the kettle model and its colour."}
	// A second retrieved page, one of the corpus's ("K50 kettle"),
	// sharing "kettle" with the question and the hidden pages: the BM25
	// share is a feature relative to the best retrieved chunk's BM25
	// score, so with the receipt alone it is 1 on any vocabulary; with
	// two pages it depends on the vocabulary's document frequencies.
	second := Evidence{ChunkID: "k50-kettle#0", Text: "K50 kettle"}
	an := terms.New()
	texts := []string{"Sale tags\nKettles bought in the shop sale show a red tag with the sale date.", receipt.Title + "\n" + receipt.Text,
		"X300 Pro blender receipt", "K50 kettle", "repair date", "the lights show", "shop opening hours", "colour chart", "model numbers"}
	judge := func(hidden bool, groups []string) (Result, []Candidate) {
		t.Helper()
		lex := newLexicon(an, texts...)
		if hidden {
			for _, s := range []string{"Packing slip\nThe packing slip lists the kettle, its colour and the slip number.",
				"Slip codes\nEvery slip code names a kettle colour.", "Warehouse slip\nA slip goes with every kettle bought in bulk."} {
				lex.add(an, []string{"staff"}, s)
			}
		}
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.OwnOrder = false
		return verdictAndCandidates(t, b, Request{Question: q, Query: q, K: 5, Evidence: []Evidence{receipt, second}, Groups: groups})
	}
	public := []string{"public"}
	want, wantC := judge(false, public)
	if !want.Assessment.Sufficient || !strings.Contains(want.Assessment.Reason, "a model fitted on the development sets") {
		t.Fatalf("without the hidden pages: %+v, want the learned add (the case no longer tests it)", want.Assessment)
	}
	got, gotC := judge(true, public)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("hidden pages change the public asker's verdict:\n got %+v\nwant %+v", got.Assessment, want.Assessment)
	}
	if !reflect.DeepEqual(gotC, wantC) {
		t.Errorf("hidden pages change the public asker's features:\n got %v\nwant %v", gotC, wantC)
	}
	staff, staffC := judge(true, []string{"public", "staff"})
	if reflect.DeepEqual(staffC, wantC) {
		t.Fatalf("the staff asker's features are the public asker's: the hidden pages change nothing the test can see")
	}
	if staff.Assessment.Reason == want.Assessment.Reason {
		t.Logf("note: the staff asker's reason is the public asker's: %s", staff.Assessment.Reason)
	}
}

// TestLearnedHopelessVisible: the gate's Hopeless finding is the
// visible-chunk check's on the asker's vocabulary. TestLearnedGate's K50
// case ("how do I speed up the spout"): no public page mentions "K50"
// with "speed", so the refusal is hopeless (HopelessTogether) and the add
// is gated. A staff-only page that does ("The K50 speed setting ...")
// leaves the public asker's finding, verdict and reason as they were; an
// asker who may see that page is not judged hopeless together.
func TestLearnedHopelessVisible(t *testing.T) {
	q := "My K50 kettle boils in about four minutes with citric acid; how do I speed up the spout?"
	pool := append(append(slices.Clone(actCorpus), hollinLike...), moreK50...)
	i := slices.IndexFunc(pool, func(e Evidence) bool { return e.ChunkID == "man-k50-kettle#0" })
	judge := func(hidden bool, groups []string) (Result, []Candidate) {
		t.Helper()
		an := terms.New()
		var texts []string
		for _, e := range pool {
			texts = append(texts, e.Title+"\n"+e.Text)
		}
		lex := newLexicon(an, texts...)
		if hidden {
			lex.add(an, []string{"staff"}, "K50 service notes\nThe K50 kettle's speed setting speeds up the spout's pour: hold the lid button for five seconds.")
		}
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.UseThesaurus(fakeThesaurus{})
		return verdictAndCandidates(t, b, Request{Question: q, Query: q, K: 5, Evidence: pool[i : i+1], Groups: groups})
	}
	public := []string{"public"}
	want, wantC := judge(false, public)
	if len(wantC) != 1 || wantC[0].Hopeless != HopelessTogether || want.Assessment.Sufficient {
		t.Fatalf("without the hidden page: %+v %+v, want refused, hopeless together (the case no longer tests the gate)", want.Assessment, wantC)
	}
	got, gotC := judge(true, public)
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotC, wantC) {
		t.Errorf("a hidden page changes the public asker's judgement:\n got %+v %+v\nwant %+v %+v", got.Assessment, gotC, want.Assessment, wantC)
	}
	if strings.Contains(strings.ToLower(got.Assessment.Reason+" "+got.Assessment.Rewrite), "setting") {
		t.Errorf("the public asker's reason names the hidden page's words: %s", got.Assessment.Reason)
	}
	_, staffC := judge(true, []string{"public", "staff"})
	if len(staffC) != 1 || staffC[0].Hopeless == HopelessTogether {
		t.Errorf("staff asker: %+v, want not hopeless together (the hidden page mentions K50 and speed together): the check cannot see it", staffC)
	}
}

// TestLearnedConcurrent: Assess copies the Builtin to set recording (and
// Candidates to turn Learned off); concurrent calls on one Builtin, with
// the learned add on, each get the verdict a lone call gets. Run with
// -race: the copies share the analyzer, the corpus and the memo caches.
func TestLearnedConcurrent(t *testing.T) {
	b, _ := newTestAssessor()
	b.Learned = true
	ctx := context.Background()
	qs := []string{
		"how many years is the X300 Pro motor covered for",
		"what does E12 mean on the X300 Pro",
		"how do I descale the X300 Pro",
		"vacuum blender warranty",
		"",
		"what slip shows the colour of the kettle I bought",
	}
	want := make([]Result, len(qs))
	reqs := make([]Request, len(qs))
	for i, q := range qs {
		reqs[i] = Request{Question: q, Query: q, Evidence: hollinLike, Groups: []string{"public"}}
		res, err := b.Assess(ctx, reqs[i])
		if err != nil {
			t.Fatal(err)
		}
		want[i] = res
	}
	assessConcurrently(t, b, reqs, want)
	if !b.Learned || b.recording {
		t.Errorf("after the calls: Learned %v, recording %v, want the Builtin unchanged", b.Learned, b.recording)
	}
}

// verdictAndCandidates is b's verdict on req and the candidates' features
// Candidates computes for it.
func verdictAndCandidates(t *testing.T, b *Builtin, req Request) (Result, []Candidate) {
	t.Helper()
	res, err := b.Assess(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	_, cands, err := b.Candidates(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return res, cands
}
