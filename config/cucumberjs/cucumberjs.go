// Package cucumberjs reads a cucumber-js configuration file (cucumber.js,
// .cjs, .mjs, .json, .yaml, .yml, and TypeScript forms, in the project
// directory or its config/ directory) as cucumber-js does: its profiles
// (the default export or module.exports keys, named exports of an ES
// module, a default function returning the profiles), each an options
// object or an argv string/array, merged in order with cucumber-js's rules.
//
// JavaScript files are bundled with esbuild (ES modules and CommonJS alike)
// and evaluated in a goja VM whose process.env is the real environment:
// the configuration is the project's own, as ferridriver.toml is.
//
// The result keeps cucumber-js's option names; package config maps it onto
// ferridriver's configuration.
package cucumberjs

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dop251/goja"
	"go.yaml.in/yaml/v3"

	"github.com/ferridriver/ferridriver/jsbridge"
)

// FileNames are the files cucumber-js looks for, in its order; each is
// looked for in the project directory, then in its config/ directory.
var FileNames = []string{"cucumber.js", "cucumber.cjs", "cucumber.mjs", "cucumber.json", "cucumber.yaml", "cucumber.yml"}

// extensions cucumber-js loads a configuration file with.
var extensions = []string{".json", ".yaml", ".yml", ".js", ".cjs", ".mjs", ".ts", ".cts", ".mts"}

// Locate returns the configuration file of the project in dir, relative to
// dir ("" when there is none).
func Locate(dir string) string {
	for _, sub := range []string{"", "config"} {
		for _, n := range FileNames {
			rel := filepath.Join(sub, n)
			if fi, err := os.Stat(filepath.Join(dir, rel)); err == nil && !fi.IsDir() {
				return rel
			}
		}
	}
	return ""
}

// IsConfigFile says whether path names a file cucumber-js could read as
// its configuration (by extension), so that `--config cucumber.mjs` reads
// it as one.
func IsConfigFile(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	for _, e := range extensions {
		if e == ext && (ext != ".json" && ext != ".yaml" && ext != ".yml" || strings.HasPrefix(filepath.Base(path), "cucumber")) {
			return true
		}
	}
	return false
}

// Result is a loaded configuration.
type Result struct {
	// File is the file read, relative to the project directory.
	File string
	// Profiles are the profiles merged, in order.
	Profiles []string
	// Options are the merged options with cucumber-js's names, as in its
	// configuration objects (argv profiles are parsed into that form).
	Options map[string]any
	// Env is process.env as a JavaScript file left it (dotenv called in
	// it adds to it); nil for JSON and YAML files.
	Env map[string]string
}

// Error is a configuration problem, naming the file.
type Error struct {
	File string
	Msg  string
}

func (e *Error) Error() string { return e.File + ": " + e.Msg }

// Load reads file (relative to dir) and merges the profiles (["default"]
// when none are given). env is process.env for a JavaScript file.
func Load(dir, file string, profiles []string, env map[string]string) (*Result, error) {
	rel := file
	if filepath.IsAbs(file) {
		if r, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(r, "..") {
			rel = r
		}
	}
	fail := func(format string, args ...any) error { return &Error{File: rel, Msg: fmt.Sprintf(format, args...)} }
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, file)
	}
	ext := strings.ToLower(filepath.Ext(abs))
	var defs map[string]any
	var finalEnv map[string]string
	switch ext {
	case ".json", ".yaml", ".yml":
		data, err := os.ReadFile(abs)
		if err != nil {
			return nil, fail("%v", err)
		}
		var v any
		if err := yaml.Unmarshal(data, &v); err != nil {
			return nil, fail("does not parse: %v", err)
		}
		m, ok := normalise(v).(map[string]any)
		if !ok {
			return nil, fail("does not export an object")
		}
		defs = m
	case ".js", ".cjs", ".mjs", ".ts", ".cts", ".mts":
		m, e, err := evaluate(dir, abs, commonJS(abs), env)
		if err != nil {
			return nil, fail("%v", err)
		}
		defs, finalEnv = m, e
	default:
		return nil, fail("unsupported configuration file extension %q", ext)
	}
	if _, ok := defs["default"]; !ok {
		defs["default"] = map[string]any{}
	}
	if len(profiles) == 0 {
		profiles = []string{"default"}
	}
	merged := map[string]any{}
	for _, p := range profiles {
		def, ok := defs[p]
		if !ok {
			return nil, fail("requested profile %q doesn't exist (profiles: %s)", p, strings.Join(slices.Sorted(maps.Keys(defs)), ", "))
		}
		opts, err := parseProfile(def)
		if err != nil {
			return nil, fail("profile %q: %v", p, err)
		}
		merge(merged, opts)
	}
	return &Result{File: rel, Profiles: profiles, Options: merged, Env: finalEnv}, nil
}

// commonJS says whether Node would load the file as CommonJS: .cjs/.cts,
// or .js whose nearest package.json does not say "type": "module".
func commonJS(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".cjs", ".cts":
		return true
	case ".js":
		for d := filepath.Dir(path); ; d = filepath.Dir(d) {
			if data, err := os.ReadFile(filepath.Join(d, "package.json")); err == nil {
				var pkg struct {
					Type string `json:"type"`
				}
				_ = json.Unmarshal(data, &pkg)
				return pkg.Type != "module"
			}
			if parent := filepath.Dir(d); parent == d {
				return true
			}
		}
	}
	return false
}

