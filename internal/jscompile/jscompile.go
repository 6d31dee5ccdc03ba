// Package jscompile runs the JavaScript-only compilers a widget may need
// (Tailwind CSS, PostCSS, Vue, Svelte, Solid's Babel preset) in one
// long-lived Node.js process, started on first use and shared by every
// caller until Close.
//
// The Go side writes one JSON request per line to the helper's stdin and reads
// one JSON response per line from its file descriptor 3, matched by request
// id, so concurrent callers (esbuild's plugin callbacks) share the process.
// Compilers are loaded from the node_modules of the folder each request
// names. A project that never calls Call never starts Node.
package jscompile

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

//go:embed helper.mjs
var helperScript string

// maxLine bounds one response line (compiled code plus CSS).
const maxLine = 256 << 20

// stderrKeep is how much of the helper's stderr is kept for crash messages.
const stderrKeep = 4 << 10

// ErrNoNode reports that no Node.js executable was found.
var ErrNoNode = errors.New("Node.js (node) is not on PATH")

// Options configures a Helper.
type Options struct {
	// Dir is the helper's working directory (the project root, where
	// tools like Tailwind v3 resolve relative content globs).
	Dir string
	// Node is the node executable; default "node" looked up on PATH.
	Node string
	// Env is extra environment for the process ("KEY=value").
	Env []string
}

// Helper is a lazily started Node.js process serving compile requests. It is
// safe for concurrent use.
type Helper struct {
	opts Options

	mu      sync.Mutex
	proc    *process // nil until started, and after it died
	starts  int
	startup time.Duration
	closed  bool
}

// process is one running helper.
type process struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	writeMu sync.Mutex
	mu      sync.Mutex
	nextID  uint64
	pending map[uint64]chan response
	dead    chan struct{} // closed when the process is gone
	err     error         // why it died, set before dead is closed
	stderr  *tailBuffer
}

type response struct {
	ID     uint64          `json:"id"`
	Ready  bool            `json:"ready"`
	Result json.RawMessage `json:"result"`
	Error  *wireError      `json:"error"`
}

