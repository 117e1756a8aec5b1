package jsbridge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"

	"github.com/ferridriver/ferridriver/internal/gojacompat"
)

// SourceExtensions are the file extensions of step files and extensions.
// Discovery of both uses this one list.
var SourceExtensions = []string{".js", ".cjs", ".mjs", ".jsx", ".ts", ".cts", ".mts", ".tsx"}

// IsSource reports whether path has one of SourceExtensions.
func IsSource(path string) bool {
	ext := filepath.Ext(path)
	for _, e := range SourceExtensions {
		if ext == e {
			return true
		}
	}
	return false
}

// BundleOptions say what to bundle.
type BundleOptions struct {
	// Entries are the step files and extensions, in load order.
	Entries []string
	// Dir is the project directory: source references are relative to it.
	Dir string
	// Alias maps import specifiers to others ("@cucumber/fake-cucumber" =
	// "@cucumber/cucumber"). A target may be a builtin module, a package or
	// a path relative to Dir.
	Alias map[string]string
	// Library is compiled into the binary (the built-in step library) and
	// bundled before Entries; nil for none.
	Library *Library
	// Cache keeps esbuild's output between runs; nil for none.
	Cache *Cache
	// Module, when set, is one module whose exports the bundle yields (a
	// custom formatter): a path relative to Dir (./reporter.js), an
	// absolute path, or a package name resolved from Dir's node_modules
	// ("@cucumber/pretty-formatter", "allure-cucumberjs/reporter"). It is
	// imported after Entries; VM.EvaluateModule returns its namespace.
	Module string
	// LeftOut is the import specifier of a library this bundle leaves out
	// (Library.Module, with Library nil): an import of it resolves to an
	// empty module, and Bundle.ImportsLeftOut then says the code needs the
	// library. The bundle is cached as any other.
	LeftOut string
}

// leftOutMarker names the property of the module that stands for a
// left-out library; its presence in a bundle's code is the sign.
const leftOutMarker = "__ferridriverLeftOutLibrary"

// ImportsLeftOut says whether the bundle's code imports the library its
// BundleOptions.LeftOut left out.
func (b *Bundle) ImportsLeftOut() bool { return strings.Contains(b.Code, leftOutMarker) }

// Library is a set of JS/TS sources held in memory: the built-in step
// library. Its files import builtin modules and each other (relative
// imports), never node_modules. In stack traces and source references
// they are named LibraryScheme + Name + "/" + path.
type Library struct {
	Name    string
	FS      fs.FS
	Entries []string // paths in FS, in load order
	// Files replace files of FS, by path, with generated contents (the
	// project's data the library reads).
	Files map[string]string
	// Module is an import specifier ("ferridriver/steps") under which the
	// project's code imports the library's first entry, sharing its module
	// state; "" for none.
	Module string
}

// LibraryScheme prefixes the source references of Library files, which
// have no path on disk: "ferridriver:steps/navigation.ts".
const LibraryScheme = "ferridriver:"

// IsLibrary reports whether a source reference names a Library file.
func (s SourceRef) IsLibrary() bool { return strings.HasPrefix(s.URI, LibraryScheme) }

// Bundle is the compiled module of a run: every entry and everything they
// import, as one program that each VM evaluates.
type Bundle struct {
	// program compiles Code for goja on first use: a bundle that is only
	// inspected (the runner reads Code to decide whether the built-in
	// library is needed) is never compiled.
	program func() (*goja.Program, error)
	Code    string
	Map     []byte
	Entries []string
	Dir     string

	// cache and key locate the bundle's cache entry (for Remember); warm
	// are the polyfill modules the entry says loading it compiles.
	cache *Cache
	key   string
	warm  []string
}

// BundleError is a bundling or compile failure with its source position.
type BundleError struct {
	Messages []string
}

func (e *BundleError) Error() string { return strings.Join(e.Messages, "\n") }

const bundleName = "ferridriver-bundle.js"

// The bundle is the body of an async function, so top-level await works in
// step files and extensions; the VM awaits the returned promise.
const bundlePrefix = "(async function () {"

