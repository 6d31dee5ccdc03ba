package bundler

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/widgetd/widgetd/diag"
)

// wayIn is one way a source can try to make the build read a file it may
// not: the files and links to add to outsideFixture's project, and where
// the refusal must be reported.
type wayIn struct {
	name     string
	files    map[string]string
	links    map[string]string // link below root → target below top, or absolute
	setup    func(t *testing.T, top, root string)
	external bool // build with a public URL (workers, public/)
	file     string
	line     int
	col      int
	code     string // diag.CodeOutsideProject unless set
	want     string
}

// buildWithin assembles root in memory and fails the test, instead of
// hanging it, when the build does not end within a generous bound (a
// regression that blocks on a FIFO or reads /dev/zero without end).
// unblock, if not nil, is run then to let the stuck build go.
func buildWithin(t *testing.T, root string, external bool, unblock func()) (*Output, error) {
	t.Helper()
	type result struct {
		out *Output
		err error
	}
	done := make(chan result, 1)
	go func() {
		opts := Options{Root: root, NoCache: true}
		if external {
			opts.PublicURL = "https://cdn.example.com/w/"
		}
		b, err := New(opts)
		if err != nil {
			done <- result{nil, err}
			return
		}
		defer b.Close()
		out, err := b.Assemble(context.Background())
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-time.After(30 * time.Second):
		if unblock != nil {
			unblock()
		}
		t.Fatal("the build did not end within 30s: it is blocked on, or reading without end, what it should have refused")
		return nil, nil
	}
}

// checkRefused asserts that err is the one refusal the row wants, that
// nothing was built, and that the secret shows nowhere.
func checkRefused(t *testing.T, tc wayIn, out *Output, err error) {
	t.Helper()
	if err == nil {
		t.Fatalf("built; secret bundled: %v", leaked(out))
	}
	if strings.Contains(err.Error(), secret) {
		t.Errorf("the error shows the secret's contents: %v", err)
	}
	diags := diag.FromError(err)
	if len(diags) == 0 {
		t.Fatalf("error without diagnostics: %v", err)
	}
	d := diags[0]
	code := tc.code
	if code == "" {
		code = diag.CodeOutsideProject
	}
	if d.Code != code {
		t.Errorf("code %q, want %q: %s", d.Code, code, d.Message)
	}
	if code == diag.CodeOutsideProject && !strings.Contains(d.Message, "allowOutside") {
		t.Errorf("the message does not name allowOutside: %s", d.Message)
	}
	if !strings.HasSuffix(d.File, tc.file) || d.Line != tc.line || d.Column != tc.col || !strings.Contains(d.Message, tc.want) {
		t.Errorf("diagnostic %s:%d:%d: %s\nwant %s:%d:%d containing %q", d.File, d.Line, d.Column, d.Message, tc.file, tc.line, tc.col, tc.want)
	}
}

// leaked reports whether out holds any of outsideFixture's secret files or
// /etc/passwd, as text or in a data: URL.
func leaked(out *Output) bool {
	if out == nil {
		return false
	}
	marks := []string{secret, "root:x:0:0"}
	for _, content := range []string{"\x89PNG" + secret, "body{color:red}/*" + secret + "*/"} {
		marks = append(marks, base64.StdEncoding.EncodeToString([]byte(content)))
	}
	for _, m := range marks {
		if outputHas(out, m) {
			return true
		}
	}
	return false
}

// runWaysIn builds each row on a fresh outsideFixture.
func runWaysIn(t *testing.T, rows []wayIn) {
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			top, root := outsideFixture(t)
			writeFiles(t, root, tc.files)
			for link, target := range tc.links {
				if !filepath.IsAbs(target) {
					target = filepath.Join(top, target)
				}
				symlink(t, target, filepath.Join(root, link))
			}
			if tc.setup != nil {
				tc.setup(t, top, root)
			}
			t.Chdir(root)
			out, err := buildWithin(t, root, tc.external, nil)
			checkRefused(t, tc, out, err)
		})
	}
}

