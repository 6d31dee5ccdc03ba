package bundler

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/bundler/internal/npminstall"
	"github.com/widgetd/widgetd/bundler/internal/specifier"
	"github.com/widgetd/widgetd/diag"
)

// esbuild's messages speak its Go API ("You can use 'Conditions:
// []string{...}'", "mark the path as external", "Platform: api.PlatformNode")
// and chain notes that end in ':' to source excerpts. A widget author needs
// one line saying what is wrong and the fix in widgetd's terms: a widget.json
// field, an npm install in the folder that holds the package.json.

var (
	couldNotResolveRE = regexp.MustCompile(`^Could not resolve "([^"]+)"$`)
	noLoaderRE        = regexp.MustCompile(`^No loader is configured for "(\.[^"]+)" files: (.+)$`)
	notExportedRE     = regexp.MustCompile(`^The path "([^"]+)" is not currently exported by package "([^"]+)"`)
	conditionsRE      = regexp.MustCompile(`^None of the conditions in the package definition \(([^)]*)\) match`)
	builtinRE         = regexp.MustCompile(`^The package "([^"]+)" wasn't found on the file system but is built into node`)
	// goAPINoteRE matches the notes that only make sense to a caller of
	// esbuild's API, which a widget author is not.
	goAPINoteRE = regexp.MustCompile(`was triggered by this import|You can mark the path|You can use '|You can use "|api\.[A-Z]|--[a-z-]+=|Conditions:|Loader:|Platform:`)
)

// authorText rewrites one esbuild message for a widget author. installDir
// is the folder holding the package.json nearest the importing file (where
// `npm install` belongs) as messages show it, "" when unknown; pm is the
// package manager that installs there.
// Notes with a location are left out of the text: they become the
// diagnostic's Notes (see locatedNotes).
func authorText(m api.Message, installDir, pm string) string {
	text := m.Text
	notes := make([]string, 0, len(m.Notes))
	for _, n := range m.Notes {
		notes = append(notes, n.Text)
	}
	if sub := couldNotResolveRE.FindStringSubmatch(text); sub != nil {
		return resolveText(sub[1], notes, installDir, pm, packageNotes(m.Notes))
	}
	unlocated := notes[:0]
	for _, n := range m.Notes {
		if n.Location == nil {
			unlocated = append(unlocated, n.Text)
		}
	}
	notes = unlocated
	if sub := noLoaderRE.FindStringSubmatch(text); sub != nil {
		return fmt.Sprintf("widgetd cannot bundle %q files (%s); import it as %q for its URL or %q for its text, or compile it to JS/CSS first",
			sub[1], sub[2], "./file"+sub[1]+"?url", "./file"+sub[1]+"?raw")
	}
	if text == "The JSX syntax extension is not currently enabled" {
		return "JSX in a .js file; rename the file to .jsx (or .tsx) so widgetd compiles its JSX"
	}
	return joinNotes(text, notes)
}

// packageNotes are the notes of an unresolved import that say why, with
// their place (a package.json "exports" entry that leads nowhere, a target
// that is invalid), leaving out those about esbuild's API.
func packageNotes(ns []api.Note) []string {
	var out []string
	for _, n := range ns {
		t := strings.TrimSuffix(strings.TrimSpace(n.Text), ":")
		if t == "" || goAPINoteRE.MatchString(t) {
			continue
		}
		if l := n.Location; l != nil && l.File != "" {
			t += fmt.Sprintf(" (%s:%d:%d)", l.File, l.Line, l.Column+1)
		}
		out = append(out, t)
	}
	return out
}

