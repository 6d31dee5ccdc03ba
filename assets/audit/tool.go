package audit

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/widgetd/widgetd/assets"
)

// Meta keys the tool rules read.
const (
	keyInvoking       = "openai/toolInvocation/invoking"
	keyInvoked        = "openai/toolInvocation/invoked"
	keyOutputTemplate = "openai/outputTemplate"
	keyFlatResource   = "ui/resourceUri"
	keyFileParams     = "openai/fileParams"
)

// requiredAnnotations are the tool annotations ChatGPT marks Required.
var requiredAnnotations = []string{"readOnlyHint", "destructiveHint", "openWorldHint"}

// fileProps are the properties every openai/fileParams object schema must
// declare, and fileRequired the exact set it must require.
var (
	fileProps    = []string{"download_url", "file_id", "mime_type", "file_name"}
	fileRequired = []string{"download_url", "file_id"}
)

// CheckTools runs CheckTool on every tool and returns all findings, in tool
// order.
func CheckTools(tools []Tool, res Resources) []Finding {
	set := uriSet(res)
	var out []Finding
	for _, t := range tools {
		out = append(out, checkTool(t, set)...)
	}
	return out
}

// CheckTool runs the tool-level rules on t. res lists the resources the
// server answers; when nil, the resourceUri rule is skipped.
func CheckTool(t Tool, res Resources) []Finding {
	return checkTool(t, uriSet(res))
}

func uriSet(res Resources) map[string]bool {
	if res == nil {
		return nil
	}
	set := map[string]bool{}
	for _, u := range res.URIs() {
		set[u] = true
	}
	return set
}

// toolCheck collects the findings of one tool.
type toolCheck struct {
	subject string
	out     []Finding
}

func (c *toolCheck) add(rule string, sev Severity, fix, format string, args ...any) {
	c.out = append(c.out, Finding{Subject: c.subject, Rule: rule, Severity: sev, Message: fmt.Sprintf(format, args...), Fix: fix, Offset: -1})
}

func checkTool(t Tool, uris map[string]bool) []Finding {
	c := &toolCheck{subject: "tool " + t.Name}
	c.statusRules(t.Meta)
	if c.linkRules(t.Meta, uris) && t.OutputSchema == nil {
		c.add(RuleToolOutputSchemaMissing, Warning, "declare outputSchema; go-sdk's mcp.AddTool infers it from the handler's output type",
			"the tool shows a widget, so it returns structuredContent, but declares no outputSchema; OpenAI asks for one so hosts and the model know its shape")
	}
	c.securityRules(t.SecuritySchemes, t.Meta)
	if v, ok := t.Meta[keyFileParams]; ok {
		c.fileParamsRules(v, t.InputSchema)
	}
	c.annotationRules(t.Annotations)
	return c.out
}

// statusRules checks the openai/toolInvocation/* status strings.
func (c *toolCheck) statusRules(meta map[string]any) {
	for _, key := range []string{keyInvoking, keyInvoked} {
		v, ok := meta[key]
		if !ok {
			continue
		}
		s, isStr := v.(string)
		if !isStr {
			c.add(RuleToolMetaInvalid, Error, fmt.Sprintf("write a string of at most %d characters", assets.MaxInvocationText), "_meta[%q] is %s, not a string", key, jsonType(v))
			continue
		}
		if n := utf8.RuneCountInString(s); n > assets.MaxInvocationText {
			c.add(RuleToolInvocationTooLong, Error, fmt.Sprintf("shorten it to %d characters or fewer", assets.MaxInvocationText),
				"_meta[%q] is %d characters; ChatGPT allows at most %d", key, n, assets.MaxInvocationText)
		}
	}
}

// links returns the tool's resource links by key (ui.resourceUri,
// ui/resourceUri, openai/outputTemplate), reporting values of the wrong type.
func (c *toolCheck) links(meta map[string]any) map[string]string {
	links := map[string]string{}
	if ui, ok := meta["ui"]; ok {
		m, isMap := ui.(map[string]any)
		if !isMap {
			c.add(RuleToolMetaInvalid, Error, "write _meta.ui as an object such as {\"resourceUri\": \"ui://widget/name.html\"}", "_meta.ui is %s, not an object", jsonType(ui))
		} else if v, ok := m["resourceUri"]; ok {
			links["ui.resourceUri"] = c.stringOr(v, "_meta.ui.resourceUri")
		}
	}
	if v, ok := meta[keyFlatResource]; ok {
		links[keyFlatResource] = c.stringOr(v, "_meta[\"ui/resourceUri\"]")
	}
	if v, ok := meta[keyOutputTemplate]; ok {
		links[keyOutputTemplate] = c.stringOr(v, "_meta[\"openai/outputTemplate\"]")
	}
	return links
}

// linkRules checks that every resource link is a ui:// URI the server reads
// (uris; nil skips that check) and that the nested and flat keys agree. It
// reports whether the tool links a widget at all.
func (c *toolCheck) linkRules(meta map[string]any, uris map[string]bool) bool {
	links := c.links(meta)
	keys := make([]string, 0, len(links))
	for k := range links {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		u := links[k]
		if u == "" {
			continue
		}
		if !strings.HasPrefix(u, "ui://") {
			c.add(RuleToolResourceUnknown, Error, "link the tool with a ui:// URI from the registry (Registry.ToolMeta)",
				"%s %q is not a ui:// URI; hosts refuse to render it", k, u)
			continue
		}
		if uris != nil && !uris[u] {
			c.add(RuleToolResourceUnknown, Error, "link the tool with the registry's ToolMeta, or build and embed the widget it names",
				"%s %q resolves to no registered widget resource; the host shows no UI", k, u)
		}
	}
	if a, b := links["ui.resourceUri"], links[keyFlatResource]; a != "" && b != "" && a != b {
		c.add(RuleToolResourceMismatch, Warning, "set both keys to the same URI (Registry.ToolMeta does)",
			"_meta.ui.resourceUri %q and _meta[\"ui/resourceUri\"] %q differ, so hosts reading different keys show different widgets", a, b)
	}
	return len(links) > 0
}

