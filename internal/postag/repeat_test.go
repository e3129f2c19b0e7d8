package postag

import (
	"fmt"
	"strings"
	"testing"
)

// TestTagRepeatedSpan: prose's tokenizer shares one token between equal
// spans, and the tagger's last write to it was every occurrence's tag
// (docs/log/round-34-rv34.md §2): each occurrence now has its own.
func TestTagRepeatedSpan(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string // the tags of the words named, in order
		word string
	}{
		// rv34's sentences
		{"Can I claim a claim on it", []string{"VB", "NN"}, "claim"},
		{"Should I use the use by date", []string{"VB", "NN"}, "use"},
		{"I need to order the part in order to fix it", []string{"NN", "NN"}, "order"},
		// three times
		{"Can I claim a claim for the claim on it", []string{"VB", "NN", "NN"}, "claim"},
		{"do they charge a charge to charge it ", []string{"VB", "NN", "VB"}, "charge"},
		{"that that that is it", []string{"IN", "DT", "WDT"}, "that"},
		// in other case: "claim" and "CLAIM" are other spans, and the
		// second "claim", written in another case to be read apart from
		// the first, must not be written "CLAIM"
		{"Can I claim a CLAIM for the claim on it", []string{"VB", "NN", "NN"}, "claim"},
		{"should I USE the USE by date", []string{"VB", "NN"}, "use"},
		// at the clause's end: a last span ending the text is a token of
		// its own, one followed by a space or a newline is shared
		{"Can I claim a claim", []string{"VB", "NN"}, "claim"},
		{"Can I claim a claim ", []string{"VB", "NN"}, "claim"},
		{"Can I claim a claim\n", []string{"VB", "NN"}, "claim"},
		{"Can I return a return? I return it.", []string{"VB", "NN", "VBP"}, "return"},
		// prose reads curly quotes as straight ones before it compares spans
		{"Can I \u2018claim\u2019 a 'claim' on it", []string{"VB", "NN"}, "'claim"},
	} {
		var got []string
		for _, w := range Tag(c.text) {
			if strings.EqualFold(w.Text, c.word) {
				got = append(got, w.Tag)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q: %q tagged %v, want %v (%v)", c.text, c.word, got, c.want, Tag(c.text))
		}
	}
}

// TestTagRepeatedSpanAlone: every word whose tag prose reports right in a
// shorter text — the text cut two words after it, where its span does not
// recur but as the cut's last span — has that tag in the whole text.
func TestTagRepeatedSpanAlone(t *testing.T) {
	for _, text := range []string{
		"Can I claim a claim for the claim on it",
		"I claim you can claim that I claim it, and claim it again",
		"Should I use the use by date or use the date on the box to use it by",
		"Does the charge cover the charge cable if I charge the kettle's base? The charge light is on.",
		"Do I pay 10 % or 10 % more",
		"Can I pay 2 claim 2 charge fees and use 2 use 2 days",
		"Is it 2 days or can I use 2 days",
		"Is it days or can I use days more",
		"Does Mr. Smith pay or does Mr. Jones pay?",
		"Can Dr. Who claim a Dr. Who claim?",
		"I use - use - use it - use - x",
		"Can I claim the refund's claim or the refund's part?",
		"that that that is it",
		strings.Repeat("How long do service partners have to submit a warranty labour claim? ", 6),
		// a window started at word i-2 (no lead) with the check off
		// reads "X200" NNS here
		"Case 30412. Customer Ellie Shaw reports her X200 stopped mid-blend showing E7. Agent advised unplugging for 20 minutes; the blender worked afterwards. " +
			"Every Hollin appliance has a 2-year warranty from the date of purchase. Blender motors on the X200 and X300 Pro are covered for 5 years.",
		"Register your appliance at hollin.example/register so we can contact you about safety notices. You do not need to register to claim under the warranty. " +
			"E4 means the jar lid is not locked: twist the lid until it clicks. E7 means the motor has overheated: unplug the blender for 20 minutes. E9 means a sensor fault: contact Hollin support. " +
			"Can I use the use by date to claim, or claim the claim on the use of the blender for 20 minutes? I use it, you use it, we use the lid until it clicks.",
	} {
		spans := strings.Fields(text)
		cuts := make([][]Word, len(spans)+1) // cuts[c]: prose's reading of spans[:c]
		for c := 1; c <= len(spans); c++ {
			cuts[c] = tag(strings.Join(spans[:c], " "))
		}
		words := Tag(text)
		read := 0
		for p := range words {
			alone, ok := tagAlone(spans, cuts, p)
			if !ok {
				continue
			}
			read++
			if words[p].Tag != alone {
				t.Errorf("%q: word %d %q tagged %s, alone %s", text, p, words[p].Text, words[p].Tag, alone)
			}
		}
		if read < len(words)/2 {
			t.Errorf("%q: %d of %d words read alone", text, read, len(words))
		}
	}
}

// tagAlone is prose's own tag for word p of the text of spans, read in
// the text cut after the span holding word p+2 (cuts[c] is prose's reading
// of spans[:c]); false where word p's span recurs in the cut but as its
// last span (prose's last span is a token of its own).
func tagAlone(spans []string, cuts [][]Word, p int) (string, bool) {
	k := 0 // the span holding word p
	for len(cuts[k+1]) <= p {
		k++
	}
	c := k + 1 // the cut
	for c < len(spans) && len(cuts[c]) <= p+2 {
		c++
	}
	for j := k + 1; j < c-1; j++ {
		if spans[j] == spans[k] {
			return "", false
		}
	}
	return cuts[c][p].Tag, true
}
