package jsbridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"

	"github.com/ferridriver/ferridriver/internal/gojacompat"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// Step files and their packages are bundled, so their import statements
// and require("literal") calls are resolved when they are bundled. What
// CommonJS packages do at run time besides (require.resolve to find a
// dependency's file, require(variable), new Module()._compile(source) of a
// file they read and patched, createRequire) is served by a small Node
// module loader: node/module.js in JavaScript over the Go half below,
// which resolves a request as Node does (files, directories, node_modules,
// package.json main and exports), reads files (the bdd host's fs
// capability) and compiles CommonJS sources. A module loaded so is a copy
// of its own, apart from the bundle's.

// moduleBinding is node/module.js's binding.
func (vm *VM) moduleBinding() *goja.Object {
	rt := vm.rt
	b := rt.NewObject()
	names := make([]any, 0, len(nodeCoreModules))
	for _, n := range sortedKeys(nodeCoreModules) {
		names = append(names, n)
	}
	b.Set("builtins", rt.NewArray(names...))
	b.Set("cwd", vm.dir)
	b.Set("resolve", func(request, fromDir string) string {
		// Resolving looks at files: only in folders the running code may
		// read (VM.CheckPath).
		if _, err := vm.CheckPath(fromDir, capability.FSRead); err != nil {
			panic(vm.AccessDenied("require.resolve", err))
		}
		p, err := resolveModule(request, fromDir)
		if err != nil {
			panic(vm.moduleNotFound(request, fromDir, err))
		}
		if _, err := vm.CheckPath(p, capability.FSRead); err != nil {
			panic(vm.AccessDenied("require.resolve", err))
		}
		return p
	})
	b.Set("nodeModulePaths", func(dir string) []string { return nodeModulePaths(dir) })
	b.Set("read", func(path string) string {
		checked, err := vm.CheckPath(path, capability.FSRead)
		if err != nil {
			panic(vm.AccessDenied("fs.readFileSync", err))
		}
		data, err := os.ReadFile(checked)
		if err != nil {
			vm.Throw(err)
		}
		return string(data)
	})
	b.Set("compile", func(src, filename string) goja.Value {
		fn, err := vm.compileCommonJS(src, filename)
		if err != nil {
			panic(vm.rt.NewGoError(err))
		}
		return fn
	})
	// callerFile is the file whose code called require (through the
	// bundle's source map): what a package's require.resolve("dep")
	// resolves from.
	b.Set("callerFile", func() string { return vm.callerFile() })
	b.Set("rel", func(p string) string { return slashRel(vm.dir, p) })
	return b
}

// moduleLoader returns node:module's Module (the loader).
func (vm *VM) moduleLoader() *goja.Object {
	m, err := vm.require("node:module")
	if err != nil {
		panic(vm.rt.NewGoError(err))
	}
	return m.(*goja.Object)
}

// runtimeRequire loads a request that is not a builtin module from the
// calling file, as Node's require would.
func (vm *VM) runtimeRequire(request goja.Value) goja.Value {
	load, _ := goja.AssertFunction(vm.moduleLoader().Get("__ferridriverLoad"))
	v, err := load(goja.Undefined(), request)
	if err != nil {
		panic(err)
	}
	return v
}

