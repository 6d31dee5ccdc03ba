package assetstest

import "github.com/widgetd/widgetd/assets"

// EveryToolOption returns ToolOptions with every field set, so an SDK
// adapter's tools/list golden holds each key the adapters write; gosdk and
// mcpgo pin the same options.
func EveryToolOption() assets.ToolOptions {
	return assets.ToolOptions{
		Visibility: []string{assets.VisibilityModel, assets.VisibilityApp},
		Invoking:   "Searching…", Invoked: "Results ready",
		FileParams:      []string{"photo"},
		SecuritySchemes: []assets.SecurityScheme{{Type: assets.SecurityNoAuth}, {Type: assets.SecurityOAuth2, Scopes: []string{"search.read"}}},
	}
}

// HintsSeen is what an adapter test's tool handler read from a call: the
// client hints and whether the client renders MCP Apps. The handler echoes
// it as its structured content, so the test asserts the adapter end to end
// through a real client.
type HintsSeen struct {
	Locale, UserAgent, Subject, Session, Organization, City string
	Latitude                                                *float64
	UI                                                      bool
}
