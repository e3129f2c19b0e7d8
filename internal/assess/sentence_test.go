package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// sentenceCorpus is a small corpus for the sentence reading: the page
// that answers is not the first retrieved.
var sentenceCorpus = []Evidence{
	{ChunkID: "pol-warranty#0", Title: "Warranty terms", Text: "Your X200 blender is covered for two years from the date of purchase. Keep your receipt. Accidental damage, such as a dropped jar, is not covered."},
	{ChunkID: "man-x200-blades#0", Title: "X200 blade assembly", Text: "The blade assembly sits at the bottom of the jar. Replace the blades once a year with daily use. Order part HL-X200-BL from the parts site."},
	{ChunkID: "man-x200-blades-apart#0", Title: "X200 blade care", Text: "The blade assembly sits at the bottom of the jar. Descale the kettle once a month. The X200 jar holds 1.5 litres."},
	{ChunkID: "pol-parts#0", Title: "Ordering spare parts", Text: "Spare parts are sent by courier. Standard delivery takes 3 to 5 working days. Returns are accepted within 30 days."},
	{ChunkID: "man-x200-motor#0", Title: "X200 motor", Text: "The X200 motor is rated at 1,200 W. Let the motor rest between batches."},
}

func newSentenceAssessor(t *testing.T) *Builtin {
	t.Helper()
	an := terms.New()
	var texts []string
	for _, e := range sentenceCorpus {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	texts = append(texts, "Hollin Home app: pair your kettle", "Contact us by phone", "Recall notice for X200 jars")
	lex := newLexicon(an, texts...)
	b := NewBuiltin(an, lex)
	b.Rewriter = NewRewriter(an, lex)
	return b
}

func assessSentence(t *testing.T, b *Builtin, on bool, q string, ev ...Evidence) Result {
	t.Helper()
	b.Sentence = on
	res, err := b.Assess(context.Background(), Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: ev})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSentenceReading: v12 accepts the second retrieved chunk when one of
// its sentences states a frequency and names the blades the question asks
// about; v10 refuses (the asker's words are mostly ones no document uses,
// and its wide reading reads the first chunk only).
func TestSentenceReading(t *testing.T) {
	b := newSentenceAssessor(t)
	b.OwnOrder, b.Asked, b.Named, b.Scene, b.States, b.Kin, b.Hyp, b.Alike, b.Valued, b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false // the evidence judged in the order given, as a search returned it (v17; v18: TestOwnOrder)
	newerIf(b, false)
	b.Gate = false
	q := "I make a smoothie in my X200 every single morning - how often am I supposed to swap the blades out?"
	ev := []Evidence{sentenceCorpus[0], sentenceCorpus[1]}
	if res := assessSentence(t, b, false, q, ev...); res.Assessment.Sufficient {
		t.Fatalf("v10 accepted %q: %s (the test no longer shows the sentence reading)", q, res.Assessment.Reason)
	}
	if want := BuiltinModel + "-nosentence-noownorder-noasked-nonamed-noscene-nostates-nokin-nohyp-noalike-novalued-noclass-nogeneral-nobound-noperiodof-noelsewhere-nostreetaddress-nopayer-nosamekind-nodefined-nogenus-nospelled-nocompound-noact-noframe-nokind-notagged-nocodeterm-noalone-nogate-nomerged-norival-noclassfree-noagree-nosides-nomeasure-nolisted-noplaces-nomatter-norates-noparts-noruled-nomeasured-nosituated-nolistedclause-nocovered-nofollow-notimed-noevery-nocounts-noopposite-noreview-nolearned-nolearnedcover-noveto-nostatus"; b.Model() != want {
		t.Errorf("model with Sentence off %q, want %q", b.Model(), want)
	}
	res := assessSentence(t, b, true, q, ev...)
	if !res.Assessment.Sufficient || len(res.Accepted) == 0 || res.Accepted[0] != "man-x200-blades#0" {
		t.Fatalf("v12 on %q = %+v, want accepted on the blade page", q, res)
	}
	// The loop accepts a sufficient assessment only at a score of at
	// least its threshold (0.5 by default): the score is the share of the
	// topic words' weight the sentence holds, all of them here.
	if res.Assessment.Score != 1 {
		t.Errorf("v12's score %v, want 1 (the sentence holds every topic word)", res.Assessment.Score)
	}
	if b.Model() != V17Model {
		t.Errorf("model %q, want %q", b.Model(), V17Model)
	}
	for _, want := range []string{"a frequency", `"blades"`, "once a year"} {
		if !strings.Contains(res.Assessment.Reason, want) {
			t.Errorf("reason %q does not say %s", res.Assessment.Reason, want)
		}
	}
	// Beyond SentenceRank the page is not read.
	b.SentenceRank = 0
	if res := assessSentence(t, b, true, q, ev...); res.Assessment.Sufficient {
		t.Errorf("v12 at rank 0 accepted the second chunk: %s", res.Assessment.Reason)
	}
}

// TestSentenceReadingColocation: the blades and a frequency in different
// sentences of one chunk answer nothing; nor does a question for a value
// the sentence reading does not judge (a yes/no decision).
func TestSentenceReadingColocation(t *testing.T) {
	b := newSentenceAssessor(t)
	b.OwnOrder, b.Scene, b.States, b.Kin, b.Hyp, b.Alike, b.Valued, b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false // v12 as it was (v21: TestScene); the evidence judged in the order given, as a search returned it (v17; v18: TestOwnOrder)
	newerIf(b, false)
	b.Gate = false
	q := "I make a smoothie in my X200 every single morning - how often am I supposed to swap the blades out?"
	if res := assessSentence(t, b, true, q, sentenceCorpus[0], sentenceCorpus[2]); res.Assessment.Sufficient {
		t.Errorf("v12 accepted blades and a frequency in different sentences: %s", res.Assessment.Reason)
	}
	q = "I make a smoothie in my X200 every single morning - am I supposed to swap the blades out?"
	if res := assessSentence(t, b, true, q, sentenceCorpus[0], sentenceCorpus[1]); res.Assessment.Sufficient && strings.Contains(res.Assessment.Reason, "a sentence of") {
		t.Errorf("v12's sentence reading judged a yes/no question: %s", res.Assessment.Reason)
	}
}

// TestSentenceReadingOtherKind: a sentence about another kind of the
// thing asked ("standard delivery" for "express delivery") is not read;
// with SentenceAll, a sentence must hold every topic word of the clause
// that asks.
func TestSentenceReadingOtherKind(t *testing.T) {
	b := newSentenceAssessor(t)
	b.OwnOrder, b.Scene, b.States, b.Kin, b.Hyp, b.Alike, b.Valued, b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false // v12 as it was (v21: TestScene); the evidence judged in the order given, as a search returned it (v17; v18: TestOwnOrder)
	newerIf(b, false)
	b.Gate = false
	b.SentenceAll = false // any topic word: only the kind decides
	q := "my nephew wants a replacement - how long does zippy delivery of spare parts take?"
	if res := assessSentence(t, b, true, q, sentenceCorpus[0], sentenceCorpus[3]); res.Assessment.Sufficient {
		t.Errorf("v12 accepted standard delivery for %q: %s", q, res.Assessment.Reason)
	}
	q = "my nephew wants a replacement - how long does delivery of spare parts take?"
	if res := assessSentence(t, b, true, q, sentenceCorpus[0], sentenceCorpus[3]); !res.Assessment.Sufficient {
		t.Errorf("v12 refused %q: %s", q, res.Assessment.Reason)
	}
	q = "my nephew wants a replacement - how long does courier delivery of spare parts take?"
	b.SentenceAll, b.SentenceKey = true, false // any topic word would do without SentenceAll
	if res := assessSentence(t, b, true, q, sentenceCorpus[0], sentenceCorpus[3]); res.Assessment.Sufficient {
		t.Errorf("v12 with SentenceAll accepted %q (no sentence names the courier and a period): %s", q, res.Assessment.Reason)
	}
}

// TestAskedDimensionRefuses: v12 reads "how heavy" as asking for a mass, so the
// X300 Pro's specification page, whose only measure is its motor's
// wattage, does not answer it; v10 accepts the watts. "How powerful" asks
// for a power, which the page states.
func TestAskedDimensionRefuses(t *testing.T) {
	b, _ := newTestAssessor()
	q := "How heavy is the X300 Pro?"
	ev := hollinLike[1:2]
	b.Dimensions = false
	if res := assessChecked(t, b, Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: ev}); !res.Assessment.Sufficient {
		t.Fatalf("v10 refused %q: %s (the test no longer shows the dimension)", q, res.Assessment.Reason)
	}
	b.Dimensions = true
	res := assessChecked(t, b, Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: ev})
	if res.Assessment.Sufficient || !strings.Contains(res.Assessment.Reason, "a measure of mass") {
		t.Errorf("v12 on %q = %+v, want refused for want of a mass", q, res.Assessment)
	}
	q = "How powerful is the X300 Pro?"
	if res := assessChecked(t, b, Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: ev}); !res.Assessment.Sufficient {
		t.Errorf("v12 refused %q: %s", q, res.Assessment.Reason)
	}
}

