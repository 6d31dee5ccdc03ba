package devserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/widgetd/widgetd/bundler/strictjson"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/regularfile"
)

// FixturesDir is the folder inside a widget's own folder that holds its
// fixtures, one JSON file each (fixture.schema.json at the repository root
// describes them). `widgetd dev` lists them in the preview and renders the
// first one by default; `widgetd test` renders every one under every host.
const FixturesDir = "fixtures"

// DefaultFixture is the fixture the preview starts with when a widget has
// it; otherwise the first by file name.
const DefaultFixture = "default"

// AnyTool is the CallTool key that answers every tool the fixture does not
// name.
const AnyTool = "*"

// Fixture is one scenario a widget is rendered in: what the host sends it
// (tool input, tool result, host context, widget state), how the host
// answers the tools the widget calls, and what `widgetd test` expects to
// see afterwards.
type Fixture struct {
	// Schema is the editor's "$schema" reference; ignored.
	Schema string `json:"$schema,omitempty"`
	// Description says what the scenario shows.
	Description string `json:"description,omitempty"`
	// ToolName is the tool whose result the widget renders (the host
	// context's toolInfo); default the widget's name.
	ToolName string `json:"toolName,omitempty"`
	// ToolInput is the tool call's arguments (ui/notifications/tool-input,
	// window.openai.toolInput).
	ToolInput map[string]any `json:"toolInput,omitempty"`
	// ToolResult is the CallToolResult the widget renders
	// (ui/notifications/tool-result; window.openai.toolOutput is its
	// structuredContent and toolResponseMetadata its _meta).
	ToolResult *ToolResult `json:"toolResult,omitempty"`
	// HostContext is the host context the widget starts in: theme,
	// display mode, locale, time zone, device and the rest of the MCP Apps
	// McpUiHostContext fields a fixture may set (HostContext).
	HostContext *HostContext `json:"hostContext,omitempty"`
	// CallTool answers the widget's own tools/call by tool name; the key "*"
	// answers any other tool. A tool with no answer gets an error result.
	CallTool map[string]ToolResult `json:"callTool,omitempty"`
	// WidgetState is window.openai.widgetState on the ChatGPT host.
	WidgetState json.RawMessage `json:"widgetState,omitempty"`
	// Expect is what `widgetd test` checks once the widget has rendered.
	Expect *Expect `json:"expect,omitempty"`
}

// ToolResult is an MCP CallToolResult.
type ToolResult struct {
	// Content is the result's content blocks; default one text block with
	// structuredContent as JSON.
	Content []map[string]any `json:"content,omitempty"`
	// StructuredContent is the result's structured data.
	StructuredContent map[string]any `json:"structuredContent,omitempty"`
	// Meta is the result's _meta (widget-only data).
	Meta map[string]any `json:"_meta,omitempty"`
	// IsError marks a tool error.
	IsError bool `json:"isError,omitempty"`
}

// Expect lists what must be true of the rendered widget.
type Expect struct {
	// Text lists strings that must appear in the widget's visible text.
	Text []string `json:"text,omitempty"`
	// Elements lists CSS selectors that must each match an element.
	Elements []string `json:"elements,omitempty"`
	// Calls lists tools the widget must call (tools/call or
	// window.openai.callTool), with arguments that must include the given
	// ones.
	Calls []ExpectedCall `json:"calls,omitempty"`
}

// ExpectedCall is one tool call the widget must make.
type ExpectedCall struct {
	// Tool is the tool's name.
	Tool string `json:"tool"`
	// Arguments, when set, must be a subset of the call's arguments.
	Arguments map[string]any `json:"arguments,omitempty"`
}

// NamedFixture is a fixture with the name it is listed under (its file name
// without .json) and its file.
type NamedFixture struct {
	Name    string  `json:"name"`
	File    string  `json:"file"`
	Fixture Fixture `json:"fixture"`
}

