package mcpgo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mark3labs/mcp-go/server"

	"github.com/widgetd/widgetd/assets"
)

// ServeTypes serves s over standard input and output when `widgetd types
// --from` started this process (assets.TypesRequested), until the command
// has read the tool list and closed the stream, and reports true; the
// caller should then return from main without listening. Otherwise it
// returns false at once. Call it after every tool is added:
//
//	if served, err := mcpgo.ServeTypes(ctx, mcpServer); served {
//		return err
//	}
//
// Nothing else may write to standard output meanwhile (log to stderr).
func ServeTypes(ctx context.Context, s *server.MCPServer) (served bool, err error) {
	if !assets.TypesRequested() {
		return false, nil
	}
	return true, serveTypesOn(ctx, s, os.Stdin, os.Stdout)
}

// serveTypesOn is ServeTypes over any stream (tests use pipes).
func serveTypesOn(ctx context.Context, s *server.MCPServer, in io.Reader, out io.Writer) error {
	err := server.NewStdioServer(s).Listen(ctx, in, out)
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return fmt.Errorf("serving the tool list to widgetd types: %w", err)
}