// TestTopical: the paraphrase tolerance no longer accepts a chunk that
// covers only the question's entities: "how long is the power cable on
// the X300 Pro" (no document uses "power" or "cable") is not answered by
// the warranty page naming the X300 Pro and a period of something else;
// a question whose known word besides the entities is covered too
// ("motors") still is.
func TestTopical(t *testing.T) {
	b, _ := newTestAssessor()
	q := "How long is the power cable on the X300 Pro?"
	ev := []Evidence{hollinLike[1], hollinLike[0]} // the specification page first, as retrieved
	b.Topical = false
	if res := assessChecked(t, b, Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: ev}); !res.Assessment.Sufficient {
		t.Fatalf("v10 refused %q: %s (the test no longer shows the tolerance)", q, res.Assessment.Reason)
	}
	b.Topical = true
	if res := assessChecked(t, b, Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: ev}); res.Assessment.Sufficient {
		t.Errorf("v12 accepted %q on the entities alone: %s", q, res.Assessment.Reason)
	}
	q = "How long are grotty motors on the X300 Pro covered?"
	if res := assessChecked(t, b, Request{Question: q, Query: q, Groups: []string{"public"}, Evidence: ev}); !res.Assessment.Sufficient {
		t.Errorf("v12 refused %q: %s", q, res.Assessment.Reason)
	}
}
