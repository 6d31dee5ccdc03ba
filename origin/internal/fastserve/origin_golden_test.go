package fastserve

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/widgetd/widgetd/assets/assetstest"
)

// update rewrites testdata/origin.golden. It exists to create the
// file from a handler known to be right; a diff after a refactor is a change
// of behaviour, not something to regenerate.
var update = flag.Bool("update", false, "rewrite testdata/origin.golden")

// originCase is one raw request to the assets origin handler.
type originCase struct{ name, method, target, hdr string }

// originCases extend fastCases with every conditional header, range shapes
// and the error paths, for the byte-exact characterization of the handler.
func originCases(d *assetstest.Dist) []originCase {
	js := "/" + d.Asset
	sum := assetTag(d)
	id, br, gz := `"`+sum+`"`, `"`+sum+`-br"`, `"`+sum+`-gz"`
	const past, future = "Mon, 02 Jan 2006 15:04:05 GMT", "Fri, 01 Jan 2100 00:00:00 GMT"
	img := "/" + d.Image
	return append(fastCases(d), []originCase{
		// If-None-Match
		{"INM identity", "GET", js, "If-None-Match: " + id + "\r\n"},
		{"INM gzip", "GET", js, "Accept-Encoding: gzip\r\nIf-None-Match: " + gz + "\r\n"},
		{"INM br on identity", "GET", js, "If-None-Match: " + br + "\r\n"},
		{"INM list", "GET", js, "Accept-Encoding: br\r\nIf-None-Match: \"a\", " + br + "\r\n"},
		{"INM star", "GET", js, "If-None-Match: *\r\n"},
		{"INM malformed first", "GET", js, "If-None-Match: junk, " + id + "\r\n"},
		{"INM unterminated", "GET", js, "If-None-Match: \"" + sum + "\r\n"},
		{"INM empty", "GET", js, "If-None-Match: \r\n"},
		{"INM two lines", "GET", js, "If-None-Match: \"a\"\r\nIf-None-Match: " + id + "\r\n"},
		{"INM HEAD", "HEAD", js, "Accept-Encoding: br\r\nIf-None-Match: " + br + "\r\n"},
		{"INM alias", "GET", "/counter.html", "If-None-Match: *\r\n"},
		{"INM manifest", "GET", "/manifest.json", "Accept-Encoding: gzip\r\nIf-None-Match: *\r\n"},
		{"INM image", "GET", img, "If-None-Match: *\r\n"},
		{"INM healthz", "GET", "/healthz", "If-None-Match: *\r\n"},
		{"INM 404", "GET", "/nope.js", "If-None-Match: *\r\n"},
		{"INM 406", "GET", js, "Accept-Encoding: identity;q=0\r\nIf-None-Match: *\r\n"},
		{"INM and IMS", "GET", js, "If-None-Match: \"a\"\r\nIf-Modified-Since: " + future + "\r\n"},
		// If-Match, If-Unmodified-Since, If-Modified-Since
		{"IM match", "GET", js, "If-Match: " + id + "\r\n"},
		{"IM miss", "GET", js, "If-Match: \"a\"\r\n"},
		{"IM miss br", "GET", js, "Accept-Encoding: br\r\nIf-Match: \"a\"\r\n"},
		{"IM star", "GET", js, "If-Match: *\r\n"},
		{"IM weak", "GET", js, "If-Match: W/" + id + "\r\n"},
		{"IM miss HEAD", "HEAD", js, "If-Match: \"a\"\r\n"},
		{"IUS past", "GET", js, "If-Unmodified-Since: " + past + "\r\n"},
		{"IUS junk", "GET", js, "If-Unmodified-Since: junk\r\n"},
		{"IMS future", "GET", js, "If-Modified-Since: " + future + "\r\n"},
		{"IMS past br", "GET", js, "Accept-Encoding: br\r\nIf-Modified-Since: " + past + "\r\n"},
		// Range
		{"range 0-0", "GET", js, "Range: bytes=0-0\r\n"},
		{"range open", "GET", js, "Range: bytes=10-\r\n"},
		{"range clipped end", "GET", js, "Range: bytes=5-99999999\r\n"},
		{"range whole", "GET", js, "Range: bytes=0-\r\n"},
		{"range suffix larger", "GET", js, "Range: bytes=-99999999\r\n"},
		{"range suffix 0", "GET", js, "Range: bytes=-0\r\n"},
		{"range multi", "GET", js, "Range: bytes=0-9,20-29\r\n"},
		{"range multi overlapping", "GET", js, "Range: bytes=0-9, 5-15\r\n"},
		{"range trailing comma", "GET", js, "Range: bytes=0-9,\r\n"},
		{"range reversed", "GET", js, "Range: bytes=9-5\r\n"},
		{"range junk", "GET", js, "Range: bytes=abc\r\n"},
		{"range no dash", "GET", js, "Range: bytes=5\r\n"},
		{"range other unit", "GET", js, "Range: items=0-9\r\n"},
		{"range upper unit", "GET", js, "Range: Bytes=0-9\r\n"},
		{"range spaces", "GET", js, "Range: bytes= 0 - 9\r\n"},
		{"range empty", "GET", js, "Range: \r\n"},
		{"range two lines", "GET", js, "Range: bytes=0-9\r\nRange: bytes=20-29\r\n"},
		{"range huge number", "GET", js, "Range: bytes=0-99999999999999999999\r\n"},
		{"range 18 digits", "GET", js, "Range: bytes=0-999999999999999999\r\n"},
		{"range 19 digits", "GET", js, "Range: bytes=0-1000000000000000000\r\n"},
		{"range plus sign", "GET", js, "Range: bytes=+5-9\r\n"},
		{"range minus end", "GET", js, "Range: bytes=5--9\r\n"},
		{"range NBSP", "GET", js, "Range: bytes=\u00a00-9\r\n"},
		{"range HEAD", "HEAD", js, "Range: bytes=0-9\r\n"},
		{"range 416 HEAD", "HEAD", js, "Range: bytes=999999-\r\n"},
		{"range gzip", "GET", js, "Accept-Encoding: gzip\r\nRange: bytes=0-9\r\n"},
		{"range gzip 416", "GET", js, "Accept-Encoding: gzip\r\nRange: bytes=999999-\r\n"},
		{"range image", "GET", img, "Range: bytes=0-15\r\n"},
		{"range image 416", "GET", img, "Range: bytes=99999999-\r\n"},
		{"range alias", "GET", "/counter.html", "Range: bytes=0-15\r\n"},
		{"range manifest", "GET", "/manifest.json", "Range: bytes=-20\r\n"},
		{"range healthz", "GET", "/healthz", "Range: bytes=0-1\r\n"},
		{"range 404", "GET", "/nope.js", "Range: bytes=0-1\r\n"},
		{"range and INM match", "GET", js, "Range: bytes=0-9\r\nIf-None-Match: " + id + "\r\n"},
		{"range and INM miss", "GET", js, "Range: bytes=0-9\r\nIf-None-Match: \"a\"\r\n"},
		{"range and IM miss", "GET", js, "Range: bytes=0-9\r\nIf-Match: \"a\"\r\n"},
		// If-Range
		{"if-range weak", "GET", js, "Range: bytes=0-9\r\nIf-Range: W/" + id + "\r\n"},
		{"if-range other", "GET", js, "Range: bytes=0-9\r\nIf-Range: \"a\"\r\n"},
		{"if-range date", "GET", js, "Range: bytes=0-9\r\nIf-Range: " + future + "\r\n"},
		{"if-range spaces", "GET", js, "Range: bytes=0-9\r\nIf-Range:  " + id + " \r\n"},
		{"if-range junk after", "GET", js, "Range: bytes=0-9\r\nIf-Range: " + id + " x\r\n"},
		{"if-range two lines", "GET", js, "Range: bytes=0-9\r\nIf-Range: " + id + "\r\nIf-Range: " + id + "\r\n"},
		{"if-range no range", "GET", js, "If-Range: \"a\"\r\n"},
		{"if-range 416", "GET", js, "Range: bytes=999999-\r\nIf-Range: " + id + "\r\n"},
		// Methods and paths
		{"DELETE", "DELETE", js, ""},
		{"TRACE", "TRACE", "/", ""},
		{"PATCH 404 path", "PATCH", "/nope", "Content-Length: 0\r\n"},
		{"OPTIONS plain", "OPTIONS", js, ""},
		{"OPTIONS 404", "OPTIONS", "/nope", "Origin: null\r\nAccess-Control-Request-Method: GET\r\n"},
		{"OPTIONS no headers", "OPTIONS", js, "Origin: null\r\nAccess-Control-Request-Method: GET\r\n"},
		{"HEAD 404", "HEAD", "/nope", ""},
		{"HEAD gzip manifest", "HEAD", "/manifest.json", "Accept-Encoding: gzip\r\n"},
		{"HEAD healthz", "HEAD", "/healthz", ""},
		{"double slash", "GET", "/assets//x.js", ""},
		{"backslash", "GET", "/assets%5cx.js", ""},
		{"encoded dot", "GET", "/%2e/manifest.json", ""},
		{"trailing slash", "GET", "/assets/", ""},
	}...)
}

