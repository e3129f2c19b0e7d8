package payloadcodec

import (
	"bytes"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
)

func key(b byte) string { return base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{b}, KeyLen)) }

func mustParse(t *testing.T, spec string) *Codec {
	t.Helper()
	c, err := Parse(spec)
	if err != nil || c == nil {
		t.Fatalf("Parse: %v, %v", c, err)
	}
	return c
}

const secretText = "the vault code is zyxwv"

func payload(t *testing.T) *commonpb.Payload {
	t.Helper()
	p, err := converter.GetDefaultDataConverter().ToPayload(map[string]string{"question": secretText})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRoundTrip: an encoded payload holds neither the text nor its
// encoding, names its key, and decodes to the original.
func TestRoundTrip(t *testing.T) {
	c := mustParse(t, "k1:"+key(1))
	in := payload(t)
	enc, err := c.Encode([]*commonpb.Payload{in})
	if err != nil {
		t.Fatal(err)
	}
	e := enc[0]
	if bytes.Contains(e.Data, []byte("zyxwv")) || bytes.Contains(e.Data, []byte("json/plain")) {
		t.Errorf("ciphertext holds the plain text: %q", e.Data)
	}
	if got := string(e.Metadata[converter.MetadataEncoding]); got != Encoding {
		t.Errorf("encoding = %q, want %q", got, Encoding)
	}
	if got := string(e.Metadata[MetadataKeyID]); got != "k1" {
		t.Errorf("key id = %q, want k1", got)
	}
	again, _ := c.Encode([]*commonpb.Payload{in})
	if bytes.Equal(again[0].Data, e.Data) {
		t.Error("two encryptions of one payload are equal: the nonce is not fresh")
	}
	dec, err := c.Decode(enc)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	if err := converter.GetDefaultDataConverter().FromPayload(dec[0], &got); err != nil || got["question"] != secretText {
		t.Errorf("decoded %v, %v; want the question back", got, err)
	}
	plain := payload(t)
	if out, err := c.Decode([]*commonpb.Payload{plain}); err != nil || out[0] != plain {
		t.Errorf("a plain payload: %v, %v; want it passed through", out, err)
	}
}

// TestRotation: the first key encrypts, every key decrypts; a codec
// without the old key cannot read what it wrote.
func TestRotation(t *testing.T) {
	old := mustParse(t, "k1:"+key(1))
	rotated := mustParse(t, "k2:"+key(2)+", k1:"+key(1))
	written, err := old.Encode([]*commonpb.Payload{payload(t)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rotated.Decode(written); err != nil {
		t.Errorf("the rotated codec reads k1's payload: %v", err)
	}
	fresh, _ := rotated.Encode([]*commonpb.Payload{payload(t)})
	if got := string(fresh[0].Metadata[MetadataKeyID]); got != "k2" {
		t.Errorf("the rotated codec encrypts with %q, want k2 (the first)", got)
	}
	dropped := mustParse(t, "k2:"+key(2))
	_, err = dropped.Decode(written)
	if err == nil || !strings.Contains(err.Error(), `"k1"`) || !strings.Contains(err.Error(), Field) {
		t.Errorf("k1's payload without k1: %v; want an error naming k1 and %s", err, Field)
	}
}

// TestTamper: a changed byte, or a payload relabelled with another key
// id, does not decrypt.
func TestTamper(t *testing.T) {
	c := mustParse(t, "k1:"+key(1)+",k2:"+key(2))
	enc, _ := c.Encode([]*commonpb.Payload{payload(t)})
	flipped := &commonpb.Payload{Metadata: enc[0].Metadata, Data: bytes.Clone(enc[0].Data)}
	flipped.Data[len(flipped.Data)-5] ^= 1
	if _, err := c.Decode([]*commonpb.Payload{flipped}); err == nil {
		t.Error("a flipped byte decrypted")
	}
	relabelled := &commonpb.Payload{Metadata: map[string][]byte{
		converter.MetadataEncoding: []byte(Encoding), MetadataKeyID: []byte("k2"),
	}, Data: enc[0].Data}
	if _, err := c.Decode([]*commonpb.Payload{relabelled}); err == nil {
		t.Error("a payload relabelled k2 decrypted")
	}
	short := &commonpb.Payload{Metadata: enc[0].Metadata, Data: []byte{1, 2}}
	if _, err := c.Decode([]*commonpb.Payload{short}); err == nil {
		t.Error("a truncated payload decrypted")
	}
}

func TestParse(t *testing.T) {
	if c, err := Parse(" "); c != nil || err != nil {
		t.Errorf("empty: %v, %v; want no codec, no error", c, err)
	}
	raw := base64.RawURLEncoding.EncodeToString(bytes.Repeat([]byte{7}, KeyLen))
	if _, err := Parse("a:" + raw); err != nil {
		t.Errorf("unpadded URL-safe base64: %v", err)
	}
	secret := base64.StdEncoding.EncodeToString([]byte("sixteen byte key"))
	for spec, want := range map[string]string{
		"nokeyid":                        "[0]",
		"bad id!:" + key(1):              "[0]",
		"k1:" + key(1) + ",k2:" + "!":    "[1]",
		"k1:" + secret:                   "16 bytes",
		"k1:" + key(1) + ",k1:" + key(2): "appears twice",
	} {
		_, err := Parse(spec)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), Field) || strings.Contains(err.Error(), secret) {
			t.Errorf("Parse(%q) = %v; want an error naming %s and %q, without the key", spec, err, Field, want)
		}
	}
	entry, err := NewKey("k9")
	if err != nil {
		t.Fatal(err)
	}
	if c, err := Parse(entry); err != nil || c.KeyID() != "k9" {
		t.Errorf("NewKey's entry %q: %v", entry, err)
	}
}

// TestFailureConverter: with a codec, a failure's message travels
// encrypted and comes back whole.
func TestFailureConverter(t *testing.T) {
	c := mustParse(t, "k1:"+key(1))
	fc := c.FailureConverter(c.DataConverter())
	f := fc.ErrorToFailure(errors.New("no passage about " + secretText))
	if strings.Contains(f.String(), "zyxwv") {
		t.Errorf("the failure holds the message in plain text: %v", f)
	}
	if got := fc.FailureToError(f); got == nil || !strings.Contains(got.Error(), secretText) {
		t.Errorf("decoded failure %v; want the message back", got)
	}
	var nilCodec *Codec
	if nilCodec.DataConverter() != converter.GetDefaultDataConverter() {
		t.Error("a nil codec's converter is not the default")
	}
}

// TestRemoteCodec: the SDK's HTTP handler over the codec speaks Temporal's
// remote codec protocol to the SDK's remote client.
func TestRemoteCodec(t *testing.T) {
	c := mustParse(t, "k1:"+key(1))
	srv := httptest.NewServer(converter.NewPayloadCodecHTTPHandler(c))
	defer srv.Close()
	remote := converter.NewRemotePayloadCodec(converter.RemotePayloadCodecOptions{Endpoint: srv.URL, Client: http.Client{}})
	enc, err := c.Encode([]*commonpb.Payload{payload(t)})
	if err != nil {
		t.Fatal(err)
	}
	dec, err := remote.Decode(enc)
	if err != nil || !bytes.Contains(dec[0].Data, []byte("zyxwv")) {
		t.Errorf("remote decode: %v, %v", dec, err)
	}
}
