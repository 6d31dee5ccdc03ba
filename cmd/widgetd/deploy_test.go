package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/deploy"
	"github.com/widgetd/widgetd/internal/s3test"
)

// TestDeployUsage: a missing or malformed target and bad flags are usage
// errors (exit 2); a folder without a build is a runtime error (exit 1)
// that says to build first. None of them needs a store.
func TestDeployUsage(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("AWS_ACCESS_KEY_ID", "k")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "s")
	t.Setenv("AWS_REGION", "us-east-1")
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"deploy"}, exitUsage, "missing the target: widgetd deploy s3://bucket/prefix"},
		{[]string{"deploy", "https://bucket.example.com/w"}, exitUsage, "is not an s3://bucket/prefix URL"},
		{[]string{"deploy", "s3://b/a/../c"}, exitUsage, "empty, . or .. segment"},
		{[]string{"deploy", "--concurrency", "0", "s3://b/w"}, exitUsage, "--concurrency must be at least 1"},
		{[]string{"deploy", "s3://b/w", "extra"}, exitUsage, `unexpected argument "extra"`},
		{[]string{"deploy", "--dir", empty, "--endpoint", "http://127.0.0.1:1", "s3://b/w"}, exitError, "has no manifest.json: run widgetd build first"},
	} {
		code, _, errs := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.err) {
			t.Errorf("widgetd %s: exit %d, stderr %q; want exit %d with %q", strings.Join(tc.args, " "), code, errs, tc.code, tc.err)
		}
	}
}

// TestDeployCLI runs widgetd deploy against a real S3 server (versitygw)
// with the committed example dist: the first run puts every object and
// says so, the second puts none, and a missing bucket is an error that
// says to create it.
func TestDeployCLI(t *testing.T) {
	s := s3test.Start(t)
	dist := filepath.Join("..", "..", "examples", "mcpserver", "dist")
	entries, err := os.ReadDir(dist)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "deploy", "--dir", dist, "--endpoint", s.Endpoint, "s3://"+s.Bucket+"/cli")
	if code != exitOK {
		t.Fatalf("first deploy: exit %d\n%s%s", code, out, errs)
	}
	puts := regexp.MustCompile(`(?m)^put \S+ \(`).FindAllString(out, -1)
	// Every file in dist/ is an object (sidecars only with --sidecars).
	files := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".br") && !strings.HasSuffix(e.Name(), ".gz") {
			files++
		}
	}
	summary := regexp.MustCompile(`(?m)^deployed build [0-9a-f]{16} to s3://widgets/cli/: (\d+) uploaded \(.*\), 0 unchanged, 0 deleted; \d+ requests in `)
	if m := summary.FindStringSubmatch(out); m == nil || m[1] != strconv.Itoa(files) || len(puts) != files {
		t.Errorf("first deploy of %d files printed %d put lines:\n%s", files, len(puts), out)
	}
	code, out, errs = runCLI(t, "deploy", "--quiet", "--dir", dist, "--endpoint", s.Endpoint, "s3://"+s.Bucket+"/cli/")
	if code != exitOK || !regexp.MustCompile(`^deployed build [0-9a-f]{16} to s3://widgets/cli/: 0 uploaded \(0 B\), \d+ unchanged, 0 deleted; \d+ requests in \S+\n$`).MatchString(out) {
		t.Errorf("second deploy: exit %d, stdout %q, stderr %q; want only a summary with 0 uploaded", code, out, errs)
	}
	code, _, errs = runCLI(t, "deploy", "--dir", dist, "--endpoint", s.Endpoint, "s3://no-such-bucket/w")
	if code != exitError || !strings.Contains(errs, `bucket "no-such-bucket" does not exist: create it first`) {
		t.Errorf("deploy to a missing bucket: exit %d, stderr %q", code, errs)
	}
}

// TestReportDeployFailure: after a failure the message says what the
// bucket serves now and what to do, for each point a deploy can stop at.
func TestReportDeployFailure(t *testing.T) {
	target := deploy.Target{Bucket: "b", Prefix: "w/"}
	for _, tc := range []struct {
		name string
		res  deploy.Result
		err  error
		want string
	}{
		{"before any upload", deploy.Result{}, errors.New("list s3://b/w/: denied"),
			"widgetd deploy: list s3://b/w/: denied\n"},
		{"cancelled mid-upload", deploy.Result{Uploaded: 3, PreviousBuildID: "1111222233334444"}, context.Canceled,
			"widgetd deploy: stopped\nwidgetd deploy: 3 objects were uploaded before that; s3://b/w/ still serves build 1111222233334444, and every file it names is there. Run the same deploy again to finish.\n"},
		{"first deploy cut", deploy.Result{Uploaded: 2}, errors.New("upload s3://b/w/x: reset"),
			"widgetd deploy: upload s3://b/w/x: reset\nwidgetd deploy: 2 objects were uploaded before that; s3://b/w/ has no manifest.json yet, so nothing names them. Run the same deploy again to finish.\n"},
		{"pruning cut", deploy.Result{Published: true, BuildID: "aaaabbbbccccdddd"}, errors.New("delete s3://b/w/old.js: denied"),
			"widgetd deploy: delete s3://b/w/old.js: denied\nwidgetd deploy: build aaaabbbbccccdddd is published; only the pruning was cut short. Run the same deploy again to finish it.\n"},
	} {
		var b strings.Builder
		reportDeployFailure(&b, target, tc.res, tc.err)
		if b.String() != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, b.String(), tc.want)
		}
	}
}
