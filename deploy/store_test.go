package deploy

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/widgetd/widgetd/internal/syncbuf"
)

// versitygwVersion is the versitygw release the tests run; .ci/run installs
// it with go install github.com/versity/versitygw/cmd/versitygw@v1.8.0.
const versitygwVersion = "v1.8.0"

// versitygwBinary finds versitygw on PATH or in the Go bin folder. Under CI
// (CI=true) its absence fails the test; elsewhere the test is skipped with
// the command that installs it.
func versitygwBinary(t *testing.T) string {
	t.Helper()
	if bin, err := exec.LookPath("versitygw"); err == nil {
		return bin
	}
	gobin := os.Getenv("GOBIN")
	if gobin == "" {
		if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
			gobin = filepath.Join(string(bytes.TrimSpace(out)), "bin")
		}
	}
	if bin := filepath.Join(gobin, "versitygw"); gobin != "" {
		if _, err := os.Stat(bin); err == nil {
			return bin
		}
	}
	install := "go install github.com/versity/versitygw/cmd/versitygw@" + versitygwVersion
	if os.Getenv("CI") == "true" {
		t.Fatalf("versitygw (the S3 server the deploy tests run) is not installed, and CI is set: .ci/run installs it (%s)", install)
	}
	t.Skipf("versitygw not installed: %s to run the deploy tests against a real S3 server", install)
	return ""
}

// store is a running versitygw over a temporary folder with one bucket
// that anyone may read (as a CDN's origin access would), and the AWS
// chain's environment pointing at it.
type store struct {
	endpoint string // http://127.0.0.1:port
	bucket   string
	dir      string // the posix backend's folder
	client   *s3.Client
	// requests counts the HTTP requests the client sent.
	requests *atomic.Int64
}

const (
	storeAccessKey = "widgetd-test"
	storeSecretKey = "widgetd-test-secret"
	storeBucket    = "widgets"
)

// startStore runs versitygw on a free loopback port until the test ends.
func startStore(t *testing.T) *store {
	t.Helper()
	bin := versitygwBinary(t)
	dir := t.TempDir()
	port := freePort(t)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--port", addr, "posix", dir)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+storeAccessKey, "ROOT_SECRET_KEY="+storeSecretKey)
	out := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start versitygw: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { cancel(); <-exited })
	waitListening(t, addr, exited, out)

	// The standard AWS chain, and nothing from this machine's ~/.aws.
	t.Setenv("AWS_ACCESS_KEY_ID", storeAccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", storeSecretKey)
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "no-config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "no-credentials"))
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")

	s := &store{endpoint: "http://" + addr, bucket: storeBucket, dir: dir, requests: &atomic.Int64{}}
	s.client = s.newClient(t, nil)
	bctx, bcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer bcancel()
	if _, err := s.client.CreateBucket(bctx, &s3.CreateBucketInput{Bucket: aws.String(s.bucket)}); err != nil {
		t.Fatalf("create bucket: %v\n%s", err, out.String())
	}
	policy := fmt.Sprintf(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::%s/*"}]}`, s.bucket)
	if _, err := s.client.PutBucketPolicy(bctx, &s3.PutBucketPolicyInput{Bucket: aws.String(s.bucket), Policy: aws.String(policy)}); err != nil {
		t.Fatalf("make the bucket publicly readable: %v", err)
	}
	return s
}

// newClient returns a client made by NewClient (the standard chain) whose
// HTTP requests are counted in s.requests, each delayed by slow when set.
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
func (s *store) objectURL(key string) string { return s.endpoint + "/" + s.bucket + "/" + key }

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

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitListening waits until addr accepts connections, failing t if the
// process exits first or 30 s pass.
func waitListening(t *testing.T, addr string, exited <-chan error, out *syncbuf.Buffer) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; {
		select {
		case err := <-exited:
			t.Fatalf("server for %s exited: %v\n%s", addr, err, out.String())
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing listened on %s within 30s:\n%s", addr, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
