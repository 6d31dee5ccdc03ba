package devserver

import (
	"context"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverTool is one tool of the --mcp server as the inspector API lists it
// (GET /_widgetd/mcp/tools): the tools/list fields, the widget URI its
// _meta names, and the local widget that URI maps to.
type serverTool struct {
	Name         string   `json:"name"`
	Title        string   `json:"title,omitempty"`
	Description  string   `json:"description,omitempty"`
	InputSchema  any      `json:"inputSchema"`
	OutputSchema any      `json:"outputSchema,omitempty"`
	Meta         mcp.Meta `json:"_meta,omitempty"`
	// Widget is the local widget of ResourceURI, or "" when none matches.
	Widget string `json:"widget"`
	// ResourceURI is the _meta ui.resourceUri (or ui/resourceUri, or
	// openai/outputTemplate), "" for a tool without a widget.
	ResourceURI string `json:"resourceUri"`
}

// serverTools is the answer of GET /_widgetd/mcp/tools.
type serverTools struct {
	URL   string       `json:"url"`
	Tools []serverTool `json:"tools"`
	// Truncated says the server has more than maxServerTools tools.
	Truncated bool `json:"truncated,omitempty"`
}

// listTools reads every page of the server's tools/list, up to
// maxServerTools, maps each to its local widget (local names the widgets of
// the current build) and remembers the list for callTool's lookups.
func (f *forwarder) listTools(ctx context.Context, local []string) (*serverTools, error) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	out := &serverTools{URL: f.url, Tools: []serverTool{}}
	err := f.do(ctx, func(ctx context.Context, cs *mcp.ClientSession) error {
		out.Tools, out.Truncated = out.Tools[:0], false
		for t, err := range cs.Tools(ctx, nil) {
			if err != nil {
				return err
			}
			if len(out.Tools) == maxServerTools {
				out.Truncated = true
				break
			}
			out.Tools = append(out.Tools, newServerTool(t, local))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("tools/list on %s: %w", f.url, err)
	}
	f.toolsMu.Lock()
	f.tools = out.Tools
	f.toolsMu.Unlock()
	return out, nil
}

// newServerTool converts a listed tool; local are the local widget names.
func newServerTool(t *mcp.Tool, local []string) serverTool {
	st := serverTool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: t.InputSchema,
		OutputSchema: t.OutputSchema, Meta: t.Meta, ResourceURI: toolResourceURI(t.Meta)}
	if st.Title == "" && t.Annotations != nil {
		st.Title = t.Annotations.Title
	}
	if w := widgetOfURI(st.ResourceURI); w != "" && slices.Contains(local, w) {
		st.Widget = w
	}
	return st
}

// tool finds a tool by name in the last listing, listing again once when
// it is not there (the server may have gained it since).
func (f *forwarder) tool(ctx context.Context, name string, local []string) (serverTool, bool, error) {
	find := func() (serverTool, bool) {
		f.toolsMu.Lock()
		defer f.toolsMu.Unlock()
		for _, t := range f.tools {
			if t.Name == name {
				return t, true
			}
		}
		return serverTool{}, false
	}
	if t, ok := find(); ok {
		return t, true, nil
	}
	if _, err := f.listTools(ctx, local); err != nil {
		return serverTool{}, false, err
	}
	t, ok := find()
	return t, ok, nil
}

// readResource is the server's resources/read answer for uri.
func (f *forwarder) readResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	ctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	var res *mcp.ReadResourceResult
	err := f.do(ctx, func(ctx context.Context, cs *mcp.ClientSession) (err error) {
		res, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("resources/read %s on %s: %w", uri, f.url, err)
	}
	return res, nil
}

// listedResourceMeta is the _meta of uri's resources/list entry, nil when
// the server does not list it (or lists no resources).
func (f *forwarder) listedResourceMeta(ctx context.Context, uri string) mcp.Meta {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	var meta mcp.Meta
	_ = f.do(ctx, func(ctx context.Context, cs *mcp.ClientSession) error {
		n := 0
		for r, err := range cs.Resources(ctx, nil) {
			if err != nil {
				return err
			}
			if r.URI == uri {
				meta = r.Meta
				return nil
			}
			if n++; n == maxServerResources {
				return nil
			}
		}
		return nil
	})
	return meta
}