// TestEveryReaderIsContained tries every way a source can make the build
// read a file: Vite's suffixes, new URL(…, import.meta.url), the stylesheet
// of a ?inline import and its @import/url(), CSS modules, HTML references,
// workers bundled on their own (and what they import), public/, and
// node_modules folders that are symlinks. Each is refused at the reference,
// naming allowOutside, and nothing is built.
func TestEveryReaderIsContained(t *testing.T) {
	const main = "widgets/w/index.ts"
	rows := []wayIn{
		{name: "?raw", files: map[string]string{main: "import s from \"../../../secret/passwd.txt?raw\";\nconsole.log(s);\n"},
			file: main, line: 1, col: 15, want: "outside the project"},
		{name: "?raw of a symlink leaving the project", files: map[string]string{main: "import s from \"./data.txt?raw\";\nconsole.log(s);\n"},
			links: map[string]string{"widgets/w/data.txt": "secret/passwd.txt"},
			file:  main, line: 1, col: 15, want: "outside the project"},
		{name: "?raw of an absolute path", setup: func(t *testing.T, top, root string) {
			writeFiles(t, root, map[string]string{main: "import s from \"" + filepath.ToSlash(filepath.Join(top, "secret/passwd.txt")) + "?raw\";\nconsole.log(s);\n"})
		}, file: main, line: 1, col: 15, want: "outside the project"},
		{name: "?url", files: map[string]string{main: "import u from \"../../../secret/img.png?url\";\nconsole.log(u);\n"},
			file: main, line: 1, col: 15, want: "outside the project"},
		{name: "?url external", external: true, files: map[string]string{main: "import u from \"../../../secret/img.png?url\";\nconsole.log(u);\n"},
			file: main, line: 1, col: 15, want: "outside the project"},
		{name: "?inline", files: map[string]string{main: "import u from \"../../../secret/img.png?inline\";\nconsole.log(u);\n"},
			file: main, line: 1, col: 15, want: "outside the project"},
		{name: "?worker", external: true, files: map[string]string{main: "import W from \"../../../secret/dir/x.js?worker\";\nnew W();\n"},
			file: main, line: 1, col: 15, want: "outside the project"},
		{name: "?sharedworker", external: true, files: map[string]string{main: "import W from \"../../../secret/dir/x.js?sharedworker\";\nnew W();\n"},
			file: main, line: 1, col: 15, want: "outside the project"},
		{name: "import inside a ?worker", external: true, files: map[string]string{
			main:                  "import W from \"./worker.ts?worker\";\nnew W();\n",
			"widgets/w/worker.ts": "import t from \"../../../secret/passwd.txt\" with { type: \"text\" };\npostMessage(t);\n"},
			file: "widgets/w/worker.ts", line: 1, col: 17, want: "worker widgets/w/worker.ts: widgets/w/worker.ts:1:15: error: this import resolves to "},
		{name: "new URL(…, import.meta.url)", external: true, files: map[string]string{main: "const u = new URL(\"../../../secret/img.png\", import.meta.url);\nconsole.log(u);\n"},
			file: main, line: 1, col: 19, want: "outside the project"},
		{name: "@import in a ?inline stylesheet", files: map[string]string{
			main:              "import css from \"./a.css?inline\";\nconsole.log(css);\n",
			"widgets/w/a.css": "@import \"../../../secret/style.css\";\nbody { margin: 0 }\n"},
			file: main, line: 1, col: 17, want: "widgets/w/a.css:1:9: error: this import resolves to "},
		{name: "url() in a ?inline stylesheet", files: map[string]string{
			main:              "import css from \"./a.css?inline\";\nconsole.log(css);\n",
			"widgets/w/a.css": "body {\n  background: url(../../../secret/img.png);\n}\n"},
			file: main, line: 1, col: 17, want: "widgets/w/a.css:2:15: error: this import resolves to "},
		{name: "@import of an absolute path in a ?inline stylesheet", files: map[string]string{main: "import css from \"./a.css?inline\";\nconsole.log(css);\n"},
			setup: func(t *testing.T, top, root string) {
				writeFiles(t, root, map[string]string{"widgets/w/a.css": "@import \"" + filepath.ToSlash(filepath.Join(top, "secret/style.css")) + "\";\n"})
			}, file: main, line: 1, col: 17, want: "widgets/w/a.css:1:9: error: this import resolves to "},
		{name: "url() in a CSS module", files: map[string]string{
			main:                     "import s from \"./m.module.css\";\nconsole.log(s.a);\n",
			"widgets/w/m.module.css": ".a {\n  background: url(../../../secret/img.png);\n}\n"},
			file: "widgets/w/m.module.css", line: 2, col: 15, want: "outside the project"},
		{name: "HTML href leaving the project", files: map[string]string{"widgets/w/index.html": "<!doctype html>\n<html><head><meta charset=\"utf-8\">\n<link rel=\"stylesheet\" href=\"../../../secret/style.css\"></head>\n<body></body></html>\n"},
			file: "widgets/w/index.html", line: 3, col: 24, want: "outside the project"},
		{name: "HTML src through a symlink", files: map[string]string{"widgets/w/index.html": "<!doctype html>\n<html><head><meta charset=\"utf-8\"></head>\n<body><script type=\"module\" src=\"./main.ts\"></script></body></html>\n"},
			links: map[string]string{"widgets/w/main.ts": "secret/dir/main.ts"},
			file:  "widgets/w/index.html", line: 3, col: 29, want: "outside the project"},
		{name: "public/ file that is a symlink", external: true, files: map[string]string{main: "console.log(1);\n"},
			links: map[string]string{"public/leak.txt": "secret/passwd.txt"},
			file:  "public/leak.txt", want: "outside the project"},
		{name: "public/ that is a symlink", external: true, files: map[string]string{main: "console.log(1);\n"},
			links: map[string]string{"public": "secret"},
			file:  "public", want: "outside the project"},
		{name: "absolute path with {type: text}", setup: func(t *testing.T, top, root string) {
			writeFiles(t, root, map[string]string{main: "import t from \"" + filepath.ToSlash(filepath.Join(top, "secret/passwd.txt")) + "\" with { type: \"text\" };\nconsole.log(t);\n"})
		}, file: main, line: 1, col: 15, want: "outside the project"},
		{name: "with {type: text} through widget-folder node_modules -> /etc", files: map[string]string{main: "import p from \"passwd\" with { type: \"text\" };\nconsole.log(p);\n"},
			links: map[string]string{"widgets/w/node_modules": "/etc"},
			file:  main, line: 1, col: 15, want: "resolves to /etc/passwd"},
		{name: "with {type: text} through widgets/node_modules -> /", files: map[string]string{main: "import p from \"etc/passwd\" with { type: \"text\" };\nconsole.log(p);\n"},
			links: map[string]string{"widgets/node_modules": "/"},
			file:  main, line: 1, col: 15, want: "resolves to /etc/passwd"},
		{name: "?raw through a root node_modules that is a symlink outside", files: map[string]string{main: "import s from \"pkg/index.js?raw\";\nconsole.log(s);\n"},
			links: map[string]string{"node_modules": "real_modules"},
			file:  main, line: 1, col: 15, want: "outside the project"},
		{name: "package in node_modules linking outside", files: map[string]string{main: "import s from \"linked-pkg/index.js?raw\";\nconsole.log(s);\n"},
			links: map[string]string{"node_modules/linked-pkg": "secret/linked-pkg"},
			file:  main, line: 1, col: 15, want: "outside the project"},
	}
	runWaysIn(t, rows)
}

