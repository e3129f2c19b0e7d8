package assessdev

import (
	"testing"
)

// TestV32Defined compares v31 with its Defined switch off and on (a
// question word the first chunk lacks is held through a word it holds
// that WordNet's gloss defines by it, see assess/defined.go) on every
// development set but those SKIP_SETS names, first attempt and loop: on
// must refuse as many no-answer questions on every set and be right no
// less often in total. Without a thesaurus the two are the same assessor.
func TestV32Defined(t *testing.T) {
	b, qs := collect(t)
	qs = withoutSets(qs)
	defer skipSets()()
	compareVersions(t, b, qs, "v31", "v31+defined", func(on bool) { b.Defined = on }, keepsRefusalAndRight(t, "v31", "v31+defined"))
}
