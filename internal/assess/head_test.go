package assess

import (
	"slices"
	"testing"
)

// TestAgreeHead: Agree's millions digit 2 (round 42's a42-agree4, rebuilt
// in round 43). "What does a replacement X200 jug actually cost us in
// total so far?" asks, through its verb ("cost"), for a thing no document the
// asker can see names ("total", the head noun of the verb's complement);
// Agree 625030 (v45's guards, no what/which phrase here, with v46's
// shares: 50% of the known weight, 30% of the whole) accepts the jar
// recall notice, retrieved by both searches, for it. With the digit 2 it is
// refused; the same question without "in total so far" is still
// accepted. "What did the replacement X200 jug cost us in total so far?"
// the tagger reads without a verb ("cost" a noun): refused only with the
// ten-millions digit 1 (agreePronoun: "cost us" read as the verb). With
// "in warranty so far" (a word the public warranty policy uses, the
// recall notice not) the digit 2 accepts as 625030 does.
func TestAgreeHead(t *testing.T) {
	b, docs := hollinDocs(t)
	judge := func(agree int, q string) Result {
		t.Helper()
		return agreedRecall(t, b, docs, agree, q, []string{"public", "finance"})
	}
	total := "what does a replacement X200 jug actually cost us in total so far?"
	if r := judge(625030, total); !r.Assessment.Sufficient || len(r.Accepted) == 0 || r.Accepted[0] != "ntc-x200-recall#0" {
		t.Fatalf("Agree 625030: %+v %v, want accepted on ntc-x200-recall#0", r.Assessment, r.Accepted)
	}
	for _, agree := range []int{2625030, 12625030} {
		if r := judge(agree, total); r.Assessment.Sufficient {
			t.Errorf("Agree %d: %+v %v, want refused (no visible document uses \"total\", the head of what the question's verb asks for)", agree, r.Assessment, r.Accepted)
		}
	}
	known := "what does a replacement X200 jug actually cost us?"
	if r := judge(2625030, known); !r.Assessment.Sufficient || len(r.Accepted) == 0 || r.Accepted[0] != "ntc-x200-recall#0" {
		t.Errorf("Agree 2625030, without \"in total so far\": %+v %v, want accepted on ntc-x200-recall#0", r.Assessment, r.Accepted)
	}
	// A head noun the asker's documents use ("warranty": the warranty
	// policy), which the recall notice does not hold, is not asked of
	// the chunk: the digit reads only words no visible document knows.
	warranty := "what does a replacement X200 jug actually cost us in warranty so far?"
	if a := askedHead(warranty, false); a.head != "warranty" {
		t.Fatalf("askedHead(%q): head %q, want warranty", warranty, a.head)
	}
	for _, agree := range []int{625030, 2625030} {
		if r := judge(agree, warranty); !r.Assessment.Sufficient || len(r.Accepted) == 0 || r.Accepted[0] != "ntc-x200-recall#0" {
			t.Errorf("Agree %d, %q: %+v %v, want accepted on ntc-x200-recall#0 (\"warranty\" is a word the asker's documents use)", agree, warranty, r.Assessment, r.Accepted)
		}
	}
	noun := "what did the replacement X200 jug cost us in total so far?"
	for agree, want := range map[int]bool{625030: true, 2625030: true, 12625030: false} {
		if r := judge(agree, noun); r.Assessment.Sufficient != want {
			t.Errorf("Agree %d, %q: %+v %v, want accepted %v", agree, noun, r.Assessment, r.Accepted, want)
		}
	}
}

// TestAskedHead: what askedHead reads of the clause that asks — the asked
// verb past the auxiliaries, the head noun of its complement past
// determiners, pronouns and prepositions (the last noun of the first noun
// run), nouns between a subject pronoun and the verb read with it, the
// clause cut at its sentence's end; a noun an object pronoun follows read
// as the verb only with pronoun, when the tagger found no verb.
func TestAskedHead(t *testing.T) {
	for _, c := range []struct {
		q       string
		pronoun bool
		verb    []string
		head    string
	}{
		{"what does a replacement X200 jug actually cost us in total so far?", false, []string{"cost"}, "total"},
		{"How can I get a copy of all the data you hold on my account?", false, []string{"get"}, "copy"},
		{"my blender makes a grinding sound", false, []string{"makes"}, "sound"},
		{"how do i factory reset my K50? it just won't pair with my old android phone", false, []string{"factory", "reset"}, "K50"},
		{"What has the X200 jar recall cost us in total so far?", false, nil, ""},
		{"What has the X200 jar recall cost us in total so far?", true, []string{"cost"}, "total"},
		{"what is the warranty on the K50?", true, nil, ""},
	} {
		a := askedHead(c.q, c.pronoun)
		if !slices.Equal(a.verb, c.verb) || a.head != c.head {
			t.Errorf("askedHead(%q, %v): verb %q head %q, want %q %q", c.q, c.pronoun, a.verb, a.head, c.verb, c.head)
		}
	}
	a := askedHead("what does a replacement X200 jug actually cost us in total so far?", false)
	if !slices.Equal(a.comp, []string{"us", "in", "total", "so", "far"}) {
		t.Errorf("complement %q, want [us in total so far]", a.comp)
	}
	for d, want := range map[int][]string{1: {"cost"}, 2: {"total"}, 3: {"cost", "total"}, 4: {"us", "in", "total", "so", "far"}, 5: {"cost", "us", "in", "total", "so", "far"}} {
		if got := a.headWords(d); !slices.Equal(got, want) {
			t.Errorf("headWords(%d) %q, want %q", d, got, want)
		}
	}
}
