package devserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"sync"
	"time"
)

// ErrNoTunnelProgram means neither cloudflared nor ngrok is on PATH; its
// message says what to install.
var ErrNoTunnelProgram = errors.New(`--tunnel needs cloudflared or ngrok on PATH; neither was found. Install one:
  cloudflared (no account needed):
    macOS:          brew install cloudflared
    Debian/Ubuntu:  download cloudflared-linux-amd64.deb from https://github.com/cloudflare/cloudflared/releases/latest,
                    then sudo dpkg -i cloudflared-linux-amd64.deb
    Windows:        winget install --id Cloudflare.cloudflared
  ngrok (free account): https://ngrok.com/download, then ngrok config add-authtoken <your token>
or put any tunnel or reverse proxy in front of widgetd dev and pass --public-url https://<its name>`)

// TunnelProgram is a tunnel client widgetd dev knows how to drive.
type TunnelProgram struct {
	// Name is the program's name on PATH: "cloudflared" or "ngrok".
	Name string
	// Path is where it was found.
	Path string
}

// tunnelKind is how to drive one tunnel program: its arguments for a local
// origin, and how to find its public URL in its output (the last submatch).
type tunnelKind struct {
	name string
	args func(local string) []string
	url  *regexp.Regexp
}

// tunnelKinds lists the supported programs, preferred first.
func tunnelKinds() []tunnelKind {
	return []tunnelKind{
		{"cloudflared", func(local string) []string { return []string{"tunnel", "--no-autoupdate", "--url", local} },
			regexp.MustCompile(`https://[a-z0-9]+(?:-[a-z0-9]+)+\.trycloudflare\.com`)}, // hyphenated quick-tunnel names, never api.trycloudflare.com
		{"ngrok", func(local string) []string {
			return []string{"http", local, "--log", "stdout", "--log-format", "logfmt"}
		},
			regexp.MustCompile(`url=(https://[A-Za-z0-9.-]+)`)},
	}
}

// FindTunnelProgram returns the first of cloudflared and ngrok that
// lookPath (exec.LookPath) finds, or ErrNoTunnelProgram.
func FindTunnelProgram(lookPath func(string) (string, error)) (TunnelProgram, error) {
	for _, k := range tunnelKinds() {
		if p, err := lookPath(k.name); err == nil {
			return TunnelProgram{Name: k.name, Path: p}, nil
		}
	}
	return TunnelProgram{}, ErrNoTunnelProgram
}

// Tunnel is a running tunnel program publishing a local origin.
type Tunnel struct {
	// PublicURL is the https URL the program announced.
	PublicURL string
	cancel    context.CancelFunc
	done      chan struct{}
}

// StartTunnel starts prog publishing local (e.g. http://127.0.0.1:5173),
// copies its output to log, and returns once it announced its public URL,
// or fails when it exits first or ctx ends (bound it: a tunnel that cannot
// reach its service may never announce one). Close stops it.
func StartTunnel(ctx context.Context, prog TunnelProgram, local string, log io.Writer) (*Tunnel, error) {
	var kind tunnelKind
	for _, k := range tunnelKinds() {
		if k.name == prog.Name {
			kind = k
		}
	}
	if kind.name == "" {
		return nil, fmt.Errorf("tunnel program %q: widgetd drives cloudflared or ngrok", prog.Name)
	}
	runCtx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(runCtx, prog.Path, kind.args(local)...)
	cmd.WaitDelay = 5 * time.Second
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("start %s: %w", prog.Name, err)
	}
	t := &Tunnel{cancel: cancel, done: make(chan struct{})}
	found := make(chan string, 1)
	var once sync.Once
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			fmt.Fprintf(log, "%s: %s\n", prog.Name, quoteForTerminal(sc.Text()))
			if m := kind.url.FindStringSubmatch(sc.Text()); m != nil {
				once.Do(func() { found <- m[len(m)-1] })
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	exited := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		pw.Close()
		exited <- err
		close(t.done)
	}()
	select {
	case u := <-found:
		t.PublicURL = u
		return t, nil
	case err := <-exited:
		cancel()
		return nil, fmt.Errorf("%s exited before announcing a public URL (%v); its output is above", prog.Name, err)
	case <-ctx.Done():
		t.Close()
		return nil, fmt.Errorf("%s announced no public URL: %w", prog.Name, ctx.Err())
	}
}

// Close stops the tunnel program and waits for it to exit.
func (t *Tunnel) Close() {
	t.cancel()
	<-t.done
}
