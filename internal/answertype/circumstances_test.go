package answertype

import (
	"reflect"
	"testing"
)

// TestCircumstances: a clause of condition, cause or concession inside
// the parts that ask is read; a clause of time, a phrase, a clause that
// opens the question's clause, one that runs on to a question and a
// statement are not.
func TestCircumstances(t *testing.T) {
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"how often should the z20 blades get changed if i use it every morning", []string{"if i use it every morning"}},
		{"How often do I descale it, and should I do it more because our water is really hard?", []string{"because our water is really hard"}},
		{"Will the guarantee pay for a new jug even though I dropped it?", []string{"though I dropped it"}},
		{"What colour does the ring light turn once pairing has finished?", nil},                 // time: when the value holds
		{"Which town was the workshop in before the move?", nil},                                 // time, and a phrase
		{"Is the motor covered if damaged?", nil},                                                // no clause after "if"
		{"If I send it in, how long does the repair take?", nil},                                 // opens the clause: Scene's
		{"Where do I get a copy, and if I ask for it to be wiped how long does that take?", nil}, // runs on to a question
		{"my blender makes a grinding sound if I use it", nil},                                   // asks nothing
		{"Do you know if the Z20 has a timer?", nil},                                             // an embedded question
	} {
		if got := Circumstances(c.q); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Circumstances(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}
