package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/assets/gosdk"
)

// HelloIn is the input of the hello tool.
type HelloIn struct {
	Name string `json:"name,omitempty" jsonschema:"who to greet"`
}

// HelloOut is the structuredContent the hello widget renders.
type HelloOut struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

// TimeOut is the structuredContent the get-time widget renders.
type TimeOut struct {
	Time string `json:"time"`
}

// WeatherIn is the input of the weather tool.
type WeatherIn struct {
	City string `json:"city,omitempty" jsonschema:"city to forecast"`
}

// Day is one forecast day.
type Day struct {
	Day     string `json:"day"`
	High    int    `json:"high"`
	Low     int    `json:"low"`
	Summary string `json:"summary"`
}

// WeatherOut is the structuredContent the weather widget renders.
type WeatherOut struct {
	City string `json:"city"`
	Unit string `json:"unit"`
	Days []Day  `json:"days"`
}

// GenericOut is returned by the tool of a widget this example has no
// specific data for.
type GenericOut struct {
	Widget string `json:"widget"`
}

// addTools registers one tool per widget in the registry, each linked to its
// widget with gosdk.AttachWidget.
func addTools(s *mcp.Server, reg *assets.Registry) error {
	for _, name := range reg.Widgets() {
		w, err := reg.Widget(name)
		if err != nil {
			return err
		}
		tool := &mcp.Tool{Name: name, Title: w.Title, Description: w.Description,
			// Every tool here only reads: say so, as ChatGPT's review requires.
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}}
		opts := assets.ToolOptions{Invoking: "Loading " + name + "…", Invoked: "Showed " + name}
		if name == "get-time" {
			// The widget's refresh button calls this tool itself.
			opts.Visibility = []string{assets.VisibilityModel, assets.VisibilityApp}
		}
		if err := gosdk.AttachWidget(tool, reg, name, opts); err != nil {
			return fmt.Errorf("tool %q: %w", name, err)
		}
		switch name {
		case "hello":
			mcp.AddTool(s, tool, hello)
		case "get-time":
			mcp.AddTool(s, tool, getTime)
		case "weather":
			mcp.AddTool(s, tool, weather)
		default:
			mcp.AddTool(s, tool, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, GenericOut, error) {
				return text("Showing the " + name + " widget."), GenericOut{Widget: name}, nil
			})
		}
	}
	return nil
}

// auditTools refuses to start with a tool a store review would reject. It
// audits the tools as tools/list sends them (gosdk.AuditServer), so the
// outputSchema mcp.AddTool infers from each handler's output type counts.
func auditTools(ctx context.Context, s *mcp.Server, reg *assets.Registry) error {
	findings, err := gosdk.AuditServer(ctx, reg, s)
	if err != nil {
		return err
	}
	for _, f := range findings {
		if f.Severity == audit.Error {
			return fmt.Errorf("tool audit: %s", f)
		}
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func hello(_ context.Context, _ *mcp.CallToolRequest, in HelloIn) (*mcp.CallToolResult, HelloOut, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" {
		name = "world"
	}
	out := HelloOut{Name: name, Message: "Greetings from a Go MCP server with embedded widgets."}
	return text("Greeted " + name + "."), out, nil
}

func getTime(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, TimeOut, error) {
	now := time.Now().UTC().Format(time.RFC3339)
	return text("The server time is " + now + "."), TimeOut{Time: now}, nil
}

func weather(_ context.Context, _ *mcp.CallToolRequest, in WeatherIn) (*mcp.CallToolResult, WeatherOut, error) {
	city := strings.TrimSpace(in.City)
	if city == "" {
		city = "Lisbon"
	}
	out := WeatherOut{City: city, Unit: "C", Days: []Day{
		{"Mon", 24, 16, "Sunny"}, {"Tue", 22, 15, "Partly cloudy"}, {"Wed", 19, 14, "Showers"},
	}}
	return text(fmt.Sprintf("Forecast for %s: %d days, sunny first.", city, len(out.Days))), out, nil
}
