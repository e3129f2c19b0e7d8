package assess

import (
	"slices"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestExpand: with a thesaurus, a search's query gains, beside its own
// words that no visible document uses, the relatives translate would put
// for them that the asker's visible documents use ("fixed" → "repair");
// a word they use is not expanded ("dial" → "knob"); a relative only a hidden
// document uses is never added (the statistics rule: what a caller's
// search runs depends on what it may see), nor a relation that does not
// hold back, nor one for a word that frames the question ("how long"),
// nor a relative the query already has. Without a thesaurus the query is
// unchanged.
func TestExpand(t *testing.T) {
	an := terms.New()
	lex := newLexicon(an, "Most repairs are back with you within 10 working days.", "The warranty lasts two years.", "Set the dial to 100.", "Turn the knob.")
	lex.add(an, []string{"staff"}, "Mend the coupling before shipping.") // "mend": staff only
	b := NewBuiltin(an, lex)
	q := "how long will my kettle be gone once it is fixed under the guarantee and warranty by the dial"
	if got, added := b.Expand(q, []string{"public"}); got != q || len(added) != 0 {
		t.Fatalf("no thesaurus: Expand = %q %v, want the query unchanged", got, added)
	}
	b.UseThesaurus(senseThesaurus{
		fakeThesaurus: fakeThesaurus{
			"fixed":     {"repair", "mend", "set"},
			"repair":    {"fix", "mend"},
			"mend":      {"fix", "repair"},
			"set":       {"put"}, // does not relate back to "fix"
			"guarantee": {"warranty"},
			"warranty":  {"guarantee"},
			"long":      {"years"}, // "how long" frames the question
			"years":     {"long"},
			"dial":      {"knob"},
			"knob":      {"dial"},
		},
		bases: map[string][]string{"fixed": {"fixed", "fix"}},
	})
	got, added := b.Expand(q, []string{"public"})
	if want := []string{"repair"}; !slices.Equal(added, want) || got != q+" repair" {
		t.Errorf("public: Expand = %q %v, want %v added (not mend: staff only; not set: one way; not years: frame; not warranty: in the query)", got, added, want)
	}
	if _, added := b.Expand(q, []string{"public", "staff"}); !slices.Equal(added, []string{"repair", "mend"}) {
		t.Errorf("staff: added %v, want [repair mend]: a relative staff may see is added for staff", added)
	}
}
