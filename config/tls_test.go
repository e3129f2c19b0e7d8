package config

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testCert issues a certificate for name signed by ca (self-signed when
// ca is nil) and writes cert and key as PEM files in dir.
func testCert(t *testing.T, dir, name string, ca *tls.Certificate, isCA bool) (tls.Certificate, string, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		DNSNames: []string{name}, IsCA: isCA, BasicConstraintsValid: true,
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	parent, signer := tmpl, any(key)
	if ca != nil {
		parent, signer = ca.Leaf, ca.PrivateKey
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, signer)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPath, keyPath := filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	if err := os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(der)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, certPath, keyPath
}

// TestTemporalTLS: the temporal.tls_* files make a client that completes
// a mutual TLS handshake with a frontend requiring client certificates
// from the same CA; without them the connection is plain; bad settings
// are named.
func TestTemporalTLS(t *testing.T) {
	dir := t.TempDir()
	ca, caPath, _ := testCert(t, dir, "assay-test-ca", nil, true)
	server, _, _ := testCert(t, dir, "temporal.internal", &ca, false)
	_, clientCert, clientKey := testCert(t, dir, "assay-worker", &ca, false)

	if cfg, err := Default().Temporal.TLSConfig(); cfg != nil || err != nil {
		t.Fatalf("no tls settings: TLSConfig = %v, %v; want plain", cfg, err)
	}
	tc := Temporal{TLSCertFile: clientCert, TLSKeyFile: clientKey, TLSCAFile: caPath, TLSServerName: "temporal.internal"}
	clientTLS, err := tc.TLSConfig()
	if err != nil {
		t.Fatal(err)
	}

	pool := x509.NewCertPool()
	pool.AddCert(ca.Leaf)
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{
		Certificates: []tls.Certificate{server}, ClientCAs: pool, ClientAuth: tls.RequireAndVerifyClientCert,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			_ = conn.(*tls.Conn).Handshake()
			_, _ = conn.Write([]byte("ok"))
			conn.Close()
		}
	}()
	conn, err := tls.Dial("tcp", ln.Addr().String(), clientTLS)
	if err != nil {
		t.Fatalf("mutual TLS handshake failed: %v", err)
	}
	buf := make([]byte, 2)
	if _, err := conn.Read(buf); err != nil || string(buf) != "ok" {
		t.Errorf("read after handshake: %q, %v", buf, err)
	}
	conn.Close()

	// Without the client certificate the frontend refuses the handshake.
	noCert := Temporal{TLSCAFile: caPath, TLSServerName: "temporal.internal"}
	plainTLS, err := noCert.TLSConfig()
	if err != nil {
		t.Fatal(err)
	}
	if c, err := tls.Dial("tcp", ln.Addr().String(), plainTLS); err == nil {
		_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
		if _, err := c.Read(buf); err == nil {
			t.Error("a client without a certificate got through a frontend that requires one")
		}
		c.Close()
	}

	for _, tt := range []struct {
		name string
		t    Temporal
		want string
	}{
		{"cert without key", Temporal{TLSCertFile: clientCert}, "temporal.tls_"},
		{"missing ca", Temporal{TLSCAFile: filepath.Join(dir, "nope.pem")}, "temporal.tls_ca_file"},
		{"ca not PEM", Temporal{TLSCAFile: clientKey}, "no PEM certificate"},
	} {
		if _, err := tt.t.TLSConfig(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: TLSConfig error = %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	bad := Default()
	bad.Temporal.TLSCertFile = clientCert
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "temporal.tls_key_file") {
		t.Errorf("Validate with a cert and no key = %v, want an error naming temporal.tls_key_file", err)
	}
}
