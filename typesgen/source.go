package typesgen

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// sourcePrefix starts the header line that records where the tools came from.
const sourcePrefix = "// Source: widgetd types "

// Source is where the tools come from: a running server's streamable HTTP
// endpoint (MCP) or a Go main package built and run with its tools served
// over standard input and output (From, an import path).
type Source struct {
	MCP  string
	From string
}

// String is the command-line form: "--mcp URL" or "--from PKG".
func (s Source) String() string {
	if s.MCP != "" {
		return "--mcp " + s.MCP
	}
	return "--from " + s.From
}

// SourceOf reads the source a generated file records in its header; ok is
// false for a file widgetd did not generate.
func SourceOf(data []byte) (src Source, ok bool) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for i := 0; i < 3 && sc.Scan(); i++ {
		rest, found := strings.CutPrefix(sc.Text(), sourcePrefix)
		if !found {
			continue
		}
		flag, arg, _ := strings.Cut(rest, " ")
		switch {
		case arg == "":
		case flag == "--mcp":
			return Source{MCP: arg}, true
		case flag == "--from":
			return Source{From: arg}, true
		}
	}
	return Source{}, false
}

// Validate reports a source that names neither or both.
func (s Source) Validate() error {
	if (s.MCP == "") == (s.From == "") {
		return fmt.Errorf("name exactly one source: --mcp URL or --from PACKAGE")
	}
	return nil
}
