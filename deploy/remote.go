package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	"golang.org/x/sync/errgroup"

	"github.com/widgetd/widgetd/assets"
)

// metaSHA256 is the user-metadata key (x-amz-meta-sha256) holding the hex
// SHA-256 of an object's bytes: the ETag is no content hash on every store
// (multipart uploads, SSE-KMS, R2 and GCS differ), so deploys compare this.
const metaSHA256 = "sha256"

// maxManifestBytes bounds the previous manifest a deploy reads.
const maxManifestBytes = 64 << 20

// list returns the keys under the prefix (made dist/-relative) and their sizes.
func (r *run) list(ctx context.Context) (map[string]int64, error) {
	out := map[string]int64{}
	p := s3.NewListObjectsV2Paginator(r.client, &s3.ListObjectsV2Input{
		Bucket: aws.String(r.opts.Target.Bucket),
		Prefix: aws.String(r.opts.Target.Prefix),
	})
	for p.HasMorePages() {
		r.requests.Add(1)
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list %s: %w%s", r.opts.Target, err, hint(err, r.opts.Target.Bucket))
		}
		for _, o := range page.Contents {
			out[strings.TrimPrefix(aws.ToString(o.Key), r.opts.Target.Prefix)] = aws.ToInt64(o.Size)
		}
	}
	return out, nil
}

// previousManifest reads the manifest the bucket serves now, nil if none.
// One that is not a widgetd manifest is an error: the prefix then holds
// something else, and a deploy must not mix into it.
func (r *run) previousManifest(ctx context.Context, remote map[string]int64) (*assets.Manifest, error) {
	if _, ok := remote[assets.ManifestFile]; !ok {
		return nil, nil
	}
	r.requests.Add(1)
	out, err := r.client.GetObject(ctx, &s3.GetObjectInput{
		Bucket: aws.String(r.opts.Target.Bucket), Key: aws.String(r.key(assets.ManifestFile)),
	})
	if err != nil {
		return nil, r.describe("read the deployed", assets.ManifestFile, err)
	}
	defer out.Body.Close()
	data, err := io.ReadAll(io.LimitReader(out.Body, maxManifestBytes))
	if err != nil {
		return nil, r.describe("read the deployed", assets.ManifestFile, err)
	}
	var m assets.Manifest
	if err := json.Unmarshal(data, &m); err != nil || m.Version != assets.ManifestVersion || len(m.Builds) == 0 {
		return nil, fmt.Errorf("%s is not a widgetd manifest of version %d; deploy to a prefix of its own",
			r.url(assets.ManifestFile), assets.ManifestVersion)
	}
	return &m, nil
}

// notePrevious records the deployed build and whether dist/ retains it.
func (r *run) notePrevious(prev *assets.Manifest) {
	if prev == nil {
		return
	}
	r.res.PreviousBuildID = prev.BuildID
	r.res.PreviousNotRetained = true
	for _, b := range r.plan.manifest.Builds {
		if b.ID == prev.BuildID {
			r.res.PreviousNotRetained = false
		}
	}
}

// changed returns the planned objects that are missing from the bucket or
// differ in SHA-256 or headers, reading the headers of those listed.
func (r *run) changed(ctx context.Context, remote map[string]int64) ([]*object, error) {
	same := make([]bool, len(r.plan.objects))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(r.opts.Concurrency)
	for i, o := range r.plan.objects {
		if size, ok := remote[o.key]; !ok || size != o.size {
			continue
		}
		g.Go(func() error {
			r.requests.Add(1)
			h, err := r.client.HeadObject(gctx, &s3.HeadObjectInput{
				Bucket: aws.String(r.opts.Target.Bucket), Key: aws.String(r.key(o.key)),
			})
			if err != nil {
				return r.describe("read the headers of", o.key, err)
			}
			same[i] = h.Metadata[metaSHA256] == o.sha256 && aws.ToString(h.ContentType) == o.contentType &&
				aws.ToString(h.CacheControl) == o.cacheControl && aws.ToString(h.ContentEncoding) == o.contentEncoding
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var todo []*object
	for i, o := range r.plan.objects {
		if same[i] {
			r.res.Unchanged++
		} else {
			todo = append(todo, o)
		}
	}
	return todo, nil
}

// put uploads one object with its headers and SHA-256 metadata.
func (r *run) put(ctx context.Context, o *object) error {
	in := &s3.PutObjectInput{
		Bucket:        aws.String(r.opts.Target.Bucket),
		Key:           aws.String(r.key(o.key)),
		Body:          bytes.NewReader(o.body),
		ContentLength: aws.Int64(o.size),
		ContentType:   aws.String(o.contentType),
		CacheControl:  aws.String(o.cacheControl),
		Metadata:      map[string]string{metaSHA256: o.sha256},
	}
	if o.contentEncoding != "" {
		in.ContentEncoding = aws.String(o.contentEncoding)
	}
	if err := ctx.Err(); err != nil {
		return err // cancelled, or another upload failed: start no more
	}
	r.requests.Add(1)
	if _, err := r.client.PutObject(ctx, in); err != nil {
		return r.describe("upload", o.key, err)
	}
	r.count(func(res *Result) { res.Uploaded++; res.UploadedBytes += o.size })
	if r.opts.Progress != nil {
		r.opts.Progress(Event{Key: o.key, Size: o.size})
	}
	return nil
}

// prune deletes the listed objects that neither the new manifest's builds
// nor the previously served build reference.
func (r *run) prune(ctx context.Context, remote map[string]int64, prev *assets.Manifest) error {
	keep := r.plan.keep
	if prev != nil {
		live := prev.Builds[0].ID
		for _, f := range prev.Files {
			for _, id := range f.Builds {
				if id == live {
					keep[f.Path] = true
					for _, e := range f.Encodings {
						keep[e.Path] = true
					}
				}
			}
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(r.opts.Concurrency)
	for rel := range remote {
		if keep[rel] {
			continue
		}
		g.Go(func() error {
			r.requests.Add(1)
			if _, err := r.client.DeleteObject(gctx, &s3.DeleteObjectInput{
				Bucket: aws.String(r.opts.Target.Bucket), Key: aws.String(r.key(rel)),
			}); err != nil {
				return r.describe("delete", rel, err)
			}
			r.count(func(res *Result) { res.Deleted++ })
			if r.opts.Progress != nil {
				r.opts.Progress(Event{Deleted: true, Key: rel})
			}
			return nil
		})
	}
	return g.Wait()
}

// hint says how to fix the common store errors.
func hint(err error, bucket string) string {
	var api smithy.APIError
	if !errors.As(err, &api) {
		if strings.Contains(err.Error(), "credential") {
			return " (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, for the store's API key)"
		}
		return ""
	}
	switch api.ErrorCode() {
	case "NoSuchBucket":
		return fmt.Sprintf(" (bucket %q does not exist: create it first; widgetd deploy never creates buckets)", bucket)
	case "AccessDenied", "Forbidden", "InvalidAccessKeyId", "SignatureDoesNotMatch":
		return " (check the credentials from the AWS chain, the key's permissions on the bucket (List, Get, Put, and Delete for --prune), and --region/--endpoint)"
	}
	return ""
}
