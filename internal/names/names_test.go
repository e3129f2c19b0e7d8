package names

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestIn: a code followed directly by capitalised words names a product
// with them; punctuation, a lower-case word or another code ends the
// name; a text without a digit names nothing.
func TestIn(t *testing.T) {
	an := terms.New()
	for _, c := range []struct {
		text string
		want map[string]map[string]bool
	}{
		{"The K50 Smart Kettle boils fast.", map[string]map[string]bool{"k50": {"smart": true, "kettl": true}}},
		{"Pair the K50 with the app.", map[string]map[string]bool{}},
		{"K50: Smart Kettle", map[string]map[string]bool{}},
		{"X200 X300 Pro Blender", map[string]map[string]bool{"x300": {"pro": true, "blender": true}}},
		{"Smart Kettle manual", map[string]map[string]bool{}},
	} {
		got := map[string]map[string]bool{}
		In(an, c.text, got)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("In(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestTablePerGroup: a pair is under every group of the ACL of the chunk
// writing it, and only there; title and text are read apart (a name does
// not run from the title into the text); the JSON form reads back the
// same table and is the same bytes for the same table.
func TestTablePerGroup(t *testing.T) {
	an := terms.New()
	tb := NewTable()
	tb.Add(an, []string{"public"}, "K50 Smart Kettle", "The K50 boils fast.")
	tb.Add(an, []string{"staff", "partners"}, "Roadmap", "The Z90 Prototype Toaster ships next year.")
	tb.Add(an, []string{"public"}, "The Q7", "Toaster guide")
	pub := tb.Visible([]string{"public"})
	if !pub.Has("k50", "kettl") || !pub.Code("k50") || pub.Has("z90", "toaster") || pub.Code("z90") {
		t.Errorf("public pairs: k50 kettle %v, z90 %v; want the K50's only", pub.Has("k50", "kettl"), pub.Code("z90"))
	}
	if pub.Code("q7") {
		t.Error("a title's code named with the text's first words: a name ran across the two")
	}
	for _, g := range [][]string{{"staff"}, {"partners"}, {"public", "partners", "partners"}} {
		if p := tb.Visible(g); !p.Has("z90", "toaster") || !p.Has("z90", "prototyp") {
			t.Errorf("groups %v do not see the Z90's name", g)
		}
	}
	if p := tb.Visible(nil); p.Code("k50") || p.Code("z90") {
		t.Error("no groups see pairs")
	}
	b, err := json.Marshal(tb)
	if err != nil {
		t.Fatal(err)
	}
	back := NewTable()
	if err := json.Unmarshal(b, back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, tb) || back.Len() != 6 {
		t.Errorf("read back %d entries, want the table's 6: %s", back.Len(), b)
	}
	b2, _ := json.Marshal(back)
	if string(b2) != string(b) {
		t.Errorf("the same table marshals as %s and %s", b, b2)
	}
	merged := NewTable()
	merged.Merge(tb)
	merged.Merge(tb)
	if !reflect.DeepEqual(merged, tb) {
		t.Error("merging a table twice is not the table")
	}
	if err := json.Unmarshal([]byte(`{"public":["k50"]}`), NewTable()); err == nil {
		t.Error("a malformed table read without an error")
	}
}

// TestTableZeroValue: a Table declared without NewTable takes pairs (Add,
// Merge) instead of panicking on its nil map, and a nil *Table holds no
// pair (Visible, Len): an index without a table reads as one seeing none.
func TestTableZeroValue(t *testing.T) {
	an := terms.New()
	var tb Table
	tb.Add(an, []string{"public"}, "K50 Smart Kettle", "")
	if !tb.Visible([]string{"public"}).Has("k50", "kettl") {
		t.Error("a zero Table lost the pair Add gave it")
	}
	var merged Table
	merged.Merge(&tb)
	merged.Merge(nil)
	if merged.Len() != tb.Len() || merged.Len() == 0 {
		t.Errorf("a zero Table merged %d entries of %d", merged.Len(), tb.Len())
	}
	var none *Table
	if none.Len() != 0 || none.Visible([]string{"public"}).Code("k50") {
		t.Error("a nil *Table holds pairs")
	}
}

// TestPairsOf: In's finds read as Pairs, each map a group of them.
func TestPairsOf(t *testing.T) {
	an := terms.New()
	a, b := map[string]map[string]bool{}, map[string]map[string]bool{}
	In(an, "The K50 Smart Kettle boils fast.", a)
	In(an, "X300 Pro Blender", b)
	p := PairsOf(a, b)
	if !p.Code("k50") || !p.Code("x300") || p.Code("x200") || p.Code("kettl") {
		t.Errorf("Code: %v", p)
	}
	if !p.Word("kettl") || !p.Word("blender") || p.Word("k50") || p.Word("jar") {
		t.Errorf("Word: %v", p)
	}
	if !p.Has("x300", "pro") || p.Has("k50", "pro") {
		t.Errorf("Has: %v", p)
	}
	if PairsOf().Code("k50") || PairsOf(nil).Word("kettl") {
		t.Error("no finds name something")
	}
}
