package testcert

import (
	"crypto/tls"
	"path/filepath"
	"strings"
	"testing"
)

// TestIssuedCertificateVerifies serves a real TLS listener with an issued
// certificate: a client trusting the CA connects under each name, one
// trusting nothing, or asking for a name not issued, is refused.
func TestIssuedCertificateVerifies(t *testing.T) {
	ca := NewCA(t)
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	leaf := ca.Issue(t, 42, certFile, keyFile, "localhost", "127.0.0.1")
	if leaf.SerialNumber.Int64() != 42 || leaf.Subject.CommonName != "localhost" {
		t.Errorf("issued serial %v subject %q", leaf.SerialNumber, leaf.Subject.CommonName)
	}
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{pair}})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _ = c.(*tls.Conn).Handshake(); c.Close() }()
		}
	}()
	for _, tc := range []struct {
		name    string
		cfg     *tls.Config
		wantErr string
	}{
		{"dns name", &tls.Config{RootCAs: ca.Pool(), ServerName: "localhost"}, ""},
		{"ip address", &tls.Config{RootCAs: ca.Pool()}, ""},
		{"untrusted", &tls.Config{RootCAs: NewCA(t).Pool(), ServerName: "localhost"}, "unknown authority"},
		{"name not issued", &tls.Config{RootCAs: ca.Pool(), ServerName: "example.test"}, "not example.test"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tls.Dial("tcp", ln.Addr().String(), tc.cfg)
			if err == nil {
				c.Close()
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("handshake: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("handshake error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}
