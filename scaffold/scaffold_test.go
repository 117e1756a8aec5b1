package scaffold

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func paths(files []File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

func TestFiles(t *testing.T) {
	files, err := Files(Options{Ferridriver: "/opt/fd bin/ferridriver", Types: map[string]string{"types/extra.d.ts": "declare const x: number\n"}, Glue: "// glue\n"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		".vscode/ferridriver-steps.ts", ".vscode/settings.json",
		"features/login.feature", "features/todo.feature", "ferridriver.toml", "pages/login.yaml", "steps/todo.ts", "steps/world.ts",
		"tsconfig.json", "types/cucumber.d.ts", "types/extra.d.ts", "types/ferridriver.d.ts",
	}
	got := paths(files)
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("missing %s in %v", w, got)
		}
	}
	for _, f := range files {
		if f.Path == "ferridriver.toml" {
			s := string(f.Content)
			if !strings.Contains(s, `command = "/opt/fd bin/ferridriver demo-server --addr 127.0.0.1:4173"`) {
				t.Errorf("webServer command not filled in:\n%s", s)
			}
			if strings.Contains(s, "{{") {
				t.Errorf("placeholder left in ferridriver.toml:\n%s", s)
			}
		}
		// Declarations must never be picked up as step files.
		if strings.HasSuffix(f.Path, ".d.ts") && !strings.HasPrefix(f.Path, "types/") {
			t.Errorf("%s: declaration outside types/", f.Path)
		}
	}
	if _, err := Files(Options{Types: map[string]string{"steps/x.d.ts": ""}}); err == nil {
		t.Error("a declaration outside types/ was accepted")
	}
	if files, _ := Files(Options{}); slices.Contains(paths(files), GluePath) {
		t.Errorf("%s written without Options.Glue", GluePath)
	}
}

// The editor settings name the glue file and the step files the
// ferridriver.toml names, so the Cucumber extension sees every step.
func TestEditorSettings(t *testing.T) {
	files, err := Files(Options{})
	if err != nil {
		t.Fatal(err)
	}
	var settings struct {
		Features []string `json:"cucumber.features"`
		Glue     []string `json:"cucumber.glue"`
	}
	for _, f := range files {
		if f.Path == ".vscode/settings.json" {
			if err := json.Unmarshal(f.Content, &settings); err != nil {
				t.Fatalf(".vscode/settings.json: %v", err)
			}
		}
	}
	if !slices.Contains(settings.Glue, GluePath) || !slices.Contains(settings.Glue, "steps/**/*.ts") || !slices.Contains(settings.Features, "features/**/*.feature") {
		t.Fatalf("settings %+v", settings)
	}
}

func TestWriteRefusesToOverwrite(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "steps"), 0o755); err != nil {
		t.Fatal(err)
	}
	mine := []byte("my own steps\n")
	for _, p := range []string{"steps/world.ts", "ferridriver.toml"} {
		if err := os.WriteFile(filepath.Join(dir, p), mine, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	written, err := Write(dir, Options{})
	var exists *ExistsError
	if !errors.As(err, &exists) {
		t.Fatalf("err = %v, want *ExistsError", err)
	}
	if !reflect.DeepEqual(exists.Paths, []string{"ferridriver.toml", "steps/world.ts"}) {
		t.Errorf("conflicts = %v", exists.Paths)
	}
	if len(written) != 0 {
		t.Errorf("wrote %v despite conflicts", written)
	}
	if _, err := os.Stat(filepath.Join(dir, "features")); err == nil {
		t.Error("features/ was created despite conflicts")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "steps/world.ts")); string(b) != string(mine) {
		t.Error("an existing file was changed")
	}

	written, err = Write(dir, Options{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := Files(Options{})
	if !reflect.DeepEqual(written, paths(files)) {
		t.Errorf("written = %v, want %v", written, paths(files))
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "steps/world.ts")); string(b) == string(mine) {
		t.Error("--force did not overwrite")
	}
}

func TestWriteIntoNewDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	written, err := Write(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range written {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Error(err)
		}
	}
}

func TestRegisterTypes(t *testing.T) {
	RegisterTypes("types/registered.d.ts", "declare const y: string\n")
	defer func() {
		typesMu.Lock()
		delete(registered, "types/registered.d.ts")
		typesMu.Unlock()
	}()
	files, err := Files(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(paths(files), "types/registered.d.ts") {
		t.Errorf("registered declarations missing: %v", paths(files))
	}
}

func TestQuoteShell(t *testing.T) {
	for in, want := range map[string]string{
		"ferridriver":           "ferridriver",
		"/usr/local/bin/fd-1.2": "/usr/local/bin/fd-1.2",
		"/home/me/my tools/fd":  "'/home/me/my tools/fd'",
		"/tmp/it's/fd":          `'/tmp/it'\''s/fd'`,
		"":                      "''",
	} {
		if got := QuoteShell(in); got != want {
			t.Errorf("QuoteShell(%q) = %s, want %s", in, got, want)
		}
	}
}
