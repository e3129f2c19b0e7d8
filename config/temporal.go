package config

import (
	"net"

	"github.com/assay-rag/assay/internal/payloadcodec"
)

// Temporal says where the Temporal frontend is and which queue assay uses.
type Temporal struct {
	Address   string `yaml:"address" flag:"temporal-address"`
	Namespace string `yaml:"namespace"`
	TaskQueue string `yaml:"task_queue"`
	// Compression of gRPC requests to Temporal: gzip, none, or auto (the
	// default): none when Address is a loopback address, where gzip costs
	// CPU on both ends and saves nothing, gzip otherwise.
	Compression string `yaml:"compression"`
	// TLS to the frontend. TLSCertFile and TLSKeyFile (PEM) are this
	// process's client certificate, for a frontend that requires mutual
	// TLS; TLSCAFile (PEM) is the CA the frontend's certificate must
	// chain to (empty: the system roots); TLSServerName overrides the
	// name checked against it. With none set the connection is plain.
	TLSCertFile   string `yaml:"tls_cert_file"`
	TLSKeyFile    string `yaml:"tls_key_file"`
	TLSCAFile     string `yaml:"tls_ca_file"`
	TLSServerName string `yaml:"tls_server_name"`
	// PayloadKeys encrypt what assay hands Temporal — questions,
	// passages, answers, traces, memos, failure messages — with
	// AES-256-GCM, so Temporal's database and history exports hold
	// ciphertext. "ID:BASE64KEY" entries, comma-separated, each key 32
	// random bytes in base64 (assay key payload makes one); the first
	// encrypts, every one decrypts, so a key is rotated by putting a new
	// one first and dropping the old once no history written with it is
	// needed. Workers, gateways and the CLI need the same keys; the
	// gateway serves them as Temporal's remote codec at /codec (Web UI,
	// temporal workflow show --codec-endpoint). Empty (the default,
	// assay dev included): histories are plain JSON.
	PayloadKeys Secret `yaml:"payload_keys"`
}

// PayloadCodec is the codec of temporal.payload_keys; nil when none are
// set.
func (t Temporal) PayloadCodec() (*payloadcodec.Codec, error) {
	return payloadcodec.Parse(t.PayloadKeys.Reveal())
}

// Temporal.Compression values.
const (
	CompressionAuto = "auto"
	CompressionGzip = "gzip"
	CompressionNone = "none"
)

// Gzip reports whether requests to Temporal are gzip-compressed.
func (t Temporal) Gzip() bool {
	switch t.Compression {
	case CompressionGzip:
		return true
	case CompressionNone:
		return false
	}
	host, _, err := net.SplitHostPort(t.Address)
	if err != nil {
		return true
	}
	if host == "localhost" {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}
