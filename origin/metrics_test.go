package origin

import (
	"bytes"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/internal/syncbuf"
	"github.com/widgetd/widgetd/origin/internal/fastserve"
)

// TestServeObserverHit: a fast-engine hit is logged with the same fields as
// a net/http request and counted in /metrics; with only metrics on it
// allocates nothing.
func TestServeObserverHit(t *testing.T) {
	hit := fastserve.Hit{
		Method: "GET", Target: []byte("/assets/a-X.js"), UserAgent: []byte("probe/1"),
		Remote: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 4242}, Status: 200, Bytes: 1234,
		Encoding: "br", Duration: 3 * time.Millisecond,
	}
	var logb syncbuf.Buffer
	both := &serveObserver{logger: slog.New(slog.NewJSONHandler(&logb, nil)), metrics: &serveMetrics{buildID: "b1"}}
	both.hit(hit)
	for _, want := range []string{`"msg":"request"`, `"method":"GET"`, `"path":"/assets/a-X.js"`, `"status":200`, `"bytes":1234`,
		`"encoding":"br"`, `"duration":3000000`, `"remote":"127.0.0.1:4242"`, `"ua":"probe/1"`} {
		if !strings.Contains(logb.String(), want) {
			t.Errorf("access log lacks %s: %s", want, logb.String())
		}
	}
	var m bytes.Buffer
	both.metrics.write(&m)
	if !strings.Contains(m.String(), `widgetd_http_requests_total{code="200",encoding="br"} 1`) ||
		!strings.Contains(m.String(), `widgetd_http_response_bytes_total{encoding="br"} 1234`) {
		t.Errorf("/metrics after one hit:\n%s", m.String())
	}

	metricsOnly := &serveObserver{metrics: &serveMetrics{buildID: "b1"}}
	if n := testing.AllocsPerRun(100, func() { metricsOnly.hit(hit) }); n != 0 {
		t.Errorf("metrics-only hit: %v allocations, want 0", n)
	}
}
