package assess

import "testing"

// TestFocusTopic: KnownAsk's and FocusTopic's tests of a focus reading
// (topic.go, off in every named model). A clause that asks holding a word
// no document uses and no known word but the entities' ("what do I tell
// her", read through "K50") keeps no word of its own; one with a known
// word that is no entity's does, and so does one holding no unknown word.
// A chunk covers a topic word only through a word that is no entity's and
// no number.
func TestFocusTopic(t *testing.T) {
	k50 := Entity{Text: "K50", Terms: []string{"k50"}, Code: true}
	entityOnly := &focus{words: []weighted{{term: "k50", known: true, weight: 2}}, ents: []Entity{k50}, unknown: []string{"tell"}}
	withTopic := &focus{words: []weighted{{term: "k50", known: true, weight: 2}, {term: "descal", known: true, weight: 1}}, ents: []Entity{k50}, unknown: []string{"tell"}}
	noUnknown := &focus{words: []weighted{{term: "k50", known: true, weight: 2}}, ents: []Entity{k50}}
	if entityOnly.asksKnown() || !withTopic.asksKnown() || !noUnknown.asksKnown() {
		t.Errorf("asksKnown: entity only %v (want false), with a topic word %v, no unknown word %v (want true)", entityOnly.asksKnown(), withTopic.asksKnown(), noUnknown.asksKnown())
	}
	covers := func(have map[string]bool, t string) bool { return have[t] }
	if withTopic.topicHeld(map[string]bool{"k50": true}, covers) || !withTopic.topicHeld(map[string]bool{"k50": true, "descal": true}, covers) {
		t.Errorf("topicHeld: want false for a chunk holding only the entity, true with \"descal\"")
	}
	numbers := &focus{words: []weighted{{term: "30", known: true, weight: 1}}}
	if numbers.topicHeld(map[string]bool{"30": true}, covers) {
		t.Errorf("topicHeld: a number is no topic word")
	}
}
