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
		// jsbridge/capability, the sandbox's path and network policy in
		// plain Go, comes with the World's browser-API checks.
		linked := regexp.MustCompile(`(?m)^(\S*(goja|esbuild|viper|jsonschema|fsnotify)\S*|\S*ferridriver/(config|runner|jsbridge))$`).FindAllString(deps, -1)
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

	// The weight target: a suite against a site served elsewhere (BaseURL)
	// with godogworld's core, within 20% of the same suite driving the page
	// with godog and playwright-go alone. (The quick start's httptest
	// server links net/http and TLS into both.)
	t.Run("weight", func(t *testing.T) {
		size := func(module, src string) int64 {
			dir := tempModule(t, root, module, map[string]string{"suite_test.go": src})
			goCmd(t, dir, "test", "-c", "-o", "suite.test", ".")
			fi, err := os.Stat(filepath.Join(dir, "suite.test"))
			if err != nil {
				t.Fatal(err)
			}
			return fi.Size()
		}
		ours, theirs := size("example.com/ours", godogworldSuite), size("example.com/baseline", baselineSuite)
		t.Logf("test binary: %d bytes, godog + playwright-go alone %d (%.2fx)", ours, theirs, float64(ours)/float64(theirs))
		if float64(ours) > 1.2*float64(theirs) {
			t.Errorf("a godogworld suite's test binary is %d bytes, more than 1.2x godog + playwright-go's %d", ours, theirs)
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

// godogworldSuite and baselineSuite are one suite (godog's flags, a page
// opened and a text checked) on godogworld's core and on playwright-go
// alone: the weight a Go team pays before adding ferridriver.
const godogworldSuite = `package ours

import (
	"context"
	"flag"
	"os"
	"testing"

	"github.com/cucumber/godog"
	"github.com/cucumber/godog/colors"
	"github.com/ferridriver/ferridriver/godogworld"
	"github.com/ferridriver/ferridriver/world"
)

var godogOpts = godog.Options{Output: colors.Colored(os.Stdout), Format: "pretty", Paths: []string{"features"}}

func init() { godog.BindFlags("godog.", flag.CommandLine, &godogOpts) }

func TestFeatures(t *testing.T) {
	fd, err := godogworld.New(godogworld.Options{Browser: world.Config{BaseURL: os.Getenv("BASE_URL")}})
	if err != nil {
		t.Fatal(err)
	}
	opts := godogOpts
	opts.TestingT = t
	godog.TestSuite{
		TestSuiteInitializer: fd.TestSuiteInitializer(nil),
		ScenarioInitializer: fd.ScenarioInitializer(func(sc *godog.ScenarioContext) {
			sc.Step(` + "`^I open (.+)$`" + `, func(ctx context.Context, path string) error {
				_, err := godogworld.MustFromContext(ctx).Page.Goto(path)
				return err
			})
			sc.Step(` + "`^I see (.+)$`" + `, func(ctx context.Context, text string) error {
				w := godogworld.MustFromContext(ctx)
				return w.Expect.Locator(w.Page.GetByText(text)).ToBeVisible()
			})
		}),
		Options: &opts,
	}.Run()
}
`

const baselineSuite = `package baseline

import (
	"flag"
	"os"
	"testing"

	"github.com/cucumber/godog"
	"github.com/cucumber/godog/colors"
	"github.com/playwright-community/playwright-go"
)

var godogOpts = godog.Options{Output: colors.Colored(os.Stdout), Format: "pretty", Paths: []string{"features"}}

func init() { godog.BindFlags("godog.", flag.CommandLine, &godogOpts) }

func TestFeatures(t *testing.T) {
	var page playwright.Page
	opts := godogOpts
	opts.TestingT = t
	godog.TestSuite{
		TestSuiteInitializer: func(ts *godog.TestSuiteContext) {
			ts.BeforeSuite(func() {
				pw, err := playwright.Run(&playwright.RunOptions{SkipInstallBrowsers: true})
				if err != nil {
					t.Fatal(err)
				}
				b, err := pw.Chromium.Launch()
				if err != nil {
					t.Fatal(err)
				}
				if page, err = b.NewPage(); err != nil {
					t.Fatal(err)
				}
			})
		},
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			sc.Step(` + "`^I open (.+)$`" + `, func(path string) error {
				_, err := page.Goto(os.Getenv("BASE_URL") + path)
				return err
			})
			sc.Step(` + "`^I see (.+)$`" + `, func(text string) error {
				return playwright.NewPlaywrightAssertions().Locator(page.GetByText(text)).ToBeVisible()
			})
		},
		Options: &opts,
	}.Run()
}
`

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
