package config

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
)

// TLSConfig builds the TLS configuration of the connection to the
// frontend from the tls_* files, or returns nil when none is set.
func (t Temporal) TLSConfig() (*tls.Config, error) {
	if t.TLSCertFile == "" && t.TLSKeyFile == "" && t.TLSCAFile == "" && t.TLSServerName == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: t.TLSServerName}
	if t.TLSCertFile != "" {
		cert, err := tls.LoadX509KeyPair(t.TLSCertFile, t.TLSKeyFile)
		if err != nil {
			return nil, fmt.Errorf("temporal.tls_cert_file, temporal.tls_key_file: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	if t.TLSCAFile != "" {
		pem, err := os.ReadFile(t.TLSCAFile)
		if err != nil {
			return nil, fmt.Errorf("temporal.tls_ca_file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("temporal.tls_ca_file %s: no PEM certificate in it", t.TLSCAFile)
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}
