package deploy

import (
	"fmt"
	"net/url"
	"strings"
)

// Target is the bucket and key prefix a dist/ is published under.
type Target struct {
	// Bucket is the bucket name.
	Bucket string
	// Prefix is the key prefix, "" or ending in "/": a file dist/x is
	// stored as Prefix+"x".
	Prefix string
}

// String returns the target as an s3:// URL.
func (t Target) String() string { return "s3://" + t.Bucket + "/" + t.Prefix }

// ParseTarget reads an s3://bucket[/prefix] URL, the form the AWS CLI uses.
func ParseTarget(s string) (Target, error) {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "s3" || u.Host == "" || u.Opaque != "" {
		return Target{}, fmt.Errorf("%q is not an s3://bucket/prefix URL; write the bucket after s3://, e.g. s3://my-widgets/prod", s)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil || u.Port() != "" {
		return Target{}, fmt.Errorf("%q: an s3:// URL names a bucket and a key prefix only (no user, port, query or fragment)", s)
	}
	if !validBucket(u.Host) {
		return Target{}, fmt.Errorf("%q: the bucket name %q may hold only lowercase letters, digits, '.', '-' and '_', and must begin and end with a letter or digit", s, u.Host)
	}
	prefix := strings.Trim(u.Path, "/")
	if i := strings.IndexFunc(prefix, func(r rune) bool { return !safeKeyRune(r) }); i >= 0 {
		return Target{}, fmt.Errorf("%q: the key prefix holds %q; use letters, digits, '/' and !-_.*'()= only (the characters every S3-compatible store and CDN passes through unchanged)", s, prefix[i:i+1])
	}
	for _, seg := range strings.Split(prefix, "/") {
		if prefix != "" && (seg == "" || seg == "." || seg == "..") {
			return Target{}, fmt.Errorf("%q: the key prefix has an empty, . or .. segment; write it as a/b/c", s)
		}
	}
	if prefix != "" {
		prefix += "/"
	}
	return Target{Bucket: u.Host, Prefix: prefix}, nil
}

// validBucket reports whether name is a bucket name every S3-compatible
// store accepts the characters of (S3, R2, GCS, MinIO); lengths are left
// to the store, which says its own limit.
func validBucket(name string) bool {
	for i, r := range name {
		alnum := r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		edge := i == 0 || i == len(name)-1
		if !alnum && (edge || (r != '.' && r != '-' && r != '_')) {
			return false
		}
	}
	return name != ""
}

// safeKeyRune reports whether r is one of the characters AWS lists as safe
// in object keys, plus '=' (partition-style prefixes such as env=prod).
// Anything else would need escaping in the s3:// URL and in CDN paths.
func safeKeyRune(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	}
	return strings.ContainsRune("/!-_.*'()=", r)
}
