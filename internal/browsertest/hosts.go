package browsertest

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// Host page paths served by Hosts.Handler.
const (
	// MCPHostPath is the real MCP Apps host: AppBridge over PostMessageTransport.
	MCPHostPath = "/mcp-host"
	// ChatGPTHostPath is the ChatGPT stand-in; widgets it loads must be served
	// with ChatGPTQuery so that chatgpt.js defines window.openai first.
	ChatGPTHostPath = "/chatgpt-host"
	// RawHostPath is the hand-driven JSON-RPC host for bridge unit tests.
	RawHostPath = "/raw-host"
	// ChatGPTScriptPath is the script that provides window.openai inside the
	// widget frame (chatgpt-apps.md §1).
	ChatGPTScriptPath = "/chatgpt.js"
	// ChatGPTQuery is the query a widget URL carries under the ChatGPT host;
	// WidgetHandler then injects the window.openai script.
	ChatGPTQuery = "host=chatgpt"
)

// extAppsPackage is the npm package the hosts and App-class widgets need.
const extAppsPackage = "@modelcontextprotocol/ext-apps"

// moduleRoot is the widgetd repository root, found from this source file (the
// tests run from source, so it is always on disk).
func moduleRoot() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return "", errors.New("browsertest: cannot locate its source folder (built with -trimpath?)")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..")), nil
}

// RepoPath returns the absolute path of a slash-separated path inside the
// widgetd repository, e.g. RepoPath(t, "widgets").
func RepoPath(t testing.TB, rel string) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, filepath.FromSlash(rel))
}

// HostsDir returns the folder holding the host pages and their npm project
// (package.json and package-lock.json; node_modules after `npm ci`).
func HostsDir() (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "internal", "browsertest", "testdata", "hosts"), nil
}