// Build bundles the entries with esbuild (TypeScript, JSX, relative imports,
// node_modules); the result is compiled for goja when a VM first
// evaluates it. Imports of builtin modules
// (@cucumber/cucumber, node:fs, ...) resolve to the VM's implementations.
// With a Cache, esbuild's output of an earlier build of the same inputs is
// reused.
func Build(opts BundleOptions) (*Bundle, error) {
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, err
	}
	entries := make([]string, len(opts.Entries))
	for i, e := range opts.Entries {
		if entries[i], err = filepath.Abs(e); err != nil {
			return nil, err
		}
	}
	var key string
	if opts.Cache != nil {
		if key, err = bundleKey(opts, dir, entries); err != nil {
			return nil, err
		}
		if code, smap, ok := opts.Cache.loadBundle(key); ok {
			// The polyfills its last load compiled compile in the
			// background while the bundle compiles and the run starts.
			warm := opts.Cache.loadWarm(key)
			go precompilePolyfills(warm)
			b := newBundle(code, smap, opts.Entries, dir)
			b.cache, b.key, b.warm = opts.Cache, key, warm
			return b, nil
		}
	}
	start := time.Now()
	code, smap, metafile, read, err := bundle(opts, dir, entries)
	if err != nil {
		return nil, err
	}
	b := newBundle(code, smap, opts.Entries, dir)
	if opts.Cache != nil {
		if inputs, err := inputFiles(metafile, dir); err == nil {
			opts.Cache.storeBundle(key, start, inputs, read, code, smap)
		}
		b.cache, b.key = opts.Cache, key
	}
	return b, nil
}

// bundle runs esbuild: the bundle's code and source map, its metafile, and
// the SHA-256 of the contents of every file the plugin loaded, by path.
func bundle(opts BundleOptions, dir string, entries []string) (code, smap []byte, metafile string, read map[string]string, err error) {
	var entry strings.Builder
	if l := opts.Library; l != nil {
		for _, e := range l.Entries {
			q, _ := json.Marshal(LibraryScheme + path.Join(l.Name, e))
			fmt.Fprintf(&entry, "import %s;\n", q)
		}
	}
	for _, abs := range entries {
		q, _ := json.Marshal(abs)
		fmt.Fprintf(&entry, "import %s;\n", q)
	}
	if opts.Module != "" {
		q, _ := json.Marshal(opts.Module)
		fmt.Fprintf(&entry, "import * as __ferridriverModule from %s;\n%s(__ferridriverModule);\n", q, moduleExportsFn)
	}
	esbuildRuns.Add(1)
	reads := &readSums{sums: map[string]string{}}
	res := api.Build(api.BuildOptions{
		Stdin: &api.StdinOptions{
			Contents:   entry.String(),
			ResolveDir: dir,
			Sourcefile: "<ferridriver-entry>",
			Loader:     api.LoaderJS,
		},
		Bundle:     true,
		Write:      false,
		Metafile:   opts.Cache != nil,
		Outfile:    filepath.Join(dir, bundleName),
		Format:     api.FormatESModule,
		Platform:   api.PlatformNeutral,
		MainFields: []string{"module", "main"},
		Conditions: []string{"node", "import", "require", "default"},
		Target:     api.ES2022,
		// goja lacks these; esbuild rewrites them into what it has.
		Supported:      map[string]bool{"async-generator": false, "for-await": false, "regexp-match-indices": false, "top-level-await": true, "dynamic-import": false},
		Sourcemap:      api.SourceMapExternal,
		SourcesContent: api.SourcesContentExclude,
		LogLevel:       api.LogLevelSilent,
		Charset:        api.CharsetUTF8,
		KeepNames:      true,
		Plugins:        []api.Plugin{builtinPlugin(dir, opts.Alias, opts.Library, opts.LeftOut, reads)},
		AbsWorkingDir:  dir,
	})
	if len(res.Errors) > 0 {
		return nil, nil, "", nil, &BundleError{Messages: formatMessages(res.Errors, dir)}
	}
	for _, f := range res.OutputFiles {
		switch {
		case strings.HasSuffix(f.Path, ".map"):
			smap = f.Contents
		case strings.HasSuffix(f.Path, ".js"):
			code = f.Contents
		}
	}
	return code, smap, res.Metafile, reads.sums, nil
}

