package assess

import (
	"context"
	"strings"
	"testing"
)

// acceptEvidence holds a page that states a period for a question worded
// in words it mostly does not use, one that states none, and one about
// another product.
var acceptEvidence = []Evidence{
	{ChunkID: "faq-turnaround#0", Title: "Repairs and turnaround", Text: "Repaired appliances are returned within 10 working days of reaching our workshop."},
	{ChunkID: "faq-courier#0", Title: "Sending an appliance for repair", Text: "A courier collects your appliance from your door and brings it back to your door."},
	{ChunkID: "man-x200-specs#0", Title: "X200 Blender specifications", Text: "The X200 blender is returned within 10 working days of reaching our workshop."},
}

// acceptAll weighs nothing but a large bias: every candidate is accepted
// unless a check the weights cannot change refuses it.
var acceptAll = [NumFeatures + 1]float64{NumFeatures: 10}

// TestLearnedAcceptance: a question v14 refuses (it covers little of the
// question's weight) is accepted by the learned acceptance when the
// weights accept its chunk, on the chunk holding the period asked for,
// with a reason naming the type and the expression; off, or with weights
// that accept nothing, it is refused as by v14.
func TestLearnedAcceptance(t *testing.T) {
	b, _ := assessorOver(append(hollinLike, acceptEvidence...))
	q := "once my broken blender reaches your lot, roughly how long until I see it again?"
	req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: acceptEvidence[:2]}
	if res := assessChecked(t, b, req); res.Assessment.Sufficient || b.Model() != BuiltinModel {
		t.Fatalf("v14 (%s) accepted %q: %s (the test no longer shows the learned acceptance)", b.Model(), q, res.Assessment.Reason)
	}
	b.Learned, b.AcceptWeights, b.DecideWeights = true, acceptAll, acceptAll
	res := assessChecked(t, b, req)
	if !res.Assessment.Sufficient || len(res.Accepted) != 1 || res.Accepted[0] != "faq-turnaround#0" {
		t.Fatalf("v15 on %q = %+v, want accepted on faq-turnaround#0", q, res)
	}
	if b.Model() != V15Model {
		t.Errorf("model %q, want %q", b.Model(), V15Model)
	}
	for _, want := range []string{"a period of time", "10 working days", "learned acceptance", `"reach`} {
		if !strings.Contains(res.Assessment.Reason, want) {
			t.Errorf("reason %q does not say %q", res.Assessment.Reason, want)
		}
	}
	if res.Assessment.Score < 0.5 {
		t.Errorf("score %.3f: the loop would not accept it", res.Assessment.Score)
	}
	b.DecideWeights = [NumFeatures + 1]float64{NumFeatures: -10}
	if res := assessChecked(t, b, req); res.Assessment.Sufficient {
		t.Errorf("v15 with a question model accepting nothing accepted %q: %s", q, res.Assessment.Reason)
	}
}

// TestLearnedAcceptanceKeepsChecks: whatever the weights, a chunk holding
// no expression of the type asked, or not naming an entity the question
// asks about, is not accepted.
func TestLearnedAcceptanceKeepsChecks(t *testing.T) {
	b, _ := assessorOver(append(hollinLike, acceptEvidence...))
	b.Learned, b.AcceptWeights, b.DecideWeights = true, acceptAll, acceptAll
	q := "once my broken blender reaches your lot, roughly how long until I see it again?"
	req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: acceptEvidence[1:2]}
	if res := assessChecked(t, b, req); res.Assessment.Sufficient {
		t.Errorf("v15 accepted %q on a page stating no period: %s", q, res.Assessment.Reason)
	}
	q = "once my broken X300 Pro reaches your lot, roughly how long until I see it again?"
	req = Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: acceptEvidence[2:]}
	if res := assessChecked(t, b, req); res.Assessment.Sufficient {
		t.Errorf("v15 accepted %q on the X200's page: %s", q, res.Assessment.Reason)
	}
}

// TestAskedHead: the noun a "what N"/"which N" question asks for.
func TestAskedHead(t *testing.T) {
	b, _ := newTestAssessor()
	for q, want := range map[string]string{
		"What colour does the K50's ring light turn once pairing has finished?": "colour",
		"whats the name of the app the smart kettle talks to":                   "name",
		"What are the opening hours of the new repair centre?":                  "hour",
		"Which descaler is recommended for the K50?":                            "descaler",
		"what mains voltage are your appliances built for?":                     "voltag",
		"what does E4 mean on the X300 Pro?":                                    "",
		"Which of our two repair partners costs us more?":                       "",
		"how long is the warranty?":                                             "",
	} {
		got := b.askedHead(q, nil)
		if want != "" {
			want = b.an.Terms(want)[0]
		}
		if got != want {
			t.Errorf("askedHead(%q) = %q, want %q", q, got, want)
		}
	}
}

// TestProbability: the logistic function of the weighted features and
// the bias.
func TestProbability(t *testing.T) {
	var w [NumFeatures + 1]float64
	if p := Probability(w, [NumFeatures]float64{}); p != 0.5 {
		t.Errorf("zero weights: %v, want 0.5", p)
	}
	w[FeatCoverage], w[NumFeatures] = 2, -1
	x := [NumFeatures]float64{FeatCoverage: 1}
	if p := Probability(w, x); p < 0.73 || p > 0.74 { // 1/(1+e^-1)
		t.Errorf("coverage 1, weight 2, bias -1: %v, want 0.731", p)
	}
}

// TestLearnedAcceptanceTypeAsAsked: the learned acceptance reads the
// expected type from the question as asked, as it reads the chunks: when
// the question it judges on (the spelling-corrected one) expects no type
// but the question as asked expects a period, a page stating none is not
// accepted, whatever the weights. Before, it was accepted with the reason
// "... holds one near them: \"\"".
func TestLearnedAcceptanceTypeAsAsked(t *testing.T) {
	b, _ := assessorOver(append(hollinLike, acceptEvidence...))
	b.Learned, b.AcceptWeights, b.DecideWeights = true, acceptAll, acceptAll
	q := "once my broken blender reaches your lot, roughly how long until I see it again?"
	read := "once my broken blender reaches your lot, what happens until I see it again?"
	if b.classify(q).Type == b.classify(read).Type {
		t.Fatalf("%q and %q expect the same type: the test no longer shows the difference", q, read)
	}
	req := Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: acceptEvidence[1:2]}
	res, err := b.assess(context.Background(), req, b.corpus.Visible(req.Groups), read, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Assessment.Sufficient {
		t.Errorf("v15 accepted %q on a page stating no period: %s", q, res.Assessment.Reason)
	}
	req.Evidence = acceptEvidence[:1]
	if res, _ := b.assess(context.Background(), req, b.corpus.Visible(req.Groups), read, false); !res.Assessment.Sufficient || !strings.Contains(res.Assessment.Reason, "10 working days") {
		t.Errorf("v15 on the page stating the period = %+v, want accepted naming it", res.Assessment)
	}
}
