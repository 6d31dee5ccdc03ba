package devserver

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// busyPort holds a real listener on a free loopback port for the test and
// returns the port; serve, when set, answers HTTP on it.
func busyPort(t *testing.T, serve http.Handler) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	if serve != nil {
		srv := &http.Server{Handler: serve}
		go srv.Serve(ln)
		t.Cleanup(func() { srv.Close() })
	}
	return ln.Addr().(*net.TCPAddr).Port
}

// TestListenPreview occupies a port with a real listener and asks for it:
// not chosen by the user, a later free port is taken and the busy one
// reported; chosen (explicit), it is an error naming the address, the flag
// to change and, when HTTP tells, what answers there.
func TestListenPreview(t *testing.T) {
	plain := busyPort(t, nil)
	nginx := busyPort(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Server", "nginx/1.27")
		http.NotFound(w, r)
	}))
	d := startDev(t, nil)
	_, devPort, _ := net.SplitHostPort(strings.TrimPrefix(strings.TrimSuffix(d.PreviewURL(), "/"), "http://"))
	for _, tc := range []struct {
		name     string
		port     string
		explicit bool
		flag     string
		want     []string // in the error; none: success
	}{
		{name: "default busy moves", port: strconv.Itoa(plain)},
		{name: "explicit busy", port: strconv.Itoa(plain), explicit: true, flag: "--port",
			want: []string{fmt.Sprintf("listen on 127.0.0.1:%d: the port is in use;", plain), "choose another port with --port (e.g. --port " + strconv.Itoa(plain+1) + ")"}},
		{name: "explicit busy by nginx", port: strconv.Itoa(nginx), explicit: true, flag: "--addr",
			want: []string{`(an HTTP server answers there: "nginx/1.27")`, fmt.Sprintf("--addr 127.0.0.1:%d", nginx+1)}},
		{name: "explicit busy by widgetd dev", port: devPort, explicit: true, flag: "--addr",
			want: []string{"(another widgetd dev answers there)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := ListenPreview(context.Background(), "127.0.0.1:"+tc.port, tc.explicit, tc.flag)
			if len(tc.want) > 0 {
				if err == nil {
					l.Listener.Close()
					t.Fatalf("listened on busy %s", l.Addr)
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error lacks %q:\n%v", w, err)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer l.Listener.Close()
			got := l.Listener.Addr().(*net.TCPAddr).Port
			if want, _ := strconv.Atoi(tc.port); l.BusyPort != want || got <= want || got >= want+PortTries {
				t.Errorf("took port %d (BusyPort %d), want a later one than %d reported busy", got, l.BusyPort, want)
			}
			if l.Addr != net.JoinHostPort("127.0.0.1", strconv.Itoa(got)) {
				t.Errorf("Addr %q, want the bound port", l.Addr)
			}
		})
	}
}
