package assets

import (
	"net/http"
	"strconv"
	"strings"
)

// entry is one servable path with every header value prebuilt, so the hot path
// only assigns slices into the response header map and writes a body.
type entry struct {
	path      string
	immutable bool
	ctype     []string
	cache     []string
	identity  variant
	br        *variant
	gzip      *variant
}

// variant is one representation of an entry: identity, br or gzip bytes.
type variant struct {
	name string // Content-Encoding token, "" for identity
	body []byte
	etag string

	hETag []string
	hLen  []string
	hEnc  []string
}

func newEntry(p, ctype string, immutable bool, id variant, encs []variant) *entry {
	e := &entry{path: p, immutable: immutable, ctype: []string{ctype}, identity: id}
	if immutable {
		e.cache = []string{CacheImmutable}
	} else {
		e.cache = []string{CacheRevalidate}
	}
	e.identity.prepare()
	for i := range encs {
		v := encs[i]
		v.prepare()
		switch v.name {
		case "br":
			e.br = &v
		case "gzip":
			e.gzip = &v
		}
	}
	return e
}

func (v *variant) prepare() {
	v.hETag = []string{v.etag}
	v.hLen = []string{strconv.Itoa(len(v.body))}
	if v.name != "" {
		v.hEnc = []string{v.name}
	}
}

// Prebuilt header values shared by every response.
var (
	hVary        = []string{"Accept-Encoding"}
	hStar        = []string{"*"}
	hCrossOrigin = []string{"cross-origin"}
	hNosniff     = []string{"nosniff"}
	hBytes       = []string{"bytes"}
	hNone        = []string{"none"}
	hAllow       = []string{"GET, HEAD, OPTIONS"}
	hAllowMethod = []string{"GET, HEAD"}
	hMaxAge      = []string{"86400"}
	hTextPlain   = []string{"text/plain; charset=utf-8"}
	hNoStore     = []string{"no-store"}
	hExposeHdrs  = []string{"Content-Length, Content-Encoding, Content-Range, ETag, Accept-Ranges"}
)

// Handler returns the CDN origin for this dist/: a plain http.Handler to mount
// on any mux (under the base path given to Load) or to run alone with
// `widgetd serve`. It serves every manifest file, manifest.json and the
// unhashed /<name>.html aliases, plus /healthz. See docs/serving.md for the
// exact header rules.
func (r *Registry) Handler() http.Handler { return (*origin)(r) }

type origin Registry

// ServeHTTP serves one request. On a hit for a hashed file it performs no
// allocations: header values are prebuilt slices assigned directly into the
// header map.
func (o *origin) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	h := w.Header()
	h["Access-Control-Allow-Origin"] = hStar
	h["Cross-Origin-Resource-Policy"] = hCrossOrigin
	h["Timing-Allow-Origin"] = hStar
	h["X-Content-Type-Options"] = hNosniff

	// Methods no resource supports are refused before the path is looked
	// at, so PUT, TRACE or an authority-form CONNECT get 405 with Allow on
	// any target, not a 404 that hides which methods exist.
	switch req.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
	default:
		h["Allow"] = hAllow
		plainError(w, http.StatusMethodNotAllowed)
		return
	}

	p, status := o.lookupPath(req)
	if status != 0 {
		plainError(w, status)
		return
	}
	var e *entry
	if p == "healthz" {
		e = o.health
	} else {
		e = o.files[p]
	}
	if e == nil {
		plainError(w, http.StatusNotFound)
		return
	}

	if req.Method == http.MethodOptions {
		preflight(w, req)
		return
	}
	o.serveEntry(w, req, e)
}

