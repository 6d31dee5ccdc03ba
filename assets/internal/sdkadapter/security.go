package sdkadapter

import (
	"encoding/json"
	"fmt"
)

// PromoteSecuritySchemes rewrites a tools/list result (its JSON) so that
// every tool with _meta["securitySchemes"] also carries it as the top-level
// securitySchemes, byte for byte. Neither SDK's Tool type has that field, so
// the adapters add it at the wire edge. changed is false (and out is
// result) when no tool has the key.
func PromoteSecuritySchemes(result []byte) (out []byte, changed bool, err error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(result, &obj); err != nil {
		return nil, false, fmt.Errorf("tools/list result: %w", err)
	}
	var tools []map[string]json.RawMessage
	if err := json.Unmarshal(obj["tools"], &tools); err != nil {
		return nil, false, fmt.Errorf("tools/list result: tools: %w", err)
	}
	for _, t := range tools {
		var meta map[string]json.RawMessage
		if raw, ok := t["_meta"]; !ok || json.Unmarshal(raw, &meta) != nil {
			continue
		}
		if ss, ok := meta["securitySchemes"]; ok {
			t["securitySchemes"] = ss
			changed = true
		}
	}
	if !changed {
		return result, false, nil
	}
	if obj["tools"], err = json.Marshal(tools); err != nil {
		return nil, false, err
	}
	out, err = json.Marshal(obj)
	return out, err == nil, err
}
