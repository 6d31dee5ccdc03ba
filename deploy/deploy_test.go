package deploy

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/widgetd/widgetd/assets"
)

// TestDeployToVersitygw deploys the example widgets to a real S3 server
// (versitygw over a temporary folder) and reads every object back over
// HTTP; deploys the same dist/ again (nothing uploaded); deploys a
// one-widget change (only its files uploaded, the old ones kept); kills a
// deploy process and cancels another mid-upload (the served manifest still
// resolves every file it names, and a rerun finishes); and prunes.
func TestDeployToVersitygw(t *testing.T) {
	s := startStore(t)
	root := examplesProject(t)
	dist := filepath.Join(t.TempDir(), "dist")
	const prefix = "w/"
	opts := Options{Dist: dist, Target: Target{Bucket: s.bucket, Prefix: prefix}, Sidecars: true}
	hello := filepath.Join(root, "widgets", "hello", "hello.css")

	mA := buildInto(t, root, dist, 5)
	start := time.Now()
	res, puts := deployed(t, s, opts)
	t.Logf("first deploy: %d objects (%d bytes) in %v, %d requests", res.Uploaded, res.UploadedBytes, time.Since(start), res.Requests)
	sameSet(t, "first deploy uploaded", puts, keysOf(mA, true))
	if res.Unchanged != 0 || !res.Published || res.PreviousBuildID != "" {
		t.Errorf("first deploy: %+v", res)
	}
	checkServed(t, s, prefix, mA, true)

	start = time.Now()
	again, puts := deployed(t, s, opts)
	t.Logf("unchanged re-deploy: %d uploaded in %v, %d requests", again.Uploaded, time.Since(start), again.Requests)
	if again.Uploaded != 0 || len(puts) != 0 || again.Unchanged != len(keysOf(mA, true)) {
		t.Errorf("second deploy of the same dist/ uploaded %v (%+v), want nothing", puts, again)
	}
	// One list, the previous manifest, and one HEAD per object.
	if want := 2 + len(keysOf(mA, true)); again.Requests != want {
		t.Errorf("unchanged re-deploy made %d requests, want %d", again.Requests, want)
	}

	appendToFile(t, hello, "\n.hello { outline: 1px solid rgb(1, 2, 3); }\n")
	headersA := readFile(t, filepath.Join(dist, assets.HeadersFile))
	mB := buildInto(t, root, dist, 5)
	start = time.Now()
	res, puts = deployed(t, s, opts)
	t.Logf("one-widget change: %d objects (%d bytes) in %v, %d requests", res.Uploaded, res.UploadedBytes, time.Since(start), res.Requests)
	wantB := minus(keysOf(mB, true), keysOf(mA, true))
	wantB[assets.ManifestFile] = true
	wantB[assets.HeadersFile] = headersA != readFile(t, filepath.Join(dist, assets.HeadersFile))
	if !wantB[assets.HeadersFile] {
		delete(wantB, assets.HeadersFile)
	}
	sameSet(t, "one-widget change uploaded", puts, wantB)
	if len(wantB) > 8 {
		t.Errorf("a CSS change to one widget made %d objects to upload: %v", len(wantB), wantB)
	}
	checkServed(t, s, prefix, mB, true)
	checkServed(t, s, prefix, &assets.Manifest{BuildID: mB.BuildID, Files: mA.Files}, true) // A's files kept

	t.Run("killed", func(t *testing.T) { testKilledMidway(t, s, root, dist, mB) })
	t.Run("cancelled", func(t *testing.T) { testCancelledMidway(t, s, root, dist, mB) })
	t.Run("prune", func(t *testing.T) { testPrune(t, s, root) })
	t.Run("foreign prefix", func(t *testing.T) { testForeignPrefix(t, s, dist) })
}

// testForeignPrefix: a prefix whose manifest.json is not widgetd's is
// refused before anything is uploaded.
func testForeignPrefix(t *testing.T, s *store, dist string) {
	if _, err := s.client.PutObject(context.Background(), &s3.PutObjectInput{Bucket: aws.String(s.bucket),
		Key: aws.String("f/manifest.json"), Body: strings.NewReader(`{"name": "another app"}`)}); err != nil {
		t.Fatal(err)
	}
	res, err := Deploy(context.Background(), s.client, Options{Dist: dist, Target: Target{Bucket: s.bucket, Prefix: "f/"}})
	if err == nil || !strings.Contains(err.Error(), "s3://widgets/f/manifest.json is not a widgetd manifest of version 1; deploy to a prefix of its own") {
		t.Errorf("deploy over a foreign manifest: %v", err)
	}
	if keys := listKeys(t, s, "f/"); res.Uploaded != 0 || len(keys) != 1 {
		t.Errorf("deploy over a foreign manifest uploaded %d objects; the prefix holds %v", res.Uploaded, keys)
	}
}

