package assets_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/widgetd/widgetd/assets"
)

// ExampleLoad loads a dist/ written by `widgetd build` (here the example
// server's) and lists its widgets. With go:embed, pass fs.Sub(embedded, "dist").
func ExampleLoad() {
	reg, err := assets.Load(os.DirFS("../examples/mcpserver/dist"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(reg.Widgets())
	// Output: [get-time hello weather]
}

// ExampleRegistry_Handler mounts the CDN origin under /widgets/ on a mux.
func ExampleRegistry_Handler() {
	reg, err := assets.Load(os.DirFS("../examples/mcpserver/dist"), assets.WithBasePath("/widgets"))
	if err != nil {
		fmt.Println(err)
		return
	}
	mux := http.NewServeMux()
	mux.Handle("/widgets/", reg.Handler())

	req := httptest.NewRequest("GET", "/widgets/hello.html", nil)
	req.Header.Set("Accept-Encoding", "gzip, br")
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	fmt.Println(rec.Code, rec.Header().Get("Content-Encoding"), rec.Header().Get("Cache-Control"), rec.Header().Get("Vary"))
	// Output: 200 br no-cache Accept-Encoding
}

// ExampleRegistry_Read answers resources/read for the unhashed alias, as a
// host holding an old template would ask.
func ExampleRegistry_Read() {
	reg, err := assets.Load(os.DirFS("../examples/mcpserver/dist"))
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := reg.Read("ui://widget/hello.skybridge.html", assets.Client{Name: "openai-mcp"})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, hasCSP := c.Meta["openai/widgetCSP"]
	fmt.Println(c.MIMEType, hasCSP)
	// Output: text/html+skybridge true
}

// ExampleRegistry_ToolMeta links a tool to the hello widget.
func ExampleRegistry_ToolMeta() {
	reg, err := assets.Load(os.DirFS("../examples/mcpserver/dist"))
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := reg.ToolMeta("hello", assets.ToolOptions{Invoking: "Greeting…", Invoked: "Greeted"})
	if err != nil {
		fmt.Println(err)
		return
	}
	w, _ := reg.Widget("hello")
	fmt.Println(m["ui/resourceUri"] == w.Profiles[0].URI, m["openai/toolInvocation/invoked"])
	// Output: true Greeted
}

// ExampleClaudeDomain shows the ui.domain Claude requires for a connector.
func ExampleClaudeDomain() {
	fmt.Println(assets.ClaudeDomain("https://mcp.example.com/mcp")[32:])
	// Output: .claudemcpcontent.com
}

// ExampleBaseURL derives the asset base URL behind a tunnel.
func ExampleBaseURL() {
	req := httptest.NewRequest("GET", "http://localhost:8000/mcp", nil)
	req.Header.Set("X-Forwarded-Host", "abc.ngrok.app")
	req.Header.Set("X-Forwarded-Proto", "https")
	b := assets.BaseURL{TrustForwarded: true, Path: "/widgets"}
	fmt.Println(b.Resolve(req))
	// Output: https://abc.ngrok.app/widgets
}
