package assess

import (
	"context"
	"strings"
	"testing"

	"github.com/assay-rag/assay/internal/terms"
)

// TestAgree: "what does a replacement X200 jug actually cost us?" (the
// shape of design question fresh6 m79, on the Hollin corpus and its second
// attempt's hits). The internal cost prices page states the X200 jar's
// price but not "jug" (the question's most specific known word is lacked
// and 45% of its weight is covered): v43 refuses it. v44 accepts it when
// every earlier attempt of the run retrieved it too, and not on the first
// attempt, nor when an earlier attempt did not retrieve it.
func TestAgree(t *testing.T) {
	b, docs := hollinDocs(t)
	var ev []Evidence
	for _, id := range []string{"int-parts-cost", "ntc-x200-recall", "man-x200-blades", "faq-abroad", "pol-spare-parts"} {
		ev = append(ev, docs[id])
	}
	q := "what does a replacement X200 jug actually cost us?"
	judge := func(agree int, previous [][]string) Result {
		t.Helper()
		b.Agree = agree
		req := Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public", "finance"}}
		for range previous {
			req.Previous = append(req.Previous, q)
		}
		req.PreviousChunks = previous
		res, err := b.Assess(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// The first attempt's hits hold the cost prices page but not the jar
	// recall notice (which, judged alone, is agreeable too: it names the
	// X200 jar and "free"; had both searches retrieved it, it would be
	// accepted, being first in the assessor's order).
	first := []string{"man-x200-blades#0", "int-parts-cost#0", "faq-abroad#0", "pol-spare-parts#0", "pol-warranty-2026#0"}
	if r := judge(0, [][]string{first}); r.Assessment.Sufficient {
		t.Fatalf("v43: %+v, want refused", r.Assessment)
	}
	r := judge(agreeV46, [][]string{first})
	if !r.Assessment.Sufficient || len(r.Accepted) == 0 || r.Accepted[0] != "int-parts-cost#0" || !strings.Contains(r.Assessment.Reason, "retrieved by every one of the run's 2 searches") {
		t.Errorf("v44, second attempt: %+v %v, want accepted on int-parts-cost#0 for the agreement", r.Assessment, r.Accepted)
	}
	if r := judge(agreeV46, nil); r.Assessment.Sufficient {
		t.Errorf("v44, first attempt: %+v, want refused", r.Assessment)
	}
	if r := judge(agreeV46, [][]string{{"man-x200-blades#0", "faq-abroad#0", "pol-spare-parts#0"}}); r.Assessment.Sufficient {
		t.Errorf("v44, an earlier attempt without the page: %+v, want refused", r.Assessment)
	}
	// The shares: 60% of the known weight asked for is met (the page
	// lacks "jug" alone of the known words), 35% of the whole too; a
	// higher floor of the whole weight refuses it.
	if r := judge(6050, [][]string{first}); r.Assessment.Sufficient {
		t.Errorf("Agree 6050: %+v, want refused (the page covers 45%% of the question's weight)", r.Assessment)
	}
	// Agree's ten-thousands digit 2 (round 41, a41-agree2): the agreed
	// chunk must hold the most specific known word ("jug"), which the
	// cost prices page lacks; the jar recall notice, every search
	// retrieving it too, holds it and is accepted in its place.
	if r := judge(26035, [][]string{first}); r.Assessment.Sufficient {
		t.Errorf("Agree 26035: %+v %v, want refused (the page lacks the most specific word)", r.Assessment, r.Accepted)
	}
	both := append([]string{"ntc-x200-recall#0"}, first...)
	if r := judge(26035, [][]string{both}); !r.Assessment.Sufficient || len(r.Accepted) == 0 || r.Accepted[0] != "ntc-x200-recall#0" {
		t.Errorf("Agree 26035, the notice retrieved by both: %+v %v, want accepted on ntc-x200-recall#0", r.Assessment, r.Accepted)
	}
}

// TestAgreeModel: builtin:coverage-v45 is v44 with Agree 626035 and
// Second off; 0 is v44 (kept selectable); another value names itself.
func TestAgreeModel(t *testing.T) {
	b := NewBuiltin(terms.New(), newLexicon(terms.New(), "x"))
	if b.Agree != agreeV45 || agreeV45 != 626035 || b.Second != 0 || b.Model() != BuiltinModel || BuiltinModel != "builtin:coverage-v68" {
		t.Errorf("default Agree %d Second %d, model %q, want 626035, 0 and builtin:coverage-v68", b.Agree, b.Second, b.Model())
	}
	v47If(b, false)
	if b.Places, b.Matter, b.Rates, b.Parts, b.Ruled, b.Measured, b.Situated, b.ListedClause, b.Covered, b.Follow, b.Timed, b.Every, b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = 0, false, false, false, false, false, false, false, false, false, false, false, 0, false, 0, false, false, false, false; b.Model() != V45Model || V45Model != "builtin:coverage-v45" {
		t.Errorf("model %q with Sides, SidesMeasure, Listed, Places and Matter off, want %s", b.Model(), V45Model)
	}
	if b.Agree, b.Second, b.Matter, b.Rates, b.Parts, b.Ruled, b.Situated, b.ListedClause, b.Covered, b.Follow, b.Timed, b.Every, b.Counts, b.Opposite, b.Review, b.Learned, b.LearnedCover, b.Veto, b.Status = 0, 0, false, false, false, false, false, false, false, false, false, false, 0, false, 0, false, false, false, false; b.Model() != V44Model || V44Model != "builtin:coverage-v44" {
		t.Errorf("model %q with Agree 0, want %s", b.Model(), V44Model)
	}
	v47If(b, true)
	if b.Agree, b.Second = 6035, 1; b.Model() != BuiltinModel+"-agree6035+second-noplaces-nomatter-norates-noparts-noruled-nomeasured-nosituated-nolistedclause-nocovered-nofollow-notimed-noevery-nocounts-noopposite-noreview-nolearned-nolearnedcover-noveto-nostatus" {
		t.Errorf("model %q with Agree 6035 and Second 1, want %s-agree6035+second", b.Model(), BuiltinModel)
	}
}

// TestSecond: on the first attempt for the question of TestAgree, with the
// cost prices page alone retrieved (refused only for its coverage
// or its most specific word, Second's first proposal is the question's
// entities with the known words that chunk lacks; without Second the
// rewriter's own proposals come first. On a later attempt Second proposes
// nothing of its own.
func TestSecond(t *testing.T) {
	b, docs := hollinDocs(t)
	var ev []Evidence
	ev = append(ev, docs["int-parts-cost"])
	q := "what does a replacement X200 jug actually cost us?"
	judge := func(second int, previous [][]string) Result {
		t.Helper()
		b.Agree, b.Second = agreeV46, second
		req := Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: []string{"public", "finance"}, PreviousChunks: previous}
		for range previous {
			req.Previous = append(req.Previous, "X200 jug price")
		}
		res, err := b.Assess(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	r := judge(1, nil)
	ps := r.ProposalList()
	if r.Assessment.Sufficient || len(ps) == 0 || ps[0].Strategy != StrategySecond || ps[0].Query != "X200 replacement" {
		t.Fatalf("Second 1, first attempt: %+v %+v, want a %q proposal first: X200 with the known word the cost page lacks (replacement; no visible document uses jug), not the words it holds (cost)", r.Assessment, ps, StrategySecond)
	}
	if r := judge(0, nil); len(r.ProposalList()) > 0 && r.ProposalList()[0].Strategy == StrategySecond {
		t.Errorf("Second 0: %+v, want no %q proposal", r.ProposalList(), StrategySecond)
	}
	for _, p := range judge(1, [][]string{{"man-x200-blades#0"}}).ProposalList() {
		if p.Strategy == StrategySecond {
			t.Errorf("Second 1, second attempt: %+v, want no %q proposal", p, StrategySecond)
		}
	}
}

// TestAgreeAsked: Agree's hundred-thousands digit 6 (round 42,
// a42-agree3). "What currency does a replacement X200 jug actually cost
// us in?" asks for a kind of thing ("currency", the phrase its "what"
// asks for) no document the asker can see uses; the jar recall notice,
// retrieved by both searches, holds every name and 60% of the known
// words' weight (TestAgree's question with the asked kind added), and
// Agree 26035 accepts it. With the digit 6 it is refused; the same
// question without the unknown asked kind is still accepted on it.
func TestAgreeAsked(t *testing.T) {
	b, docs := hollinDocs(t)
	judge := func(agree int, q string) Result {
		t.Helper()
		return agreedRecall(t, b, docs, agree, q, []string{"public", "finance"})
	}
	unknown := "what currency does a replacement X200 jug actually cost us in?"
	if r := judge(26035, unknown); !r.Assessment.Sufficient || len(r.Accepted) == 0 || r.Accepted[0] != "ntc-x200-recall#0" {
		t.Fatalf("Agree 26035: %+v %v, want accepted on ntc-x200-recall#0", r.Assessment, r.Accepted)
	}
	if r := judge(626035, unknown); r.Assessment.Sufficient {
		t.Errorf("Agree 626035: %+v %v, want refused (no visible document uses \"currency\", the kind of thing asked for)", r.Assessment, r.Accepted)
	}
	known := "what does a replacement X200 jug actually cost us?"
	if r := judge(626035, known); !r.Assessment.Sufficient || len(r.Accepted) == 0 || r.Accepted[0] != "ntc-x200-recall#0" {
		t.Errorf("Agree 626035, no what-phrase: %+v %v, want accepted on ntc-x200-recall#0", r.Assessment, r.Accepted)
	}
}

// TestAgreeAskedVisible: Agree's hundred-thousands digit reads the words
// the asker's own documents know (corpus.Visible of the request's
// groups), never the whole corpus's. A staff-only page that says
// "currency" (the asker, public and finance, cannot see it) leaves the
// word unknown to the asker: TestAgreeAsked's refusal holds, and neither
// its reason nor its proposals name the hidden page's own words.
func TestAgreeAskedVisible(t *testing.T) {
	b, docs := hollinDocs(t)
	b.corpus.(*lexicon).add(b.an, []string{"staff"}, "Supplier settlement note\nSupplier invoices for the X200 jar are settled in the supplier's currency through the zorbixa ledger.")
	q := "what currency does a replacement X200 jug actually cost us in?"
	judge := func(agree int, groups []string) Result {
		t.Helper()
		return agreedRecall(t, b, docs, agree, q, groups)
	}
	asker := []string{"public", "finance"}
	if r := judge(26035, asker); !r.Assessment.Sufficient || len(r.Accepted) == 0 || r.Accepted[0] != "ntc-x200-recall#0" {
		t.Fatalf("Agree 26035: %+v %v, want accepted on ntc-x200-recall#0 (the hidden page changes nothing the asker sees)", r.Assessment, r.Accepted)
	}
	r := judge(agreeV45, asker)
	if r.Assessment.Sufficient {
		t.Errorf("Agree %d: %+v %v, want refused: \"currency\" is only on a page the asker cannot see", agreeV45, r.Assessment, r.Accepted)
	}
	seen := r.Assessment.Reason + " " + r.Assessment.Rewrite
	for _, p := range r.ProposalList() {
		seen += " " + p.Query + " " + p.Why
	}
	if strings.Contains(strings.ToLower(seen), "zorbixa") || strings.Contains(strings.ToLower(seen), "settle") {
		t.Errorf("Agree %d: the refusal names the hidden page's words: %s", agreeV45, seen)
	}
}

// TestAgreeNamesEveryEntity: Agree accepts only a chunk refused for its
// coverage alone, one that names every entity of the question.
// TestAgreeAsked's question with a place no visible document names ("in
// Peru") is refused, though the recall notice, retrieved by both
// searches, holds the same shares of the question's weight as without it.
func TestAgreeNamesEveryEntity(t *testing.T) {
	b, docs := hollinDocs(t)
	judge := func(q string) Result {
		t.Helper()
		return agreedRecall(t, b, docs, agreeV45, q, []string{"public", "finance"})
	}
	if r := judge("what does a replacement X200 jug actually cost us?"); !r.Assessment.Sufficient || len(r.Accepted) == 0 || r.Accepted[0] != "ntc-x200-recall#0" {
		t.Fatalf("Agree %d: %+v %v, want accepted on ntc-x200-recall#0", agreeV45, r.Assessment, r.Accepted)
	}
	if r := judge("what does a replacement X200 jug actually cost us in Peru?"); r.Assessment.Sufficient {
		t.Errorf("Agree %d, \"in Peru\": %+v %v, want refused (no visible document names Peru)", agreeV45, r.Assessment, r.Accepted)
	}
}

// TestAgreeWithoutPreviousChunks: a later attempt whose request carries
// the earlier queries but not their chunks (an AssessInput from workflow
// code older than the field, or a caller that does not set it) is judged
// as v44 judges it: Agree cannot tell what every search retrieved, so it
// neither accepts nor treats the attempt as the first (whose agreeable
// first chunk skips the visible-chunk check to ask for another search).
// On the first attempt the skip stays.
func TestAgreeWithoutPreviousChunks(t *testing.T) {
	b, docs := hollinDocs(t)
	q := "what does a replacement X200 jug actually cost us?"
	judge := func(agree int, previous []string) Result {
		t.Helper()
		b.Agree = agree
		req := Request{Question: q, Query: q, K: 5, Evidence: []Evidence{docs["ntc-x200-recall"]}, Groups: []string{"public", "finance"}, Previous: previous}
		res, err := b.Assess(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	v44, v45 := judge(0, []string{q}), judge(agreeV45, []string{q})
	if v45.Assessment != v44.Assessment || len(v45.ProposalList()) != len(v44.ProposalList()) {
		t.Errorf("a later attempt without PreviousChunks: v45 %+v %d proposals, v44 %+v %d proposals; want v44's", v45.Assessment, len(v45.ProposalList()), v44.Assessment, len(v44.ProposalList()))
	}
	if first := judge(agreeV45, nil); first.Assessment.Sufficient || len(first.ProposalList()) == 0 {
		t.Errorf("the first attempt: %+v %d proposals, want refused with a proposal (the agreeable chunk asks for another search)", first.Assessment, len(first.ProposalList()))
	}
}

// TestAgreeAbsentThing: a question asking whether there is a thing no
// visible document names ("a quibblex voucher") is refused whatever the
// searches agree on: Agree reads no chunk of a judgement absentThing
// refused (the blade page, retrieved by both searches, holds 74% of the
// known words' weight and would be accepted).
func TestAgreeAbsentThing(t *testing.T) {
	b, docs := hollinDocs(t)
	r := agreedRecall(t, b, docs, agreeV45, "is there a quibblex voucher for a replacement X200 jar?", []string{"public", "finance"})
	if r.Assessment.Sufficient || !strings.Contains(r.Assessment.Reason, "quibblex voucher") {
		t.Errorf("Agree %d: %+v %v, want refused for the absent thing", agreeV45, r.Assessment, r.Accepted)
	}
}

// agreedRecall judges q on a second attempt with TestAgree's evidence
// (the cost prices page first) whose earlier search retrieved the jar
// recall notice and every other chunk too, with Agree agree, for a caller
// of groups.
func agreedRecall(t *testing.T, b *Builtin, docs map[string]Evidence, agree int, q string, groups []string) Result {
	t.Helper()
	var ev []Evidence
	for _, id := range []string{"int-parts-cost", "ntc-x200-recall", "man-x200-blades", "faq-abroad", "pol-spare-parts"} {
		ev = append(ev, docs[id])
	}
	previous := [][]string{{"ntc-x200-recall#0", "man-x200-blades#0", "int-parts-cost#0", "faq-abroad#0", "pol-spare-parts#0", "pol-warranty-2026#0"}}
	b.Agree = agree
	req := Request{Question: q, Query: q, K: 5, Evidence: ev, Groups: groups, Previous: []string{q}, PreviousChunks: previous}
	res, err := b.Assess(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
