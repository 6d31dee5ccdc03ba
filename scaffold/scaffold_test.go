package scaffold

import (
	"bytes"
	"os"
	"regexp"
	"testing"
)

// TestVersionsMatchGoMod keeps the versions a generated server requires in
// step with widgetd's own go.mod.
func TestVersionsMatchGoMod(t *testing.T) {
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(gomod); m == nil || string(m[1]) != GoVersion {
		t.Errorf("go.mod's go line is %q; set scaffold.GoVersion to it", m)
	}
	if m := regexp.MustCompile(`github.com/modelcontextprotocol/go-sdk (\S+)`).FindSubmatch(gomod); m == nil || string(m[1]) != GoSDKVersion {
		t.Errorf("go.mod requires go-sdk %q; set scaffold.GoSDKVersion to it", m)
	}
}

// TestSchemasMatchRepository: the JSON Schemas a new project gets are the
// repository's.
func TestSchemasMatchRepository(t *testing.T) {
	for _, name := range []string{"widget.schema.json", "fixture.schema.json"} {
		repo, err := os.ReadFile("../" + name)
		if err != nil {
			t.Fatal(err)
		}
		embedded, err := templates.ReadFile("templates/project/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(repo, embedded) {
			t.Errorf("scaffold/templates/project/%s differs from the repository's; run: cp %s scaffold/templates/project/", name, name)
		}
	}
	repo, _ := os.ReadFile("../widgets/tsconfig.json")
	embedded, _ := templates.ReadFile("templates/project/widgets/tsconfig.json")
	if !bytes.Equal(repo, embedded) {
		t.Error("scaffold/templates/project/widgets/tsconfig.json differs from the examples'; run: cp widgets/tsconfig.json scaffold/templates/project/widgets/")
	}
}

func TestNames(t *testing.T) {
	for in, want := range map[string]string{"My App": "my-app", "..": "widgets", "a_b.c": "a_b.c"} {
		if got := projectName(in); got != want {
			t.Errorf("projectName(%q) = %q, want %q", in, got, want)
		}
	}
	if got := defaultDomain("a_b.c"); got != "https://a-b-c.example.com" {
		t.Errorf("defaultDomain = %q", got)
	}
	for _, bad := range []string{"", "Hello", "-x", "a b", "a/b"} {
		if checkName(bad) == nil {
			t.Errorf("checkName(%q) accepted", bad)
		}
	}
}
