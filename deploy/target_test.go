package deploy

import (
	"strings"
	"testing"
)

func TestParseTarget(t *testing.T) {
	for _, tc := range []struct {
		in             string
		bucket, prefix string
		err            string // part of the error; "" for success
	}{
		{in: "s3://widgets", bucket: "widgets"},
		{in: "s3://widgets/", bucket: "widgets"},
		{in: "s3://widgets/w", bucket: "widgets", prefix: "w/"},
		{in: "s3://widgets/prod/w/", bucket: "widgets", prefix: "prod/w/"},
		{in: "widgets/w", err: "not an s3://bucket/prefix URL"},
		{in: "https://widgets.s3.amazonaws.com/w", err: "not an s3://bucket/prefix URL"},
		{in: "s3:///w", err: "not an s3://bucket/prefix URL"},
		{in: "s3://widgets/a//b", err: "empty, . or .. segment"},
		{in: "s3://widgets/a/../b", err: "empty, . or .. segment"},
		{in: "s3://widgets/w?x=1", err: "no user, port, query or fragment"},
		{in: "s3://user@widgets/w", err: "no user, port, query or fragment"},
		{in: "s3://widgets:9000/w", err: "no user, port, query or fragment"},
		{in: "s3://widgets/env=prod/v1.2", bucket: "widgets", prefix: "env=prod/v1.2/"},
		{in: "s3://my_widgets.eu-1/w", bucket: "my_widgets.eu-1", prefix: "w/"},
		{in: "s3://0/%000", err: `the key prefix holds "\x00"`},
		{in: "s3://w/a%3Fb", err: `the key prefix holds "?"`},
		{in: "s3://w/a%20b", err: `the key prefix holds " "`},
		{in: "s3://w/caf%C3%A9", err: `the key prefix holds "\xc3"`},
		{in: "s3://Widgets/w", err: "may hold only lowercase letters"},
		{in: "s3://-w/w", err: "must begin and end with a letter or digit"},
		{in: "s3://w%2Fx/w", err: "not an s3://bucket/prefix URL"},
	} {
		got, err := ParseTarget(tc.in)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("ParseTarget(%q): %v", tc.in, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseTarget(%q) = %+v, %v; want an error with %q", tc.in, got, err, tc.err)
		case tc.err == "" && (got.Bucket != tc.bucket || got.Prefix != tc.prefix):
			t.Errorf("ParseTarget(%q) = %+v, want bucket %q prefix %q", tc.in, got, tc.bucket, tc.prefix)
		}
	}
}

// FuzzParseTarget: whatever the input, a parsed target has a bucket, a
// prefix that is empty or clean segments each ending in "/", and its
// String parses back to itself.
func FuzzParseTarget(f *testing.F) {
	for _, s := range []string{"s3://b", "s3://b/p/q", "s3://b/../x", "s3://b/a//c", "s3:b", "s3://b/%2e%2e/x", "s3://b/p?q#f", "s3://0/%000", "s3://w/a%3Fb/c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		tg, err := ParseTarget(s)
		if err != nil {
			return
		}
		if tg.Bucket == "" || strings.HasPrefix(tg.Prefix, "/") || (tg.Prefix != "" && !strings.HasSuffix(tg.Prefix, "/")) {
			t.Fatalf("ParseTarget(%q) = %+v", s, tg)
		}
		for _, seg := range strings.Split(strings.TrimSuffix(tg.Prefix, "/"), "/") {
			if tg.Prefix != "" && (seg == "" || seg == "." || seg == "..") {
				t.Fatalf("ParseTarget(%q) = %+v: bad segment %q", s, tg, seg)
			}
		}
		again, err := ParseTarget(tg.String())
		if err != nil || again != tg {
			t.Fatalf("ParseTarget(%q) = %+v; its String %q parses to %+v, %v", s, tg, tg.String(), again, err)
		}
	})
}
