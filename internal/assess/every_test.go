package assess

import "testing"

// everyCorpus: a kettle's own page (naming its code), the repairs page
// about every appliance, the kettle's app page stating a time, and a page
// of the kettle's own fee.
var everyCorpus = []Evidence{
	{ChunkID: "k50#0", Title: "K50 Smart Kettle", Text: "The K50 Smart Kettle boils 1.7 litres in about four minutes. Descale it once a month."},
	{ChunkID: "rep#0", Title: "Repairs and turnaround", Text: "We aim to repair and return an appliance within 10 working days of receiving it. Collection by courier is free for appliances under warranty. Out-of-warranty repairs carry a £25 inspection fee, which is deducted from the repair price if you go ahead."},
	{ChunkID: "app#0", Title: "Pairing the K50 with the app", Text: "Hold the K50's button for 5 seconds to pair it with the app."},
	{ChunkID: "x200#0", Title: "X200 Blender", Text: "The X200 Blender has three speeds."},
	{ChunkID: "hard#0", Title: "Hard water", Text: "In hard-water areas, descale appliances every two weeks."},
	{ChunkID: "k50fee#0", Title: "K50 Smart Kettle repairs", Text: "Out-of-warranty repairs of a K50 carry a £10 inspection fee."},
}

// TestEvery (rv46b P7): builtin:coverage-v58's Every. A page naming no
// product code that states the value asked of the question's other words
// answers the asker's appliance as it answers every appliance (the £25
// inspection fee for "my kettle", the question's most specific term only
// the class of a product: the K50 Smart Kettle, fresh4 h19's case); when
// the asker's appliance has a page of its own stating a value of the kind
// asked (ownValue), that page answers and the general one is not taken.
func TestEvery(t *testing.T) {
	other := []string{"Opening hours\nWe open at nine.", "Registering your appliance\nRegister it online.", "Switching on\nHold the button to turn it on."}
	for _, c := range []struct {
		q        string
		ids      []string
		old, acc string // without and with Every ("": refused)
	}{
		{"My kettle is well out of warranty. Do you charge anything just to look at it?", []string{"rep#0", "k50#0"}, "", "rep#0"},
		{"My kettle is well out of warranty. Do you charge anything just to look at it?", []string{"rep#0", "k50fee#0", "k50#0"}, "k50fee#0", "k50fee#0"},
		{"How often should I descale my kettle?", []string{"hard#0", "k50#0"}, "k50#0", "k50#0"},
		{"How long do I hold the button on my kettle to pair it?", []string{"app#0", "k50#0"}, "app#0", "app#0"},
	} {
		var got [2]string
		for i, on := range []bool{false, true} {
			r := judgeAmong(t, everyCorpus, other, func(b *Builtin) { b.Every = on }, c.q, c.ids...)
			got[i] = acceptedOn(r)
			t.Logf("Every %v: %q: %v %q", on, c.q, r.Accepted, r.Assessment.Reason)
		}
		if got[0] != c.old || got[1] != c.acc {
			t.Errorf("Assess(%q) over %v accepted %q without Every and %q with it, want %q and %q", c.q, c.ids, got[0], got[1], c.old, c.acc)
		}
	}
}
