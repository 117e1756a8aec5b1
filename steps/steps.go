// Package steps is ferridriver's built-in step library: Gherkin steps for
// the browser and for HTTP APIs that a QA team uses without writing code.
//
// The steps are TypeScript written against ferridriver's public JS API
// (@cucumber/cucumber, @playwright/test, ferridriver), compiled into the
// binary. `ferridriver bdd` bundles them before the project's own step
// files unless [test] builtinSteps = false; a project step matching the
// same text wins over a built-in one. docs/steps.md lists every step.
package steps

import (
	"embed"

	"github.com/ferridriver/ferridriver/jsbridge"
)

//go:embed *.ts
var files embed.FS

// Library returns the library for jsbridge.BundleOptions. Its files are
// "ferridriver:steps/<file>.ts" in stack traces and source references.
func Library() *jsbridge.Library {
	return &jsbridge.Library{Name: "steps", FS: files, Entries: []string{"index.ts"}}
}