// testKilledMidway changes a widget, starts a deploy in a child process
// over a slow link, kills it (SIGKILL) after its first upload, and checks
// that the bucket still serves the previous manifest and every file it
// names, while part of the new build is already up.
func testKilledMidway(t *testing.T, s *store, root, dist string, served *assets.Manifest) {
	appendToFile(t, filepath.Join(root, "widgets", "hello", "hello.css"), "\n.hello { outline-offset: 3px; }\n")
	mC := buildInto(t, root, dist, 5)
	uploaded := runChildDeployUntilFirstPut(t, s, dist, "w/")
	if got := servedManifest(t, s, "w/"); got.BuildID != served.BuildID {
		t.Fatalf("after the kill the bucket serves build %s, want the previous %s", got.BuildID, served.BuildID)
	}
	checkServed(t, s, "w/", served, true)
	newKeys := minus(keysOf(mC, true), keysOf(served, true))
	if !newKeys[uploaded] {
		t.Errorf("the killed deploy's first upload %q is not a new file of the build (%v)", uploaded, newKeys)
	}
	if resp, _ := get(t, s, "w/"+uploaded); resp.StatusCode != http.StatusOK {
		t.Errorf("the killed deploy's upload %s: %s", uploaded, resp.Status)
	}
}

// testCancelledMidway cancels a deploy's context at its first upload (over
// a slow link, so others are in flight), checks the previous deploy still
// works, and reruns it to the end.
func testCancelledMidway(t *testing.T, s *store, root, dist string, served *assets.Manifest) {
	appendToFile(t, filepath.Join(root, "widgets", "hello", "hello.css"), "\n.hello { outline-style: dashed; }\n")
	mD := buildInto(t, root, dist, 5)
	slow := 150 * time.Millisecond
	client := s.newClient(t, &slow)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := Options{Dist: dist, Target: Target{Bucket: s.bucket, Prefix: "w/"}, Sidecars: true, Concurrency: 2,
		Progress: func(Event) { cancel() }}
	res, err := Deploy(ctx, client, o)
	if !errors.Is(err, context.Canceled) || res.Published || res.Uploaded == 0 {
		t.Fatalf("cancelled deploy: err %v, %+v; want context.Canceled after an upload, unpublished", err, res)
	}
	if got := servedManifest(t, s, "w/"); got.BuildID != served.BuildID {
		t.Fatalf("after the cancel the bucket serves build %s, want %s", got.BuildID, served.BuildID)
	}
	checkServed(t, s, "w/", served, true)
	o.Progress, o.Concurrency = nil, 0
	rerun, err := Deploy(context.Background(), s.client, o)
	if err != nil || !rerun.Published || rerun.Uploaded == 0 {
		t.Fatalf("rerun: %v, %+v", err, rerun)
	}
	checkServed(t, s, "w/", mD, true)
	if rerun.Uploaded >= len(minus(keysOf(mD, true), keysOf(served, true)))+2 {
		t.Errorf("the rerun uploaded %d objects: what the cancelled and killed deploys put was sent again", rerun.Uploaded)
	}
}

// testPrune deploys a build made in a fresh dist/ (retaining nothing) with
// Prune under its own prefix: objects only older builds reference, and a
// stray object, are deleted; the build the bucket served until then keeps
// its files.
func testPrune(t *testing.T, s *store, root string) {
	const prefix = "p/"
	first := filepath.Join(t.TempDir(), "dist")
	buildInto(t, root, first, 5)
	appendToFile(t, filepath.Join(root, "widgets", "hello", "hello.css"), "\n.hello { outline-width: 2px; }\n")
	mLive := buildInto(t, root, first, 5)
	o := Options{Dist: first, Target: Target{Bucket: s.bucket, Prefix: prefix}, Sidecars: true}
	if _, err := Deploy(context.Background(), s.client, o); err != nil {
		t.Fatal(err)
	}
	if _, err := s.client.PutObject(context.Background(), &s3.PutObjectInput{Bucket: aws.String(s.bucket),
		Key: aws.String(prefix + "assets/stray-0000.js"), Body: strings.NewReader("stray")}); err != nil {
		t.Fatal(err)
	}
	appendToFile(t, filepath.Join(root, "widgets", "hello", "hello.css"), "\n.hello { outline-color: red; }\n")
	fresh := filepath.Join(t.TempDir(), "dist")
	mNew := buildInto(t, root, fresh, 5)
	before := listKeys(t, s, prefix)
	o.Dist, o.Prune = fresh, true
	res, err := Deploy(context.Background(), s.client, o)
	if err != nil {
		t.Fatal(err)
	}
	if !res.PreviousNotRetained || res.PreviousBuildID != mLive.BuildID {
		t.Errorf("prune deploy: %+v; want the live build %s reported as not retained", res, mLive.BuildID)
	}
	liveOnly := map[string]bool{}
	for _, f := range mLive.Files {
		for _, id := range f.Builds {
			if id == mLive.BuildID {
				liveOnly[f.Path] = true
				for _, e := range f.Encodings {
					liveOnly[e.Path] = true
				}
			}
		}
	}
	after := listKeys(t, s, prefix)
	var deleted []string
	for k := range minus(before, after) {
		deleted = append(deleted, k)
	}
	wantDeleted := minus(minus(before, keysOf(mNew, true)), liveOnly)
	sameSet(t, "pruned", deleted, wantDeleted)
	if !wantDeleted["assets/stray-0000.js"] || len(wantDeleted) < 2 {
		t.Errorf("expected the stray object and the old build's files to be pruned: %v", wantDeleted)
	}
	if res.Deleted != len(wantDeleted) {
		t.Errorf("Result.Deleted = %d, want %d", res.Deleted, len(wantDeleted))
	}
	checkServed(t, s, prefix, mNew, true)
	for k := range liveOnly {
		if !after[k] {
			t.Errorf("prune deleted %s, a file of the build the bucket served until now", k)
		}
	}
}