// annotationRules checks the hints ChatGPT marks Required for every tool of
// an app, so every tool is checked, not only those that show a widget.
func (c *toolCheck) annotationRules(annotations map[string]any) {
	var missing []string
	for _, k := range requiredAnnotations {
		v, ok := annotations[k]
		if !ok || v == nil {
			missing = append(missing, k)
			continue
		}
		if _, isBool := v.(bool); !isBool {
			c.add(RuleToolMetaInvalid, Error, "write true or false", "annotations.%s is %s, not a boolean", k, jsonType(v))
		}
	}
	if len(missing) > 0 {
		c.add(RuleToolAnnotationsMissing, Error, "set every one of readOnlyHint, destructiveHint and openWorldHint explicitly, true or false",
			"annotations lack %s, which ChatGPT marks Required", strings.Join(missing, ", "))
	}
}

// stringOr returns v as a string, or records a tool-meta-invalid finding and
// returns "".
func (c *toolCheck) stringOr(v any, what string) string {
	s, ok := v.(string)
	if !ok {
		c.add(RuleToolMetaInvalid, Error, "write the ui:// URI as a string", "%s is %s, not a string", what, jsonType(v))
	}
	return s
}

// fileParamsRules checks openai/fileParams (v) against the input schema:
// every named field must be a top-level file object (or array of them) that
// declares the four file properties and requires exactly download_url and
// file_id.
func (c *toolCheck) fileParamsRules(v any, schema map[string]any) {
	list, ok := v.([]any)
	if !ok {
		sl, isSl := v.([]string)
		if !isSl {
			c.add(RuleToolMetaInvalid, Error, "write an array of top-level input field names", "_meta[%q] is %s, not an array of strings", keyFileParams, jsonType(v))
			return
		}
		for _, s := range sl {
			list = append(list, s)
		}
	}
	props, _ := schema["properties"].(map[string]any)
	for i, e := range list {
		name, isStr := e.(string)
		if !isStr {
			c.add(RuleToolMetaInvalid, Error, "write field names as strings", "_meta[%q][%d] is %s, not a string", keyFileParams, i, jsonType(e))
			continue
		}
		p, found := props[name].(map[string]any)
		if !found {
			c.add(RuleToolFileParamsSchema, Error, "add the field to inputSchema.properties, or remove it from openai/fileParams",
				"openai/fileParams names %q, but inputSchema has no top-level property %q", name, name)
			continue
		}
		if problems := fileSchemaProblems(p); len(problems) > 0 {
			c.add(RuleToolFileParamsSchema, Error, fileSchemaFix, "file parameter %q %s; ChatGPT's Scan Tools step and submission reject it", name, strings.Join(problems, " and "))
		}
	}
}

const fileSchemaFix = `give the field the schema {"type":"object","properties":{"download_url":{"type":"string"},"file_id":{"type":"string"},"mime_type":{"type":"string"},"file_name":{"type":"string"}},"required":["download_url","file_id"]}`

// fileSchemaProblems says what the schema p of a file parameter (an object,
// or an array of them) lacks.
func fileSchemaProblems(p map[string]any) []string {
	obj := p
	if p["type"] == "array" {
		if items, ok := p["items"].(map[string]any); ok {
			obj = items
		}
	}
	var problems []string
	op, _ := obj["properties"].(map[string]any)
	var lack []string
	for _, k := range fileProps {
		if _, ok := op[k]; !ok {
			lack = append(lack, k)
		}
	}
	if len(lack) > 0 {
		problems = append(problems, "does not declare "+strings.Join(lack, ", "))
	}
	var req []string
	if rl, ok := obj["required"].([]any); ok {
		for _, r := range rl {
			if s, ok := r.(string); ok {
				req = append(req, s)
			}
		}
	}
	sort.Strings(req)
	req = slices.Compact(req)
	if !slices.Equal(req, fileRequired) {
		problems = append(problems, fmt.Sprintf("requires [%s] instead of exactly [%s]", strings.Join(req, ", "), strings.Join(fileRequired, ", ")))
	}
	return problems
}

// jsonType names the JSON type of a decoded value, for messages.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64, int, int64, float32:
		return "a number"
	case string:
		return "a string"
	case []any, []string:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// WidgetURIs returns the non-empty resource URIs t links as its widget
// (_meta.ui.resourceUri, _meta["ui/resourceUri"], _meta["openai/outputTemplate"]),
// each once, sorted, so a caller can resolve them against a server or a
// build. Values of the wrong type are left out; CheckTool reports them.
func WidgetURIs(t Tool) []string {
	var uris []string
	for _, u := range (&toolCheck{}).links(t.Meta) {
		if u != "" && !slices.Contains(uris, u) {
			uris = append(uris, u)
		}
	}
	slices.Sort(uris)
	return uris
}
