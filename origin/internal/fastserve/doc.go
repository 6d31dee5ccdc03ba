// Package fastserve is an HTTP/1.1 server for origins whose common requests
// are plain GETs of static, content-addressed responses, such as
// assets.Registry's handler. It owns the connection handling, the strict
// request-head parser, the memoised responses and their writev/sendfile
// output, and the hand-off to net/http; it knows nothing about what it
// serves.
//
// net/http spends most of a static hit on per-request work that a CDN origin
// does not need (building an *http.Request and a header map, a response
// writer, a context), which caps a 60 KB brotli hit at about half of nginx's
// rate on two cores.
//
// Server keeps one goroutine per connection like net/http, but answers the
// common request — a keep-alive HTTP/1.1 GET or HEAD of a plain path, no
// conditional or Range header, no body — from pre-serialised responses with
// one writev (or, on Linux, a send of the head and a sendfile of the body
// from a sealed memfd). Those responses are produced by the real handler:
// the first such request for a (method, target, Accept-Encoding class) runs
// the handler through a recorder and stores the status line, headers and body,
// so the fast path can only ever send what the handler would (plus Date).
// Only 200 responses that carry an ETag and a matching Content-Length are
// stored, so dynamic paths (no-store) and errors never are.
//
// Everything else — other methods, conditionals, Range, bodies, query
// strings, HTTP/1.0, Connection: close, anything the strict parser does not
// accept, heads longer than 4 KiB — is handed, with the bytes already read,
// to a plain net/http server with the same limits, which serves the rest of
// that connection. A head that cannot be a fast one (bare LF, a request
// line that is not HTTP/1.1) is handed off as soon as that is visible, the
// head's deadline carries over, and net/http can half-close the connection
// it got. Correctness therefore rests on net/http for every unusual request
// and on the handler for every response body and header.
//
// The Accept-Encoding class (see encodingClass) assumes the handler
// negotiates Content-Encoding among br, gzip and identity by RFC 9110
// q-values with ties in that order, as assets' handler does (both read the
// header with internal/acceptenc).
package fastserve