// Remember records in the bundle's cache entry which of the Node
// polyfills vm compiled while loading it, so that the next run with the
// same bundle compiles them in the background as it starts. Nothing
// without a cache.
func (b *Bundle) Remember(vm *VM) {
	if b.cache == nil {
		return
	}
	if names := vm.polyfillsLoaded(); !slices.Equal(names, b.warm) {
		b.cache.storeWarm(b.key, names)
		b.warm = names
	}
}

// esbuildRuns counts the bundles esbuild built (what the cache saves).
var esbuildRuns atomic.Int64

// readSums collects the SHA-256 of the files the plugin loads (esbuild
// calls it from several goroutines).
type readSums struct {
	mu   sync.Mutex
	sums map[string]string
}

func (r *readSums) add(p string, data []byte) {
	sum := sha256.Sum256(data)
	r.mu.Lock()
	r.sums[filepath.Clean(p)] = hex.EncodeToString(sum[:])
	r.mu.Unlock()
}

// newBundle is esbuild's output as the body of an async function, compiled
// for goja when first evaluated (Program).
func newBundle(code, smap []byte, entries []string, dir string) *Bundle {
	src := bundlePrefix + string(code) + "\n//# sourceMappingURL=" + bundleName + ".map\n})"
	return &Bundle{Code: src, Map: smap, Entries: entries, Dir: dir, program: sync.OnceValues(func() (*goja.Program, error) {
		ast, err := goja.Parse(bundleName, src, parser.WithSourceMapLoader(func(string) ([]byte, error) { return smap, nil }))
		if err != nil {
			return nil, &BundleError{Messages: []string{"compile bundle: " + err.Error()}}
		}
		prg, err := goja.CompileAST(ast, false)
		if err != nil {
			return nil, &BundleError{Messages: []string{"compile bundle: " + err.Error()}}
		}
		return prg, nil
	})}
}

// Program returns the bundle compiled for goja (once; every VM shares it).
func (b *Bundle) Program() (*goja.Program, error) { return b.program() }

func formatMessages(msgs []api.Message, dir string) []string {
	out := make([]string, 0, len(msgs))
	for _, m := range msgs {
		if m.Location == nil {
			out = append(out, m.Text)
			continue
		}
		file := m.Location.File
		if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = rel
		}
		out = append(out, fmt.Sprintf("%s:%d:%d: %s", file, m.Location.Line, m.Location.Column+1, m.Text))
	}
	return out
}

const (
	builtinNamespace       = "ferridriver-builtin"
	builtinImportNamespace = "ferridriver-builtin-import"
)

// nodeCoreModules are Node's builtin module names: imports of them (with or
// without "node:") resolve to the VM, which implements most and throws a
// clear error for the others when they are used.
var nodeCoreModules = map[string]bool{
	"assert": true, "assert/strict": true, "async_hooks": true, "buffer": true, "child_process": true,
	"cluster": true, "console": true, "constants": true, "crypto": true, "dgram": true,
	"diagnostics_channel": true, "dns": true, "dns/promises": true, "domain": true, "events": true,
	"fs": true, "fs/promises": true, "http": true, "http2": true, "https": true, "inspector": true,
	"module": true, "net": true, "os": true, "path": true, "path/posix": true, "path/win32": true,
	"perf_hooks": true, "process": true, "punycode": true, "querystring": true, "readline": true,
	"readline/promises": true, "repl": true, "stream": true, "stream/consumers": true,
	"stream/promises": true, "stream/web": true, "string_decoder": true, "sys": true, "timers": true,
	"timers/promises": true, "tls": true, "trace_events": true, "tty": true, "url": true, "util": true,
	"util/types": true, "v8": true, "vm": true, "wasi": true, "worker_threads": true, "zlib": true,
}

// isBuiltin reports whether spec names a module the VM provides.
func isBuiltin(spec string) bool {
	if strings.HasPrefix(spec, "node:") {
		return true
	}
	if nodeCoreModules[spec] {
		return true
	}
	modulesMu.RLock()
	defer modulesMu.RUnlock()
	_, ok := moduleFactories[spec]
	return ok
}

// canonicalModule maps "fs" and "node:fs" to one name.
func canonicalModule(spec string) string {
	if strings.HasPrefix(spec, "node:") {
		return spec
	}
	if nodeCoreModules[spec] {
		return "node:" + spec
	}
	return spec
}

