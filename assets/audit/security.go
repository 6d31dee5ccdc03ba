package audit

import (
	"reflect"

	"github.com/widgetd/widgetd/assets"
)

const securityFix = `write securitySchemes as [{"type":"noauth"}] and/or [{"type":"oauth2","scopes":["..."]}] (assets.ToolOptions.SecuritySchemes does)`

// securityRules checks the top-level securitySchemes (top; nil when absent)
// and its _meta mirror: each a list of valid schemes, and equal when both
// are sent.
func (c *toolCheck) securityRules(top any, meta map[string]any) {
	mirror, hasMirror := meta["securitySchemes"]
	if top != nil {
		c.schemeList("securitySchemes", top)
	}
	if hasMirror {
		c.schemeList(`_meta["securitySchemes"]`, mirror)
	}
	if top != nil && hasMirror && !reflect.DeepEqual(top, mirror) {
		c.add(RuleToolSecuritySchemes, Warning, "send the same list in both places",
			"securitySchemes and its _meta mirror differ, so hosts reading different copies ask for different authentication")
	}
}

// schemeList reports what makes v (named what) no valid list of schemes.
func (c *toolCheck) schemeList(what string, v any) {
	list, ok := v.([]any)
	if !ok {
		c.add(RuleToolSecuritySchemes, Error, securityFix, "%s is %s, not an array", what, jsonType(v))
		return
	}
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			c.add(RuleToolSecuritySchemes, Error, securityFix, "%s[%d] is %s, not an object", what, i, jsonType(e))
			continue
		}
		typ, _ := m["type"].(string)
		scopes, hasScopes := m["scopes"]
		switch {
		case typ != assets.SecurityNoAuth && typ != assets.SecurityOAuth2:
			c.add(RuleToolSecuritySchemes, Error, securityFix, "%s[%d].type is %v; hosts know only %q and %q", what, i, m["type"], assets.SecurityNoAuth, assets.SecurityOAuth2)
		case hasScopes && typ == assets.SecurityNoAuth:
			c.add(RuleToolSecuritySchemes, Error, securityFix, "%s[%d] is a noauth scheme with scopes", what, i)
		case hasScopes && !stringList(scopes):
			c.add(RuleToolSecuritySchemes, Error, securityFix, "%s[%d].scopes is %s, not an array of strings", what, i, jsonType(scopes))
		}
	}
}

// stringList reports whether v is a decoded JSON array of strings.
func stringList(v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	for _, e := range list {
		if _, ok := e.(string); !ok {
			return false
		}
	}
	return true
}
