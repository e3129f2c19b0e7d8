package assess

import (
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
	"github.com/assay-rag/assay/internal/thesaurus"
)

// TestHypLeavesAcronyms: v24 reads no question word written in capitals
// ("PIN", "LED", "RAM") through a hypernym or hyponym when the question
// has lower-case letters. WordNet knows the lower-case word only ("pin"
// the fastener, "led" as "lead", "ram" the sheep). In a question of
// ordinary case such a word is a name (Entities) and never reached taxa;
// in a title-case one ("How Do I Reset My PIN?") Entities reads no names,
// and before round 24 (rv24) the question was accepted on a page that
// secures a lid "reading "PIN" as "secure", a broader word" (WordNet's
// verb "pin", to fasten). The same word in lower case is still read, and
// so is a question all in capitals, where an acronym cannot be told.
func TestHypLeavesAcronyms(t *testing.T) {
	an := terms.New()
	ev := []Evidence{{ChunkID: "lid#0", Title: "Resetting the lid lock", Text: "Hold the reset button for 10 seconds to secure the lid."}}
	lex := newLexicon(an, ev[0].Title+"\n"+ev[0].Text, "K50 kettle descaling", "X300 Pro blender jug", "repair centre move", "Pin the PIN code")
	fake := fakeTaxonomy{fakeThesaurus{}, map[string][]thesaurus.Taxon{"pin": {{Word: "secure", Broader: true, Pos: 'v', Sense: 2, Common: true, Its: 1, ItsCommon: true}}}}
	ths := map[string]Thesaurus{"fake": fake}
	if wn, err := thesaurus.Open(thesaurus.DefaultDir); err == nil {
		ths["wordnet"] = wn // the reading above is WordNet's
	}
	for name, th := range ths {
		for _, q := range []string{"How Do I Reset My PIN?", "How Do I Reset The PIN", "how do I reset my PIN"} {
			a := assessFirst(t, an, lex, th, ev, q).Assessment
			t.Logf("%s %q: %v %q", name, q, a.Sufficient, a.Reason)
			if a.Sufficient || strings.Contains(a.Reason, "a broader word") {
				t.Errorf("%s: %q: %v %q, want refused, no acronym read through a hypernym", name, q, a.Sufficient, a.Reason)
			}
		}
		for _, q := range []string{"how do I reset my pin", "HOW DO I RESET MY PIN"} {
			a := assessFirst(t, an, lex, th, ev, q).Assessment
			t.Logf("%s %q: %v %q", name, q, a.Sufficient, a.Reason)
			if !a.Sufficient || !strings.Contains(a.Reason, `as "secure", a broader word`) {
				t.Errorf("%s: %q: %v %q, want accepted reading it as \"secure\"", name, q, a.Sufficient, a.Reason)
			}
		}
	}
}
