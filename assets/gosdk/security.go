package gosdk

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/internal/sdkadapter"
)

// metaSecuritySchemes is the _meta key of the securitySchemes mirror.
const metaSecuritySchemes = "securitySchemes"

// SetSecuritySchemes writes schemes to t's _meta["securitySchemes"], for a
// tool without a widget (AttachWidget writes ToolOptions.SecuritySchemes the
// same way). With AddSecuritySchemes on the server, tools/list also sends
// them as the tool's top-level securitySchemes.
func SetSecuritySchemes(t *mcp.Tool, schemes ...assets.SecurityScheme) error {
	wire, err := assets.SecuritySchemesWire(schemes)
	if err != nil {
		return fmt.Errorf("tool %q: %w", t.Name, err)
	}
	if t.Meta == nil {
		t.Meta = mcp.Meta{}
	}
	t.Meta[metaSecuritySchemes] = wire
	return nil
}

// AddSecuritySchemes installs a receiving middleware on s that sends every
// tool's _meta["securitySchemes"] also as the tool's top-level
// securitySchemes in tools/list, where OpenAI's Apps SDK reference (and
// SEP-1488) put it: mcp.Tool has no such field, so it is added at the wire
// edge. Tools without the key are sent unchanged.
func AddSecuritySchemes(s *mcp.Server) {
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if err != nil || method != "tools/list" {
				return res, err
			}
			lr, ok := res.(*mcp.ListToolsResult)
			if !ok || !anySecuritySchemes(lr.Tools) {
				return res, nil
			}
			return &toolsWithSchemes{ListToolsResult: lr}, nil
		}
	})
}

func anySecuritySchemes(tools []*mcp.Tool) bool {
	for _, t := range tools {
		if _, ok := t.Meta[metaSecuritySchemes]; ok {
			return true
		}
	}
	return false
}

// toolsWithSchemes is a tools/list result that marshals like the embedded
// one plus each tool's top-level securitySchemes. Embedding keeps it an
// mcp.Result for the SDK.
type toolsWithSchemes struct {
	*mcp.ListToolsResult
}

// MarshalJSON writes the SDK's JSON with securitySchemes copied from each
// tool's _meta to the tool object.
func (r *toolsWithSchemes) MarshalJSON() ([]byte, error) {
	data, err := json.Marshal(r.ListToolsResult)
	if err != nil {
		return nil, err
	}
	out, _, err := sdkadapter.PromoteSecuritySchemes(data)
	return out, err
}
