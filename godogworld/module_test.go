package godogworld_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
)

// TestGodogworldModules builds what a Go team builds, in modules of their
// own that require ferridriver (a replace points at this repository):
//
//   - the quick start of docs/godog.md, taken from the page: it links
//     godog, playwright-go and godogworld's core, and no JavaScript engine,
//     bundler or configuration library; go vet is clean and go test runs
//     its scenario;
//   - a copy of examples/godogdemo (Go and TypeScript steps,
//     ferridriver.toml): go vet is clean (it imports nothing internal) and
//     go test runs its features.
//
// The Go build cache is shared, so only the modules' own packages compile.
func TestGodogworldModules(t *testing.T) {
	testenv.NeedBrowser(t)
	root := oracles.Root()

	t.Run("quick start", func(t *testing.T) {
		doc, err := os.ReadFile(filepath.Join(root, "docs", "godog.md"))
		if err != nil {
			t.Fatal(err)
		}
		files := quickStart(t, string(doc))
		dir := tempModule(t, root, "example.com/hello", files)
		if out, err := exec.Command("gofmt", "-l", dir).CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("the quick start is not gofmt'ed: %s %v", out, err)
		}
		deps := goCmd(t, dir, "list", "-deps", "-test", ".")
		linked := regexp.MustCompile(`(?m)^\S*(goja|esbuild|viper|jsonschema|fsnotify|ferridriver/(config|runner|jsbridge))\S*$`).FindAllString(deps, -1)
		if len(linked) > 0 {
			t.Errorf("a Go-only godog suite links %s", strings.Join(linked, ", "))
		}
		t.Logf("the quick start's test links %d packages", strings.Count(deps, "\n"))
		goCmd(t, dir, "vet", ".")
		out := goCmd(t, dir, "test", "-count=1", "-v", ".", "-godog.format=progress", "-godog.no-colors")
		if !strings.Contains(out, "1 scenarios (1 passed)") {
			t.Errorf("go test did not run the quick start's scenario:\n%s", out)
		}
	})

	t.Run("example copy", func(t *testing.T) {
		src := filepath.Join(root, "examples", "godogdemo")
		files := map[string]string{}
		err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			files[rel] = string(b)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		dir := tempModule(t, root, "example.com/godogdemo", files)
		goCmd(t, dir, "vet", "./...")
		out := goCmd(t, dir, "test", "-count=1", "-v", "./...", "-godog.format=progress", "-godog.no-colors")
		if !strings.Contains(out, "3 scenarios (3 passed)") {
			t.Errorf("go test did not run the example's features:\n%s", out)
		}
	})
}

// quickStart returns the files of docs/godog.md's quick start: each
// fenced block after a `<!-- quickstart: name -->` line.
func quickStart(t *testing.T, doc string) map[string]string {
	t.Helper()
	files := map[string]string{}
	for _, m := range regexp.MustCompile("(?s)<!-- quickstart: (\\S+) -->\n```\\w*\n(.*?)```").FindAllStringSubmatch(doc, -1) {
		files[m[1]] = m[2]
	}
	if files["hello_test.go"] == "" || files["features/hello.feature"] == "" {
		t.Fatalf("docs/godog.md has no quick start (hello_test.go, features/hello.feature): %v", files)
	}
	return files
}

// tempModule writes files into a new module that requires ferridriver,
// replaced by the repository at root.
func tempModule(t *testing.T, root, module string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module " + module + "\n\ngo 1.25.0\n\nrequire github.com/ferridriver/ferridriver v0.0.0\n\nreplace github.com/ferridriver/ferridriver => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.sum"] = string(sum)
	testenv.WriteFiles(t, dir, files)
	return dir
}

// goCmd runs the go command in dir; requirements the module lacks are
// added from ferridriver's (-mod=mod), as `go mod tidy` would.
func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
