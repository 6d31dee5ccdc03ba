package scaffold

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// serverFiles are the files the Go server template writes at the project
// root; adding a server to a project refuses to touch any that exists.
var serverFiles = []string{"go.mod", "main.go", "main_test.go", "widgets_test.go"}

// addServer is Init with Server "go" into a project that already has a
// widgets/ folder: it writes the Go server and the project files that are
// missing, leaves every existing file as it is (Result.Kept), appends the
// lines the server needs to an existing .gitignore (Result.Merged), and
// links the server's tool to an existing widget (d.Name when it exists, else
// the first widget by name when d.Name is the default) or, when there is
// none, writes d.Name from template t. It refuses, writing nothing, when
// go.mod, main.go, main_test.go or widgets_test.go exists: the server is a
// new module.
func addServer(root string, t Template, d data) (*Result, error) {
	for _, n := range serverFiles {
		if _, err := os.Lstat(filepath.Join(root, n)); err == nil {
			return nil, fmt.Errorf("%s already exists; nothing was written (--server go writes a new Go module at the project root; to embed the widgets in an existing module, see docs/embedding.md)", filepath.Join(root, n))
		}
	}
	existing, err := existingWidget(filepath.Join(root, "widgets"), d.Name)
	if err != nil {
		return nil, err
	}
	if existing != "" {
		d.Name, d.Title = existing, title(existing)
	}
	files, err := renderProject(t, d)
	if err != nil {
		return nil, err
	}
	res := &Result{Widget: d.Name}
	if existing != "" {
		for n := range files {
			if strings.HasPrefix(n, "widgets/"+existing+"/") || n == "widgets/package.json" {
				delete(files, n) // the existing widget stays as it is, with the packages it has
			}
		}
	} else if t.NPM {
		res.NPM, res.NPMDir, res.Install = true, "widgets", t.Install
	}
	if err := mergeIgnore(root, files, res); err != nil {
		return nil, err
	}
	for n := range files {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(n))); err == nil {
			res.Kept = append(res.Kept, n)
			delete(files, n)
		}
	}
	sort.Strings(res.Kept)
	res.PackageJSON = files["widgets/package.json"] != nil
	return res, write(root, files, res)
}

// existingWidget is the widget of widgetsDir the server's tool shows: want
// when widgetsDir/want/widget.json exists; otherwise, when want is
// DefaultWidget (no --widget given), the first widget folder by name ("" when
// there is none), named by its widget.json "name" when it sets one.
func existingWidget(widgetsDir, want string) (string, error) {
	if isFile(filepath.Join(widgetsDir, want, "widget.json")) {
		return widgetName(filepath.Join(widgetsDir, want))
	}
	if want != DefaultWidget {
		return "", nil
	}
	entries, err := os.ReadDir(widgetsDir)
	if err != nil {
		return "", fmt.Errorf("reading the widgets folder: %w", err)
	}
	for _, e := range entries { // sorted by name
		if e.IsDir() && isFile(filepath.Join(widgetsDir, e.Name(), "widget.json")) {
			return widgetName(filepath.Join(widgetsDir, e.Name()))
		}
	}
	return "", nil
}

// widgetName is the name the build gives the widget in dir: widget.json's
// "name", else the folder's.
func widgetName(dir string) (string, error) {
	config := filepath.Join(dir, "widget.json")
	data, err := os.ReadFile(config)
	if err != nil {
		return "", err
	}
	var doc struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return "", fmt.Errorf("%s: %w (widgetd check says where)", config, err)
	}
	if doc.Name == "" {
		doc.Name = filepath.Base(dir)
	}
	if err := checkName(doc.Name); err != nil {
		return "", fmt.Errorf("%s: %w", config, err)
	}
	return doc.Name, nil
}

// distIgnores are the .gitignore lines that ignore the root dist/ folder,
// which a project with a Go server commits.
var distIgnores = map[string]bool{"/dist/": true, "dist/": true, "/dist": true, "dist": true}

// mergeIgnore replaces the .gitignore of files, when the project has one,
// by the existing file plus the template's lines it lacks and, when it
// ignores dist/, a "!/dist/" that takes it back (main.go embeds dist/, so it
// is committed).
func mergeIgnore(root string, files map[string][]byte, res *Result) error {
	path := filepath.Join(root, ".gitignore")
	old, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	add := ignoreAdditions(string(old), string(files[".gitignore"]))
	delete(files, ".gitignore")
	if add == "" {
		return nil
	}
	merged := string(old)
	if merged != "" && !strings.HasSuffix(merged, "\n") {
		merged += "\n"
	}
	if err := os.WriteFile(path, []byte(merged+add), 0o644); err != nil {
		return fmt.Errorf("adding the Go server's lines to %s: %w", path, err)
	}
	res.Merged = append(res.Merged, ".gitignore")
	return nil
}

// ignoreAdditions is what to append to the .gitignore text old: the
// template's non-comment lines it lacks, and "!/dist/" when old ignores
// dist/ and does not take it back already.
func ignoreAdditions(old, template string) string {
	have := map[string]bool{}
	ignoresDist := false
	for _, line := range strings.Split(old, "\n") {
		line = strings.TrimSpace(line)
		have[line] = true
		if distIgnores[line] {
			ignoresDist = true
		}
		if line == "!/dist/" || line == "!dist/" || line == "!/dist" || line == "!dist" {
			ignoresDist = false
		}
	}
	var b strings.Builder
	for _, line := range strings.Split(template, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") && !have[line] {
			b.WriteString(line + "\n")
		}
	}
	if ignoresDist {
		b.WriteString("# main.go embeds dist/ (go:embed), so dist/ is committed: a fresh clone\n# builds without go generate. After changing widgets/, run go generate and commit dist/.\n!/dist/\n")
	}
	if b.Len() == 0 {
		return ""
	}
	return "# Added by widgetd init --server go:\n" + b.String()
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
