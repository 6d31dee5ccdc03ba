package gosdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/gosdk"
)

// Forecast is the structuredContent of the forecast tool: what the weather
// widget renders and what the model reads, so keep it small.
type Forecast struct {
	City string `json:"city"`
	Unit string `json:"unit"`
	Days []Day  `json:"days"`
}

// Day is one forecast day.
type Day struct {
	Day     string `json:"day"`
	High    int    `json:"high"`
	Low     int    `json:"low"`
	Summary string `json:"summary"`
}

// Hourly is widget-only detail: the widget draws it, the model never sees it.
type Hourly struct {
	Hourly []int `json:"hourlyTemps"`
}

// ExampleResult is a tool returning the three tiers of a widget result:
// content for the model (and hosts without UI), structuredContent for the
// model and the widget (inferred from Forecast by mcp.AddTool, which also
// declares the outputSchema), and _meta for the widget only, with the state
// the widget starts from.
func ExampleResult() {
	reg, err := assets.Load(os.DirFS("../../examples/mcpserver/dist"))
	if err != nil {
		fmt.Println(err)
		return
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1"}, &mcp.ServerOptions{Capabilities: gosdk.AddExtension(nil)})
	gosdk.AddResources(s, reg, nil)
	tool := &mcp.Tool{Name: "forecast", Description: "Three-day forecast for a city."}
	if err := gosdk.AttachWidget(tool, reg, "weather", assets.ToolOptions{Invoking: "Forecasting…", Invoked: "Forecast ready"}); err != nil {
		fmt.Println(err)
		return
	}
	mcp.AddTool(s, tool, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, Forecast, error) {
		out := Forecast{City: "Lisbon", Unit: "C", Days: []Day{{"Mon", 24, 16, "Sunny"}, {"Tue", 22, 15, "Cloudy"}}}
		res, err := gosdk.Result("Lisbon: sunny Monday (24°C), cloudy Tuesday.", assets.ResultMeta{
			WidgetState: assets.WidgetState{ModelContent: map[string]any{"selectedDay": "Mon"}},
			Data:        Hourly{Hourly: []int{16, 18, 22, 24, 21}},
		})
		return res, out, err
	})

	// A client calls the tool, as a host would.
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "forecast", Arguments: map[string]any{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	structured, _ := json.Marshal(res.StructuredContent)
	// The SDK adds keys of its own (io.modelcontextprotocol/serverInfo).
	hourly, _ := json.Marshal(res.Meta["hourlyTemps"])
	state, _ := json.Marshal(res.Meta[assets.MetaWidgetState])
	fmt.Println("content:", res.Content[0].(*mcp.TextContent).Text)
	fmt.Println("structuredContent:", string(structured))
	fmt.Println("_meta hourlyTemps:", string(hourly))
	fmt.Println("_meta openai/widgetState:", string(state))
	// Output:
	// content: Lisbon: sunny Monday (24°C), cloudy Tuesday.
	// structuredContent: {"city":"Lisbon","days":[{"day":"Mon","high":24,"low":16,"summary":"Sunny"},{"day":"Tue","high":22,"low":15,"summary":"Cloudy"}],"unit":"C"}
	// _meta hourlyTemps: [16,18,22,24,21]
	// _meta openai/widgetState: {"modelContent":{"selectedDay":"Mon"}}
}
