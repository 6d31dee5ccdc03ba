package gosdk

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
)

// ServeTypes serves s over standard input and output when `widgetd types
// --from` started this process (assets.TypesRequested), until the command
// has read the tool list and closed the stream, and reports true; the
// caller should then return from main without listening. Otherwise it
// returns false at once. Call it after every tool is added:
//
//	if served, err := gosdk.ServeTypes(ctx, server); served {
//		return err
//	}
//
// Nothing else may write to standard output meanwhile (log to stderr).
func ServeTypes(ctx context.Context, s *mcp.Server) (served bool, err error) {
	if !assets.TypesRequested() {
		return false, nil
	}
	if err := s.Run(ctx, &mcp.StdioTransport{}); err != nil {
		return true, fmt.Errorf("serving the tool list to widgetd types: %w", err)
	}
	return true, nil
}
