package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Every form of cucumber-js configuration file and profile is read into
// the [test] keys.
func TestCucumberConfigForms(t *testing.T) {
	type want struct {
		file     string
		features []string
		steps    []string
		tags     []string
		parallel int
		wp       map[string]any
	}
	env := map[string]string{"APP_URL": "http://env"}
	for _, tc := range []struct {
		name     string
		files    map[string]string
		profiles []string
		want     want
		file     string // --config; "" to locate it
	}{
		{"json default", map[string]string{"cucumber.json": `{"default": {"paths": ["f/**/*.feature"], "require": ["s/*.js"], "parallel": 2}}`}, nil,
			want{file: "cucumber.json", features: []string{"f/**/*.feature"}, steps: []string{"s/*.js"}, parallel: 2}, ""},
		{"yaml profile", map[string]string{"cucumber.yaml": "default:\n  parallel: 1\nci:\n  tags: '@ci'\n  import: [s/*.mjs]\n"}, []string{"ci"},
			want{file: "cucumber.yaml", steps: []string{"s/*.mjs"}, tags: []string{"@ci"}}, ""},
		{"yml in config/", map[string]string{"config/cucumber.yml": "default:\n  parallel: 3\n"}, nil,
			want{file: "config/cucumber.yml", parallel: 3}, ""},
		{"commonjs with process.env", map[string]string{"cucumber.js": "module.exports = { default: { worldParameters: { url: process.env.APP_URL } } }\n"}, nil,
			want{file: "cucumber.js", wp: map[string]any{"url": "http://env"}}, ""},
		{"process.env is writable, as dotenv needs", map[string]string{"cucumber.mjs": "process.env.FROM_DOTENV = 'loaded'\nexport default { worldParameters: { v: process.env.FROM_DOTENV, u: process.env.APP_URL } }\n"}, nil,
			want{file: "cucumber.mjs", wp: map[string]any{"v": "loaded", "u": "http://env"}}, ""},
		{"cjs requiring a builtin", map[string]string{"cucumber.cjs": "const path = require('node:path')\nmodule.exports = { default: { paths: [path.join('a', 'b.feature')] } }\n"}, nil,
			want{file: "cucumber.cjs", features: []string{"a/b.feature"}}, ""},
		{"esm named profiles", map[string]string{"cucumber.mjs": "export default { parallel: 1 }\nexport const ci = { parallel: 4, tags: '@ci' }\n"}, []string{"ci"},
			want{file: "cucumber.mjs", parallel: 4, tags: []string{"@ci"}}, ""},
		{".js in a module package", map[string]string{"package.json": `{"type":"module"}`, "cucumber.js": "export default { parallel: 5 }\n"}, nil,
			want{file: "cucumber.js", parallel: 5}, ""},
		{"typescript, given with --config", map[string]string{"cucumber.ts": "const n: number = 6\nexport default { parallel: n }\n"}, nil,
			want{file: "cucumber.ts", parallel: 6}, "cucumber.ts"},
		{"argv string profile", map[string]string{"cucumber.js": "module.exports = { default: '--require s/*.js --tags \"@a or @b\" --parallel 2 features/x.feature' }\n"}, nil,
			want{file: "cucumber.js", features: []string{"features/x.feature"}, steps: []string{"s/*.js"}, tags: []string{"@a or @b"}, parallel: 2}, ""},
		{"argv array profile", map[string]string{"cucumber.js": "module.exports = { default: ['--import', 's/*.mjs', '--world-parameters', '{\"a\":1}'] }\n"}, nil,
			want{file: "cucumber.js", steps: []string{"s/*.mjs"}, wp: map[string]any{"a": float64(1)}}, ""},
		{"default function", map[string]string{"cucumber.mjs": "export default async function () { return { ci: { parallel: 7 } } }\n"}, []string{"ci"},
			want{file: "cucumber.mjs", parallel: 7}, ""},
		{"default function, default profile", map[string]string{"cucumber.cjs": "module.exports = { default: () => ({ default: { parallel: 8 } }) }\n"}, nil,
			want{file: "cucumber.cjs", parallel: 8}, ""},
		{"profiles merged in order", map[string]string{"cucumber.mjs": `export default {}
export const a = { tags: '@a', require: ['a/*.js'], worldParameters: { x: { y: 1, z: 1 } }, parallel: 1 }
export const b = { tags: '(@b)', require: ['b/*.js'], worldParameters: { x: { z: 2 } }, parallel: 2 }
`}, []string{"a", "b"},
			want{file: "cucumber.mjs", steps: []string{"a/*.js", "b/*.js"}, tags: []string{"(@a) and (@b)"}, parallel: 2, wp: map[string]any{"x": map[string]any{"y": float64(1), "z": float64(2)}}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, tc.files)
			cfg, err := LoadWith(dir, tc.file, LoadOptions{Profiles: tc.profiles, Env: env})
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Cucumber == nil || filepath.ToSlash(cfg.Cucumber.File) != tc.want.file {
				t.Fatalf("cucumber config %+v, want %s", cfg.Cucumber, tc.want.file)
			}
			tt := cfg.Test
			if !reflect.DeepEqual(tt.Features, tc.want.features) || !reflect.DeepEqual(tt.Steps, tc.want.steps) ||
				!reflect.DeepEqual([]string(tt.Tags), tc.want.tags) || tt.Parallel != tc.want.parallel || !reflect.DeepEqual(tt.WorldParameters, tc.want.wp) {
				t.Fatalf("got features %q steps %q tags %q parallel %d wp %v", tt.Features, tt.Steps, tt.Tags, tt.Parallel, tt.WorldParameters)
			}
		})
	}
}

