// Package payloadcodec encrypts the payloads assay's processes hand to
// Temporal — workflow and activity inputs and results, memos, summaries,
// markers, failure messages — with AES-256-GCM, so Temporal's database
// and history exports hold ciphertext, not questions, passages and
// answers. It is a converter.PayloadCodec: DataConverter wraps the SDK's
// default converter with it for the clients and workers, and the gateway
// serves it as Temporal's remote codec (/codec/encode, /codec/decode) for
// the Web UI and `temporal workflow show --codec-endpoint`.
//
// Keys come from temporal.payload_keys, "ID:BASE64KEY,..." with 32-byte
// keys: the first encrypts, every one decrypts, so a key is rotated by
// putting a new one first and dropping the old one once no history
// written with it is still needed. An encrypted payload records its key
// id in its metadata; the key id is also the cipher's additional data, so
// a payload relabelled with another key id does not decrypt.
package payloadcodec

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/proto"

	"github.com/assay-rag/assay/internal/errs"
)

// Metadata of an encrypted payload.
const (
	// Encoding is its converter.MetadataEncoding value.
	Encoding = "binary/encrypted"
	// MetadataKeyID names the key that encrypted it.
	MetadataKeyID = "encryption-key-id"
)

// KeyLen is the length of a payload key: AES-256.
const KeyLen = 32

// Field is the configuration key the keys come from, for errors.
const Field = "temporal.payload_keys"

var keyIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,32}$`)

// Codec encrypts with its first key and decrypts with any of its keys.
// It is safe for concurrent use.
type Codec struct {
	current string
	aeads   map[string]cipher.AEAD
}

var _ converter.PayloadCodec = (*Codec)(nil)

// Parse reads "ID:BASE64KEY,ID:BASE64KEY" (temporal.payload_keys), each
// key 32 bytes in standard or URL-safe base64, padded or not. Empty is no
// keys: a nil *Codec, encryption off. Errors name the entry, never the
// key.
func Parse(spec string) (*Codec, error) {
	const op = "payloadcodec.Parse"
	var c *Codec
	for i, entry := range strings.Split(spec, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		field := fmt.Sprintf("%s[%d]", Field, i)
		id, b64, ok := strings.Cut(entry, ":")
		if !ok || !keyIDPattern.MatchString(id) {
			return nil, errs.FieldError(op, field, "want ID:BASE64KEY with an ID of letters, digits, '.', '_' or '-' (at most 32)")
		}
		key, err := decodeKey(b64)
		if err != nil {
			return nil, errs.FieldError(op, field, fmt.Sprintf("key %s: %v", id, err))
		}
		if c == nil {
			c = &Codec{current: id, aeads: map[string]cipher.AEAD{}}
		}
		if _, dup := c.aeads[id]; dup {
			return nil, errs.FieldError(op, field, fmt.Sprintf("key id %s appears twice", id))
		}
		block, err := aes.NewCipher(key)
		if err != nil {
			return nil, errs.FieldError(op, field, fmt.Sprintf("key %s: %v", id, err))
		}
		if c.aeads[id], err = cipher.NewGCM(block); err != nil {
			return nil, errs.FieldError(op, field, fmt.Sprintf("key %s: %v", id, err))
		}
	}
	return c, nil
}

// decodeKey reads a base64 key of KeyLen bytes.
func decodeKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			if len(b) != KeyLen {
				return nil, fmt.Errorf("the key is %d bytes; want %d in base64 (e.g. openssl rand -base64 32)", len(b), KeyLen)
			}
			return b, nil
		}
	}
	return nil, fmt.Errorf("the key is not base64; want %d random bytes in base64 (e.g. openssl rand -base64 32)", KeyLen)
}

// NewKey returns a fresh key entry "id:BASE64KEY" for temporal.payload_keys.
func NewKey(id string) (string, error) {
	if !keyIDPattern.MatchString(id) {
		return "", fmt.Errorf("payload key id %q: want letters, digits, '.', '_' or '-' (at most 32)", id)
	}
	b := make([]byte, KeyLen)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("payload key: %w", err)
	}
	return id + ":" + base64.StdEncoding.EncodeToString(b), nil
}

// KeyID is the id of the key that encrypts.
func (c *Codec) KeyID() string { return c.current }

// Encode encrypts each payload, metadata and all, with the first key.
func (c *Codec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	aead := c.aeads[c.current]
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		plain, err := proto.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("payloadcodec: encode payload %d: %w", i, err)
		}
		nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
		if _, err := rand.Read(nonce); err != nil {
			return nil, fmt.Errorf("payloadcodec: nonce: %w", err)
		}
		out[i] = &commonpb.Payload{
			Metadata: map[string][]byte{
				converter.MetadataEncoding: []byte(Encoding),
				MetadataKeyID:              []byte(c.current),
			},
			Data: aead.Seal(nonce, nonce, plain, []byte(c.current)),
		}
	}
	return out, nil
}

// Decode decrypts each encrypted payload and passes the others through
// (histories written before encryption was turned on). An encrypted
// payload under a key id the codec lacks, or one that was altered, is an
// error.
func (c *Codec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[converter.MetadataEncoding]) != Encoding {
			out[i] = p
			continue
		}
		id := string(p.GetMetadata()[MetadataKeyID])
		aead, ok := c.aeads[id]
		if !ok {
			return nil, fmt.Errorf("payloadcodec: payload %d is encrypted with key %q, which is not in %s", i, id, Field)
		}
		data := p.GetData()
		if len(data) < aead.NonceSize() {
			return nil, fmt.Errorf("payloadcodec: payload %d: ciphertext too short", i)
		}
		plain, err := aead.Open(nil, data[:aead.NonceSize()], data[aead.NonceSize():], []byte(id))
		if err != nil {
			return nil, fmt.Errorf("payloadcodec: payload %d (key %q) does not decrypt: altered, or encrypted with another key of that id", i, id)
		}
		var dec commonpb.Payload
		if err := proto.Unmarshal(plain, &dec); err != nil {
			return nil, fmt.Errorf("payloadcodec: payload %d: decrypted bytes are not a payload: %w", i, err)
		}
		out[i] = &dec
	}
	return out, nil
}

// DataConverter is the SDK's default converter with c's encryption; the
// default converter alone when c is nil.
func (c *Codec) DataConverter() converter.DataConverter {
	if c == nil {
		return converter.GetDefaultDataConverter()
	}
	return converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), c)
}

// FailureConverter encodes failures with dc and, when c is not nil, moves
// their messages and stack traces into an encoded payload too: error
// messages may quote a question or a passage.
func (c *Codec) FailureConverter(dc converter.DataConverter) converter.FailureConverter {
	return temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{
		DataConverter:          dc,
		EncodeCommonAttributes: c != nil,
	})
}