type wireError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Package string `json:"package"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Stack   string `json:"stack"`
}

// CompileError is a compiler's rejection of a source file. Line and Column
// are 1-based; 0 when the compiler gave no position.
type CompileError struct {
	File    string
	Line    int
	Column  int
	Message string
}

func (e *CompileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Message)
	}
	return e.File + ": " + e.Message
}

// MissingPackageError reports an npm package that does not resolve from Dir.
type MissingPackageError struct {
	// Package is what to install, e.g. "svelte".
	Package string
	// Dir is the folder it was resolved from.
	Dir string
}

func (e *MissingPackageError) Error() string {
	return fmt.Sprintf("npm package %s is not installed (resolved from %s)", e.Package, e.Dir)
}

// New returns a Helper; no process starts until the first Call.
func New(opts Options) *Helper {
	return &Helper{opts: opts}
}

// Started reports how many times a process was started (0: Node never ran).
func (h *Helper) Started() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.starts
}

// StartupDuration is how long the last start took, from exec to the helper's
// ready line.
func (h *Helper) StartupDuration() time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.startup
}

// Call sends one request (op plus the fields of args, which must marshal to a
// JSON object) and decodes the result into out. It starts the process when
// none is running, e.g. on first use or after a crash.
func (h *Helper) Call(ctx context.Context, op string, args any, out any) error {
	p, err := h.running(ctx)
	if err != nil {
		return err
	}
	return p.call(ctx, op, args, out)
}

// running returns the live process, starting one if needed.
func (h *Helper) running(ctx context.Context) (*process, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, errors.New("node helper: closed")
	}
	if h.proc != nil {
		select {
		case <-h.proc.dead:
			h.proc = nil
		default:
			return h.proc, nil
		}
	}
	start := time.Now()
	p, err := h.start(ctx)
	if err != nil {
		return nil, err
	}
	h.proc, h.starts, h.startup = p, h.starts+1, time.Since(start)
	return p, nil
}

func (h *Helper) start(ctx context.Context) (*process, error) {
	node := h.opts.Node
	if node == "" {
		node = "node"
	}
	bin, err := exec.LookPath(node)
	if err != nil {
		return nil, ErrNoNode
	}
	cmd := exec.Command(bin, "--input-type=module", "--eval", helperScript)
	cmd.Dir = h.opts.Dir
	cmd.Env = append(os.Environ(), h.opts.Env...)
	cmd.SysProcAttr = procAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.ExtraFiles = []*os.File{respW}
	p := &process{cmd: cmd, stdin: stdin, pending: map[uint64]chan response{}, dead: make(chan struct{}), stderr: &tailBuffer{max: stderrKeep}}
	cmd.Stdout, cmd.Stderr = p.stderr, p.stderr
	err = cmd.Start()
	// Only the child may hold the write end: the reader sees EOF when it dies.
	respW.Close()
	if err != nil {
		respR.Close()
		return nil, fmt.Errorf("start node helper: %w", err)
	}
	ready := make(chan error, 1)
	go p.read(respR, ready)
	select {
	case err := <-ready:
		if err != nil {
			return nil, err
		}
		return p, nil
	case <-ctx.Done():
		p.kill()
		return nil, ctx.Err()
	}
}

// read dispatches responses until the pipe closes, then marks p dead.
func (p *process) read(r *os.File, ready chan<- error) {
	defer r.Close()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	first := true
	for sc.Scan() {
		var resp response
		if err := json.Unmarshal(sc.Bytes(), &resp); err != nil {
			continue
		}
		if first {
			first = false
			ready <- nil
			continue
		}
		p.mu.Lock()
		ch := p.pending[resp.ID]
		delete(p.pending, resp.ID)
		p.mu.Unlock()
		if ch != nil {
			ch <- resp
		}
	}
	waitErr := p.cmd.Wait()
	why := "exited"
	if waitErr != nil {
		why = waitErr.Error()
	}
	if err := sc.Err(); err != nil {
		why += " (" + err.Error() + ")"
	}
	msg := strings.TrimSpace(p.stderr.String())
	if msg != "" {
		msg = "; its output ended with:\n" + msg
	}
	p.err = fmt.Errorf("node helper %s%s", why, msg)
	if first {
		ready <- p.err
	}
	close(p.dead)
}

func (p *process) call(ctx context.Context, op string, args any, out any) error {
	fields, err := json.Marshal(args)
	if err != nil {
		return err
	}
	if args == nil || string(fields) == "null" {
		fields = []byte("{}")
	}
	if len(fields) < 2 || fields[0] != '{' {
		return fmt.Errorf("node helper: %s arguments must be a JSON object", op)
	}
	ch := make(chan response, 1)
	p.mu.Lock()
	p.nextID++
	id := p.nextID
	p.pending[id] = ch
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.pending, id)
		p.mu.Unlock()
	}()
	var line bytes.Buffer
	fmt.Fprintf(&line, `{"id":%d,"op":%q`, id, op)
	if len(fields) > 2 {
		line.WriteByte(',')
		line.Write(fields[1:])
	} else {
		line.WriteByte('}')
	}
	line.WriteByte('\n')
	// The write blocks while Node, busy, does not read a request larger than
	// the pipe's buffer; it must not outlive the caller's context.
	written := make(chan error, 1)
	go func() {
		p.writeMu.Lock()
		_, err := p.stdin.Write(line.Bytes())
		p.writeMu.Unlock()
		written <- err
	}()
	select {
	case werr := <-written:
		if werr != nil {
			select {
			case <-p.dead:
				return p.err
			case <-time.After(2 * time.Second):
				return fmt.Errorf("node helper: write request: %w", werr)
			}
		}
	case <-p.dead:
		return p.err
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case resp := <-ch:
		if resp.Error != nil {
			return resp.Error.asError()
		}
		if out == nil {
			return nil
		}
		return json.Unmarshal(resp.Result, out)
	case <-p.dead:
		return p.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (e *wireError) asError() error {
	switch e.Code {
	case "missing-package":
		return &MissingPackageError{Package: e.Package}
	case "compile":
		return &CompileError{File: e.File, Line: e.Line, Column: e.Column, Message: e.Message}
	}
	if e.Stack != "" {
		return fmt.Errorf("node helper: %s\n%s", e.Message, e.Stack)
	}
	return fmt.Errorf("node helper: %s", e.Message)
}

func (p *process) kill() {
	_ = p.cmd.Process.Kill()
	<-p.dead
}

// Close stops the process (closing its stdin, then killing it if it does
// not exit within a second). Calls after Close fail.
func (h *Helper) Close() error {
	h.mu.Lock()
	p := h.proc
	h.proc, h.closed = nil, true
	h.mu.Unlock()
	if p == nil {
		return nil
	}
	_ = p.stdin.Close()
	select {
	case <-p.dead:
	case <-time.After(time.Second):
		p.kill()
	}
	return nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
