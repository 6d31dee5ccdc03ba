package devserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"
)

// PortTries is how many ports ListenPreview tries, from the one asked for
// upwards, when that port was not chosen by the user and is in use.
const PortTries = 20

// Listening is the preview listener ListenPreview opened and, when the
// asked-for port was in use, the port it was asked for.
type Listening struct {
	// Listener is open on Addr's host; pass it as Options.Listener.
	Listener net.Listener
	// Addr is the address asked for with the port actually bound, host
	// name kept (so "localhost:5174" stays a name): pass it as Options.Addr.
	Addr string
	// BusyPort is the asked-for port when it was in use and a later one
	// was taken (0 when the asked-for port was free).
	BusyPort int
}

// ListenPreview opens the preview listener on addr. When the port is in use
// and explicit is false (the user did not choose it), it tries the next
// ports, up to PortTries in all, so a second `widgetd dev` starts rather
// than fails. An explicit address stays fatal; the error names the address,
// what answers there when that can be told, and flag, the flag to change.
func ListenPreview(ctx context.Context, addr string, explicit bool, flag string) (*Listening, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%s %q: %w (want host:port, e.g. %s)", flag, addr, err, DefaultAddr)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port < 0 || port > 65535 {
		return nil, fmt.Errorf("%s %q: the port must be a number from 0 to 65535", flag, addr)
	}
	tries := PortTries
	if explicit || port == 0 {
		tries = 1
	}
	var firstErr error
	for i := 0; i < tries && port+i <= 65535; i++ {
		try := net.JoinHostPort(host, strconv.Itoa(port+i))
		ln, err := net.Listen("tcp", try)
		if err == nil {
			l := &Listening{Listener: ln, Addr: net.JoinHostPort(host, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))}
			if i > 0 {
				l.BusyPort = port
			}
			return l, nil
		}
		if !errors.Is(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("listen on %s: %w", try, err)
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if explicit {
		return nil, fmt.Errorf("listen on %s: the port is in use%s; stop that program or choose another port with %s (e.g. %s %s)",
			addr, whatListens(ctx, addr), flag, flag, suggestion(flag, host, port))
	}
	return nil, fmt.Errorf("listen on %s: ports %d to %d are all in use (%w); choose a free one with --port or --addr", addr, port, port+tries-1, firstErr)
}

// suggestion is an example value for flag: the next port.
func suggestion(flag, host string, port int) string {
	next := port + 1
	if next > 65535 {
		next = 0
	}
	if flag == "--port" {
		return strconv.Itoa(next)
	}
	return net.JoinHostPort(host, strconv.Itoa(next))
}

// whatListens says what answers on addr when an HTTP request tells it (" (…)"),
// else "": another widgetd dev, or an HTTP server and its Server header.
func whatListens(ctx context.Context, addr string) string {
	host, port, _ := net.SplitHostPort(addr)
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+net.JoinHostPort(host, port)+"/_widgetd/state", nil)
	if err != nil {
		return ""
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		return ""
	}
	res.Body.Close()
	switch {
	case res.StatusCode == http.StatusOK && res.Header.Get("Content-Type") == "application/json":
		return " (another widgetd dev answers there)"
	case res.Header.Get("Server") != "":
		return fmt.Sprintf(" (an HTTP server answers there: %q)", res.Header.Get("Server"))
	default:
		return " (an HTTP server answers there)"
	}
}
