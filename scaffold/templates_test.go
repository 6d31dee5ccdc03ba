package scaffold

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var exactVersion = regexp.MustCompile(`^\d+\.\d+\.\d+$`)

// TestTemplateFiles: every template has a widget.json and a default fixture
// pointing at the schemas, and the templates with npm packages pin them to
// exact versions and say how to add them to an existing package.json.
func TestTemplateFiles(t *testing.T) {
	d := data{Project: "p", Name: "w", Title: "W", Domain: "https://p.example.com"}
	for _, tmpl := range Templates {
		t.Run(tmpl.Name, func(t *testing.T) {
			files := map[string][]byte{}
			if err := render(files, "templates/"+tmpl.Name, "", d); err != nil {
				t.Fatal(err)
			}
			for name, schema := range map[string]string{"widget.json": "../../widget.schema.json", "fixtures/default.json": "../../../fixture.schema.json"} {
				var doc struct {
					Schema string `json:"$schema"`
				}
				if err := json.Unmarshal(files[name], &doc); err != nil || doc.Schema != schema {
					t.Errorf("%s: $schema %q, %v; want %q", name, doc.Schema, err, schema)
				}
			}
			project := map[string][]byte{}
			if err := render(project, "templates/"+tmpl.Name+"-project/widgets", "", d); err != nil && tmpl.NPM {
				t.Fatal(err)
			}
			if (project["package.json"] != nil) != tmpl.NPM || (tmpl.Install != "") != tmpl.NPM {
				t.Fatalf("NPM %v, but package.json %v and Install %q", tmpl.NPM, project["package.json"] != nil, tmpl.Install)
			}
			var pkg struct {
				Dependencies, DevDependencies map[string]string
			}
			if err := json.Unmarshal(project["package.json"], &pkg); tmpl.NPM && err != nil {
				t.Fatal(err)
			}
			for _, deps := range []map[string]string{pkg.Dependencies, pkg.DevDependencies} {
				for name, version := range deps {
					if !exactVersion.MatchString(version) {
						t.Errorf("package.json: %s %q is not an exact version", name, version)
					}
					if !strings.Contains(tmpl.Install, " "+name) {
						t.Errorf("Install %q does not add %s", tmpl.Install, name)
					}
				}
			}
		})
	}
}

// TestNewWritesMissingProjectFiles: widgetd new --template vue into a
// project without Vue writes vue.d.ts, and package.json only when there is
// none; an existing package.json is left alone and Install says what to add.
func TestNewWritesMissingProjectFiles(t *testing.T) {
	for _, hasPackage := range []bool{false, true} {
		widgets := filepath.Join(t.TempDir(), "widgets")
		if err := os.MkdirAll(widgets, 0o755); err != nil {
			t.Fatal(err)
		}
		if hasPackage {
			if err := os.WriteFile(filepath.Join(widgets, "package.json"), []byte("{}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		res, err := New(widgets, "board", "vue")
		if err != nil {
			t.Fatal(err)
		}
		if res.PackageJSON == hasPackage || !res.NPM || !strings.Contains(res.Install, "npm install vue") {
			t.Errorf("package.json existed: %v; result %+v", hasPackage, res)
		}
		if _, err := os.Stat(filepath.Join(widgets, "vue.d.ts")); err != nil {
			t.Error(err)
		}
		if pkg, _ := os.ReadFile(filepath.Join(widgets, "package.json")); hasPackage != (string(pkg) == "{}\n") {
			t.Errorf("package.json existed: %v; now %s", hasPackage, pkg)
		}
		// A second Vue widget shares vue.d.ts.
		if res, err := New(widgets, "other", "vue"); err != nil || strings.Contains(strings.Join(res.Files, " "), "vue.d.ts") {
			t.Errorf("second vue widget: %v, %v", res, err)
		}
	}
}