// resolveText explains an import that did not resolve; installDir and pm
// (the package manager: npm, pnpm or yarn) are as authorText's, and why
// holds packageNotes.
func resolveText(spec string, notes []string, installDir, pm string, why []string) string {
	head := fmt.Sprintf("Could not resolve %q", spec)
	var exported, conds string
	for _, n := range notes {
		if sub := builtinRE.FindStringSubmatch(n); sub != nil {
			return fmt.Sprintf("%s: %q is a Node.js built-in module, which a widget running in the browser cannot use; use a browser package or the Web API instead", head, sub[1])
		}
		if sub := notExportedRE.FindStringSubmatch(n); sub != nil {
			exported = fmt.Sprintf("package %q exports no %q for the browser", sub[2], sub[1])
		}
		if sub := conditionsRE.FindStringSubmatch(n); sub != nil {
			conds = sub[1]
		}
	}
	if needsCompiler(spec) {
		where := "the folder that holds the widget's package.json"
		if installDir != "" {
			where = installDir
		}
		return fmt.Sprintf("%s: Tailwind CSS is compiled by its own packages, which widgetd loads from node_modules; run `%s` in %s (Node.js is needed)", head, npminstall.AddCommand(pm, "-D tailwindcss @tailwindcss/node @tailwindcss/oxide"), where)
	}
	if exported != "" {
		msg := head + ": " + exported
		if conds != "" {
			msg += " (its exports name the conditions " + conds + ")"
		}
		if strings.Contains(conds, `"style"`) {
			return msg + `; it is a stylesheet: @import it from a .css file (widgetd resolves @import through the "style" condition)`
		}
		return msg + "; import a path the package exports, or check the package version"
	}
	if specifier.IsBare(spec) && len(why) > 0 {
		// Installed, but its package.json does not lead to a file: say
		// what esbuild found wrong rather than "not installed".
		pkg, _ := specifier.SplitPackage(spec)
		return fmt.Sprintf("%s: the package %q is installed, but its package.json does not lead to a file: %s; check the package's \"exports\" (or \"main\"), or reinstall it", head, pkg, strings.Join(why, "; "))
	}
	if specifier.IsBare(spec) {
		pkg, _ := specifier.SplitPackage(spec)
		where := "the widget's folder"
		if installDir != "" {
			where = installDir
		}
		return fmt.Sprintf("%s: the package %q is not installed; run `%s` in %s", head, pkg, npminstall.AddCommand(pm, pkg), where)
	}
	return head + ": no such file; check the path (relative to the importing file) and its extension"
}

// joinNotes appends the notes that help a widget author to text as
// sentences, on one line; notes about esbuild's API are dropped.
func joinNotes(text string, notes []string) string {
	parts := []string{strings.TrimSuffix(text, ":")}
	for _, n := range notes {
		if n == "" || goAPINoteRE.MatchString(n) {
			continue
		}
		parts = append(parts, strings.TrimSuffix(strings.TrimSpace(n), ":"))
	}
	return strings.Join(parts, "; ")
}

// installDirFor returns the folder holding the package.json nearest to file
// (an importing file's path relative to root), or the file's folder.
func installDirFor(root, file string) string {
	if file == "" {
		return ""
	}
	dir := filepath.Dir(filepath.Join(root, filepath.FromSlash(file)))
	for d := dir; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, "package.json")); err == nil && st.Mode().IsRegular() {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// authorMessage is authorText for a message of this project's build.
func (b *Builder) authorMessage(m api.Message) string {
	dir := b.importerInstallDir(m.Location)
	if dir == "" {
		return authorText(m, "", "npm")
	}
	return authorText(m, b.displayPath(dir), npminstall.PackageManager(dir, b.root))
}

// inlineScriptWidget returns the widget whose inline script a message's
// file names ("widgetd-inline-script:<name>:<i>"), or nil.
func (b *Builder) inlineScriptWidget(file string) *widget {
	rest, ok := strings.CutPrefix(file, inlineScriptNamespace+":")
	if !ok {
		return nil
	}
	name, _, _ := strings.Cut(rest, ":")
	return b.widgetByName(name)
}

// locatedNotes returns the notes of m that point at a place, each as a
// Note whose file is shown by file; notes about esbuild's API are dropped.
func locatedNotes(m api.Message, file func(*api.Location) string) []diag.Note {
	var out []diag.Note
	for _, n := range m.Notes {
		if n.Location == nil || n.Text == "" || goAPINoteRE.MatchString(n.Text) {
			continue
		}
		out = append(out, diag.Note{
			File:    file(n.Location),
			Line:    n.Location.Line,
			Column:  n.Location.Column + 1,
			Message: strings.TrimSuffix(strings.TrimSpace(n.Text), ":"),
			Source:  n.Location.LineText,
		})
	}
	return out
}

// messagesText joins esbuild messages, one per line (their located notes on
// lines of their own), in widgetd's words.
func messagesText(ms []api.Message) string {
	var lines []string
	plainFile := func(loc *api.Location) string { return loc.File }
	for _, m := range ms {
		d := diag.Diagnostic{Message: authorText(m, "", "npm"), Notes: locatedNotes(m, plainFile)}
		if m.Location != nil {
			d.File, d.Line, d.Column = m.Location.File, m.Location.Line, m.Location.Column+1
		}
		lines = append(lines, d.String())
	}
	return strings.Join(lines, "\n")
}
