package deploy

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"golang.org/x/sync/errgroup"
)

// DefaultConcurrency is how many requests a deploy has in flight at most
// when Options.Concurrency is 0.
const DefaultConcurrency = 8

// Options say what to publish where.
type Options struct {
	// Dist is the folder widgetd build wrote.
	Dist string
	// Target is the bucket and key prefix.
	Target Target
	// Concurrency bounds the requests in flight; 0 means DefaultConcurrency.
	Concurrency int
	// Sidecars also uploads each file's precompressed variants under their
	// own names (x.js.br, x.js.gz) with Content-Encoding set, for a CDN
	// with an edge rule that picks them by Accept-Encoding. The object
	// under a file's own name always holds its identity bytes.
	Sidecars bool
	// Prune deletes, after the new manifest is up, objects under the prefix
	// that no build retained by the new manifest, nor the build the bucket
	// served before, references.
	Prune bool
	// Progress, when set, is called after each object is put or deleted,
	// from the goroutine that did it (calls may be concurrent).
	Progress func(Event)
}

// Event reports one object put or deleted.
type Event struct {
	// Deleted is true for a deletion by Prune, false for an upload.
	Deleted bool
	// Key is the dist/-relative path (the object key after the prefix).
	Key string
	// Size is the bytes uploaded (0 for a deletion).
	Size int64
}

// Result says what a deploy did.
type Result struct {
	// BuildID is the deployed build.
	BuildID string
	// PreviousBuildID is the build the bucket's manifest named before, ""
	// when there was none.
	PreviousBuildID string
	// PreviousNotRetained is true when dist/ does not retain the previous
	// build (it was built without the previous dist/): its files stay in
	// the bucket, and Prune keeps them.
	PreviousNotRetained bool
	// Uploaded and Unchanged count objects put and objects already there
	// with the same SHA-256 and headers; Deleted counts objects pruned.
	Uploaded, Unchanged, Deleted int
	// UploadedBytes is the sum of the uploaded objects' sizes.
	UploadedBytes int64
	// Requests is the number of S3 API calls made (retries not counted).
	Requests int
	// Published is true once the bucket's manifest.json is this build's
	// (uploaded or already there); before, the bucket serves the previous
	// deploy unchanged.
	Published bool
}

// run is the state of one deploy.
type run struct {
	client   *s3.Client
	opts     Options
	plan     *distPlan
	requests atomic.Int64
	mu       sync.Mutex
	res      Result
}

// Deploy publishes o.Dist to o.Target through client (see the package
// documentation for the order and the guarantees). It stops at the first
// failed request or when ctx is cancelled; the bucket's manifest is then the
// previous one and every file it names is still there.
func Deploy(ctx context.Context, client *s3.Client, o Options) (Result, error) {
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	plan, err := readDist(o.Dist, o.Sidecars)
	if err != nil {
		return Result{}, err
	}
	r := &run{client: client, opts: o, plan: plan}
	r.res.BuildID = plan.manifest.BuildID
	res, err := r.deploy(ctx)
	res.Requests = int(r.requests.Load())
	return res, err
}

func (r *run) deploy(ctx context.Context) (Result, error) {
	remote, err := r.list(ctx)
	if err != nil {
		return r.res, err
	}
	prev, err := r.previousManifest(ctx, remote)
	if err != nil {
		return r.res, err
	}
	r.notePrevious(prev)
	todo, err := r.changed(ctx, remote)
	if err != nil {
		return r.res, err
	}
	for _, o := range todo {
		if err := r.plan.load(o); err != nil {
			return r.res, err
		}
	}
	for phase := phaseHashed; phase <= phaseManifest; phase++ {
		if err := r.putPhase(ctx, todo, phase); err != nil {
			return r.res, err
		}
	}
	r.res.Published = true
	if r.opts.Prune {
		if err := r.prune(ctx, remote, prev); err != nil {
			return r.res, err
		}
	}
	return r.res, nil
}

// putPhase uploads the objects of todo in phase, at most Concurrency at a
// time, and returns when all are up or at the first error.
func (r *run) putPhase(ctx context.Context, todo []*object, phase int) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(r.opts.Concurrency)
	for _, o := range todo {
		if o.phase != phase {
			continue
		}
		g.Go(func() error { return r.put(gctx, o) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}

// key returns the object key of a dist/-relative path.
func (r *run) key(rel string) string { return r.opts.Target.Prefix + rel }

// url returns the s3:// URL of a dist/-relative path, for messages.
func (r *run) url(rel string) string { return "s3://" + r.opts.Target.Bucket + "/" + r.key(rel) }

func (r *run) count(f func(*Result)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(&r.res)
}

// describe wraps err from a request on rel with the object's URL and a hint.
func (r *run) describe(op, rel string, err error) error {
	return fmt.Errorf("%s %s: %w%s", op, r.url(rel), err, hint(err, r.opts.Target.Bucket))
}
