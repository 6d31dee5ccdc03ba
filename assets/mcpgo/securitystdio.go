package mcpgo

import (
	"bytes"
	"io"
	"sync"
)

// SecuritySchemesWriter wraps the stdout an mcp-go stdio server writes to so
// that tools/list answers carry each tool's _meta["securitySchemes"] also as
// its top-level securitySchemes, as SecuritySchemesHandler does over HTTP:
//
//	server.NewStdioServer(s).Listen(ctx, os.Stdin, mcpgo.SecuritySchemesWriter(os.Stdout))
//
// The stdio transport writes one JSON-RPC message per line; the writer
// rewrites whole lines (buffering a line split across writes) and passes
// every other message through byte for byte. It is safe for concurrent use,
// as mcp-go writes server-to-client requests outside its own write lock.
func SecuritySchemesWriter(w io.Writer) io.Writer {
	return &securitySchemesWriter{w: w}
}

// securitySchemesWriter is the line-rewriting writer of
// SecuritySchemesWriter; pending holds a line not yet ended.
type securitySchemesWriter struct {
	mu      sync.Mutex
	w       io.Writer
	pending []byte
}

// Write buffers p and writes every line it completes, rewritten when it is a
// tools/list answer with security schemes. It reports p as written once the
// complete lines reach the wrapped writer.
func (s *securitySchemesWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = append(s.pending, p...)
	for {
		end := bytes.IndexByte(s.pending, '\n')
		if end < 0 {
			return len(p), nil
		}
		line := s.pending[:end]
		if bytes.Contains(line, []byte(`"securitySchemes"`)) {
			line = promoteResponse(line)
		}
		out := make([]byte, 0, len(line)+1)
		out = append(append(out, line...), '\n')
		s.pending = s.pending[end+1:]
		if len(s.pending) == 0 {
			s.pending = nil
		}
		if _, err := s.w.Write(out); err != nil {
			return 0, err
		}
	}
}