// TestOriginGolden characterizes the assets origin handler byte for byte:
// each originCase goes, on a fresh connection, to net/http and to the
// engine (twice: the first fills its cache), and every raw response (Date
// masked) must equal testdata/origin.golden. It pins status lines, header
// names, order and values, and bodies, so a refactor of the handler shows
// any change of what goes on the wire.
func TestOriginGolden(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	h := registryHandler(t, d)
	fast, _ := start(t, h, limits)
	ref := startNetHTTP(t, h, limits)
	var out bytes.Buffer
	for _, tc := range originCases(d) {
		want := rawRoundTrip(t, ref, tc)
		for i := range 2 {
			if got := rawRoundTrip(t, fast, tc); got != want {
				t.Errorf("%s: fast engine request #%d answered\n%s\nnet/http answered\n%s", tc.name, i, got, want)
			}
		}
		out.WriteString("=== " + tc.name + ": " + tc.method + " " + tc.target + "\n" + tc.hdr + "---\n" + want + "\n")
	}
	golden := filepath.Join("testdata", "origin.golden")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		gotCases, wantCases := strings.Split(out.String(), "\n=== "), strings.Split(string(want), "\n=== ")
		for i := range min(len(gotCases), len(wantCases)) {
			if gotCases[i] != wantCases[i] {
				t.Errorf("response differs from %s:\ngot\n%s\nwant\n%s", golden, gotCases[i], wantCases[i])
			}
		}
		if len(gotCases) != len(wantCases) {
			t.Errorf("%d cases, %s has %d", len(gotCases), golden, len(wantCases))
		}
	}
}

