// Package audit owns the tool-level rules of `widgetd check`: the checks a
// store review runs on an MCP tool that shows a widget (status text length,
// resourceUri resolving to a registered widget, openai/fileParams schemas,
// required annotations), plus the Finding and Severity types every check rule
// reports with.
//
// It has a plain Go API over the JSON shape of a tool, so the MCP adapters
// (assets/gosdk, assets/mcpgo) and any server can audit the tools they
// register at start-up. It imports only the standard library and assets
// (which imports only the standard library): never esbuild or minify, so a
// server embedding dist/ stays small.
package audit

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Severity ranks a finding. Errors fail `widgetd check`; warnings fail it
// only with --strict; info never fails it.
type Severity int

// Severity values, least severe first.
const (
	// Info is a note that never fails a check.
	Info Severity = iota + 1
	// Warning is a likely problem; it fails a check run with --strict.
	Warning
	// Error is a problem a host or a store review rejects.
	Error
)

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "Severity(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText writes the severity name, so JSON output reads "error".
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity name.
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "info":
		*s = Info
	case "warning":
		*s = Warning
	case "error":
		*s = Error
	default:
		return fmt.Errorf("unknown severity %q", b)
	}
	return nil
}

// Finding is one rule violation.
type Finding struct {
	// Subject is what the finding is about: a widget name, or "tool <name>".
	Subject string `json:"subject"`
	// Rule is the stable rule ID, such as "csp-undeclared-connect"
	// (documented in docs/check.md).
	Rule string `json:"rule"`
	// Severity is the rule's severity.
	Severity Severity `json:"severity"`
	// Message says what is wrong.
	Message string `json:"message"`
	// Fix says how to fix it.
	Fix string `json:"fix,omitempty"`
	// File is the file the finding points into (dist/-relative), if any.
	File string `json:"file,omitempty"`
	// Offset is the byte offset in File, or -1 when there is none.
	Offset int `json:"offset"`
	// Source is the source line at File's line, when File names a place
	// in the widget's sources ("file:line:col"), so a reader sees the code.
	Source string `json:"source,omitempty"`
}

// String formats the finding as
// "subject: rule: severity: [file[:offset]: ]message (fix)", then the
// source line, indented, on a line of its own when it is known.
func (f Finding) String() string {
	s := f.Subject + ": " + f.Rule + ": " + f.Severity.String() + ": "
	if f.File != "" {
		s += f.File
		if f.Offset >= 0 {
			s += ":" + strconv.Itoa(f.Offset)
		}
		s += ": "
	}
	s += f.Message
	if f.Fix != "" {
		s += " (" + f.Fix + ")"
	}
	if src := strings.TrimSpace(f.Source); src != "" {
		s += "\n    " + src
	}
	return s
}

// Rule IDs of the tool-level rules. They are stable: CI configurations and
// docs refer to them.
const (
	// RuleToolInvocationTooLong: an openai/toolInvocation/* status string is
	// longer than 64 characters.
	RuleToolInvocationTooLong = "tool-invocation-too-long"
	// RuleToolMetaInvalid: a widget-related tool _meta key has the wrong type.
	RuleToolMetaInvalid = "tool-meta-invalid"
	// RuleToolResourceUnknown: the tool links to a ui:// URI no registered
	// widget resource answers.
	RuleToolResourceUnknown = "tool-resource-unknown"
	// RuleToolResourceMismatch: ui.resourceUri and the legacy
	// ui/resourceUri name different resources.
	RuleToolResourceMismatch = "tool-resource-mismatch"
	// RuleToolFileParamsSchema: an openai/fileParams field's schema does not
	// declare download_url, file_id, mime_type and file_name, or does not
	// require exactly download_url and file_id.
	RuleToolFileParamsSchema = "tool-file-params-schema"
	// RuleToolAnnotationsMissing: readOnlyHint, destructiveHint or
	// openWorldHint is not set.
	RuleToolAnnotationsMissing = "tool-annotations-missing"
	// RuleToolOutputSchemaMissing: a tool that shows a widget (and so
	// returns structuredContent for it) declares no outputSchema, which
	// OpenAI's Apps SDK asks for.
	RuleToolOutputSchemaMissing = "tool-output-schema-missing"
	// RuleToolSecuritySchemes: securitySchemes (top level or the _meta
	// mirror) is not a list of {type: "noauth"|"oauth2", scopes?}, or the
	// two copies differ.
	RuleToolSecuritySchemes = "tool-security-schemes"
)

// Tool is the JSON shape of an MCP tool descriptor as tools/list sends it;
// only the fields the rules read. Both Go MCP SDKs marshal their tool types
// to this shape, so an adapter audits a tool with ParseTool(json.Marshal(t)).
type Tool struct {
	// Name is the tool name.
	Name string `json:"name"`
	// InputSchema is the JSON Schema of the arguments.
	InputSchema map[string]any `json:"inputSchema,omitempty"`
	// OutputSchema is the JSON Schema of the structuredContent.
	OutputSchema map[string]any `json:"outputSchema,omitempty"`
	// SecuritySchemes is the top-level securitySchemes (OAuth apps).
	SecuritySchemes any `json:"securitySchemes,omitempty"`
	// Annotations holds the behaviour hints (readOnlyHint, ...).
	Annotations map[string]any `json:"annotations,omitempty"`
	// Meta is the tool's _meta.
	Meta map[string]any `json:"_meta,omitempty"`
}

// ParseTool decodes a tool descriptor from its JSON form.
func ParseTool(data []byte) (Tool, error) {
	var t Tool
	if err := json.Unmarshal(data, &t); err != nil {
		return Tool{}, fmt.Errorf("audit: decode tool: %w", err)
	}
	return t, nil
}

// CheckSDKTools audits tool values of any MCP SDK (anything that marshals to
// the tools/list JSON shape, such as *mcp.Tool of the official go-sdk or
// mcp.Tool of mcp-go) against res; name gives each tool's name for errors.
func CheckSDKTools[T any](res Resources, name func(T) string, tools ...T) ([]Finding, error) {
	parsed := make([]Tool, 0, len(tools))
	for _, t := range tools {
		data, err := json.Marshal(t)
		if err != nil {
			return nil, fmt.Errorf("tool %q: %w", name(t), err)
		}
		pt, err := ParseTool(data)
		if err != nil {
			return nil, fmt.Errorf("tool %q: %w", name(t), err)
		}
		parsed = append(parsed, pt)
	}
	return CheckTools(parsed, res), nil
}

// Resources lists the ui:// URIs a server answers resources/read for.
// *assets.Registry implements it (its URIs method lists the current hashed
// URIs, the unhashed aliases and the retained builds' URIs).
type Resources interface {
	URIs() []string
}

// URIList is a Resources over a fixed list of URIs.
type URIList []string

// URIs returns the list.
func (l URIList) URIs() []string { return l }
