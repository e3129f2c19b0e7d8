package gateway

import (
	"net/http"
	"testing"

	"github.com/assay-rag/assay/internal/api"
	"github.com/assay-rag/assay/internal/auth"
	"github.com/assay-rag/assay/workflows"
)

// TestGatewaySignsPrincipals: with principal keys, every run the gateway
// starts carries a signature of the caller's principal for that run and
// what it asks, which a worker's check accepts (workflows tests the
// refusal of unsigned and tampered inputs).
func TestGatewaySignsPrincipals(t *testing.T) {
	s, err := auth.ParseSigningKeys("k1:a-secret-of-at-least-thirty-two-bytes-1")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(o *Options) { o.Signer = s })
	var acc api.Accepted
	h.call(http.MethodPost, "/v1/questions", keyPartner, `{"question":"E4"}`).decode(t, &acc)
	in := h.eng.runs[acc.ID].in
	sig := in.Signature
	if sig == nil || sig.Run != acc.ID || sig.Digest != auth.QuestionDigest("E4") || s.Verify(sig, in.Principal) != nil {
		t.Errorf("question input signature %+v does not sign %+v for run %s", sig, in.Principal, acc.ID)
	}
	h.call(http.MethodPost, "/v1/batches", keyPartner, `{"questions":[{"question":"E4"},{"question":"E5"}]}`).decode(t, &acc)
	bin := h.eng.runs[acc.ID].batch
	if sig := bin.Signature; sig == nil || sig.Run != acc.ID || sig.Digest != workflows.BatchDigest(bin.Questions) || s.Verify(sig, bin.Principal) != nil {
		t.Errorf("batch input signature %+v does not sign %+v for batch %s", sig, bin.Principal, acc.ID)
	}
	// Without keys nothing is signed.
	h = newHarness(t)
	h.call(http.MethodPost, "/v1/questions", keyPartner, `{"question":"E4"}`).decode(t, &acc)
	if h.eng.runs[acc.ID].in.Signature != nil {
		t.Error("a gateway without keys signed")
	}
}
