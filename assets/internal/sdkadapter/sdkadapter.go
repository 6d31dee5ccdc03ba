// Package sdkadapter holds what the two MCP SDK adapters (assets/gosdk and
// assets/mcpgo) share, so neither repeats the other: the Options that map a
// request to an assets.Client, and the per-client resources/list _meta. The
// answers themselves always come from the assets.Registry.
package sdkadapter

import (
	"context"
	"net/http"

	"github.com/widgetd/widgetd/assets"
)

// Options tune how requests map to an assets.Client. The zero value (and a
// nil *Options) uses the client name from initialize and the Registry's
// defaults. The adapters export it as their Options.
type Options struct {
	// AssetBase, when set, derives Client.AssetBase per request from the
	// HTTP request header (an Override, or X-Forwarded-* when trusted).
	AssetBase *assets.BaseURL
	// Client, when set, replaces the default mapping entirely.
	Client func(ctx context.Context, clientName string, header http.Header) assets.Client
}

// ClientFor returns the assets.Client a request is answered for: o.Client's
// answer when set, else the client's name and, with o.AssetBase, the asset
// base derived from header. o may be nil.
func ClientFor(ctx context.Context, o *Options, clientName string, header http.Header) assets.Client {
	if o != nil && o.Client != nil {
		return o.Client(ctx, clientName, header)
	}
	c := assets.Client{Name: clientName}
	if o != nil && o.AssetBase != nil {
		c.AssetBase = o.AssetBase.FromHeader(header, "", false)
	}
	return c
}

// ListMeta returns the resources/list _meta of reg's entries tailored for c,
// by URI, for an adapter to put on the list result the SDK built.
func ListMeta(reg *assets.Registry, c assets.Client) map[string]map[string]any {
	entries := reg.Resources(c)
	byURI := make(map[string]map[string]any, len(entries))
	for _, e := range entries {
		byURI[e.URI] = e.Meta
	}
	return byURI
}
