package bundler

import (
	"context"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/diag"
)

// TestMissingInstallIsOneMessage builds real projects whose packages were
// never installed: every failed import of a package that package.json
// lists folds into one diagnostic per package.json, with the install
// command of the project's package manager; a package it does not list is
// reported once, at its first import.
func TestMissingInstallIsOneMessage(t *testing.T) {
	const pkgJSON = `{"dependencies": {"react": "19.0.0", "react-dom": "19.0.0"}, "devDependencies": {"typescript": "5.9.3"}}`
	twoWidgets := map[string]string{
		"widgets/package.json":   pkgJSON,
		"widgets/a/widget.json":  `{}`,
		"widgets/a/index.tsx":    "import { useState } from \"react\";\nimport { createRoot } from \"react-dom/client\";\nimport { useToolOutput } from \"widgetd/react\";\nfunction App() { const [n] = useState(0); useToolOutput(); return <p>{n}</p>; }\ncreateRoot(document.body).render(<App />);\n",
		"widgets/b/widget.json":  `{}`,
		"widgets/b/index.tsx":    "import { StrictMode } from \"react\";\nconsole.log(StrictMode, <b/>);\n",
		"widgets/hi/widget.json": `{}`,
		"widgets/hi/index.ts":    `document.body.append("hi");`,
	}
	with := func(extra map[string]string) map[string]string {
		files := map[string]string{}
		for k, v := range twoWidgets {
			files[k] = v
		}
		for k, v := range extra {
			files[k] = v
		}
		return files
	}
	undeclared := map[string]string{
		"widgets/w/widget.json":  `{}`,
		"widgets/w/package.json": `{"name": "w"}`,
		"widgets/w/index.ts":     "import a from \"left-pad-x\";\nimport b from \"left-pad-x/sub\";\nconsole.log(a, b);\n",
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"npm", twoWidgets, "widgets/package.json: error: packages in widgets/package.json are not installed (react, react-dom); run `npm install` in widgets/"},
		{"pnpm lock", with(map[string]string{"widgets/pnpm-lock.yaml": "lockfileVersion: '9.0'\n"}), "run `pnpm install` in widgets/"},
		{"yarn lock above", with(map[string]string{"yarn.lock": "\n"}), "run `yarn install` in widgets/"},
		{"packageManager field", with(map[string]string{"widgets/package.json": `{"packageManager": "pnpm@9.1.0", "dependencies": {"react": "19.0.0", "react-dom": "19.0.0"}}`}), "run `pnpm install` in widgets/"},
		{"not listed", undeclared, "widgets/w/index.ts:1:15: error: Could not resolve \"left-pad-x\": the package \"left-pad-x\" is not installed; run `npm install left-pad-x` in widgets/w"},
		{"not listed, pnpm", with2(undeclared, "widgets/w/pnpm-lock.yaml"), "run `pnpm add left-pad-x` in widgets/w"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeProject(t, tc.files)
			t.Chdir(root)
			_, err := Build(context.Background(), Options{Root: root, NoCompress: true, NoCache: true})
			diags := diag.FromError(err)
			if len(diags) != 1 {
				t.Fatalf("%d diagnostics, want 1:\n%v", len(diags), err)
			}
			if got := diags[0].String(); !strings.Contains(got, tc.want) {
				t.Errorf("diagnostic\n%s\nlacks\n%s", got, tc.want)
			}
			if strings.Contains(diags[0].String(), bridgeNamespace) {
				t.Errorf("the message names the bridge's internal module path: %s", diags[0])
			}
		})
	}
}

// with2 returns files plus an empty file at name.
func with2(files map[string]string, name string) map[string]string {
	out := map[string]string{name: ""}
	for k, v := range files {
		out[k] = v
	}
	return out
}
