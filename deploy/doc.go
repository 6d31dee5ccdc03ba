// Package deploy publishes a dist/ written by widgetd build to S3 or any
// S3-compatible object store (Cloudflare R2, Google Cloud Storage's
// interoperability API, MinIO, versitygw) with the AWS SDK for Go v2, so a
// CDN in front of the bucket can serve the widgets' files the way
// `widgetd serve` would.
//
// A deploy runs in phases, each finished before the next starts:
//
//  1. the content-hashed files the HTML loads (JS, CSS, images, fonts), with
//     their Content-Type and Cache-Control: public, max-age=31536000,
//     immutable; the identity bytes under the file's own name, never a
//     precompressed body (S3 cannot negotiate Accept-Encoding; the CDN
//     compresses), and with Options.Sidecars also the .br and .gz
//     sidecars under their own names with their Content-Encoding;
//  2. the widgets' HTML documents and the files copied from public/;
//  3. _headers, then manifest.json, with Cache-Control: no-cache.
//
// So the manifest that names new files is written only after all of them
// are up: a deploy that fails or is killed part way leaves the previous
// manifest, and every file it names, as they were. Each object carries the
// SHA-256 of its bytes in its metadata (x-amz-meta-sha256); an object whose
// SHA-256 and headers already match is not uploaded again, so deploying
// the same dist/ twice uploads nothing. Nothing is deleted unless
// Options.Prune is set, and then only objects that no build retained by the
// new manifest, nor the build the bucket served until now, references.
package deploy
