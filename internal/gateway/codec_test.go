package gateway

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/assay-rag/assay/internal/payloadcodec"
)

const testUIOrigin = "http://127.0.0.1:8233"

func codecHarness(t *testing.T) (*harness, *payloadcodec.Codec) {
	t.Helper()
	codec, err := payloadcodec.Parse("k1:" + base64.StdEncoding.EncodeToString([]byte(strings.Repeat("k", 32))))
	if err != nil {
		t.Fatal(err)
	}
	return newHarness(t, func(o *Options) { o.Codec, o.CodecOrigin = codec, testUIOrigin }), codec
}

// encryptedBody is a /codec/decode request body: one encrypted payload
// holding text.
func encryptedBody(t *testing.T, codec *payloadcodec.Codec, text string) string {
	t.Helper()
	p, err := converter.GetDefaultDataConverter().ToPayload(text)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := codec.Encode([]*commonpb.Payload{p})
	if err != nil {
		t.Fatal(err)
	}
	b, err := protojson.Marshal(&commonpb.Payloads{Payloads: enc})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCodecEndpoint: with a codec, /codec/decode turns an encrypted
// payload back into its text for a caller with an API key (the Temporal
// CLI's --codec-auth), and for the Temporal Web UI's origin with CORS; it
// refuses callers without a key and other sites' pages. Without a codec
// there is no /codec.
func TestCodecEndpoint(t *testing.T) {
	const text = "what is the vault code"
	h, codec := codecHarness(t)
	body := encryptedBody(t, codec, text)

	r := h.call(http.MethodPost, "/codec/decode", keyPublic, body)
	var out commonpb.Payloads
	if r.Status != http.StatusOK || protojson.Unmarshal(r.Body, &out) != nil || len(out.Payloads) != 1 {
		t.Fatalf("decode with a key = %d %s", r.Status, r.Body)
	}
	var got string
	if err := converter.GetDefaultDataConverter().FromPayload(out.Payloads[0], &got); err != nil || got != text {
		t.Errorf("decoded %q, %v; want %q", got, err, text)
	}

	r = h.call(http.MethodPost, "/codec/encode", keyPublic, `{"payloads":[{"metadata":{"encoding":"YmluYXJ5L3BsYWlu"},"data":"aGk="}]}`)
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), base64.StdEncoding.EncodeToString([]byte(payloadcodec.Encoding))) {
		t.Errorf("encode = %d %s; want an encrypted payload", r.Status, r.Body)
	}

	if r := h.call(http.MethodPost, "/codec/decode", "", body); r.Status != http.StatusUnauthorized || strings.Contains(string(r.Body), text) {
		t.Errorf("decode without a key = %d %s; want 401", r.Status, r.Body)
	}
	if r := h.call(http.MethodPost, "/codec/decode", "not-a-key", body); r.Status != http.StatusUnauthorized {
		t.Errorf("decode with a wrong key = %d %s; want 401", r.Status, r.Body)
	}
	if r := h.call(http.MethodPost, "/codec/decode", keyPublic, body, "Content-Type", "text/plain"); r.Status != http.StatusUnsupportedMediaType {
		t.Errorf("decode as text/plain = %d; want 415", r.Status)
	}
	if r := h.call(http.MethodGet, "/codec/decode", keyPublic, ""); r.Status/100 == 2 {
		t.Errorf("GET /codec/decode = %d; want no 2xx", r.Status)
	}

	// The Web UI's page: CORS for its origin only.
	r = h.call(http.MethodPost, "/codec/decode", keyPublic, body, "Origin", testUIOrigin, "Sec-Fetch-Site", "same-site")
	if r.Status != http.StatusOK || r.Header.Get("Access-Control-Allow-Origin") != testUIOrigin {
		t.Errorf("decode from the Web UI = %d, Allow-Origin %q; want 200 with CORS for %s", r.Status, r.Header.Get("Access-Control-Allow-Origin"), testUIOrigin)
	}
	r = h.call(http.MethodOptions, "/codec/decode", "", "", "Origin", testUIOrigin,
		"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type,x-namespace")
	if r.Status != http.StatusNoContent || r.Header.Get("Access-Control-Allow-Origin") != testUIOrigin ||
		!strings.Contains(r.Header.Get("Access-Control-Allow-Headers"), "X-Namespace") {
		t.Errorf("the Web UI's preflight = %d %v; want 204 allowing its origin and X-Namespace", r.Status, r.Header)
	}
	for _, hdr := range [][]string{
		{"Origin", "https://evil.example"},
		{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"},
		{"Sec-Fetch-Site", "cross-site"},
	} {
		r := h.call(http.MethodPost, "/codec/decode", keyPublic, body, hdr...)
		if r.Status != http.StatusForbidden || r.Header.Get("Access-Control-Allow-Origin") != "" || strings.Contains(string(r.Body), text) {
			t.Errorf("decode %v = %d %s; want 403 without CORS", hdr, r.Status, r.Body)
		}
	}
	r = h.call(http.MethodOptions, "/codec/decode", "", "", "Origin", "https://evil.example", "Access-Control-Request-Method", "POST")
	if r.Status/100 == 2 || r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("another site's preflight = %d %v; want a refusal without CORS", r.Status, r.Header)
	}

	// A tampered payload is a 400, not a plaintext.
	var req map[string][]map[string]any
	_ = json.Unmarshal([]byte(body), &req)
	req["payloads"][0]["data"] = base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", 40)))
	tampered, _ := json.Marshal(req)
	if r := h.call(http.MethodPost, "/codec/decode", keyPublic, string(tampered)); r.Status != http.StatusBadRequest {
		t.Errorf("a tampered payload = %d %s; want 400", r.Status, r.Body)
	}

	// With http.codec_group only keys in that group may decode.
	h = newHarness(t, func(o *Options) { o.Codec, o.CodecGroup = codec, "partners" })
	if r := h.call(http.MethodPost, "/codec/decode", keyPublic, body); r.Status != http.StatusForbidden || r.errorOf(t).Field != "authorization" || strings.Contains(string(r.Body), text) {
		t.Errorf("decode by a key outside the codec group = %d %s; want 403", r.Status, r.Body)
	}
	if r := h.call(http.MethodPost, "/codec/decode", keyPartner, body); r.Status != http.StatusOK {
		t.Errorf("decode by a key in the codec group = %d %s; want 200", r.Status, r.Body)
	}

	plain := newHarness(t)
	if r := plain.call(http.MethodPost, "/codec/decode", keyPublic, body); r.Status != http.StatusNotFound {
		t.Errorf("without a codec /codec/decode = %d; want 404", r.Status)
	}
}