// TestDeviceFilesRefused names FIFOs, sockets and devices in every way a
// build reads: each is refused promptly, at the reference, as not a regular
// file (or as outside the project, for the system's own devices), and the
// build never blocks on one or reads one without end.
func TestDeviceFilesRefused(t *testing.T) {
	const main = "widgets/w/index.ts"
	fifo := func(rel string) func(t *testing.T, top, root string) {
		return func(t *testing.T, top, root string) {
			p := filepath.Join(root, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			// Should the build open it anyway, let it go at the end.
			t.Cleanup(func() { unblockFIFO(p) })
		}
	}
	charDevice := func(t *testing.T, top, root string) {
		p := filepath.Join(root, "widgets/w/zero.bin")
		if err := syscall.Mknod(p, syscall.S_IFCHR|0o644, int(1<<8|5)); err != nil { // 1,5: /dev/zero
			t.Logf("mknod: %v; a symlink to /dev/zero stands in", err)
			symlink(t, "/dev/zero", p)
		}
	}
	socket := func(t *testing.T, top, root string) {
		p := filepath.Join(root, "widgets/w/sock.txt")
		l, err := net.Listen("unix", p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
	}
	const notRegular = "not a regular file; a build reads only regular files"
	rows := []wayIn{
		{name: "FIFO imported with {type: text}", files: map[string]string{main: "import t from \"./pipe.txt\" with { type: \"text\" };\nconsole.log(t);\n"},
			setup: fifo("widgets/w/pipe.txt"), file: main, line: 1, col: 15, code: diag.CodeNotRegularFile, want: "is a named pipe (FIFO), " + notRegular},
		{name: "FIFO ?raw", files: map[string]string{main: "import t from \"./pipe.txt?raw\";\nconsole.log(t);\n"},
			setup: fifo("widgets/w/pipe.txt"), file: main, line: 1, col: 15, code: diag.CodeNotRegularFile, want: "is a named pipe (FIFO)"},
		{name: "FIFO as a module", files: map[string]string{main: "import \"./pipe.ts\";\n"},
			setup: fifo("widgets/w/pipe.ts"), file: main, line: 1, col: 8, code: diag.CodeNotRegularFile, want: "is a named pipe (FIFO)"},
		{name: "FIFO as a stylesheet's @import in a ?inline import", files: map[string]string{main: "import css from \"./a.css?inline\";\nconsole.log(css);\n",
			"widgets/w/a.css": "@import \"./pipe.css\";\n"},
			setup: fifo("widgets/w/pipe.css"), file: main, line: 1, col: 17, code: diag.CodeNotRegularFile, want: "is a named pipe (FIFO)"},
		{name: "FIFO in public/", external: true, files: map[string]string{main: "console.log(1);\n"},
			setup: fifo("public/pipe.txt"), file: "public/pipe.txt", code: diag.CodeNotRegularFile, want: "is a named pipe (FIFO)"},
		{name: "FIFO as an HTML entry's script", files: map[string]string{"widgets/w/index.html": "<!doctype html>\n<html><head><meta charset=\"utf-8\"></head>\n<body><script type=\"module\" src=\"./pipe.ts\"></script></body></html>\n"},
			setup: fifo("widgets/w/pipe.ts"), file: "widgets/w/index.html", line: 3, col: 29, code: diag.CodeNotRegularFile, want: "is a named pipe (FIFO)"},
		{name: "FIFO as the widget's package.json (read by esbuild's resolver)", files: map[string]string{main: "console.log(1);\n"},
			setup: fifo("widgets/w/package.json"), file: "widgetd-entry:w", line: 1, col: 8, code: diag.CodeNotRegularFile, want: `"widgets/w/package.json" is a named pipe (FIFO)`},
		{name: "FIFO as tsconfig.json above the widget", files: map[string]string{main: "import \"./a.ts\";\n", "widgets/w/a.ts": "console.log(1);\n"},
			setup: fifo("widgets/tsconfig.json"), file: "widgetd-entry:w", line: 1, col: 8, code: diag.CodeNotRegularFile, want: `"widgets/tsconfig.json" is a named pipe (FIFO)`},
		{name: "FIFO a tsconfig.json extends (esbuild opens it too)", files: map[string]string{main: "console.log(1);\n", "widgets/w/tsconfig.json": `{"extends": "./base"}`},
			setup: fifo("widgets/w/base.json"), file: "widgetd-entry:w", line: 1, col: 8, code: diag.CodeNotRegularFile, want: `"widgets/w/base.json" is a named pipe (FIFO)`},
		{name: "FIFO a tsconfig.json extends through a regular one", files: map[string]string{main: "console.log(1);\n", "widgets/tsconfig.json": `{"extends": ["./shared/a.json"]}`, "widgets/shared/a.json": `{"extends": "../../cfg/pipe.json"}`},
			setup: fifo("cfg/pipe.json"), file: "widgetd-entry:w", line: 1, col: 8, code: diag.CodeNotRegularFile, want: `"cfg/pipe.json" is a named pipe (FIFO)`},
		{name: "FIFO as an installed package's package.json", files: map[string]string{main: "import \"pkg\";\n"},
			setup: fifo("node_modules/pkg/package.json"), file: main, line: 1, col: 8, code: diag.CodeNotRegularFile, want: `"node_modules/pkg/package.json" is a named pipe (FIFO)`},
		{name: "/dev/zero by absolute path ?raw", files: map[string]string{main: "import z from \"/dev/zero?raw\";\nconsole.log(z);\n"},
			file: main, line: 1, col: 15, want: "resolves to /dev/zero"},
		{name: "/proc/self/environ by absolute path ?raw", files: map[string]string{main: "import s from \"/proc/self/environ?raw\";\nconsole.log(s);\n"},
			file: main, line: 1, col: 15, want: "/environ, outside the project"},
		{name: "symlink to /dev/zero inside the project", files: map[string]string{main: "import z from \"./zero.bin?raw\";\nconsole.log(z);\n"},
			links: map[string]string{"widgets/w/zero.bin": "/dev/zero"},
			file:  main, line: 1, col: 15, want: "\"./zero.bin\" resolves to /dev/zero"},
		{name: "character device inside the project ?raw", files: map[string]string{main: "import z from \"./zero.bin?raw\";\nconsole.log(z);\n"},
			setup: charDevice, file: main, line: 1, col: 15, code: diag.CodeNotRegularFile, want: "is a character device"},
		{name: "character device inside the project as a module", files: map[string]string{main: "import z from \"./zero.bin\" with { type: \"text\" };\nconsole.log(z);\n"},
			setup: charDevice, file: main, line: 1, col: 15, code: diag.CodeNotRegularFile, want: "is a character device"},
		{name: "unix socket ?raw", files: map[string]string{main: "import s from \"./sock.txt?raw\";\nconsole.log(s);\n"},
			setup: socket, file: main, line: 1, col: 15, code: diag.CodeNotRegularFile, want: "is a socket"},
	}
	runWaysIn(t, rows)
}

// unblockFIFO opens the FIFO p for writing and closes it, so a reader
// blocked on it (a regression) sees the end and the test can end.
func unblockFIFO(p string) {
	f, err := os.OpenFile(p, os.O_RDWR|syscall.O_NONBLOCK, 0)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		fmt.Fprintln(os.Stderr, "unblock", p, err)
		return
	}
	if f != nil {
		f.Close()
	}
}

// TestCompiledStylesAreContained: the stylesheets the npm compilers handle
// (a Vue component's <style>, a Tailwind v4 root whose @import the Node
// helper would read itself) name a file outside the project: the build is
// refused at the reference, naming allowOutside, with nothing bundled.
func TestCompiledStylesAreContained(t *testing.T) {
	modules := compilerModules(t)
	outside := filepath.Join(t.TempDir(), "secret.css")
	if err := os.WriteFile(outside, []byte(".leak{content:\""+secret+"\"}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		file  string
		line  int
	}{
		{"Vue <style> @import", map[string]string{
			"widgets/v/main.ts": "import A from \"./A.vue\";\nconsole.log(A);\n",
			"widgets/v/A.vue":   "<template><p>x</p></template>\n<style>@import \"" + outside + "\";</style>\n",
		}, "widgets/v/A.vue", 1},
		{"Tailwind @import read by the Node helper", map[string]string{
			"widgets/v/main.ts": "import \"./app.css\";\n",
			"widgets/v/app.css": "@import \"tailwindcss\";\n@import \"" + outside + "\";\n",
		}, "widgets/v/app.css", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.files["widgets/v/widget.json"] = widgetJSON("main.ts")
			root := writeProjectWith(t, modules, tc.files)
			t.Chdir(root)
			_, out, err := assembleProject(t, testOptions(root))
			if err == nil {
				t.Fatalf("built; secret bundled: %v", outputHas(out, secret))
			}
			d := diag.FromError(err)
			if len(d) == 0 || d[0].Code != diag.CodeOutsideProject || !strings.HasSuffix(d[0].File, tc.file) || d[0].Line != tc.line || !strings.Contains(d[0].Message, "allowOutside") {
				t.Fatalf("want %s:%d refused naming allowOutside, got %v", tc.file, tc.line, err)
			}
			if strings.Contains(err.Error(), secret) {
				t.Error("the error shows the secret")
			}
		})
	}
}
