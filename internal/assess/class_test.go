package assess

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/wire"
)

// TestClassNames: builtin:coverage-v27 (Builtin.Class) reads a product's
// class from the asker's visible chunks: the app page calls the toaster
// only "the Z20", the page writing its full name ("Z20 Smart Toaster") was
// not retrieved, and the question names the product and its class ("the
// Z20 toaster"). v26 refuses (v20's names are read only from the evidence,
// and only for a question naming no product); v27 accepts on the app page.
// When the page writing the name is one the asker may not see, v27 refuses
// as v26 does: no word of an invisible document changes a decision.
func TestClassNames(t *testing.T) {
	app := Evidence{ChunkID: "z20-app#0", Title: "Pairing the Z20 with the Crumbly app", Text: "To pair the Z20 with the Crumbly app, hold the lever down for 5 seconds until the light blinks."}
	returns := Evidence{ChunkID: "returns#0", Title: "Returns", Text: "You can return a kettle or an iron within 30 days of delivery for a refund."}
	name := "Z20 Smart Toaster\nThe Z20 has four slots and six browning levels."
	q := "Which app goes with the Z20 smart toaster?"
	req := Request{Question: q, Query: q, Evidence: []Evidence{app, returns}, Groups: []string{"public"}}
	for _, acl := range []string{"public", "staff"} {
		an := terms.New()
		lex := newLexicon(an, app.Title+"\n"+app.Text, returns.Title+"\n"+returns.Text)
		lex.add(an, []string{acl}, name)
		for _, other := range []string{"Orders\nWe list your orders.", "Toast\nA toaster browns bread."} {
			lex.add(an, []string{"public"}, other)
		}
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		res := assessChecked(t, b, req)
		visible := acl == "public"
		if got := res.Assessment.Sufficient && len(res.Accepted) > 0 && res.Accepted[0] == "z20-app#0"; got != visible {
			t.Errorf("v27, the name page %s: accepted on the app page %v, want %v (%s)", acl, got, visible, res.Assessment.Reason)
		}
		if visible && res.Usage.Model != BuiltinModel {
			t.Errorf("model %q, want %q", res.Usage.Model, BuiltinModel)
		}
		if strings.Contains(res.Assessment.Reason, "Smart") || strings.Contains(res.Assessment.Reason, "slots") {
			t.Errorf("the reason names the name page's words: %s", res.Assessment.Reason)
		}
		b.Class, b.General, b.Bound, b.PeriodOf, b.FreeOf, b.Elsewhere, b.StreetAddress, b.Condition, b.Payer, b.AmountOf, b.SameKind, b.Defined, b.Genus, b.Spelled, b.Compound, b.Act, b.Frame, b.Kind, b.Tagged, b.CodeTerm, b.Alone, b.ExpandMerge, b.Rival, b.ClassFree = false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, 0, 0, 0, 0, false
		newerIf(b, false)
		b.Gate = false
		if res := assessChecked(t, b, req); res.Assessment.Sufficient {
			t.Errorf("v26 accepts %q (%s): the case does not test Class", q, res.Assessment.Reason)
		} else if res.Usage.Model != V26Model {
			t.Errorf("model %q with Class off, want %q", res.Usage.Model, V26Model)
		}
	}
	// A failed search fails the assessment rather than judge without it.
	b, _ := assessorOver([]Evidence{app, returns})
	b.corpus = failingNames{b.corpus}
	if _, err := b.Assess(context.Background(), req); err == nil {
		t.Error("Assess judged although reading the visible chunks failed")
	}
}

// TestClassSearchesOnlyForCodes: v27's class reading searches the asker's
// chunks only when a retrieved chunk holds a code a word could be credited
// to; evidence naming no code (the usual question over a corpus without
// model codes) costs no search, and a failing search is then never made.
// v28's general-page reading (Builtin.General, general.go) searches for
// the words such chunks lack, so it is off here: TestGeneralClass.
func TestClassSearchesOnlyForCodes(t *testing.T) {
	plain := Evidence{ChunkID: "returns#0", Title: "Returns", Text: "You can return a kettle or an iron within 30 days of delivery for a refund."}
	other := Evidence{ChunkID: "orders#0", Title: "Orders", Text: "We list your orders on the account page."}
	q := "Can I return my smart toaster after two months?"
	req := Request{Question: q, Query: q, Evidence: []Evidence{plain, other}, Groups: []string{"public"}}
	b, _ := assessorOver([]Evidence{plain, other})
	b.corpus = failingNames{b.corpus}
	b.General = false
	if _, err := b.Assess(context.Background(), req); err != nil {
		t.Errorf("Assess searched the asker's chunks although no retrieved chunk names a code: %v", err)
	}
}

// failingNames is a corpus whose Naming fails.
type failingNames struct{ Corpus }

func (f failingNames) Visible(groups []string) Vocabulary {
	return failingNaming{f.Corpus.Visible(groups)}
}

type failingNaming struct{ Vocabulary }

func (failingNaming) Naming(context.Context, string, wire.Filters) ([]string, error) {
	return nil, errors.New("search failed")
}
