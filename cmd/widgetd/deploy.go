package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/widgetd/widgetd/deploy"
	"github.com/widgetd/widgetd/internal/regularfile"
)

// runDeploy publishes dist/ to an S3-compatible bucket (package deploy).
func runDeploy(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("deploy", "s3://bucket[/prefix]",
		"Publishes dist/ to S3 or an S3-compatible store (R2, GCS, MinIO) for a CDN to\n"+
			"serve: hashed files first (immutable caching), then the HTML documents, then\n"+
			"_headers and manifest.json (no-cache), so a deploy stopped part way leaves the\n"+
			"previous one working. Objects whose sha256 and headers match are not sent\n"+
			"again. Credentials come from the standard AWS chain (AWS_ACCESS_KEY_ID,\n"+
			"AWS_PROFILE, …). See docs/serving.md, \"Deploy to a CDN\".\n", stdout, stderr)
	dir := fs.String("dir", "dist", "`dir` written by widgetd build")
	endpoint := fs.String("endpoint", "", "S3 API `url` of a store other than AWS (R2, GCS, MinIO); path-style requests")
	region := fs.String("region", "", "`region` (default: the AWS chain's; us-east-1 with --endpoint)")
	conc := fs.Int("concurrency", deploy.DefaultConcurrency, "at most `n` requests in flight")
	sidecars := fs.Bool("sidecars", false, "also upload the .br/.gz variants under their own names with Content-Encoding, for a CDN edge rule that picks them")
	prune := fs.Bool("prune", false, "after deploying, delete objects under the prefix that no retained build (nor the build deployed before) references")
	quiet := fs.Bool("quiet", false, "print only the summary, not each object")
	arg, code, ok := fs.parseOneArg(args)
	if !ok {
		return code
	}
	if arg == "" {
		return fs.usageError("missing the target: widgetd deploy s3://bucket/prefix")
	}
	target, err := deploy.ParseTarget(arg)
	if err != nil {
		return fs.usageError(err.Error())
	}
	if *conc < 1 {
		return fs.usageError("--concurrency must be at least 1")
	}
	client, err := deploy.NewClient(ctx, deploy.ClientOptions{Endpoint: *endpoint, Region: *region})
	if err != nil {
		fmt.Fprintf(stderr, "widgetd deploy: %v\n", err)
		return exitError
	}
	var mu sync.Mutex
	opts := deploy.Options{Dist: *dir, Target: target, Concurrency: *conc, Sidecars: *sidecars, Prune: *prune}
	if !*quiet {
		opts.Progress = func(e deploy.Event) {
			mu.Lock()
			defer mu.Unlock()
			if e.Deleted {
				fmt.Fprintf(stdout, "deleted %s\n", e.Key)
			} else {
				fmt.Fprintf(stdout, "put %s (%s)\n", e.Key, regularfile.FormatBytes(e.Size))
			}
		}
	}
	start := time.Now()
	res, err := deploy.Deploy(ctx, client, opts)
	if err != nil {
		reportDeployFailure(stderr, target, res, err)
		return exitError
	}
	if res.PreviousNotRetained {
		fmt.Fprintf(stderr, "widgetd deploy: note: %s does not retain build %s, which the bucket served until now (built without the previous dist/?); its files stay in the bucket\n", *dir, res.PreviousBuildID)
	}
	fmt.Fprintf(stdout, "deployed build %s to %s: %d uploaded (%s), %d unchanged, %d deleted; %d requests in %s\n",
		res.BuildID, target, res.Uploaded, regularfile.FormatBytes(res.UploadedBytes), res.Unchanged, res.Deleted,
		res.Requests, time.Since(start).Round(time.Millisecond))
	return exitOK
}

// reportDeployFailure says what failed and what the bucket serves now.
func reportDeployFailure(stderr io.Writer, target deploy.Target, res deploy.Result, err error) {
	if errors.Is(err, context.Canceled) {
		err = errors.New("stopped")
	}
	fmt.Fprintf(stderr, "widgetd deploy: %v\n", err)
	if res.Published {
		fmt.Fprintf(stderr, "widgetd deploy: build %s is published; only the pruning was cut short. Run the same deploy again to finish it.\n", res.BuildID)
		return
	}
	if res.Uploaded == 0 {
		return
	}
	state := fmt.Sprintf("%s still serves build %s, and every file it names is there", target, res.PreviousBuildID)
	if res.PreviousBuildID == "" {
		state = fmt.Sprintf("%s has no manifest.json yet, so nothing names them", target)
	}
	fmt.Fprintf(stderr, "widgetd deploy: %d objects were uploaded before that; %s. Run the same deploy again to finish.\n", res.Uploaded, state)
}
