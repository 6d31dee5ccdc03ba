// Package mcpgo plugs an assets.Registry into github.com/mark3labs/mcp-go: it
// registers every widget resource on a *server.MCPServer in one call, tailors
// resources/list and resources/read metadata to the requesting host, attaches
// widget _meta to tools, and advertises the MCP Apps extension. It holds no
// registry logic of its own: every answer comes from the Registry.
package mcpgo

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

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
// gosdk.Options.
type Options = sdkadapter.Options

// client returns the assets.Client for a request in ctx's session with
// header h.
func client(ctx context.Context, o *Options, h http.Header) assets.Client {
	name := ""
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		name = s.GetClientInfo().Name
	}
	return sdkadapter.ClientFor(ctx, o, name, h)
}

// ServerOptions returns the options that advertise the MCP Apps extension and
// install the hook tailoring resources/list _meta per client. Both replace
// what an earlier WithExtensions/WithHooks set; to combine with your own
// hooks, use AddHooks and server.WithExtensions yourself. o may be nil.
func ServerOptions(reg *assets.Registry, o *Options) []server.ServerOption {
	h := &server.Hooks{}
	AddHooks(h, reg, o)
	return []server.ServerOption{
		server.WithExtensions(Extensions()),
		server.WithHooks(h),
	}
}

// Extensions returns the extensions map advertising MCP Apps
// (io.modelcontextprotocol/ui), for server.WithExtensions.
func Extensions() map[string]any {
	return map[string]any{assets.ExtensionID: map[string]any{}}
}

// AddHooks adds to h the hook that rewrites each widget's resources/list
// _meta for the requesting client (e.g. Claude's ui.domain).
func AddHooks(h *server.Hooks, reg *assets.Registry, o *Options) {
	h.AddAfterListResources(func(ctx context.Context, _ any, req *mcp.ListResourcesRequest, res *mcp.ListResourcesResult) {
		if res == nil {
			return
		}
		var hdr http.Header
		if req != nil {
			hdr = req.Header
		}
		byURI := sdkadapter.ListMeta(reg, client(ctx, o, hdr))
		for i := range res.Resources {
			if m, ok := byURI[res.Resources[i].URI]; ok {
				res.Resources[i].Meta = mcp.NewMetaFromMap(m)
			}
		}
	})
}

// AddResources registers reg's widgets on s: one listed resource per widget
// and profile under its hashed URI, plus the WidgetTemplate resource template
// so unhashed aliases and retained builds' URIs read too. o may be nil.
func AddResources(s *server.MCPServer, reg *assets.Registry, o *Options) {
	read := func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		uri := req.Params.URI
		c, err := reg.Read(uri, client(ctx, o, req.Header))
		if errors.Is(err, assets.ErrNotFound) {
			return nil, fmt.Errorf("resource %q: %w", uri, mcp.ErrResourceNotFound)
		}
		if err != nil {
			return nil, err
		}
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text, Meta: c.Meta}}, nil
	}
	for _, e := range reg.Resources(assets.Client{}) {
		r := mcp.NewResource(e.URI, e.Name, mcp.WithMIMEType(e.MIMEType), mcp.WithResourceDescription(e.Description), mcp.WithResourceTitle(e.Title))
		r.Meta = mcp.NewMetaFromMap(e.Meta)
		s.AddResource(r, read)
	}
	s.AddResourceTemplate(mcp.NewResourceTemplate(WidgetTemplate, "widget",
		mcp.WithTemplateDescription("Widget UI resources by URI: unhashed aliases and earlier builds' hashed URIs.")), read)
}

// AttachWidget merges the widget's tool _meta (see assets.Registry.ToolMeta)
// into t.Meta, so t renders widget in every host.
func AttachWidget(t *mcp.Tool, reg *assets.Registry, widget string, o assets.ToolOptions) error {
	m, err := reg.ToolMeta(widget, o)
	if err != nil {
		return err
	}
	if t.Meta == nil {
		t.Meta = mcp.NewMetaFromMap(m)
		return nil
	}
	if t.Meta.AdditionalFields == nil {
		t.Meta.AdditionalFields = map[string]any{}
	}
	maps.Copy(t.Meta.AdditionalFields, m)
	return nil
}
