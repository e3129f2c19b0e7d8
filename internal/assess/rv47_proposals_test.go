package assess

import (
	"os"
	"testing"
)

// TestProposalOwnFee (rv47, proposal, not applied: it would change a
// verdict): asked "Do you charge an inspection fee for my kettle out of
// warranty?" over the repairs page (a £25 fee for every appliance) and
// the K50's own repairs page (a £10 fee), the default accepts the
// repairs page — by the coverage rules, Every or not — though the
// asker's kettle's own page states the fee (Every's ownValue holds). A
// case built here, not a set's question. Fails today; skipped unless
// RV47_PROPOSALS=1. Round 48 (a48-rv, builtin:coverage-v66 Charged,
// 0310dd2f) made it pass and changed no development question end to
// end: measured, not kept (docs/log/round-48-a48-rv.md).
func TestProposalOwnFee(t *testing.T) {
	if os.Getenv("RV47_PROPOSALS") == "" {
		t.Skip("a proposal (rv47's log): set RV47_PROPOSALS=1 to see it fail")
	}
	other := []string{"Opening hours\nWe open at nine.", "Registering your appliance\nRegister it online.", "Switching on\nHold the button to turn it on."}
	q := "Do you charge an inspection fee for my kettle out of warranty?"
	for _, ids := range [][]string{{"rep#0", "k50fee#0"}, {"k50fee#0", "rep#0"}} {
		if r := judgeAmong(t, everyCorpus, other, func(*Builtin) {}, q, ids...); acceptedOn(r) != "k50fee#0" {
			t.Errorf("%q over %v: accepted %v (%s), want k50fee#0, the asker's kettle's own fee page", q, ids, r.Accepted, r.Assessment.Reason)
		}
	}
}
