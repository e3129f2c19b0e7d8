package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// ruleThesaurus is a fakeThesaurus that also knows hypernyms and hyponyms
// (Taxonomer) and parts of speech (Grammar).
type ruleThesaurus struct {
	fakeThesaurus
	taxa  map[string][]thesaurus.Taxon
	parts map[string]string
}

func (f ruleThesaurus) Taxa(w string) []thesaurus.Taxon { return f.taxa[strings.ToLower(w)] }
func (f ruleThesaurus) Parts(w string) string           { return f.parts[strings.ToLower(w)] }
func (f ruleThesaurus) VerbFrames(string) uint64        { return 0 }

// ruledCorpus: a care page ruling out water for the motor base, a repairs
// page stating what is free, a handbook requiring genuine parts.
var ruledCorpus = []Evidence{
	{ChunkID: "care#0", Title: "X200 cleaning and care", Text: "Wash the jar and blades in warm soapy water or in the dishwasher. Never put the motor base in water; wipe it with a damp cloth."},
	{ChunkID: "repairs#0", Title: "Repairs and turnaround", Text: "We aim to repair and return an appliance within 10 working days of receiving it. Collection by courier is free for appliances under warranty."},
	{ChunkID: "handbook#0", Title: "Service partner handbook", Text: "Submit warranty labour claims within 14 days of the repair. Use genuine Hollin parts only."},
	{ChunkID: "specs#0", Title: "X200 specifications", Text: "The X200 has a 1200 W motor and a 2-litre jar."},
	{ChunkID: "pay#0", Title: "Paying for an order", Text: "Pay by card. Monthly statements list the cost of each order."},
	{ChunkID: "k50#0", Title: "K50 kettle care", Text: "Do not heat the K50 in a microwave."},
}

// TestRuled: builtin:coverage-v52 (Builtin.Ruled) decides a yes/no
// question by a rule a retrieved chunk states about the question's thing
// in other words ("Never put the motor base in water" for rinsing the
// bottom of the X200 under the tap: "base" a kind of "bottom", "put" a
// verb of any handling), which every other reading refuses; and a yes/no
// question no rule decides stays refused.
func TestRuled(t *testing.T) {
	an := terms.New()
	var texts []string
	for _, e := range ruledCorpus {
		texts = append(texts, e.Title+"\n"+e.Text)
	}
	lex := newLexicon(an, texts...)
	th := ruleThesaurus{
		fakeThesaurus: fakeThesaurus{"rinse": {"wash"}},
		taxa:          map[string][]thesaurus.Taxon{"bottom": {{Word: "base", Pos: 'n', Sense: 1, Common: true}}},
		parts:         map[string]string{"bottom": "nva", "rinse": "nv", "tap": "nv", "spread": "nva", "cost": "nv", "repair": "nv", "monthly": "nar", "payments": "n", "microwave": "nv", "jar": "nv"},
	}
	judge := func(ruled bool, q string, ev ...Evidence) Result {
		t.Helper()
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.UseThesaurus(th)
		b.Ruled = ruled
		res, err := b.Assess(context.Background(), Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	q := "Is it OK to rinse the bottom of my X200 under the tap?"
	evs := []Evidence{ruledCorpus[0], ruledCorpus[3]}
	if r := judge(false, q, evs...); r.Assessment.Sufficient {
		t.Fatalf("Ruled off: %+v %v, want refused (the test no longer shows the rule reading)", r.Assessment, r.Accepted)
	}
	r := judge(true, q, evs...)
	if !r.Assessment.Sufficient || len(r.Accepted) != 1 || r.Accepted[0] != "care#0" || !strings.Contains(r.Assessment.Reason, "Never put the motor base in water") {
		t.Errorf("Ruled on: %+v %v, want accepted on care#0 by its rule", r.Assessment, r.Accepted)
	}
	if r.Usage.Model != BuiltinModel+"+fake-1" || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("model %q, want builtin:coverage-v68+fake-1", r.Usage.Model)
	}
	// No rule decides these: "free" is said of the courier, not of the
	// cost of a repair (the chunk naming "monthly" is not retrieved), and
	// a question of cost is decided by no rule of another kind. Refused
	// with Ruled on as off.
	for _, c := range []struct {
		q  string
		ev []Evidence
	}{
		{"Can I spread the cost of a repair over monthly payments?", []Evidence{ruledCorpus[1], ruledCorpus[2]}}, // "free" said of collection, not of the repair
		{"Does Hollin pay us a fee for the parts we fit?", []Evidence{ruledCorpus[2], ruledCorpus[3]}},           // a question of cost; "only" rules which parts, not who pays
	} {
		if r := judge(false, c.q, c.ev...); r.Assessment.Sufficient {
			t.Fatalf("%q, Ruled off: %+v %v, want refused (the test no longer shows the guard)", c.q, r.Assessment, r.Accepted)
		}
		if r := judge(true, c.q, c.ev...); r.Assessment.Sufficient {
			t.Errorf("%q: %+v %v, want refused", c.q, r.Assessment, r.Accepted)
		}
	}
}