// evaluate bundles and runs a JavaScript configuration file and returns
// its profile definitions: module.exports for CommonJS, the module's
// exports for an ES module; a default function is called (and awaited)
// for the profiles it returns. It also returns process.env as the file
// left it.
func evaluate(dir, path string, cjs bool, env map[string]string) (map[string]any, map[string]string, error) {
	tmp, err := os.MkdirTemp("", "ferridriver-cucumber-config-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	q, _ := json.Marshal(path)
	entry := filepath.Join(tmp, "entry.mjs")
	src := fmt.Sprintf("import * as ns from %s;\nglobalThis.__ferridriverCucumberConfig = ns;\n", q)
	if err := os.WriteFile(entry, []byte(src), 0o600); err != nil {
		return nil, nil, err
	}
	b, err := jsbridge.Build(jsbridge.BundleOptions{Entries: []string{entry}, Dir: dir})
	if err != nil {
		return nil, nil, err
	}
	vm, err := jsbridge.NewVM(nil, jsbridge.VMOptions{Host: jsbridge.HostBDD, Dir: dir, Env: env})
	if err != nil {
		return nil, nil, err
	}
	defer vm.Close()
	rt := vm.Runtime()
	// process.env is writable here, as in Node: configuration files often
	// load a .env file into it (dotenv) before reading it.
	penv := rt.NewObject()
	for _, k := range slices.Sorted(maps.Keys(env)) {
		penv.Set(k, env[k])
	}
	if proc, ok := rt.Get("process").(*goja.Object); ok {
		proc.Set("env", penv)
	}
	if err := vm.Evaluate(b, "", 30*time.Second); err != nil {
		return nil, nil, err
	}
	ns := rt.GlobalObject().Get("__ferridriverCucumberConfig")
	obj, ok := ns.(*goja.Object)
	if !ok {
		return nil, nil, errors.New("does not export an object")
	}
	if cjs {
		// import * of CommonJS: module.exports is the default export.
		if d, ok := obj.Get("default").(*goja.Object); ok {
			obj = d
		}
	}
	if fn, ok := goja.AssertFunction(obj.Get("default")); ok {
		for _, k := range obj.Keys() {
			if k != "default" && k != "__esModule" {
				return nil, nil, errors.New("invalid profiles: a default function is given, so no other profile may be exported (the function returns them)")
			}
		}
		v, err := vm.Call(fn, goja.Undefined(), nil, 30*time.Second, "the default function of the configuration")
		if err != nil {
			return nil, nil, err
		}
		profiles, ok := v.(*goja.Object)
		if !ok {
			return nil, nil, errors.New("the default function must return an object of profiles")
		}
		out := rt.NewObject()
		out.Set("default", rt.NewObject())
		for _, k := range profiles.Keys() {
			out.Set(k, profiles.Get(k))
		}
		obj = out
	}
	finalEnv := map[string]string{}
	for _, k := range penv.Keys() {
		if v := penv.Get(k); v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
			finalEnv[k] = v.String()
		}
	}
	s, err := vm.JSONString(obj)
	if err != nil {
		return nil, nil, err
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil || m == nil {
		return nil, nil, errors.New("does not export an object")
	}
	delete(m, "__esModule")
	return m, finalEnv, nil
}

// normalise turns YAML's map[string]any/[]any (and ints) into JSON's forms.
func normalise(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalise(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = normalise(e)
		}
		return x
	case int:
		return float64(x)
	}
	return v
}

// parseProfile turns a profile definition into an options object: an
// object as is, a string or a list of strings as cucumber-js argv.
func parseProfile(def any) (map[string]any, error) {
	switch d := def.(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		return d, nil
	case string:
		return parseArgv(splitArgv(d))
	case []any:
		args := make([]string, len(d))
		for i, a := range d {
			s, ok := a.(string)
			if !ok {
				return nil, fmt.Errorf("argv item %d is not a string", i)
			}
			args[i] = s
		}
		return parseArgv(args)
	}
	return nil, fmt.Errorf("expected an object, a string or a list of strings, got %T", def)
}

// additive are the options whose lists profiles add to; tagExpressions are
// joined with "and" (cucumber-js's mergeConfigurations).
var (
	additive       = map[string]bool{"format": true, "import": true, "loader": true, "name": true, "paths": true, "require": true, "requireModule": true}
	tagExpressions = map[string]bool{"tags": true, "retryTagFilter": true}
)

// merge merges src into dst as cucumber-js merges profiles (lodash
// mergeWith): objects deeply, additive lists concatenated, tag expressions
// joined with "and", anything else replaced.
func merge(dst, src map[string]any) {
	for k, v := range src {
		old, exists := dst[k]
		switch {
		case !exists || old == nil:
			dst[k] = v
		case additive[k]:
			dst[k] = append(toList(old), toList(v)...)
		case tagExpressions[k]:
			a, _ := old.(string)
			b, _ := v.(string)
			switch {
			case a == "":
				dst[k] = b
			case b == "":
				dst[k] = a
			default:
				dst[k] = wrapTags(a) + " and " + wrapTags(b)
			}
		default:
			om, ok1 := old.(map[string]any)
			vm, ok2 := v.(map[string]any)
			if ok1 && ok2 {
				cp := map[string]any{}
				for kk, vv := range om {
					cp[kk] = vv
				}
				merge(cp, vm)
				dst[k] = cp
			} else {
				dst[k] = v
			}
		}
	}
}

func wrapTags(s string) string {
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		return s
	}
	return "(" + s + ")"
}

func toList(v any) []any {
	switch x := v.(type) {
	case []any:
		return append([]any{}, x...)
	case nil:
		return nil
	}
	return []any{v}
}
