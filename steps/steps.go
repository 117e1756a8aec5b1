// Package steps is ferridriver's built-in step library: Gherkin steps for
// the browser and for HTTP APIs that a QA team uses without writing code.
//
// The steps are TypeScript written against ferridriver's public JS API
// (@cucumber/cucumber, @playwright/test, ferridriver), compiled into the
// binary. `ferridriver bdd` bundles them before the project's own step
// files unless [test] builtinSteps = false; a project step matching the
// same text wins over a built-in one. docs/steps.md lists every step and
// docs/steps-guide.md explains them.
//
// The project's data ([steps] values and the page-object files) is
// compiled into the bundle as the library's project.ts, and the project's
// own code imports the library's API as "ferridriver/steps".
package steps

import (
	"embed"
	"encoding/json"
	"fmt"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/steps/pages"

	// The library's XML steps import "ferridriver/xml", which it registers.
	_ "github.com/ferridriver/ferridriver/steps/xmldoc"
)

//go:embed *.ts
var files embed.FS

// Module is the import specifier of the library's API for project code.
const Module = "ferridriver/steps"

// Library returns the library for jsbridge.BundleOptions, with no project
// data. Its files are "ferridriver:steps/<file>.ts" in stack traces and
// source references.
func Library() *jsbridge.Library {
	return &jsbridge.Library{Name: "steps", FS: files, Entries: []string{"index.ts"}, Module: Module}
}

// ForProject returns the library with the project's [steps] data
// compiled in: values, looked up by `$name` when the scenario has not
// remembered name ([steps.values]), and the page-object files that
// patterns match (globs relative to dir; nil means pages.DefaultPatterns).
// Errors name the file and the line.
func ForProject(dir string, patterns []string, values map[string]any) (*jsbridge.Library, error) {
	if patterns == nil {
		patterns = pages.DefaultPatterns
	}
	ps, err := pages.Load(dir, patterns)
	if err != nil {
		return nil, err
	}
	if values == nil {
		values = map[string]any{}
	}
	if ps == nil {
		ps = []pages.Page{}
	}
	v, err := json.Marshal(values)
	if err != nil {
		return nil, fmt.Errorf("[steps] values: %w", err)
	}
	pj, err := json.Marshal(ps)
	if err != nil {
		return nil, err
	}
	lib := Library()
	lib.Files = map[string]string{"project.ts": fmt.Sprintf(
		"// Generated from the project's [steps] configuration.\nimport type { PageFile } from './pages'\nexport const values: Record<string, unknown> = %s\nexport const pageFiles: PageFile[] = %s\n", v, pj)}
	return lib, nil
}
