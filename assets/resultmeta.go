package assets

import (
	"encoding/json"
	"fmt"
)

// Result _meta keys ResultMeta writes.
const (
	// MetaWidgetState carries the state a widget starts from when it has
	// none saved (the widgetd bridge adopts it; docs/bridge.md).
	MetaWidgetState = "openai/widgetState"
	// MetaCloseWidget asks ChatGPT to close the widget when the result
	// arrives.
	MetaCloseWidget = "openai/closeWidget"
)

// ResultMeta is the widget-only _meta of a tool result. A tool result that
// shows a widget has three tiers (MCP Apps specification 2026-01-26, "Data
// Passing"; OpenAI's Apps SDK reference):
//   - content: text for the model and for hosts without UI (required even
//     when a widget shows);
//   - structuredContent: data the widget renders and the model may read,
//     matching the tool's outputSchema;
//   - _meta: for the widget only, never shown to the model (the bridge's
//     widget.toolMeta). ResultMeta is this tier, typed.
//
// gosdk.Result and mcpgo.Result build a whole result from the three.
type ResultMeta struct {
	// WidgetState is the state the widget starts from when it has none
	// saved (_meta["openai/widgetState"]), e.g. a WidgetState. Nil writes no
	// key.
	WidgetState any
	// CloseWidget closes the widget on ChatGPT when the result arrives
	// (_meta["openai/closeWidget"]), for submit-and-close flows.
	CloseWidget bool
	// Data is widget-only data (a struct or map that marshals to a JSON
	// object), merged into _meta under its own keys: detail the widget
	// shows but the model should not spend tokens on. Its keys may not be
	// the ones above.
	Data any
}

// WidgetState is the state shape OpenAI recommends for
// window.openai.setWidgetState when the model should see part of it:
// ModelContent reaches the model on later turns, PrivateContent stays with
// the widget, ImageIDs name uploaded images the model may look at.
type WidgetState struct {
	ModelContent   any      `json:"modelContent,omitempty"`
	PrivateContent any      `json:"privateContent,omitempty"`
	ImageIDs       []string `json:"imageIds,omitempty"`
}

// Wire returns m as the plain _meta map the SDKs take (nil when m sets
// nothing), or an error when Data is not a JSON object or reuses a key
// ResultMeta owns.
func (m ResultMeta) Wire() (map[string]any, error) {
	out := map[string]any{}
	if m.Data != nil {
		data, err := json.Marshal(m.Data)
		if err != nil {
			return nil, fmt.Errorf("result meta: data: %w", err)
		}
		if err := json.Unmarshal(data, &out); err != nil || out == nil {
			return nil, fmt.Errorf("result meta: data %s is not a JSON object; use a struct or a map", data)
		}
		for _, owned := range []struct{ key, field string }{{MetaWidgetState, "WidgetState"}, {MetaCloseWidget, "CloseWidget"}} {
			if _, ok := out[owned.key]; ok {
				return nil, fmt.Errorf("result meta: data has the key %q; set ResultMeta.%s instead", owned.key, owned.field)
			}
		}
	}
	if m.WidgetState != nil {
		out[MetaWidgetState] = m.WidgetState
	}
	if m.CloseWidget {
		out[MetaCloseWidget] = true
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}
