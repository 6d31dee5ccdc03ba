// Command typesserver is the mcp-go server the `widgetd types --from` and
// `check --types` tests build: two tools show the widget "card", one shows
// a widget with no folder. TYPESSERVER_VARIANT changes its tools the way an
// edit of the Go source would ("subtitle": a new output field, "none": no
// tool shows "card" any more); TYPESSERVER_NOHOOK makes it forget to call
// mcpgo.ServeTypes.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/widgetd/widgetd/assets/mcpgo"
)

const cardOutput = `{"type": "object", "properties": {
  "title": {"type": "string", "description": "The card's heading."},
  "tags": {"type": ["null", "array"], "items": {"type": "string"}}%s
}, "required": ["title", "tags"], "additionalProperties": false}`

func main() {
	s := server.NewMCPServer("typesserver", "1.0.0")
	variant := os.Getenv("TYPESSERVER_VARIANT")
	extra := ""
	if variant == "subtitle" {
		extra = `, "subtitle": {"type": "string"}`
	}
	if variant != "none" {
		addTool(s, "show-card", "ui", `{"type": "object", "properties": {"title": {"type": "string"}, "count": {"type": "integer", "minimum": 1}}, "required": ["title"]}`, fmt.Sprintf(cardOutput, extra), "card")
		addTool(s, "card-refresh", "openai", `{"type": "object", "properties": {}}`, fmt.Sprintf(cardOutput, extra), "card")
	}
	addTool(s, "orphan", "ui", `{"type": "object"}`, "", "no-folder")
	if os.Getenv("TYPESSERVER_NOHOOK") != "" {
		fmt.Fprintln(os.Stderr, "typesserver: would listen now")
		os.Exit(3)
	}
	if served, err := mcpgo.ServeTypes(context.Background(), s); served {
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	fmt.Fprintln(os.Stderr, "typesserver: only runs under widgetd types --from")
	os.Exit(2)
}

// addTool adds a tool that shows widget, naming it the MCP Apps way
// (key "ui") or ChatGPT's ("openai").
func addTool(s *server.MCPServer, name, key, input, output, widget string) {
	meta := map[string]any{"ui": map[string]any{"resourceUri": "ui://widget/" + widget + ".0a1b2c3d.html"}}
	if key == "openai" {
		meta = map[string]any{"openai/outputTemplate": "ui://widget/" + widget + ".0a1b2c3d.skybridge.html"}
	}
	tool := mcp.NewToolWithRawSchema(name, "Tool "+name+".", json.RawMessage(input))
	if output != "" {
		mcp.WithRawOutputSchema(json.RawMessage(output))(&tool)
	}
	tool.Meta = mcp.NewMetaFromMap(meta)
	s.AddTool(tool, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	})
}
