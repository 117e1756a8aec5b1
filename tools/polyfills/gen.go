//go:build ignore

// Command gen packs the npm polyfills of Node built-ins pinned in
// tools/polyfills (package-lock.json) into the file jsbridge embeds:
// jsbridge/polyfills/polyfills.pack, a pack of CommonJS modules
// (internal/jspack) that the VM compiles one module at a time, when code
// first requires it. The file is generated, not committed; `make
// polyfills` (a prerequisite of build, test, vet...) runs this after `npm
// ci` whenever its inputs change.
//
//	go run tools/polyfills/gen.go [-src tools/polyfills] [-out jsbridge/polyfills/polyfills.pack]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/ferridriver/ferridriver/internal/gojacompat"
	"github.com/ferridriver/ferridriver/internal/jspack"
)

func main() {
	src := flag.String("src", "tools/polyfills", "directory holding entry.js and node_modules")
	out := flag.String("out", "jsbridge/polyfills/polyfills.pack", "file to write")
	flag.Parse()
	if err := generate(*src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "polyfills:", err)
		os.Exit(1)
	}
}

// vmGlobalNamespace holds the modules that are the VM's own globals.
const vmGlobalNamespace = "vm-global"

// leftOutNamespace holds the modules left out of the pack on purpose
// (leftOut): requiring one throws.
const leftOutNamespace = "left-out"

// leftOut are modules that packages of the pack require only for what
// ferridriver never uses, with the reason.
var leftOut = map[string]string{
	// cli-table3 requires it only to colour the cells of a table styled
	// with colours; ferridriver's tables have none, and it needs "os".
	"@colors/colors/safe": "cli-table3's colours are not used by ferridriver",
}

// replaced are requires of packages' modules (importer, relative to src,
// and specifier) that ferridriver points at a module of its own
// (src/shims/<by>.js) instead, with the reason.
var replaced = []struct{ importer, spec, by, why string }{
	// cucumber-js loads custom formatters and snippet syntaxes with a
	// dynamic import() at run time; ferridriver bundles a formatter before
	// the run, so FormatterBuilder's loadCustomClass says how instead.
	{"node_modules/@cucumber/cucumber/lib/formatter/builder.js", "./import_code", "import_code", "formatters are bundled before the run"},
	// cucumber-js's keyword types read Gherkin's dialects, a JSON file of
	// @cucumber/gherkin; its index loads the whole parser besides, which
	// takes longer to compile than the rest of formatterHelpers.
	{"node_modules/@cucumber/cucumber/lib/formatter/helpers/keyword_type.js", "@cucumber/gherkin", "gherkin_dialects", "only the dialects are used"},
}

// shimPrefix names ferridriver's own modules of the pack (src/shims).
const shimPrefix = "ferridriver:"

// moduleGlobals give modules of packages (keyed by path relative to src)
// a global of Node's that goja lacks, as a binding of the module's own
// required from the pack, so that the VM's globals stay as they are.
var moduleGlobals = map[string]map[string]string{
	// luxon (cucumber-js's summary durations) formats numbers with Intl.
	"node_modules/luxon/build/node/luxon.js": {"Intl": shimPrefix + "intl"},
	// Intl.js's locale data registers itself on its global IntlPolyfill.
	"node_modules/intl/locale-data/jsonp/en-US.js": {"IntlPolyfill": "intl/lib/core.js"},
}

// globalsBanner is the line moduleGlobals put before a module's source:
// one line, so that the module's line numbers stay.
func globalsBanner(name string) string {
	g := moduleGlobals[name]
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(g)) {
		fmt.Fprintf(&b, "var %s = require(%q); ", k, g[k])
	}
	return b.String()
}

// nodeBuiltin reports whether a require names a Node built-in module
// ("node:path"): the pack's modules get those from the VM, as step code
// does, so they are left to the VM's require (not packed).
func nodeBuiltin(spec string) bool { return strings.HasPrefix(spec, "node:") }

