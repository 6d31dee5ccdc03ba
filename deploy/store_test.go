package deploy

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/widgetd/widgetd/internal/s3test"
)

// store is a running versitygw (internal/s3test) with a client made by
// NewClient, the way widgetd deploy makes it.
type store struct {
	*s3test.Store
	endpoint, bucket string
	client           *s3.Client
	// requests counts the HTTP requests the client sent.
	requests *atomic.Int64
}

// startStore runs versitygw until the test ends.
func startStore(t *testing.T) *store {
	t.Helper()
	st := s3test.Start(t)
	s := &store{Store: st, endpoint: st.Endpoint, bucket: st.Bucket, requests: &atomic.Int64{}}
	s.client = s.newClient(t, nil)
	return s
}

// newClient returns a client made by NewClient (the standard chain) whose
// HTTP requests are counted in s.requests, each upload delayed by slow when
// set.
func (s *store) newClient(t *testing.T, slow *time.Duration) *s3.Client {
	t.Helper()
	hc := &http.Client{Transport: &countingTransport{n: s.requests, slow: slow, next: http.DefaultTransport}}
	c, err := NewClient(context.Background(), ClientOptions{Endpoint: s.endpoint, HTTPClient: hc})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// objectURL is the anonymous HTTP URL of a key.
func (s *store) objectURL(key string) string { return s.ObjectURL(key) }

// countingTransport counts requests and can delay uploads, standing in for
// a slow link so that a deploy is still uploading when the test stops it.
type countingTransport struct {
	n    *atomic.Int64
	slow *time.Duration
	next http.RoundTripper
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	if c.slow != nil && r.Method == http.MethodPut {
		select {
		case <-time.After(*c.slow):
		case <-r.Context().Done():
			return nil, r.Context().Err()
		}
	}
	return c.next.RoundTrip(r)
}
