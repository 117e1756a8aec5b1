// Package scaffold holds the files `ferridriver init` writes: a
// ferridriver.toml; a first feature of built-in steps only, with the page
// objects it names (pages/login.yaml); a feature with TypeScript steps and
// a typed World; a tsconfig.json and the .d.ts declarations of the modules
// step files import (@cucumber/cucumber, @playwright/test, ferridriver),
// so that an editor completes `this.page.` and `expect(...)` with no npm
// install; and the editor settings (.vscode/) that make the Cucumber
// extension complete the built-in steps too.
package scaffold

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

//go:embed all:template
var template embed.FS

// DefaultDemoServerCommand starts the demo app the example feature tests.
const DefaultDemoServerCommand = "ferridriver"

// Options shape the files.
type Options struct {
	// Ferridriver is how the generated [[webServer]] command invokes
	// ferridriver (default "ferridriver", i.e. found on PATH). It is
	// inserted into a shell command line, so quote it if needed
	// (QuoteShell).
	Ferridriver string
	// Types adds or replaces declaration files, keyed by their path in the
	// project (e.g. "types/playwright.d.ts"), over those registered with
	// RegisterTypes.
	Types map[string]string
	// Force overwrites existing files instead of refusing.
	Force bool
	// Glue is the built-in steps as a glue file for the Cucumber language
	// server (`ferridriver steps --glue`), written to GluePath, which the
	// scaffold's .vscode/settings.json names; none when empty.
	Glue string
}

// GluePath is where the scaffold puts the glue file of Options.Glue.
const GluePath = ".vscode/ferridriver-steps.ts"

var (
	typesMu    sync.Mutex
	registered = map[string]string{}
)

// RegisterTypes adds a declaration file to every scaffold, at path (under
// types/, ending in .d.ts). A package that adds to the JS API (the browser
// bindings: @playwright/test) registers its declarations from init, as it
// registers its modules with jsbridge.RegisterModule.
func RegisterTypes(path, content string) {
	typesMu.Lock()
	defer typesMu.Unlock()
	registered[path] = content
}

// File is one file of the scaffold.
type File struct {
	Path    string // slash-separated, relative to the project directory
	Content []byte
}

// Files returns the scaffold's files, sorted by path.
func Files(opts Options) ([]File, error) {
	exe := opts.Ferridriver
	if exe == "" {
		exe = DefaultDemoServerCommand
	}
	contents := map[string][]byte{}
	err := fs.WalkDir(template, "template", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := template.ReadFile(p)
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(p, "template/")
		if rel == "ferridriver.toml" {
			b = []byte(strings.ReplaceAll(string(b), "{{demoServerCommand}}", tomlEscape(exe)))
		}
		contents[rel] = b
		return nil
	})
	if err != nil {
		return nil, err
	}
	types := map[string]string{}
	typesMu.Lock()
	for p, c := range registered {
		types[p] = c
	}
	typesMu.Unlock()
	for p, c := range opts.Types {
		types[p] = c
	}
	for p, c := range types {
		clean := path.Clean(filepath.ToSlash(p))
		if !strings.HasPrefix(clean, "types/") || !strings.HasSuffix(clean, ".d.ts") {
			return nil, fmt.Errorf("scaffold: type declarations go to types/*.d.ts, not %q", p)
		}
		contents[clean] = []byte(c)
	}
	if opts.Glue != "" {
		contents[GluePath] = []byte(opts.Glue)
	}
	files := make([]File, 0, len(contents))
	for p, c := range contents {
		files = append(files, File{Path: p, Content: c})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// ExistsError lists the files that are already there.
type ExistsError struct {
	Dir   string
	Paths []string
}

func (e *ExistsError) Error() string {
	return fmt.Sprintf("%s already has %s; nothing was written (use --force to overwrite)", e.Dir, strings.Join(e.Paths, ", "))
}

// Write writes the scaffold into dir (created if needed) and returns the
// paths it wrote. Unless opts.Force, it first checks every file and writes
// nothing at all if any already exists (*ExistsError).
func Write(dir string, opts Options) ([]string, error) {
	files, err := Files(opts)
	if err != nil {
		return nil, err
	}
	if !opts.Force {
		var exist []string
		for _, f := range files {
			if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(f.Path))); err == nil {
				exist = append(exist, f.Path)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
		}
		if len(exist) > 0 {
			return nil, &ExistsError{Dir: dir, Paths: exist}
		}
	}
	var written []string
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return written, err
		}
		if err := os.WriteFile(p, f.Content, 0o644); err != nil {
			return written, err
		}
		written = append(written, f.Path)
	}
	return written, nil
}

// QuoteShell quotes s for a POSIX shell command line when it needs it.
func QuoteShell(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@%=,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// tomlEscape escapes s for a basic (double-quoted) TOML string.
func tomlEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}
