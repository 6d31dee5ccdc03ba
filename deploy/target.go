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
	prefix := strings.Trim(u.Path, "/")
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
