package assess

import (
	"slices"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// placesThesaurus is fakeThesaurus that also places names (Placer).
type placesThesaurus struct {
	fakeThesaurus
	placed map[string][]string
}

func (p placesThesaurus) Placed(name string) []string { return p.placed[strings.ToLower(name)] }

// TestPlaces: Builtin.Places (places.go, builtin:coverage-v48). The
// abroad page speaks of a place the question names only as a kind
// ("abroad"); WordNet places "Spain" and "the States" in that kind. With
// placesNamed the name counts as mentioned by a chunk holding the word;
// with placesGeneral a yes/no question's model code ("X300 Pro") counts
// as mentioned by a page naming no code that holds two of its other
// terms. A place no visible word stands for, and a question the page does
// not decide, stay refused.
func TestPlaces(t *testing.T) {
	model := Evidence{ChunkID: "x300#0", Title: "X300 Pro Blender", Text: "The X300 Pro has a 1,500 W motor and a vacuum mode."}
	abroad := Evidence{ChunkID: "abroad#0", Title: "Using Hollin appliances abroad", Text: "Hollin appliances are made for UK 230 V sockets. Using one with a voltage converter abroad is not covered by the warranty."}
	others := []string{model.Title + "\n" + model.Text, "Your account data\nYou can download or delete your account data from Settings.", "Depot\nThe depot is in Leeds."}
	th := placesThesaurus{fakeThesaurus{}, map[string][]string{"spain": {"abroad", "overseas"}, "the states": {"abroad"}, "peru": {"overseas"}}}
	for _, c := range []struct {
		name   string
		q      string
		places int
		want   bool
	}{
		{"v45: Spain unmentioned", "Is my kettle still covered by the warranty if I use a voltage converter in Spain?", 0, false},
		{"Spain as abroad", "Is my kettle still covered by the warranty if I use a voltage converter in Spain?", placesNamed, true},
		{"the States as abroad", "Is my kettle still covered by the warranty if I use a voltage converter in the States?", placesNamed, true},
		{"no visible word for Peru", "Is my kettle still covered by the warranty if I use a voltage converter in Peru?", placesV48, false},
		{"a place, nothing decided", "Can I buy spare jugs for my kettle in Spain?", placesV48, false},
		{"v45: the model unmentioned", "Is my X300 Pro still covered by the warranty if I use a voltage converter?", placesNamed, false},
		{"the model on a page about every appliance", "Is my X300 Pro still covered by the warranty if I use a voltage converter?", placesV48, true},
		{"both", "Moving to Spain: is my X300 Pro still covered by the warranty if I run it off a voltage converter?", placesV48, true},
		{"the model, one word held", "Can I use the X300 Pro for crushing ice?", placesV48, false},
	} {
		an := terms.New()
		lex := newLexicon(an, abroad.Title+"\n"+abroad.Text)
		for _, o := range others {
			lex.add(an, []string{"public"}, o)
		}
		b := NewBuiltin(an, lex)
		b.Rewriter = NewRewriter(an, lex)
		b.UseThesaurus(th)
		b.Places = c.places
		res := assessChecked(t, b, Request{Question: c.q, Query: c.q, Evidence: []Evidence{abroad, model}, Groups: []string{"public"}})
		if got := res.Assessment.Sufficient && slices.Equal(res.Accepted, []string{"abroad#0"}); got != c.want {
			t.Errorf("%s: %q (Places %d) accepted %v, want %v (%s)", c.name, c.q, c.places, got, c.want, res.Assessment.Reason)
		}
	}
}

// TestPlacesModel: builtin:coverage-v48 is v47 with Places' two bits
// (v49, the default, adds Matter); 0 is v47 (kept selectable); another
// value names itself.
func TestPlacesModel(t *testing.T) {
	b := NewBuiltin(terms.New(), newLexicon(terms.New(), "x"))
	if b.Places != placesV48 || placesV48 != 3 || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("default Places %d, model %q, want 3 and builtin:coverage-v68", b.Places, b.Model())
	}
	if b.Matter, b.Rates, b.Parts, b.Ruled, b.Measured, b.Situated, b.ListedClause, b.Covered, b.Follow, b.Timed, b.Every, b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = false, false, false, false, false, false, false, false, false, false, false, 0, false, 0, false, false, false, false; b.Model() != V48Model || V48Model != "builtin:coverage-v48" {
		t.Errorf("model %q with Matter off, want %s", b.Model(), V48Model)
	}
	if b.Places = 0; b.Model() != V47Model {
		t.Errorf("model %q with Places 0, want %s", b.Model(), V47Model)
	}
	if b.Places, b.Matter, b.Rates, b.Parts, b.Ruled, b.Measured, b.Situated, b.ListedClause, b.Covered, b.Follow, b.Timed, b.Every, b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = placesNamed, true, true, true, true, true, true, true, true, true, true, true, countsV59, true, reviewV61, true, true, true, true; b.Model() != BuiltinModel+"-places1" {
		t.Errorf("model %q with Places 1, want %s-places1", b.Model(), BuiltinModel)
	}
}