var dateLine = regexp.MustCompile(`(?m)^Date: [^\r]*\r$`)

// rawRoundTrip sends tc on a fresh connection to addr and returns the raw
// response bytes with the Date value masked.
func rawRoundTrip(t *testing.T, addr string, tc originCase) string {
	t.Helper()
	c := sendRequest(t, addr, tc.method, tc.target, tc.hdr)
	defer c.Close()
	var got bytes.Buffer
	resp, err := http.ReadResponse(bufio.NewReader(io.TeeReader(c, &got)), &http.Request{Method: tc.method})
	if err != nil {
		t.Fatalf("%s: read response: %v", tc.name, err)
	}
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatalf("%s: read body: %v", tc.name, err)
	}
	resp.Body.Close()
	return printable(t, dateLine.ReplaceAllString(got.String(), "Date: <date>\r"))
}

// printable renders a raw response for the golden file: the head with its
// CRLFs as LFs (after checking it has no bare LF, so nothing is lost), then
// the body as is when it is short printable text, else its length and
// SHA-256.
func printable(t *testing.T, raw string) string {
	t.Helper()
	head, body, ok := strings.Cut(raw, "\r\n\r\n")
	if !ok {
		t.Fatalf("response without end of head: %q", raw)
	}
	if strings.Count(head, "\n") != strings.Count(head, "\r\n") {
		t.Fatalf("head with a bare LF or CR: %q", head)
	}
	head = strings.ReplaceAll(head, "\r\n", "\n") + "\n\n"
	if len(body) <= 512 && utf8.ValidString(body) && !strings.ContainsFunc(body, func(r rune) bool {
		return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f
	}) {
		return head + body
	}
	return head + fmt.Sprintf("<%d bytes, sha256 %x>", len(body), sha256.Sum256([]byte(body)))
}
