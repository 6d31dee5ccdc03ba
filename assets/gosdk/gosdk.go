// Package gosdk plugs an assets.Registry into the official Go MCP SDK
// (github.com/modelcontextprotocol/go-sdk/mcp): it registers every widget
// resource on an *mcp.Server in one call, tailors resources/list and
// resources/read metadata to the requesting host, attaches widget _meta to
// tools, and advertises the MCP Apps extension. It holds no registry logic of
// its own: every answer comes from the Registry.
package gosdk

import (
	"context"
	"errors"
	"maps"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/internal/sdkadapter"
)

// WidgetTemplate is the resource template under which aliases and retained
// builds' URIs are readable without being listed.
const WidgetTemplate = "ui://widget/{file}"

// Options tune how requests map to an assets.Client: AssetBase derives
// Client.AssetBase per request from the HTTP request header, and Client, when
// set, replaces the mapping entirely. The zero value (and nil) uses the client
// name from initialize and the Registry's defaults. It is the same type as
// mcpgo.Options.
type Options = sdkadapter.Options

// client returns the assets.Client for a request from info with header h.
func client(ctx context.Context, o *Options, info *mcp.Implementation, h http.Header) assets.Client {
	name := ""
	if info != nil {
		name = info.Name
	}
	return sdkadapter.ClientFor(ctx, o, name, h)
}

func header(extra *mcp.RequestExtra) http.Header {
	if extra == nil {
		return nil
	}
	return extra.Header
}

// AddResources registers reg's widgets on s: one listed resource per widget
// and profile under its hashed URI, plus the WidgetTemplate resource template
// so unhashed aliases and retained builds' URIs read too. It also installs a
// receiving middleware that tailors the resources/list _meta to each client
// (e.g. Claude's ui.domain). o may be nil.
func AddResources(s *mcp.Server, reg *assets.Registry, o *Options) {
	read := func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		c, err := reg.Read(uri, client(ctx, o, req.ClientInfo(), header(req.Extra)))
		if errors.Is(err, assets.ErrNotFound) {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		if err != nil {
			return nil, err
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
			URI: c.URI, MIMEType: c.MIMEType, Text: c.Text, Meta: mcp.Meta(c.Meta),
		}}}, nil
	}
	for _, e := range reg.Resources(assets.Client{}) {
		s.AddResource(&mcp.Resource{
			URI: e.URI, Name: e.Name, Title: e.Title, Description: e.Description,
			MIMEType: e.MIMEType, Meta: mcp.Meta(e.Meta),
		}, read)
	}
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: WidgetTemplate,
		Name:        "widget",
		Description: "Widget UI resources by URI: unhashed aliases and earlier builds' hashed URIs.",
	}, read)
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			lr, ok := res.(*mcp.ListResourcesResult)
			lreq, ok2 := req.(*mcp.ListResourcesRequest)
			if err != nil || !ok || !ok2 {
				return res, err
			}
			byURI := sdkadapter.ListMeta(reg, client(ctx, o, lreq.ClientInfo(), header(lreq.Extra)))
			// Copy the resources so the server's registered values stay intact.
			out := *lr
			out.Resources = make([]*mcp.Resource, len(lr.Resources))
			for i, r := range lr.Resources {
				if m, ok := byURI[r.URI]; ok {
					cp := *r
					cp.Meta = mcp.Meta(m)
					r = &cp
				}
				out.Resources[i] = r
			}
			return &out, nil
		}
	})
}

// AddExtension advertises the MCP Apps extension (io.modelcontextprotocol/ui)
// in caps, creating caps when nil, and returns it. Pass the result as
// mcp.ServerOptions.Capabilities; the SDK still infers the other capabilities.
func AddExtension(caps *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	if caps == nil {
		caps = &mcp.ServerCapabilities{}
	}
	caps.AddExtension(assets.ExtensionID, map[string]any{})
	return caps
}

// ToolMeta returns the _meta linking a tool to widget (see
// assets.Registry.ToolMeta) as an mcp.Meta.
func ToolMeta(reg *assets.Registry, widget string, o assets.ToolOptions) (mcp.Meta, error) {
	m, err := reg.ToolMeta(widget, o)
	if err != nil {
		return nil, err
	}
	return mcp.Meta(m), nil
}

// AttachWidget merges the widget's tool _meta into t.Meta (keys of the widget
// win), so t renders widget in every host.
func AttachWidget(t *mcp.Tool, reg *assets.Registry, widget string, o assets.ToolOptions) error {
	m, err := ToolMeta(reg, widget, o)
	if err != nil {
		return err
	}
	if t.Meta == nil {
		t.Meta = mcp.Meta{}
	}
	maps.Copy(t.Meta, m)
	return nil
}