// display shows dir relative to the repository root when inside it.
func display(dir string) string {
	if root, err := moduleRoot(); err == nil {
		if rel, err := filepath.Rel(root, dir); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return dir
}

// CheckNodeModules reports an error saying to run `npm ci` in dir unless
// dir/node_modules holds every named package; it returns the absolute
// node_modules folder.
func CheckNodeModules(dir string, pkgs ...string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	nm := filepath.Join(abs, "node_modules")
	for _, pkg := range pkgs {
		if _, err := os.Stat(filepath.Join(nm, filepath.FromSlash(pkg), "package.json")); err != nil {
			return "", fmt.Errorf("node_modules missing in %s (no %s): run npm ci in %s", display(abs), pkg, display(abs))
		}
	}
	return nm, nil
}

// RequireNodeModules fails (never skips) t unless dir/node_modules holds every
// named package, saying to run `npm ci` in dir; it returns the absolute
// node_modules folder.
func RequireNodeModules(t testing.TB, dir string, pkgs ...string) string {
	t.Helper()
	nm, err := CheckNodeModules(dir, pkgs...)
	if err != nil {
		t.Fatal(err)
	}
	return nm
}

// Hosts holds the host pages, ready to serve: the AppBridge host bundled, the
// static pages read. It is immutable and safe for concurrent use.
type Hosts struct {
	dir     string
	mcpHost []byte
	files   map[string][]byte
}

// LoadHosts checks the hosts' node_modules, bundles the AppBridge host with
// esbuild and reads the static host pages.
func LoadHosts() (*Hosts, error) {
	dir, err := HostsDir()
	if err != nil {
		return nil, err
	}
	if _, err := CheckNodeModules(dir, extAppsPackage, "@modelcontextprotocol/client", "@modelcontextprotocol/core", "zod", "react", "react-dom"); err != nil {
		return nil, err
	}
	js, err := BundleMCPHost(dir)
	if err != nil {
		return nil, err
	}
	h := &Hosts{dir: dir, mcpHost: js, files: map[string][]byte{}}
	for _, name := range []string{"chatgpt-host.html", "raw-host.html", "chatgpt.js", "sandbox-proxy.html"} {
		if h.files[name], err = os.ReadFile(filepath.Join(dir, name)); err != nil {
			return nil, fmt.Errorf("host page: %w", err)
		}
	}
	return h, nil
}

// BundleMCPHost bundles dir/mcp-host.ts (the AppBridge host) for the browser
// with esbuild's Go API: AppBridge's bare imports of the MCP client, core and
// zod resolve from dir/node_modules (mcp-apps.md §4.3 step 1).
func BundleMCPHost(dir string) ([]byte, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	res := api.Build(api.BuildOptions{
		EntryPoints:   []string{filepath.Join(abs, "mcp-host.ts")},
		AbsWorkingDir: abs,
		Bundle:        true,
		Format:        api.FormatESModule,
		Platform:      api.PlatformBrowser,
		Target:        api.ES2020,
		Define:        map[string]string{"process.env.NODE_ENV": `"production"`},
		LogLevel:      api.LogLevelSilent,
		Write:         false,
		Outfile:       filepath.Join(abs, "mcp-host.js"),
	})
	if len(res.Errors) > 0 {
		msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return nil, fmt.Errorf("bundle %s/mcp-host.ts:\n%s", display(abs), strings.Join(msgs, "\n"))
	}
	for _, f := range res.OutputFiles {
		if strings.HasSuffix(f.Path, ".js") {
			return f.Contents, nil
		}
	}
	return nil, fmt.Errorf("bundle %s/mcp-host.ts: no JS output", display(abs))
}

// Dir returns the hosts folder.
func (h *Hosts) Dir() string { return h.dir }

// NodeModules returns the hosts' node_modules folder, which also holds what
// the bridge test widgets import (ext-apps' App, React).
func (h *Hosts) NodeModules() string { return filepath.Join(h.dir, "node_modules") }

// Handler serves the host pages at MCPHostPath, ChatGPTHostPath, RawHostPath
// and the scripts they load. Mount it next to the widget routes, on the same
// origin as the widgets (the ChatGPT stand-in reaches into its parent).
func (h *Hosts) Handler() http.Handler {
	mux := http.NewServeMux()
	static := func(name, ctype string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", ctype)
			w.Header().Set("Cache-Control", "no-store")
			_, _ = w.Write(h.files[name])
		}
	}
	mux.HandleFunc("GET "+MCPHostPath, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html><head><meta charset="utf-8"><title>mcp test host</title></head><body><script type="module" src="/mcp-host.js"></script></body></html>`)
	})
	mux.HandleFunc("GET /mcp-host.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write(h.mcpHost)
	})
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent) // no failed load in the page log
	})
	mux.Handle("GET "+ChatGPTHostPath, static("chatgpt-host.html", "text/html; charset=utf-8"))
	mux.Handle("GET "+RawHostPath, static("raw-host.html", "text/html; charset=utf-8"))
	mux.Handle("GET "+ChatGPTScriptPath, static("chatgpt.js", "text/javascript"))
	return mux
}

// SandboxProxy serves the double-iframe sandbox proxy page (mcp-apps.md
// §6.1) under csp, the widget's Content-Security-Policy, which the inner
// document the proxy writes inherits. The MCP host page uses it when started
// with {proxy: <URL of this handler>}. Mount it on the widgets' origin.
func (h *Hosts) SandboxProxy(csp string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Security-Policy", csp)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(h.files["sandbox-proxy.html"])
	})
}

// InjectChatGPT returns doc with the window.openai script tag inserted right
// after <head>, so it runs before any of the widget's own scripts, the way
// ChatGPT's runtime is present before a widget starts.
func InjectChatGPT(doc []byte) ([]byte, error) {
	lower := bytes.ToLower(doc)
	i := bytes.Index(lower, []byte("<head"))
	if i < 0 || (i+5 < len(lower) && lower[i+5] != '>' && lower[i+5] != ' ' && lower[i+5] != '\t' && lower[i+5] != '\n') {
		return nil, errors.New("document has no <head> to inject window.openai into")
	}
	end := bytes.IndexByte(lower[i:], '>')
	if end < 0 {
		return nil, errors.New("unterminated <head> tag")
	}
	at := i + end + 1
	tag := `<script src="` + ChatGPTScriptPath + `"></script>`
	out := make([]byte, 0, len(doc)+len(tag))
	out = append(out, doc[:at]...)
	out = append(out, tag...)
	return append(out, doc[at:]...), nil
}

// WidgetHandler serves one widget document under its Content-Security-Policy
// header, as a host that serves widget HTML from an HTTP route does. With
// ChatGPTQuery in the request it injects the window.openai script first.
func WidgetHandler(doc []byte, csp string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := doc
		if r.URL.RawQuery == ChatGPTQuery {
			var err error
			if body, err = InjectChatGPT(doc); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
		w.Header().Set("Content-Security-Policy", csp)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(body)
	})
}
