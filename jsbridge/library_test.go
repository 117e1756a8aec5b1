package jsbridge

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// A Library is bundled before the project's entries from memory: its files
// import each other and builtin modules, its definitions are named
// "ferridriver:<name>/<file>" and carry their documentation options.
func TestLibraryIsBundledBeforeTheEntries(t *testing.T) {
	lib := &Library{Name: "steps", Entries: []string{"index.ts"}, FS: fstest.MapFS{
		"index.ts":    {Data: []byte("import './nav'\nimport { log } from './util/log'\nlog('library loaded')\n")},
		"nav.ts":      {Data: []byte("import { Given } from '@cucumber/cucumber'\n\nGiven('I open {string}', { description: 'Opens a URL.', example: ['Given I open \"/\"', 'Given I open \"/login\"'] }, function (u: string) {})\n")},
		"util/log.ts": {Data: []byte("export function log(s: string): void { console.log(s) }\n")},
		"unused.ts":   {Data: []byte("throw new Error('not an entry')\n")},
	}}
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"entry.ts": "import { Given } from '@cucumber/cucumber'\nconsole.log('project loaded')\nGiven('mine', () => {})\n"})
	b, err := Build(BundleOptions{Entries: []string{filepath.Join(dir, "entry.ts")}, Dir: dir, Library: lib})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	vm, err := NewVM(b, VMOptions{Host: HostBDD, Dir: dir, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "library loaded\nproject loaded\n" {
		t.Fatalf("load order: %q", got)
	}
	steps := vm.Registry().Steps
	if len(steps) != 2 {
		t.Fatalf("%d steps", len(steps))
	}
	lib0, mine := steps[0], steps[1]
	if lib0.Source.String() != "ferridriver:steps/nav.ts:3" || !lib0.Source.IsLibrary() {
		t.Fatalf("library step source %q", lib0.Source)
	}
	if lib0.Description != "Opens a URL." || strings.Join(lib0.Examples, "|") != `Given I open "/"|Given I open "/login"` {
		t.Fatalf("docs: %q %q", lib0.Description, lib0.Examples)
	}
	if mine.Source.String() != "entry.ts:3" || mine.Source.IsLibrary() {
		t.Fatalf("project step source %q", mine.Source)
	}
}

// Library.Files replace the library's files with generated ones, and the
// project's code imports the library under Library.Module, sharing its
// module state.
func TestLibraryFilesAndModule(t *testing.T) {
	lib := &Library{Name: "steps", Entries: []string{"index.ts"}, Module: "my/steps", FS: fstest.MapFS{
		"index.ts": {Data: []byte("import { data } from './data'\nexport const state = { data, calls: 0 }\n")},
		"data.ts":  {Data: []byte("export const data = 'on disk'\n")},
	}, Files: map[string]string{"data.ts": "export const data = 'generated'\n"}}
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"entry.ts": "import { state } from 'my/steps'\nstate.calls++\nconsole.log(state.data, state.calls)\n"})
	b, err := Build(BundleOptions{Entries: []string{filepath.Join(dir, "entry.ts")}, Dir: dir, Library: lib})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := NewVM(b, VMOptions{Host: HostBDD, Dir: dir, Stdout: &out, Stderr: &out}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "generated 1\n" {
		t.Fatalf("output %q", got)
	}
}

func TestLibraryImportOfAMissingFile(t *testing.T) {
	lib := &Library{Name: "steps", Entries: []string{"index.ts"}, FS: fstest.MapFS{"index.ts": {Data: []byte("import './missing'\n")}}}
	_, err := Build(BundleOptions{Dir: t.TempDir(), Library: lib})
	if err == nil || !strings.Contains(err.Error(), "ferridriver:steps/missing: no such file in the library") {
		t.Fatalf("error: %v", err)
	}
}

// Step documentation options are checked.
func TestStepDocumentationOptions(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`Given('a', { description: 1 }, () => {})`, "description must be a string"},
		{`Given('a', { example: [1] }, () => {})`, "example must be a string or a list of strings"},
	} {
		dir := t.TempDir()
		testenv.WriteFiles(t, dir, map[string]string{"entry.js": "import { Given } from '@cucumber/cucumber'\n" + tc.src})
		b, err := Build(BundleOptions{Entries: []string{filepath.Join(dir, "entry.js")}, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewVM(b, VMOptions{Host: HostBDD, Dir: dir}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("%s: %v", tc.src, err)
		}
	}
}
