package docs

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/fixture"
)

// snippet returns the fenced block that follows <!-- docs-snippet: name in file.
func snippet(t *testing.T, file, name string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, "<!-- docs-snippet: "+name)
	if i < 0 {
		t.Fatalf("%s: no docs-snippet %q", file, name)
	}
	s = s[i:]
	open := strings.Index(s, "```")
	if open < 0 {
		t.Fatalf("%s: snippet %q has no code block", file, name)
	}
	s = s[open:]
	body := s[strings.IndexByte(s, '\n')+1:]
	end := strings.Index(body, "```")
	if end < 0 {
		t.Fatalf("%s: snippet %q is not closed", file, name)
	}
	return body[:end]
}

// TestReadmeWidgetJSON: the README's widget.json is the real example's, as
// plain JSON, and builds through the real loader.
func TestReadmeWidgetJSON(t *testing.T) {
	got := snippet(t, "../README.md", "widgets/weather/widget.json")
	want, err := os.ReadFile("../widgets/weather/widget.json")
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("README's widget.json differs from widgets/weather/widget.json:\n%s", got)
	}
	// Build a copy of the weather widget with the snippet as its config.
	root := t.TempDir()
	src, _ := filepath.Abs("../widgets")
	dst := filepath.Join(root, "widgets", "weather")
	if err := os.CopyFS(dst, os.DirFS(filepath.Join(src, "weather"))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, "widget.json"), []byte(got), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(src, "node_modules"), filepath.Join(root, "widgets", "node_modules")); err != nil {
		t.Fatal(err)
	}
	// A node_modules linking outside the project needs allowOutside.
	allow := fmt.Sprintf(`{"allowOutside": [%q]}`, filepath.Join(src, "node_modules"))
	if err := os.WriteFile(filepath.Join(root, "widgetd.json"), []byte(allow), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := bundler.Build(context.Background(), bundler.Options{Root: root, NoCache: true}); err != nil {
		t.Fatalf("the README's widget.json does not build: %v", err)
	}
}

// TestFixtureSnippet: docs/testing.md's fixture decodes strictly.
func TestFixtureSnippet(t *testing.T) {
	f, err := fixture.Parse("docs/testing.md", []byte(snippet(t, "../docs/testing.md", "fixture")))
	if err != nil {
		t.Fatal(err)
	}
	if f.Expect == nil || len(f.Expect.Calls) != 1 || f.HostContext.Theme != "dark" {
		t.Errorf("decoded %+v", f)
	}
}

// TestFixtureDeviceSnippet: docs/testing.md's device fixture decodes
// strictly and names a preset.
func TestFixtureDeviceSnippet(t *testing.T) {
	f, err := fixture.Parse("docs/testing.md", []byte(snippet(t, "../docs/testing.md", "fixture-device")))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.HostContext.DevicePreset(); !ok || f.HostContext.TimeZone == "" {
		t.Errorf("decoded %+v", f.HostContext)
	}
}

// TestNoGoRunGenerate: no doc tells a module to go run widgetd by import
// path, which fails in a module that does not require it; go tool does not.
func TestNoGoRunGenerate(t *testing.T) {
	files, _ := filepath.Glob("../docs/*.md")
	files = append(files, "../README.md")
	bad := regexp.MustCompile(`go:generate go run github\.com/widgetd`)
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if bad.Match(data) {
			t.Errorf("%s: //go:generate go run github.com/widgetd/…: document go tool widgetd instead", f)
		}
	}
}

// embeddingProgram wraps docs/embedding.md's go-sdk snippet in a program
// that loads the example server's committed dist/ and runs the snippet.
const embeddingProgram = `package main

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/assets/gosdk"
)

type In struct {
	Name string ` + "`json:\"name,omitempty\"`" + `
}

type Out struct {
	Name string ` + "`json:\"name\"`" + `
}

func handler(context.Context, *mcp.CallToolRequest, In) (*mcp.CallToolResult, Out, error) {
	return &mcp.CallToolResult{}, Out{Name: "x"}, nil
}

func setup(impl *mcp.Implementation, reg *assets.Registry, mux *http.ServeMux) error {
SNIPPET
	return nil
}

func main() {
	reg, err := assets.Load(os.DirFS(os.Args[1]), assets.WithBasePath("/widgets"))
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	if err := setup(&mcp.Implementation{Name: "docs", Version: "1"}, reg, http.NewServeMux()); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println("snippet ran; tool audit passed")
}
`

// TestEmbeddingSnippet compiles and runs docs/embedding.md's go-sdk snippet
// against the example dist/: it registers the tool and passes the audit it
// shows. Without the snippet's annotations the same program fails the
// audit, so the check is real.
func TestEmbeddingSnippet(t *testing.T) {
	code := snippet(t, "../docs/embedding.md", "embedding-gosdk")
	dist, _ := filepath.Abs("../examples/mcpserver/dist")
	run := func(code string) (string, error) {
		dir, err := os.MkdirTemp("testdata/tmpbuild", "embedding-")
		if err != nil {
			if err := os.MkdirAll("testdata/tmpbuild", 0o755); err != nil {
				t.Fatal(err)
			}
			if dir, err = os.MkdirTemp("testdata/tmpbuild", "embedding-"); err != nil {
				t.Fatal(err)
			}
		}
		defer os.RemoveAll(dir)
		prog := strings.Replace(embeddingProgram, "SNIPPET", code, 1)
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(prog), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("go", "run", "./"+dir, dist).CombinedOutput()
		return string(out), err
	}
	if out, err := run(code); err != nil || !strings.Contains(out, "tool audit passed") {
		t.Fatalf("docs/embedding.md snippet: %v\n%s", err, out)
	}
	i := strings.Index(code, "\tAnnotations:")
	j := strings.Index(code[i:], "\n")
	stripped := code[:i] + "}" + code[i+j:]
	stripped = strings.Replace(stripped, `Greets the user by name.",`+"\n\t// What the tool does, as ChatGPT's review requires.\n}", `Greets the user by name."}`, 1)
	if out, err := run(stripped); err == nil || !strings.Contains(out, "tool-annotations-missing") {
		t.Fatalf("without annotations the snippet should fail the audit: %v\n%s", err, out)
	}
}
