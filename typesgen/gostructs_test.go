package typesgen

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/widgetd/widgetd/internal/golden"
)

// Forecast and the types below are a tool's Go input and output as a
// server declares them; go-sdk infers their schemas with jsonschema.For.
type Forecast struct {
	City     string            `json:"city" jsonschema:"the city forecast"`
	Unit     string            `json:"unit,omitempty"`
	Days     []Day             `json:"days"`
	Today    *Day              `json:"today,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
	Scores   map[string][]int  `json:"scores"`
	Extra    any               `json:"extra,omitempty"`
	Raw      json.RawMessage   `json:"raw,omitempty"`
	Ratio    float64           `json:"ratio"`
	Count    uint8             `json:"count"`
	Active   bool              `json:"active"`
	Fixed    [2]string         `json:"fixed"`
	internal string
	Skipped  string `json:"-"`
	Embedded
}

// Day is one day of a Forecast.
type Day struct {
	Day  string  `json:"day"`
	High int     `json:"high"`
	Note *string `json:"note"`
}

// Embedded is promoted into Forecast.
type Embedded struct {
	Source string `json:"source,omitempty" jsonschema:"who made the forecast"`
}

// ForecastInput is the tool's input.
type ForecastInput struct {
	City string `json:"city" jsonschema:"city to forecast"`
	Days int    `json:"days,omitempty"`
}

// TestGoStructsGolden converts the schemas go-sdk infers from Go structs
// (the path a Go MCP server takes) and compares them with the golden.
func TestGoStructsGolden(t *testing.T) {
	in, err := jsonschema.For[ForecastInput](nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jsonschema.For[Forecast](nil)
	if err != nil {
		t.Fatal(err)
	}
	inJSON, _ := json.Marshal(in)
	outJSON, _ := json.Marshal(out)
	tool := Tool{Name: "forecast", Description: "Shows the forecast.", InputSchema: inJSON, OutputSchema: outJSON,
		Meta: json.RawMessage(`{"openai/outputTemplate": "ui://widget/go-structs.html"}`)}
	files, err := Generate([]Tool{tool}, Source{MCP: "http://127.0.0.1:8000/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Widget != "go-structs" {
		t.Fatalf("got %d files (%+v), want one for go-structs", len(files), files)
	}
	golden.Check(t, "testdata/gostructs/go-structs.d.ts", files[0].Data, *update)
}
