package jsbridge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestResolveModule: Node's resolution of a require() request.
func TestResolveModule(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"src/a.js":                               "",
		"src/data.json":                          "{}",
		"src/dir/index.js":                       "",
		"src/withmain/package.json":              `{"main": "lib/entry"}`,
		"src/withmain/lib/entry.js":              "",
		"node_modules/plain/package.json":        `{"main": "./main.js"}`,
		"node_modules/plain/main.js":             "",
		"node_modules/plain/extra.js":            "",
		"node_modules/noindex/index.js":          "",
		"node_modules/@scope/pkg/package.json":   `{"exports": "./dist/index.cjs"}`,
		"node_modules/@scope/pkg/dist/index.cjs": "",
		"node_modules/cond/package.json":         `{"exports": {".": {"import": "./esm.mjs", "require": "./cjs.js"}, "./feature": {"node": "./feature-node.js", "default": "./feature.js"}, "./sub/*": "./lib/*.js", "./package.json": "./package.json"}}`,
		"node_modules/cond/cjs.js":               "",
		"node_modules/cond/esm.mjs":              "",
		"node_modules/cond/feature-node.js":      "",
		"node_modules/cond/feature.js":           "",
		"node_modules/cond/lib/x.js":             "",
		"node_modules/cond/hidden.js":            "",
		"src/node_modules/plain/package.json":    `{"main": "near.js"}`,
		"src/node_modules/plain/near.js":         "",
	})
	from := filepath.Join(dir, "src")
	for _, tc := range []struct{ request, want, err string }{
		{"./a", "src/a.js", ""},
		{"./a.js", "src/a.js", ""},
		{"./data", "src/data.json", ""},
		{"./dir", "src/dir/index.js", ""},
		{"./withmain", "src/withmain/lib/entry.js", ""},
		{"../node_modules/plain/extra", "node_modules/plain/extra.js", ""},
		{"plain", "src/node_modules/plain/near.js", ""}, // the nearest node_modules wins
		{"noindex", "node_modules/noindex/index.js", ""},
		{"@scope/pkg", "node_modules/@scope/pkg/dist/index.cjs", ""},
		{"cond", "node_modules/cond/cjs.js", ""},
		{"cond/feature", "node_modules/cond/feature-node.js", ""},
		{"cond/sub/x", "node_modules/cond/lib/x.js", ""},
		{"cond/package.json", "node_modules/cond/package.json", ""},
		{"cond/hidden.js", "", `package subpath './hidden.js' is not defined by "exports"`},
		{"./nope", "", "file does not exist"},
		{"nope", "", "file does not exist"},
	} {
		got, err := resolveModule(tc.request, from)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %q, %v; want error %q", tc.request, got, err, tc.err)
			}
			continue
		}
		real, _ := filepath.EvalSymlinks(dir)
		if err != nil || got != filepath.Join(real, filepath.FromSlash(tc.want)) {
			t.Errorf("%s: %q, %v; want %s", tc.request, got, err, tc.want)
		}
	}
}

// TestModuleLoader: require.resolve, require(variable), createRequire and
// new Module()._compile from bundled code, in the bdd host; not in the
// others.
func TestModuleLoader(t *testing.T) {
	files := map[string]string{
		"entry.js": `const Module = require('module')
const fs = require('fs')
const name = 'dep'
globalThis.results = {
  resolved: require('path').relative(process.cwd(), require.resolve('dep')),
  dynamic: require(name).value,
  json: Module.createRequire(__filename)('./data.json').n,
  cacheIsObject: typeof require.cache,
  compiled: (() => { const m = new Module('x'); m._compile(fs.readFileSync(require.resolve('dep'), 'utf8').replace('42', '43'), __filename); return m.exports.value })(),
  builtin: require.resolve('fs'),
}
`,
		"data.json":                     `{"n": 7}`,
		"esm.mjs":                       "export default 1\n",
		"node_modules/dep/package.json": `{"main": "dep.js"}`,
		"node_modules/dep/dep.js":       "exports.value = 42\n",
	}
	vm, _ := newTestVM(t, HostBDD, files, VMOptions{})
	if got := mustEval(t, vm, `return JSON.stringify(results)`); got != `{"resolved":"node_modules/dep/dep.js","dynamic":42,"json":7,"cacheIsObject":"object","compiled":43,"builtin":"fs"}` {
		t.Errorf("results: %s", got)
	}
	if got := mustEval(t, vm, `try { require.resolve('missing') } catch (e) { return e.code + ': ' + e.message }`); !strings.HasPrefix(got, "MODULE_NOT_FOUND: Cannot find module 'missing'") {
		t.Errorf("missing: %s", got)
	}
	if got := mustEval(t, vm, `const n = './esm.mjs'; try { require(n) } catch (e) { return e.code + ': ' + e.message }`); !strings.HasPrefix(got, "ERR_REQUIRE_ESM: require() of ES Module esm.mjs is not supported") {
		t.Errorf("ES module: %s", got)
	}
	script, _ := newTestVM(t, HostScript, map[string]string{"entry.js": ""}, VMOptions{})
	if got := mustEval(t, script, `try { require('./x') } catch (e) { return e.message }`); !strings.Contains(got, "scripts are not bundled") {
		t.Errorf("script host: %s", got)
	}
	if got := mustEval(t, script, `try { require.resolve('./x') } catch (e) { return e.message }`); !strings.Contains(got, "require.resolve: reading") || !strings.Contains(got, "is not allowed: it is outside the folders [scripting.allow.fs] read grants (none)") {
		t.Errorf("script host: %s", got)
	}
}
