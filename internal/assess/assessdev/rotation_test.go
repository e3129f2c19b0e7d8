package assessdev

import (
	"slices"
	"testing"
)

// TestPartsRestoresSets (rv45): parts narrows sets to each part's sets
// while that part is judged, and gives the whole list back after, also
// when the loop breaks early; otherwise a test run after TestExpanded,
// TestMerged, TestRival or TestA40 in the same process (a -run naming
// two of them) reads the other part's sets as every development set:
// no design set, and the newest confirm set taken for the validation set.
func TestPartsRestoresSets(t *testing.T) {
	all := slices.Clone(sets)
	t.Cleanup(func() { sets = all })
	design := []asked{{set: "hollin"}}
	other := []asked{{set: "fresh14"}, {set: "fresh42"}}
	for p := range parts(all, design, other) {
		if p.name == "design" && !slices.Equal(sets, []string{"hollin"}) {
			t.Errorf("design part's sets = %v", sets)
		}
	}
	if !slices.Equal(sets, all) {
		t.Fatalf("after parts, sets = %v, want every development set", sets)
	}
	for range parts(all, design, other) {
		break
	}
	if !slices.Equal(sets, all) {
		t.Fatalf("after a broken loop over parts, sets = %v, want every development set", sets)
	}
}

// TestAblationGroups (rv45): TestAblate's groups after the rotation: the
// design sets, the confirm sets (fresh14 up to the set before the
// validation set) and the newest two (the last confirm set and the
// validation set), the validation set in no other group.
func TestAblationGroups(t *testing.T) {
	gs := ablationGroups()
	if len(gs) != 3 || gs[0].name != "design" || gs[1].name != "confirm" || gs[2].name != "newest" {
		t.Fatalf("groups %+v", gs)
	}
	if !slices.Equal(gs[0].sets, designSets()) || gs[0].sets[len(gs[0].sets)-1] != "fresh13" {
		t.Errorf("design = %v", gs[0].sets)
	}
	confirm := gs[1].sets
	if confirm[0] != "fresh14" || slices.Contains(confirm, validation) || len(confirm) != len(sets)-len(gs[0].sets)-1 {
		t.Errorf("confirm = %v (validation %s)", confirm, validation)
	}
	if want := []string{confirm[len(confirm)-1], validation}; !slices.Equal(gs[2].sets, want) {
		t.Errorf("newest = %v, want %v", gs[2].sets, want)
	}
}
