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
	"os"
	"path/filepath"
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
		Plugins:       []api.Plugin{vmGlobals},
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
			if im.Kind != "require-call" || im.External {
				return fmt.Errorf("%s: %s of %q: only resolved require() calls can be packed", name, im.Kind, im.Original)
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
	res := api.Transform(gojacompat.Rewrite(string(data)), api.TransformOptions{
		Sourcefile: name,
		Loader:     api.LoaderJS,
		Format:     api.FormatCommonJS,
		Target:     api.ES2022,
		// As jsbridge/bundle.go: goja lacks these, esbuild lowers them.
		Supported: map[string]bool{"async-generator": false, "for-await": false, "regexp-match-indices": false},
		Charset:   api.CharsetUTF8,
		LogLevel:  api.LogLevelSilent,
	})
	if err := errorsOf(res.Errors); err != nil {
		return "", "", err
	}
	return jspack.KindJS, string(res.Code), nil
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
// object (the npm "process" shim would replace it with an empty one).
var vmGlobals = api.Plugin{
	Name: "vm-globals",
	Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `^process/?$`}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: "process", Namespace: vmGlobalNamespace}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: vmGlobalNamespace}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
			contents := "module.exports = globalThis." + args.Path + ";"
			return api.OnLoadResult{Contents: &contents, Loader: api.LoaderJS}, nil
		})
	},
}