var metaRE = regexp.MustCompile(`\bimport\.meta\.(dirname|filename|url)\b`)

// libraryNamespace is esbuild's namespace of Library files; esbuild names
// them "namespace:path" in the source map, which gives LibraryScheme.
const libraryNamespace = "ferridriver"

// leftOutNamespace is esbuild's namespace of the module that stands for a
// left-out library.
const leftOutNamespace = "ferridriver-left-out"

// builtinPlugin resolves builtin modules, aliases and the library's files,
// and gives each file its own import.meta.dirname / __dirname, which one
// bundle otherwise loses. An import of leftOut resolves to a module that
// only holds leftOutMarker (CommonJS, so any named import of it bundles).
func builtinPlugin(dir string, alias map[string]string, lib *Library, leftOut string, reads *readSums) api.Plugin {
	return api.Plugin{
		Name: "ferridriver",
		Setup: func(build api.PluginBuild) {
			build.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
				spec := args.Path
				if leftOut != "" && spec == leftOut {
					return api.OnResolveResult{Path: leftOut, Namespace: leftOutNamespace}, nil
				}
				if lib != nil {
					if p, ok := strings.CutPrefix(spec, LibraryScheme); ok {
						return api.OnResolveResult{Path: p, Namespace: libraryNamespace}, nil
					}
					if args.Namespace == libraryNamespace && strings.HasPrefix(spec, ".") {
						return lib.resolve(path.Join(path.Dir(args.Importer), spec))
					}
					if lib.Module != "" && spec == lib.Module && len(lib.Entries) > 0 {
						return lib.resolve(path.Join(lib.Name, lib.Entries[0]))
					}
				}
				if target, ok := alias[spec]; ok {
					spec = target
					if !isBuiltin(spec) {
						resolveDir := args.ResolveDir
						if strings.HasPrefix(spec, ".") {
							resolveDir = dir
						}
						r := build.Resolve(spec, api.ResolveOptions{Kind: args.Kind, ResolveDir: resolveDir, Importer: args.Importer})
						if len(r.Errors) > 0 {
							return api.OnResolveResult{}, fmt.Errorf("alias %q = %q: %s", args.Path, spec, r.Errors[0].Text)
						}
						return api.OnResolveResult{Path: r.Path, Namespace: r.Namespace}, nil
					}
				}
				if isBuiltin(spec) {
					// An import statement of a module the VM lacks
					// loads, and throws when used; require() and
					// import() throw at once, as feature tests expect.
					ns, name := builtinNamespace, canonicalModule(spec)
					if args.Kind == api.ResolveJSImportStatement && strings.HasPrefix(name, "node:") {
						ns = builtinImportNamespace
					}
					return api.OnResolveResult{Path: name, Namespace: ns}, nil
				}
				return api.OnResolveResult{}, nil
			})
			for ns, fn := range map[string]string{builtinNamespace: "__ferridriver_require", builtinImportNamespace: "__ferridriver_import"} {
				build.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: ns}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
					q, _ := json.Marshal(args.Path)
					contents := "module.exports = " + fn + "(" + string(q) + ");"
					return api.OnLoadResult{Contents: &contents, Loader: api.LoaderJS}, nil
				})
			}
			build.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: leftOutNamespace}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
				contents := "module.exports = { " + leftOutMarker + ": true };"
				return api.OnLoadResult{Contents: &contents, Loader: api.LoaderJS}, nil
			})
			if lib != nil {
				build.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: libraryNamespace}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
					rel := strings.TrimPrefix(args.Path, lib.Name+"/")
					contents, ok := lib.Files[rel]
					if !ok {
						data, err := fs.ReadFile(lib.FS, rel)
						if err != nil {
							return api.OnLoadResult{}, err
						}
						contents = string(data)
					}
					return api.OnLoadResult{Contents: &contents, Loader: loaderFor(args.Path)}, nil
				})
			}
			build.OnLoad(api.OnLoadOptions{Filter: `\.(m|c)?(j|t)sx?$`, Namespace: "file"}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				data, err := os.ReadFile(args.Path)
				if err != nil {
					return api.OnLoadResult{}, err
				}
				reads.add(args.Path, data)
				contents := gojacompat.Rewrite(withFileLocals(string(data), args.Path))
				return api.OnLoadResult{Contents: &contents, Loader: loaderFor(args.Path)}, nil
			})
		},
	}
}