// serveEntry answers GET or HEAD for e: the negotiated representation, 304
// on a matching If-None-Match, or a byte range of the identity body. It
// ignores If-Match, If-Unmodified-Since and If-Modified-Since (there is no
// Last-Modified).
//
// Conditional requests and Range are evaluated here, not by
// http.ServeContent, because ServeContent answers about a fifth of the
// requests pinned in origin/internal/fastserve/testdata/origin.golden differently
// (24 of 120 when this was written): it adds Accept-Ranges to br and gzip
// responses and applies Range to their bytes; answers a malformed range, an
// unknown unit (RFC 9110 §14.2 says ignore it) or "Bytes=" with 416 instead
// of the whole body; answers several ranges with a multipart body whose
// boundary is random; drops ETag and Cache-Control from its 416s and
// changes their body; serves "bytes=-0" as an empty 206; reads only the
// first If-None-Match, Range or If-Range line and stops at a malformed
// entity tag; and evaluates If-Match. Matching those bytes would take a
// range syntax check and a ResponseWriter that rewrites its answers: as much
// code as this, and allocations on every conditional request.
func (o *origin) serveEntry(w http.ResponseWriter, req *http.Request, e *entry) {
	h := w.Header()
	v := e.negotiate(req.Header["Accept-Encoding"])
	h["Vary"] = hVary
	if v == nil {
		plainError(w, http.StatusNotAcceptable)
		return
	}
	h["Cache-Control"] = e.cache
	h["Etag"] = v.hETag
	if inm, ok := req.Header["If-None-Match"]; ok {
		if etagListMatch(inm, v.etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	h["Content-Type"] = e.ctype
	if v.name != "" {
		h["Content-Encoding"] = v.hEnc
	} else {
		h["Accept-Ranges"] = hBytes
		if rg, ok := req.Header["Range"]; ok && len(rg) == 1 && ifRangeOK(req.Header["If-Range"], v.etag) {
			serveRange(w, req, v, rg[0])
			return
		}
	}
	h["Content-Length"] = v.hLen
	w.WriteHeader(http.StatusOK)
	if req.Method != http.MethodHead {
		_, _ = w.Write(v.body)
	}
}

// lookupPath maps the request path to a dist-relative file path. It rejects
// encoded separators, dot segments, backslashes, NUL and empty segments with
// 400 and anything outside the base path with 404; since only manifest paths
// are in the lookup table, nothing else can ever be served.
func (o *origin) lookupPath(req *http.Request) (string, int) {
	p := req.URL.Path
	if raw := req.URL.RawPath; raw != "" && hasEncodedTrick(raw) {
		return "", http.StatusBadRequest
	}
	if !strings.HasPrefix(p, o.basePath) {
		return "", http.StatusNotFound
	}
	p = p[len(o.basePath):]
	if p == "" {
		return "", http.StatusNotFound // no directory listings
	}
	if badPath(p) {
		return "", http.StatusBadRequest
	}
	return p, 0
}

// hasEncodedTrick reports percent-encoded "/", "\", "." or NUL in a raw path.
func hasEncodedTrick(raw string) bool {
	for i := 0; i+2 < len(raw); i++ {
		if raw[i] != '%' {
			continue
		}
		a, b := raw[i+1], raw[i+2]|0x20
		if (a == '2' && (b == 'f' || b == 'e')) || (a == '5' && b == 'c') || (a == '0' && b == '0') {
			return true
		}
	}
	return false
}

// badPath reports dot segments, empty segments, backslashes, NUL and other
// control bytes in a decoded, base-relative path.
func badPath(p string) bool {
	if p[0] == '/' || p[len(p)-1] == '/' {
		return true
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c < 0x20 || c == 0x7f || c == '\\' {
			return true
		}
		if c == '/' && p[i+1] == '/' {
			return true
		}
	}
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

func plainError(w http.ResponseWriter, code int) {
	h := w.Header()
	h["Content-Type"] = hTextPlain
	h["Cache-Control"] = hNoStore
	delete(h, "Etag")
	delete(h, "Content-Encoding")
	w.WriteHeader(code)
	_, _ = w.Write(statusBodies[code])
}

var statusBodies = map[int][]byte{
	http.StatusBadRequest:                   []byte("400 bad request\n"),
	http.StatusNotFound:                     []byte("404 page not found\n"),
	http.StatusMethodNotAllowed:             []byte("405 method not allowed\n"),
	http.StatusNotAcceptable:                []byte("406 not acceptable: no acceptable content coding\n"),
	http.StatusRequestedRangeNotSatisfiable: []byte("416 requested range not satisfiable\n"),
}

// preflight answers OPTIONS: a CORS preflight gets the allowed methods and
// request headers; a plain OPTIONS gets Allow.
func preflight(w http.ResponseWriter, req *http.Request) {
	h := w.Header()
	h["Allow"] = hAllow
	if req.Header.Get("Origin") != "" && req.Header.Get("Access-Control-Request-Method") != "" {
		h["Access-Control-Allow-Methods"] = hAllowMethod
		if rh := req.Header.Get("Access-Control-Request-Headers"); rh != "" {
			h.Set("Access-Control-Allow-Headers", rh)
		}
		h["Access-Control-Max-Age"] = hMaxAge
		h.Add("Vary", "Access-Control-Request-Headers")
	}
	h["Content-Length"] = []string{"0"}
	w.WriteHeader(http.StatusNoContent)
}

// serveRange answers a single-range request on an identity body with 206, or
// 416 when unsatisfiable. Multiple ranges or malformed headers get the full
// 200 response, which RFC 9110 allows.
func serveRange(w http.ResponseWriter, req *http.Request, v *variant, spec string) {
	h := w.Header()
	size := int64(len(v.body))
	start, end, ok, satisfiable := parseRange(spec, size)
	if !ok {
		h["Content-Length"] = v.hLen
		w.WriteHeader(http.StatusOK)
		if req.Method != http.MethodHead {
			_, _ = w.Write(v.body)
		}
		return
	}
	if !satisfiable {
		h.Set("Content-Range", "bytes */"+itoa64(size))
		h["Content-Type"] = hTextPlain
		body := statusBodies[http.StatusRequestedRangeNotSatisfiable]
		h.Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
		if req.Method != http.MethodHead {
			_, _ = w.Write(body)
		}
		return
	}
	h.Set("Content-Range", "bytes "+itoa64(start)+"-"+itoa64(end)+"/"+itoa64(size))
	h.Set("Content-Length", itoa64(end-start+1))
	w.WriteHeader(http.StatusPartialContent)
	if req.Method != http.MethodHead {
		_, _ = w.Write(v.body[start : end+1])
	}
}

// parseRange parses one "bytes=" range against a body of size bytes. ok is
// false when the header should be ignored (malformed, other unit, several
// ranges); satisfiable is false when a well-formed range lies outside the body.
func parseRange(spec string, size int64) (start, end int64, ok, satisfiable bool) {
	const prefix = "bytes="
	if len(spec) < len(prefix) || !strings.EqualFold(spec[:len(prefix)], prefix) {
		return 0, 0, false, false
	}
	spec = strings.TrimSpace(spec[len(prefix):])
	if strings.Contains(spec, ",") {
		return 0, 0, false, false
	}
	dash := strings.IndexByte(spec, '-')
	if dash < 0 {
		return 0, 0, false, false
	}
	first, last := strings.TrimSpace(spec[:dash]), strings.TrimSpace(spec[dash+1:])
	if first == "" {
		// suffix range: the last n bytes
		n, err := parseDigits(last)
		if err != nil {
			return 0, 0, false, false
		}
		if n == 0 || size == 0 {
			return 0, 0, true, false
		}
		n = min(n, size)
		return size - n, size - 1, true, true
	}
	s, err := parseDigits(first)
	if err != nil {
		return 0, 0, false, false
	}
	e := size - 1
	if last != "" {
		e, err = parseDigits(last)
		if err != nil || e < s {
			return 0, 0, false, false
		}
		e = min(e, size-1)
	}
	if s >= size {
		return 0, 0, true, false
	}
	return s, e, true, true
}

// parseDigits parses a byte position: 1 to 18 ASCII digits (no sign, so
// the value always fits an int64 and an end+1 cannot overflow).
func parseDigits(s string) (int64, error) {
	if len(s) > 18 {
		return 0, strconv.ErrRange
	}
	n, err := strconv.ParseUint(s, 10, 63)
	return int64(n), err
}

// ifRangeOK reports whether a Range header may be honoured given If-Range:
// absent, or an entity tag strongly equal to etag. A date (we send no
// Last-Modified) or a weak tag means "send the whole body".
func ifRangeOK(ifRange []string, etag string) bool {
	if len(ifRange) == 0 {
		return true
	}
	return len(ifRange) == 1 && strings.TrimSpace(ifRange[0]) == etag
}