// Validate checks the values the JSON types cannot; the error names the
// field's JSON path.
func (f *Fixture) Validate() error {
	if err := f.HostContext.Validate(); err != nil {
		return err
	}
	if e := f.Expect; e != nil {
		for i, s := range e.Text {
			if strings.TrimSpace(s) == "" {
				return &strictjson.FieldError{Path: fmt.Sprintf("expect.text[%d]", i), Message: "expected text must not be empty"}
			}
		}
		for i, s := range e.Elements {
			if strings.TrimSpace(s) == "" {
				return &strictjson.FieldError{Path: fmt.Sprintf("expect.elements[%d]", i), Message: "a CSS selector must not be empty"}
			}
		}
		for i, c := range e.Calls {
			if c.Tool == "" {
				return &strictjson.FieldError{Path: fmt.Sprintf("expect.calls[%d]", i), Message: `an expected call needs "tool"`}
			}
		}
	}
	return nil
}

// ParseFixture decodes and checks one fixture file's contents; errors are
// file:line:col diagnostics (*diag.Error).
func ParseFixture(file string, data []byte) (*Fixture, error) {
	var f Fixture
	if err := strictjson.Decode(file, data, &f, "fixture"); err != nil {
		return nil, err
	}
	return &f, nil
}

// LoadFixtures reads the fixtures of the widget whose folder is dir:
// fixtures/*.json sorted by name with DefaultFixture first, then the legacy
// preview.json (listed as "preview"). A widget without any has none; a
// broken file is an error. Each hostContext comes back Resolved (its device
// preset expanded), as the preview and widgetd test use it.
func LoadFixtures(dir string) ([]NamedFixture, error) {
	files, err := filepath.Glob(filepath.Join(dir, FixturesDir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Slice(files, func(i, j int) bool {
		a, b := fixtureName(files[i]), fixtureName(files[j])
		if (a == DefaultFixture) != (b == DefaultFixture) {
			return a == DefaultFixture
		}
		return a < b
	})
	var out []NamedFixture
	for _, file := range files {
		data, err := readFixtureFile(file)
		if err != nil {
			return nil, err
		}
		f, err := ParseFixture(relPath(file), data)
		if err != nil {
			return nil, err
		}
		f.HostContext = f.HostContext.Resolved()
		out = append(out, NamedFixture{Name: fixtureName(file), File: relPath(file), Fixture: *f})
	}
	legacy, err := readSample(dir)
	switch {
	case errors.Is(err, errNoSample):
	case err != nil:
		return nil, err
	default:
		out = append(out, NamedFixture{Name: "preview", File: relPath(filepath.Join(dir, SampleFile)), Fixture: *legacy})
	}
	return out, nil
}

// MaxFixtureSize is the largest fixture (or preview.json) read, in bytes: a
// fixture is a few tool results, and the limit keeps a stray data dump from
// costing the preview and widgetd test their memory.
const MaxFixtureSize = 4 << 20

// readFixtureFile reads one fixture file: only a regular file (a named pipe
// would block the preview and widgetd test forever, a device would be read
// without end) of at most MaxFixtureSize. A refusal is a diagnostic naming
// the file; a missing file's error matches fs.ErrNotExist.
func readFixtureFile(file string) ([]byte, error) {
	data, err := regularfile.Read(file, MaxFixtureSize)
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return data, err
	}
	msg := fmt.Sprintf("cannot read fixture: %v", err)
	var nr *regularfile.NotRegularError
	var tl *regularfile.TooLargeError
	switch {
	case errors.As(err, &nr):
		msg = fmt.Sprintf("this fixture is %s, not a regular file; widgetd reads only regular files, so replace it with a JSON file", nr.Kind)
	case errors.As(err, &tl):
		msg = fmt.Sprintf("this fixture is %s, over the %s a fixture may be; keep fixtures to the data a widget renders", regularfile.FormatBytes(tl.Size), regularfile.FormatBytes(tl.Max))
	}
	return nil, &diag.Error{Diagnostics: []diag.Diagnostic{{File: relPath(file), Message: msg}}}
}

func fixtureName(file string) string {
	return strings.TrimSuffix(filepath.Base(file), ".json")
}

// ConfigFile is the widget.json of a widget in the current build (empty when
// the widget is not in it). Its folder holds the widget's fixtures.
func (s *Server) ConfigFile(name string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.out == nil {
		return ""
	}
	return s.out.ConfigFiles[name]
}