// resolve finds the library file an import names ("name/dir/file", with
// or without its extension, or a directory's index).
func (l *Library) resolve(p string) (api.OnResolveResult, error) {
	rel := strings.TrimPrefix(p, l.Name+"/")
	for _, cand := range []string{rel, rel + ".ts", rel + ".js", rel + "/index.ts", rel + "/index.js"} {
		if _, ok := l.Files[cand]; ok {
			return api.OnResolveResult{Path: path.Join(l.Name, cand), Namespace: libraryNamespace}, nil
		}
		if fi, err := fs.Stat(l.FS, cand); err == nil && !fi.IsDir() {
			return api.OnResolveResult{Path: path.Join(l.Name, cand), Namespace: libraryNamespace}, nil
		}
	}
	return api.OnResolveResult{}, fmt.Errorf("%s%s: no such file in the library", LibraryScheme, p)
}

var declaresDirnameRE = regexp.MustCompile(`\b(const|let|var|function)\s+__(dirname|filename)\b`)

// withFileLocals substitutes import.meta.{dirname,filename,url} by literals
// and defines __dirname/__filename for CommonJS-style files that use them.
func withFileLocals(src, path string) string {
	if strings.Contains(src, "import.meta") {
		src = metaRE.ReplaceAllStringFunc(src, func(m string) string {
			var v string
			switch m[len("import.meta."):] {
			case "dirname":
				v = filepath.Dir(path)
			case "filename":
				v = path
			case "url":
				v = "file://" + filepath.ToSlash(path)
			}
			q, _ := json.Marshal(v)
			return string(q)
		})
	}
	if (strings.Contains(src, "__dirname") || strings.Contains(src, "__filename")) && !declaresDirnameRE.MatchString(src) {
		d, _ := json.Marshal(filepath.Dir(path))
		f, _ := json.Marshal(path)
		// Kept on the first line so that source positions do not move.
		src = "var __dirname = " + string(d) + ", __filename = " + string(f) + "; " + src
	}
	if moduleFieldsRE.MatchString(src) {
		// A CommonJS module that reads what Node's module object has and
		// esbuild's lacks: its file and where it finds packages.
		f, _ := json.Marshal(path)
		paths, _ := json.Marshal(nodeModulePaths(filepath.Dir(path)))
		src = "if (typeof module === \"object\" && module) { module.id = module.filename = " + string(f) + "; module.path = " + string(mustJSON(filepath.Dir(path))) + "; module.paths = " + string(paths) + "; module.loaded = false; } " + src
	}
	return src
}

// moduleFieldsRE finds reads of Node's module object fields that esbuild's
// CommonJS wrapper does not give.
var moduleFieldsRE = regexp.MustCompile(`\bmodule\.(paths|filename|id|path)\b`)

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func loaderFor(path string) api.Loader {
	switch filepath.Ext(path) {
	case ".ts", ".mts", ".cts":
		return api.LoaderTS
	case ".tsx":
		return api.LoaderTSX
	case ".jsx":
		return api.LoaderJSX
	default:
		return api.LoaderJS
	}
}

// Discover returns the source files named by patterns (files, directories
// walked recursively, or globs with **), sorted by path and de-duplicated.
// A directory contributes every file with one of SourceExtensions; node_modules
// directories are skipped. Patterns are relative to dir.
func Discover(dir string, patterns []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, pat := range patterns {
		full := pat
		if !filepath.IsAbs(full) {
			full = filepath.Join(dir, pat)
		}
		if info, err := os.Stat(full); err == nil {
			if info.IsDir() {
				files, err := walkSources(full)
				if err != nil {
					return nil, err
				}
				for _, f := range files {
					add(f)
				}
				continue
			}
			add(full)
			continue
		}
		matches, err := doublestar.FilepathGlob(full, doublestar.WithFilesOnly())
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", pat, err)
		}
		for _, m := range matches {
			if IsSource(m) {
				add(m)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

func walkSources(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "node_modules" || (strings.HasPrefix(d.Name(), ".") && p != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if IsSource(p) && !strings.HasSuffix(p, ".d.ts") {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}
