package deploy

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Environment of the child deploy process.
const (
	childDist     = "WIDGETD_TEST_DEPLOY_DIST"
	childEndpoint = "WIDGETD_TEST_DEPLOY_ENDPOINT"
	childBucket   = "WIDGETD_TEST_DEPLOY_BUCKET"
	childPrefix   = "WIDGETD_TEST_DEPLOY_PREFIX"
)

// runChildDeploy is the child process: one deploy over a slow link (each
// upload delayed 1 s, two at a time), printing "put <key>" per upload.
func runChildDeploy() int {
	slow := time.Second
	hc := &http.Client{Transport: &countingTransport{n: &atomic.Int64{}, slow: &slow, next: http.DefaultTransport}}
	ctx := context.Background()
	client, err := NewClient(ctx, ClientOptions{Endpoint: os.Getenv(childEndpoint), HTTPClient: hc})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	_, err = Deploy(ctx, client, Options{
		Dist:        os.Getenv(childDist),
		Target:      Target{Bucket: os.Getenv(childBucket), Prefix: os.Getenv(childPrefix)},
		Sidecars:    true,
		Concurrency: 2,
		Progress:    func(e Event) { fmt.Printf("put %s\n", e.Key) },
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("done")
	return 0
}

// runChildDeployUntilFirstPut starts a deploy of dist in a child process,
// kills it with SIGKILL as soon as it reports its first upload, and returns
// that upload's key.
func runChildDeployUntilFirstPut(t *testing.T, s *store, dist, prefix string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1", childDist+"="+dist, childEndpoint+"="+s.endpoint,
		childBucket+"="+s.bucket, childPrefix+"="+prefix)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	first := ""
	for sc.Scan() {
		if key, ok := strings.CutPrefix(sc.Text(), "put "); ok {
			first = key
			break
		}
		if sc.Text() == "done" {
			break
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if first == "" {
		t.Fatalf("the child deploy uploaded nothing before it ended:\n%s", stderr.String())
	}
	return first
}
