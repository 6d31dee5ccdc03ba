package origin

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"
)

// certReloader serves a certificate pair from files and loads them again
// when either file's modification time or size changes, so a renewed
// certificate (certbot, cert-manager, a mounted secret) is picked up
// without a restart. A pair that fails to load (for example half-written)
// is logged and the previous one kept.
type certReloader struct {
	certFile, keyFile string
	logger            *slog.Logger

	mu      sync.Mutex
	cert    *tls.Certificate
	stamp   [2]fileStamp
	checked time.Time
}

// fileStamp is what decides a reload.
type fileStamp struct {
	mod  time.Time
	size int64
}

// certCheckEvery bounds how often the files are stat'ed: at most once per
// interval, on a handshake.
const certCheckEvery = time.Second

func newCertReloader(certFile, keyFile string, logger *slog.Logger) (*certReloader, error) {
	r := &certReloader{certFile: certFile, keyFile: keyFile, logger: logger}
	st, err := r.stat()
	if err != nil {
		return nil, err
	}
	if err := r.load(st); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *certReloader) stat() ([2]fileStamp, error) {
	var st [2]fileStamp
	for i, name := range []string{r.certFile, r.keyFile} {
		fi, err := os.Stat(name)
		if err != nil {
			return st, fmt.Errorf("TLS certificate: %w", err)
		}
		st[i] = fileStamp{fi.ModTime(), fi.Size()}
	}
	return st, nil
}

func (r *certReloader) load(st [2]fileStamp) error {
	c, err := tls.LoadX509KeyPair(r.certFile, r.keyFile)
	if err != nil {
		return fmt.Errorf("TLS certificate %s with key %s: %w", r.certFile, r.keyFile, err)
	}
	r.cert, r.stamp = &c, st
	return nil
}

// GetCertificate is tls.Config.GetCertificate.
func (r *certReloader) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if now := time.Now(); now.Sub(r.checked) >= certCheckEvery {
		r.checked = now
		st, err := r.stat()
		switch {
		case err != nil:
			r.logger.Warn("TLS certificate files unreadable; keeping the loaded certificate", "error", err.Error())
		case st != r.stamp:
			if err := r.load(st); err != nil {
				r.logger.Warn("TLS certificate changed but does not load; keeping the previous one", "error", err.Error())
			} else {
				r.logger.Info("TLS certificate reloaded", "cert", r.certFile)
			}
		}
	}
	return r.cert, nil
}