// lazyRequireMembers gives the global require its resolve, cache, main
// and extensions, installed from node:module the first time one is read
// (most runs never read them).
func (vm *VM) lazyRequireMembers(req *goja.Object) {
	rt := vm.rt
	install := func() {
		for _, k := range []string{"resolve", "cache", "main", "extensions"} {
			req.Delete(k)
		}
		fn, _ := goja.AssertFunction(vm.moduleLoader().Get("__ferridriverInstall"))
		if _, err := fn(goja.Undefined(), req); err != nil {
			panic(err)
		}
	}
	for _, k := range []string{"resolve", "cache", "main", "extensions"} {
		name := k
		req.DefineAccessorProperty(name, rt.ToValue(func(goja.FunctionCall) goja.Value {
			install()
			return req.Get(name)
		}), rt.ToValue(func(call goja.FunctionCall) goja.Value {
			install()
			req.Set(name, call.Argument(0))
			return goja.Undefined()
		}), goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
}

// moduleNotFound is Node's MODULE_NOT_FOUND error (node/module.js adds
// the require stack).
func (vm *VM) moduleNotFound(request, fromDir string, cause error) goja.Value {
	msg := fmt.Sprintf("Cannot find module '%s'", request)
	if cause != nil && !errors.Is(cause, os.ErrNotExist) {
		msg += ": " + cause.Error()
	}
	return vm.newError("Error", msg, "MODULE_NOT_FOUND")
}

func slashRel(dir, p string) string {
	if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return p
}

// callerFile returns the file of the first frame of user or package code
// on the stack, as an absolute path ("" when there is none).
func (vm *VM) callerFile() string {
	src := vm.callerSource()
	if src.URI == "" || src.IsLibrary() {
		return ""
	}
	p := filepath.FromSlash(src.URI)
	if !filepath.IsAbs(p) {
		p = filepath.Join(vm.dir, p)
	}
	return p
}

// compileCommonJS compiles a CommonJS module's source as Node wraps it,
// a function (exports, require, module, __filename, __dirname), its
// positions those of filename. Syntax goja lacks is lowered by esbuild
// first, with a source map that keeps the positions.
func (vm *VM) compileCommonJS(src, filename string) (goja.Value, error) {
	if strings.HasPrefix(src, "#!") {
		// A shebang line stays a line, so positions do not move.
		src = "//" + src[2:]
	}
	const head = "(function (exports, require, module, __filename, __dirname) { "
	prg, err := goja.Compile(filename, head+gojacompat.Rewrite(src)+"\n})", false)
	if err != nil {
		res := api.Transform(src, api.TransformOptions{
			Loader:     api.LoaderJS,
			Target:     api.ES2022,
			Supported:  map[string]bool{"async-generator": false, "for-await": false, "regexp-match-indices": false},
			Sourcemap:  api.SourceMapInline,
			Sourcefile: filename,
			LogLevel:   api.LogLevelSilent,
		})
		if len(res.Errors) > 0 {
			return nil, fmt.Errorf("%s: %s", slashRel(vm.dir, filename), formatMessages(res.Errors, vm.dir)[0])
		}
		var err2 error
		prg, err2 = goja.Compile(filename, head+gojacompat.Rewrite(string(res.Code))+"\n})", false)
		if err2 != nil {
			return nil, fmt.Errorf("%s: %w", slashRel(vm.dir, filename), err)
		}
	}
	return vm.rt.RunProgram(prg)
}

// nodeModulePaths lists the node_modules directories Node looks in from
// dir, nearest first (Module._nodeModulePaths).
func nodeModulePaths(dir string) []string {
	var out []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if filepath.Base(d) != "node_modules" {
			out = append(out, filepath.Join(d, "node_modules"))
		}
		if parent := filepath.Dir(d); parent == d {
			return out
		}
	}
}

// resolveModule resolves a CommonJS request from the directory fromDir as
// Node's require.resolve does: a relative or absolute path as a file
// (exact, .js, .json, .cjs... as Node tries them) or a directory
// (package.json main, index.js), a bare name through the node_modules
// directories (package.json exports with the require, node and default
// conditions, else main). The result is the real path.
func resolveModule(request, fromDir string) (string, error) {
	if request == "" {
		return "", errors.New("the request is empty")
	}
	var p string
	var ok bool
	switch {
	case filepath.IsAbs(request):
		p, ok = loadFileOrDir(request)
	case request == "." || request == ".." || strings.HasPrefix(request, "./") || strings.HasPrefix(request, "../"):
		p, ok = loadFileOrDir(filepath.Join(fromDir, request))
	default:
		name, sub := splitPackage(request)
		for _, nm := range nodeModulePaths(fromDir) {
			pkgDir := filepath.Join(nm, name)
			if fi, err := os.Stat(pkgDir); err != nil || !fi.IsDir() {
				if p, ok = loadFileOrDir(filepath.Join(nm, request)); ok {
					break
				}
				continue
			}
			if exp, found, err := packageExports(pkgDir, sub); found {
				if err != nil {
					return "", err
				}
				p, ok = exp, true
				break
			}
			if p, ok = loadFileOrDir(filepath.Join(nm, request)); ok {
				break
			}
		}
	}
	if !ok {
		return "", os.ErrNotExist
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return p, nil
}

// splitPackage splits "@scope/name/sub/path" into "@scope/name" and
// "./sub/path" ("." for the package itself).
func splitPackage(request string) (name, sub string) {
	parts := strings.SplitN(request, "/", 3)
	n := 1
	if strings.HasPrefix(request, "@") && len(parts) > 1 {
		n = 2
	}
	name = strings.Join(parts[:min(n, len(parts))], "/")
	sub = "."
	if rest := strings.TrimPrefix(request, name); rest != "" {
		sub = "." + rest
	}
	return name, sub
}

// moduleExtensions are what Node appends to a path that is not a file.
var moduleExtensions = []string{".js", ".json", ".node", ".cjs"}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

func loadFileOrDir(p string) (string, bool) {
	if isFile(p) {
		return p, true
	}
	for _, ext := range moduleExtensions {
		if isFile(p + ext) {
			return p + ext, true
		}
	}
	if data, err := os.ReadFile(filepath.Join(p, "package.json")); err == nil {
		var pkg struct {
			Main string `json:"main"`
		}
		if json.Unmarshal(data, &pkg) == nil && pkg.Main != "" {
			m := filepath.Join(p, pkg.Main)
			if f, ok := loadFileOrDir(m); ok {
				return f, true
			}
		}
	}
	for _, ext := range moduleExtensions {
		if f := filepath.Join(p, "index"+ext); isFile(f) {
			return f, true
		}
	}
	return "", false
}

// requireConditions are the package.json exports conditions of require().
var requireConditions = map[string]bool{"require": true, "node": true, "default": true}

// packageExports resolves sub ("." or "./x") through the package.json
// exports of the package in dir; found is false when it has none.
func packageExports(dir, sub string) (path string, found bool, err error) {
	data, rerr := os.ReadFile(filepath.Join(dir, "package.json"))
	if rerr != nil {
		return "", false, nil
	}
	var pkg struct {
		Exports json.RawMessage `json:"exports"`
	}
	if json.Unmarshal(data, &pkg) != nil || len(pkg.Exports) == 0 || string(pkg.Exports) == "null" {
		return "", false, nil
	}
	exports, err := decodeOrdered(json.NewDecoder(strings.NewReader(string(pkg.Exports))))
	if err != nil {
		return "", false, nil
	}
	notExported := fmt.Errorf("package subpath '%s' is not defined by \"exports\" in %s", sub, filepath.Join(dir, "package.json"))
	// exports is one target, a conditions object, or subpaths.
	if m, ok := exports.(orderedObject); ok && len(m) > 0 && strings.HasPrefix(m[0].key, ".") {
		for _, e := range m {
			if e.key == sub {
				if p, ok := exportTarget(dir, e.value, ""); ok {
					return p, true, nil
				}
				return "", true, notExported
			}
		}
		for _, e := range m {
			prefix, suffix, isPattern := strings.Cut(e.key, "*")
			if isPattern && strings.HasPrefix(sub, prefix) && strings.HasSuffix(sub, suffix) && len(sub) >= len(prefix)+len(suffix) {
				if p, ok := exportTarget(dir, e.value, sub[len(prefix):len(sub)-len(suffix)]); ok {
					return p, true, nil
				}
			}
		}
		return "", true, notExported
	}
	if sub != "." {
		return "", true, notExported
	}
	if p, ok := exportTarget(dir, exports, ""); ok {
		return p, true, nil
	}
	return "", true, notExported
}

// orderedObject is a JSON object with its keys in order (exports
// conditions are tried in the order package.json gives them).
type orderedObject []orderedEntry

type orderedEntry struct {
	key   string
	value any
}

// decodeOrdered decodes one JSON value, objects as orderedObject.
func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	switch d {
	case '{':
		var o orderedObject
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			key, _ := k.(string)
			o = append(o, orderedEntry{key, v})
		}
		_, err := dec.Token()
		return o, err
	case '[':
		var l []any
		for dec.More() {
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		_, err := dec.Token()
		return l, err
	}
	return nil, fmt.Errorf("unexpected %v", d)
}

// exportTarget resolves an exports target: a path ("./lib/x.js", with "*"
// replaced by star), a conditions object, or a list of fallbacks.
func exportTarget(dir string, t any, star string) (string, bool) {
	switch x := t.(type) {
	case string:
		p := filepath.Join(dir, strings.ReplaceAll(x, "*", star))
		return p, isFile(p)
	case []any:
		for _, e := range x {
			if p, ok := exportTarget(dir, e, star); ok {
				return p, true
			}
		}
	case orderedObject:
		for _, e := range x {
			if requireConditions[e.key] {
				if p, ok := exportTarget(dir, e.value, star); ok {
					return p, true
				}
			}
		}
	}
	return "", false
}