// esbuild resolves every require() (as a bundle would: the packages'
// "browser" fields, the process shim replaced by the VM's process); each
// module it reached is then transformed on its own and packed with what
// its requires resolved to.
func generate(src, out string) error {
	src, err := filepath.Abs(src)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(src, "node_modules")); err != nil {
		return fmt.Errorf("%v: run `npm ci` in %s first (make polyfills does)", err, src)
	}
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{filepath.Join(src, "entry.js")},
		Bundle:      true,
		Write:       false,
		Metafile:    true,
		Format:      api.FormatCommonJS,
		// The packages are browser polyfills: their "browser" fields
		// select the builds that do not require Node's own modules.
		Platform:      api.PlatformBrowser,
		Target:        api.ES2022,
		LogLevel:      api.LogLevelSilent,
		Plugins:       []api.Plugin{vmGlobals(src)},
		AbsWorkingDir: src,
	})
	if err := errorsOf(res.Errors); err != nil {
		return fmt.Errorf("bundle:\n%w", err)
	}
	var meta struct {
		Inputs map[string]struct {
			Imports []struct {
				Path, Kind, Original string
				External             bool
			}
		}
	}
	if err := json.Unmarshal([]byte(res.Metafile), &meta); err != nil {
		return err
	}
	// Module 0 is the entry, the others in name order.
	names := make([]string, 0, len(meta.Inputs))
	for name := range meta.Inputs {
		if name != "entry.js" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	names = append([]string{"entry.js"}, names...)
	ids := map[string]int{}
	for i, n := range names {
		ids[n] = i
	}
	mods := make([]jspack.Module, len(names))
	for i, name := range names {
		m := jspack.Module{Name: name, Kind: jspack.KindJS, Requires: map[string]int{}}
		for _, im := range meta.Inputs[name].Imports {
			if im.External && nodeBuiltin(im.Path) {
				continue
			}
			// An ES module's imports become require() calls of the
			// same specifiers when moduleSource turns it into CommonJS.
			if (im.Kind != "require-call" && im.Kind != "import-statement") || im.External {
				return fmt.Errorf("%s: %s of %q: only resolved require() calls and static imports can be packed", name, im.Kind, im.Original)
			}
			m.Requires[im.Original] = ids[im.Path]
		}
		if m.Kind, m.Source, err = moduleSource(src, name); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		mods[i] = m
	}
	data, err := jspack.Write(mods)
	if err != nil {
		return err
	}
	if old, err := os.ReadFile(out); err == nil && string(old) == string(data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}

// moduleSource returns the kind and the text of one module: JSON as it
// is (the VM parses it), JavaScript rewritten for goja (gojacompat) and
// lowered by esbuild to what goja runs.
func moduleSource(src, name string) (kind, text string, err error) {
	switch {
	case strings.HasPrefix(name, vmGlobalNamespace+":"):
		return jspack.KindJS, "module.exports = globalThis." + strings.TrimPrefix(name, vmGlobalNamespace+":") + ";\n", nil
	case strings.HasPrefix(name, leftOutNamespace+":"):
		spec := strings.TrimPrefix(name, leftOutNamespace+":")
		msg, _ := json.Marshal(spec + " is not in ferridriver's pack of npm modules: " + leftOut[spec])
		return jspack.KindJS, "throw new Error(" + string(msg) + ");\n", nil
	case strings.HasPrefix(name, "(disabled):"):
		// A "browser": false entry: an empty module, as esbuild makes it.
		return jspack.KindJS, "", nil
	}
	data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(name)))
	if err != nil {
		return "", "", err
	}
	if strings.HasSuffix(name, ".json") {
		if !json.Valid(data) {
			return "", "", fmt.Errorf("not valid JSON")
		}
		return jspack.KindJSON, string(data), nil
	}
	res := api.Transform(globalsBanner(name)+gojacompat.Rewrite(string(data)), api.TransformOptions{
		Sourcefile: name,
		Loader:     api.LoaderJS,
		Format:     api.FormatCommonJS,
		Target:     api.ES2022,
		// As jsbridge/bundle.go: goja lacks these, esbuild lowers them
		// (a dynamic import() becomes a require() of the pack, which
		// throws for a module it does not hold). Regular expressions with
		// the u flag become new RegExp calls, for the lowering of their
		// Unicode property escapes below.
		Supported: map[string]bool{
			"async-generator": false, "for-await": false, "regexp-match-indices": false, "dynamic-import": false,
			"regexp-sticky-and-unicode-flags": false,
		},
		Charset:  api.CharsetUTF8,
		LogLevel: api.LogLevelSilent,
	})
	if err := errorsOf(res.Errors); err != nil {
		return "", "", err
	}
	code, err := gojacompat.LowerUnicodePropertyEscapes(string(res.Code))
	if err != nil {
		return "", "", err
	}
	return jspack.KindJS, code, nil
}

func errorsOf(msgs []api.Message) error {
	if len(msgs) == 0 {
		return nil
	}
	var lines []string
	for _, m := range msgs {
		if m.Location != nil {
			lines = append(lines, fmt.Sprintf("%s:%d:%d: %s", m.Location.File, m.Location.Line, m.Location.Column+1, m.Text))
		} else {
			lines = append(lines, m.Text)
		}
	}
	return fmt.Errorf("%s", strings.Join(lines, "\n"))
}

// vmGlobals makes the packages' require("process") the VM's own process
// object (the npm "process" shim would replace it with an empty one), the
// modules of leftOut modules that throw when required, the Node built-ins
// the VM's own (external), and the replaced modules ferridriver's.
func vmGlobals(src string) api.Plugin {
	return api.Plugin{
		Name: "vm-globals",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
				if _, ok := leftOut[args.Path]; ok {
					return api.OnResolveResult{Path: args.Path, Namespace: leftOutNamespace}, nil
				}
				if importer, err := filepath.Rel(src, args.Importer); err == nil {
					for _, r := range replaced {
						if r.importer == filepath.ToSlash(importer) && r.spec == args.Path {
							return api.OnResolveResult{Path: filepath.Join(src, "shims", r.by+".js")}, nil
						}
					}
				}
				return api.OnResolveResult{}, nil
			})
			b.OnResolve(api.OnResolveOptions{Filter: "^" + shimPrefix}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
				return api.OnResolveResult{Path: filepath.Join(src, "shims", strings.TrimPrefix(args.Path, shimPrefix)+".js")}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: `\.js$`}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				rel, err := filepath.Rel(src, args.Path)
				if err != nil || moduleGlobals[filepath.ToSlash(rel)] == nil {
					return api.OnLoadResult{}, nil
				}
				data, err := os.ReadFile(args.Path)
				if err != nil {
					return api.OnLoadResult{}, err
				}
				contents := globalsBanner(filepath.ToSlash(rel)) + string(data)
				return api.OnLoadResult{Contents: &contents, Loader: api.LoaderJS}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: leftOutNamespace}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				contents := ""
				return api.OnLoadResult{Contents: &contents, Loader: api.LoaderJS}, nil
			})
			b.OnResolve(api.OnResolveOptions{Filter: `^node:`}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
				return api.OnResolveResult{Path: args.Path, External: true}, nil
			})
			b.OnResolve(api.OnResolveOptions{Filter: `^process/?$`}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
				return api.OnResolveResult{Path: "process", Namespace: vmGlobalNamespace}, nil
			})
			b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: vmGlobalNamespace}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				contents := "module.exports = globalThis." + args.Path + ";"
				return api.OnLoadResult{Contents: &contents, Loader: api.LoaderJS}, nil
			})
		},
	}
}
