package origin

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/origin/internal/fastserve"
)

// metricsHandler answers GET and HEAD /metrics in the Prometheus text format
// and leaves other methods to origin, which refuses them like any path.
func (o *serveObserver) metricsHandler(origin http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			origin.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		o.metrics.write(w)
	})
}

// accessLog is chi middleware that logs and counts every answered request.
func (o *serveObserver) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" {
			next.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		o.record(r.Context(), r.Method, r.URL.Path, sw.status, sw.bytes, w.Header().Get("Content-Encoding"),
			time.Since(start), r.RemoteAddr, r.UserAgent())
	})
}

// serveObserver is the access log and metrics of the origin, shared by
// the net/http handler and the fast engine (through hit) so both record the
// same fields.
type serveObserver struct {
	logger  *slog.Logger // nil: no access log
	metrics *serveMetrics
}

// newServeObserver returns nil when both the access log and metrics are off.
func newServeObserver(reg *assets.Registry, opts Options, logger *slog.Logger) *serveObserver {
	if !opts.Metrics && !opts.AccessLog {
		return nil
	}
	o := &serveObserver{}
	if opts.AccessLog {
		o.logger = logger
	}
	if opts.Metrics {
		o.metrics = &serveMetrics{buildID: reg.Manifest().BuildID}
	}
	return o
}

// record logs and counts one answered request.
func (o *serveObserver) record(ctx context.Context, method, path string, status int, n int64, encoding string, d time.Duration, remote, ua string) {
	if o.metrics != nil {
		o.metrics.observe(status, encoding, n, d)
	}
	if o.logger != nil {
		o.logger.LogAttrs(ctx, slog.LevelInfo, "request",
			slog.String("method", method),
			slog.String("path", path),
			slog.Int("status", status),
			slog.Int64("bytes", n),
			slog.String("encoding", encoding),
			slog.Duration("duration", d),
			slog.String("remote", remote),
			slog.String("ua", ua),
		)
	}
}

// hit records a response the fast engine sent. With the access log off it
// only counts, so the fast path stays free of allocations.
func (o *serveObserver) hit(h fastserve.Hit) {
	if o.logger == nil {
		o.metrics.observe(h.Status, h.Encoding, h.Bytes, h.Duration)
		return
	}
	o.record(context.Background(), h.Method, string(h.Target), h.Status, h.Bytes, h.Encoding,
		h.Duration, h.Remote.String(), string(h.UserAgent))
}

// statusWriter records the status and body size a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (s *statusWriter) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	n, err := s.ResponseWriter.Write(b)
	s.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the real writer.
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Metric label sets are fixed so counters are plain atomics: no map, no lock.
var (
	metricCodes     = [...]int{200, 204, 206, 304, 400, 404, 405, 406, 416, 500}
	metricEncodings = [...]string{"identity", "br", "gzip"}
	metricBuckets   = [...]float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.25, 1}
)

// serveMetrics are the counters /metrics exposes, hand-written in the
// Prometheus text exposition format to avoid a dependency.
type serveMetrics struct {
	buildID  string
	requests [len(metricCodes) + 1][len(metricEncodings)]atomic.Uint64 // last code row: other
	bytes    [len(metricEncodings)]atomic.Uint64
	buckets  [len(metricBuckets)]atomic.Uint64
	count    atomic.Uint64
	sumNanos atomic.Uint64
}

func (m *serveMetrics) observe(code int, encoding string, n int64, d time.Duration) {
	ci := len(metricCodes)
	for i, c := range metricCodes {
		if c == code {
			ci = i
			break
		}
	}
	ei := 0
	switch encoding {
	case "br":
		ei = 1
	case "gzip":
		ei = 2
	}
	m.requests[ci][ei].Add(1)
	m.bytes[ei].Add(uint64(n))
	s := d.Seconds()
	for i, b := range metricBuckets {
		if s <= b {
			m.buckets[i].Add(1)
		}
	}
	m.count.Add(1)
	m.sumNanos.Add(uint64(d.Nanoseconds()))
}

func (m *serveMetrics) write(w io.Writer) {
	fmt.Fprintln(w, "# HELP widgetd_build_info The build being served.")
	fmt.Fprintln(w, "# TYPE widgetd_build_info gauge")
	fmt.Fprintf(w, "widgetd_build_info{build_id=%q} 1\n", m.buildID)
	fmt.Fprintln(w, "# HELP widgetd_http_requests_total Requests answered, by status code and content coding.")
	fmt.Fprintln(w, "# TYPE widgetd_http_requests_total counter")
	for ci := range m.requests {
		code := "other"
		if ci < len(metricCodes) {
			code = strconv.Itoa(metricCodes[ci])
		}
		for ei, enc := range metricEncodings {
			if v := m.requests[ci][ei].Load(); v > 0 {
				fmt.Fprintf(w, "widgetd_http_requests_total{code=%q,encoding=%q} %d\n", code, enc, v)
			}
		}
	}
	fmt.Fprintln(w, "# HELP widgetd_http_response_bytes_total Body bytes written, by content coding.")
	fmt.Fprintln(w, "# TYPE widgetd_http_response_bytes_total counter")
	for ei, enc := range metricEncodings {
		fmt.Fprintf(w, "widgetd_http_response_bytes_total{encoding=%q} %d\n", enc, m.bytes[ei].Load())
	}
	fmt.Fprintln(w, "# HELP widgetd_http_request_duration_seconds Time spent in the handler.")
	fmt.Fprintln(w, "# TYPE widgetd_http_request_duration_seconds histogram")
	for i, b := range metricBuckets {
		fmt.Fprintf(w, "widgetd_http_request_duration_seconds_bucket{le=%q} %d\n", strconv.FormatFloat(b, 'g', -1, 64), m.buckets[i].Load())
	}
	count := m.count.Load()
	fmt.Fprintf(w, "widgetd_http_request_duration_seconds_bucket{le=\"+Inf\"} %d\n", count)
	fmt.Fprintf(w, "widgetd_http_request_duration_seconds_sum %g\n", float64(m.sumNanos.Load())/1e9)
	fmt.Fprintf(w, "widgetd_http_request_duration_seconds_count %d\n", count)
}
