package typesgen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
)

// listTimeout bounds listing the tools, from connecting to the last page
// (after the build): a server that never calls ServeTypes listens instead
// and never answers, and one that cannot encode a tool may not answer.
const listTimeout = 60 * time.Second

// List returns the tools of the server src names, through the official
// go-sdk client: over streamable HTTP for src.MCP, or by building the main
// package src.From (resolved in dir, inside its Go module) and running it
// with assets.TypesEnv set, over its standard input and output.
func List(ctx context.Context, src Source, dir string) ([]Tool, error) {
	if err := src.Validate(); err != nil {
		return nil, err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "widgetd-types", Version: "1"}, nil)
	if src.MCP != "" {
		ctx, cancel := context.WithTimeout(ctx, listTimeout)
		defer cancel()
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: src.MCP, DisableStandaloneSSE: true}, nil)
		if err != nil {
			return nil, fmt.Errorf("connecting to %s: %w (is the server running, and is this its MCP endpoint?)", src.MCP, err)
		}
		defer cs.Close()
		return listTools(ctx, cs, src)
	}
	return listFromPackage(ctx, client, src.From, dir)
}

// listFromPackage builds pkg and lists the tools of the program over its
// standard input and output.
func listFromPackage(ctx context.Context, client *mcp.Client, pkg, dir string) ([]Tool, error) {
	tmp, err := os.MkdirTemp("", "widgetd-types-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "server")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg)
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, fmt.Errorf("--from %s: the go command is needed to build the server; install Go, or generate with --mcp URL from a running server", pkg)
		}
		return nil, fmt.Errorf("go build %s: %v\n%s", pkg, err, bytes.TrimSpace(out))
	}
	var stderr bytes.Buffer
	run := exec.CommandContext(ctx, bin)
	run.Dir = dir
	run.Env = append(os.Environ(), assets.TypesEnv+"=stdio")
	run.Stderr = &stderr
	lctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	cs, err := client.Connect(lctx, &mcp.CommandTransport{Command: run}, nil)
	if err != nil {
		return nil, fmt.Errorf("%s did not answer MCP on its standard input and output (%v); its main must call gosdk.ServeTypes or mcpgo.ServeTypes after adding its tools, before it listens (docs/embedding.md)%s",
			pkg, err, stderrTail(&stderr))
	}
	defer cs.Close()
	tools, err := listTools(lctx, cs, Source{From: pkg})
	if err != nil {
		return nil, fmt.Errorf("%w%s", err, stderrTail(&stderr))
	}
	return tools, nil
}

// listTools reads every page of tools/list and turns each tool into the
// wire shape Generate reads.
func listTools(ctx context.Context, cs *mcp.ClientSession, src Source) ([]Tool, error) {
	var tools []Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("tools/list from %s: %w", src, err)
		}
		data, err := json.Marshal(t)
		if err != nil {
			return nil, fmt.Errorf("tool %q: %w", t.Name, err)
		}
		var tool Tool
		if err := json.Unmarshal(data, &tool); err != nil {
			return nil, fmt.Errorf("tool %q: %w", t.Name, err)
		}
		tools = append(tools, tool)
	}
	return tools, nil
}

// ResolvePackage turns a package argument ("./cmd/server", or an import
// path) into the import path of a main package, with the go command run in
// dir, so the generated header names it independently of the working
// directory.
func ResolvePackage(ctx context.Context, dir, arg string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-f", "{{.Name}} {{.ImportPath}}", arg)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			return "", fmt.Errorf("--from %s: %s", arg, strings.TrimSpace(stderr.String()))
		}
		return "", fmt.Errorf("--from %s: the go command is needed to build the server: %w", arg, err)
	}
	name, path, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if name != "main" || strings.Contains(path, "\n") {
		return "", fmt.Errorf("--from %s: not one main package (got package %s); name the folder of the server's main package", arg, name)
	}
	return path, nil
}

func stderrTail(b *bytes.Buffer) string {
	s := strings.TrimSpace(b.String())
	if s == "" {
		return ""
	}
	if len(s) > 2000 {
		s = "…" + s[len(s)-2000:]
	}
	return "\nits standard error:\n" + s
}
