// Package s3test runs a real S3-compatible server for tests: versitygw
// (pinned; .ci/run installs it) over a temporary folder, with one bucket
// anyone may read, and the standard AWS chain's environment pointing at it.
// It is imported by tests only (deploy, cmd/widgetd). Under CI (CI=true) a
// missing versitygw fails the test; elsewhere the test is skipped with the
// command that installs it.
package s3test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/widgetd/widgetd/internal/ci"
	"github.com/widgetd/widgetd/internal/daemontest"
)

// Version is the versitygw release the tests run.
const Version = "v1.8.0"

// Credentials and bucket of every Store.
const (
	AccessKey = "widgetd-test"
	SecretKey = "widgetd-test-secret"
	Bucket    = "widgets"
)

// Store is a running versitygw.
type Store struct {
	// Endpoint is its S3 API URL, http://127.0.0.1:port.
	Endpoint string
	// Bucket is the bucket made for the test, readable anonymously.
	Bucket string
}

// ObjectURL is the anonymous HTTP URL of key.
func (s *Store) ObjectURL(key string) string { return s.Endpoint + "/" + s.Bucket + "/" + key }

// Binary finds versitygw on PATH or in the Go bin folder, failing t under
// CI and skipping it elsewhere when it is not installed.
func Binary(t testing.TB) string {
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
	if gobin != "" {
		if bin := filepath.Join(gobin, "versitygw"); fileExists(bin) {
			return bin
		}
	}
	install := "go install github.com/versity/versitygw/cmd/versitygw@" + Version
	if ci.Running() {
		t.Fatalf("versitygw (the S3 server the deploy tests run) is not installed, and CI is set: .ci/run installs it (%s)", install)
	}
	t.Skipf("versitygw not installed: %s to run the deploy tests against a real S3 server", install)
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Start runs versitygw on a free loopback port until t ends, makes the
// bucket, and sets the AWS chain's environment (keys, region, no shared
// files, no instance metadata) for t.
func Start(t *testing.T) *Store {
	t.Helper()
	bin := Binary(t)
	dir := t.TempDir()
	addr := fmt.Sprintf("127.0.0.1:%d", daemontest.FreePort(t))
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--port", addr, "posix", dir)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+AccessKey, "ROOT_SECRET_KEY="+SecretKey)
	p := daemontest.Start(t, cmd, cancel)
	p.WaitListening(t, addr, nil)

	t.Setenv("AWS_ACCESS_KEY_ID", AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", SecretKey)
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "no-config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "no-credentials"))
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")

	s := &Store{Endpoint: "http://" + addr, Bucket: Bucket}
	if err := s.makeBucket(); err != nil {
		t.Fatalf("%v\n%s", err, p.Out.String())
	}
	return s
}

// makeBucket creates the bucket and lets anyone read its objects, as a
// CDN's origin access would.
func (s *Store) makeBucket() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return err
	}
	c := s3.NewFromConfig(cfg, func(o *s3.Options) {
		o.BaseEndpoint = aws.String(s.Endpoint)
		o.UsePathStyle = true
	})
	if _, err := c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(s.Bucket)}); err != nil {
		return fmt.Errorf("create bucket: %w", err)
	}
	policy := fmt.Sprintf(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::%s/*"}]}`, s.Bucket)
	if _, err := c.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: aws.String(s.Bucket), Policy: aws.String(policy)}); err != nil {
		return fmt.Errorf("make the bucket publicly readable: %w", err)
	}
	return nil
}