// The format list's items: a name, "name:path", or [name, path], whose
// parts may hold colons (a custom formatter's file: URL).
func TestCucumberConfigFormats(t *testing.T) {
	dir := writeFiles(t, map[string]string{"cucumber.json": `{"default": {"format": ["progress", "json:r.json", ["./reporter.js", "out.txt"], ["file:///abs/reporter.js", "out.txt"]]}}`})
	cfg, err := LoadWith(dir, "", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := StringList{"progress", "json:r.json", "./reporter.js:out.txt", `"file:///abs/reporter.js":"out.txt"`}
	if !reflect.DeepEqual(cfg.Test.Format, want) {
		t.Fatalf("format %q, want %q", cfg.Test.Format, want)
	}
}

// ferridriver.toml and FERRIDRIVER_* win over the cucumber-js configuration,
// which wins over the defaults; Sources says which gave each key.
func TestCucumberConfigPrecedence(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"cucumber.json":    `{"default": {"parallel": 2, "retry": 2, "tags": "@cj", "dryRun": true, "format": [["json", "r.json"]], "publish": true, "strict": false, "failFast": false, "requireModule": ["ts-node/register"]}}`,
		"ferridriver.toml": "[test]\nparallel = 3\n",
	})
	t.Setenv("FERRIDRIVER_TEST_RETRY", "1")
	cfg, err := LoadWith(dir, "", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tt := cfg.Test
	if tt.Parallel != 3 || tt.Retry != 1 || !reflect.DeepEqual([]string(tt.Tags), []string{"@cj"}) || !tt.DryRun || !reflect.DeepEqual([]string(tt.Format), []string{"json:r.json"}) {
		t.Fatalf("%+v", tt)
	}
	if cfg.Test.StrictOrDefault() {
		t.Error("strict: false in the cucumber-js configuration was not applied")
	}
	for key, want := range map[string]string{"strict": SourceCucumber, "parallel": SourceFile, "retry": SourceEnv, "tags": SourceCucumber, "dryRun": SourceCucumber, "order": SourceDefault} {
		if got := cfg.Sources[key]; got != want {
			t.Errorf("source of %s = %q, want %q", key, got, want)
		}
	}
	notes := strings.Join(cfg.Cucumber.Notes, "\n")
	if !strings.Contains(notes, "publish is ignored") || !strings.Contains(notes, "requireModule is ignored") {
		t.Errorf("notes %q", notes)
	}
}

// Bad cucumber-js configuration stops with the file and the problem.
func TestCucumberConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		files    map[string]string
		file     string
		profiles []string
		want     string
	}{
		{"missing profile", map[string]string{"cucumber.json": `{"default": {}}`}, "", []string{"ci"}, `cucumber.json: requested profile "ci" doesn't exist`},
		{"no config for a profile", nil, "", []string{"ci"}, `--profile: no cucumber-js configuration file`},
		{"wrong type", map[string]string{"cucumber.json": `{"default": {"parallel": "two"}}`}, "", nil, `cucumber.json: parallel: expected a non-negative integer, got a string ("two")`},
		{"throws", map[string]string{"cucumber.js": "throw new Error('no config for you')\n"}, "", nil, "no config for you"},
		{"function and profiles", map[string]string{"cucumber.mjs": "export default () => ({})\nexport const ci = {}\n"}, "", nil, "no other profile"},
		{"unknown argv option", map[string]string{"cucumber.js": "module.exports = { default: '--frobnicate' }\n"}, "", nil, `unknown option "--frobnicate"`},
		{"bad yaml", map[string]string{"cucumber.yaml": "default: [\n"}, "", nil, "cucumber.yaml: does not parse"},
		{"explicit file", map[string]string{"conf/my.cucumber.mjs": "export default { retry: -1 }\n"}, "conf/my.cucumber.mjs", nil, "retry: expected a non-negative integer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, tc.files)
			_, err := LoadWith(dir, tc.file, LoadOptions{Profiles: tc.profiles, Env: map[string]string{}})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestSourceOf(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ferridriver.toml": "extensions = [\"ext\"]\n[browser]\nheadless = false\n[browser.viewport]\nwidth = 800\nheight = 600\n",
		"cucumber.json":    `{"default": {"parallel": 2}}`,
	})
	t.Setenv("FERRIDRIVER_BROWSER_SLOWMO", "5")
	cfg, err := LoadWith(dir, "", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{
		"extensions": SourceFile, "browser.headless": SourceFile, "browser.viewport.width": SourceFile,
		"browser.slowMo": SourceEnv, "browser.channel": SourceDefault, "test.parallel": SourceCucumber, "test.retry": SourceDefault,
	} {
		if got := cfg.SourceOf(key); got != want {
			t.Errorf("SourceOf(%s) = %q, want %q", key, got, want)
		}
	}
}
