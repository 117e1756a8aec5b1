package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/ferridriver/ferridriver/config"
	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// project is the configuration shared by the bdd, run, extensions and mcp
// commands.
type project struct {
	dir            string
	cfg            *config.Config
	env            map[string]string
	scriptCommands *capability.CommandSet
	// hiddenEnv is called when first-party code reads a variable that is
	// set but not in env: it warns once per name (nil in Node mode).
	hiddenEnv func(name string)
	// scriptFiles is [scripting.allow.fs], the grant of `run` scripts.
	scriptFiles *capability.FSPolicy
}

// loadProject loads the configuration of the project in dir (the current
// directory when empty): process.env's allow-list and the first-party
// commands of [scripting.allow].
func loadProject(dir, configFile string) (*project, error) {
	return loadProjectWith(dir, configFile, config.Load)
}

// loadBDDProject is loadProject for `bdd`, which also reads the project's
// cucumber-js configuration (with profiles) under ferridriver.toml.
func loadBDDProject(configFile string, profiles []string) (*project, error) {
	return loadProjectWith("", configFile, func(dir, file string) (*config.Config, error) {
		return config.LoadWith(dir, file, config.LoadOptions{Profiles: profiles})
	})
}

func loadProjectWith(dir, configFile string, load func(dir, file string) (*config.Config, error)) (*project, error) {
	load = withRemoteFlags(load)
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, &ExitError{Code: exitUsage, Err: err}
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, &ExitError{Code: exitUsage, Err: err}
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return nil, &ExitError{Code: exitUsage, Err: fmt.Errorf("project directory %s: not a directory", abs)}
	}
	cfg, err := load(abs, configFile)
	if err != nil {
		return nil, &ExitError{Code: exitUsage, Err: err}
	}
	commands, err := cfg.ScriptCommands()
	if err != nil {
		return nil, &ExitError{Code: exitUsage, Err: err}
	}
	files, err := cfg.ScriptFiles()
	if err != nil {
		return nil, &ExitError{Code: exitUsage, Err: err}
	}
	return &project{
		dir:            abs,
		cfg:            cfg,
		env:            cfg.ProcessEnv(os.Environ()),
		scriptCommands: commands,
		hiddenEnv:      hiddenEnvWarning(cfg, os.Stderr),
		scriptFiles:    files,
	}, nil
}

// hiddenEnvWarning returns the function that tells the user, once per
// name, that code read a variable that is set but hidden from it, and
// which setting shows it (nil when nothing is hidden).
func hiddenEnvWarning(cfg *config.Config, w io.Writer) func(string) {
	hidden := cfg.HiddenEnv(os.Environ())
	if len(hidden) == 0 {
		return nil
	}
	var warned sync.Map
	return func(name string) {
		if !hidden[name] {
			return
		}
		if _, done := warned.LoadOrStore(name, true); !done {
			fmt.Fprintf(w, "ferridriver: warning: %s\n", cfg.HiddenEnvNote(name))
		}
	}
}

// newVM returns a VM of host for the project: process.env's allow-list and
// the [scripting.allow] commands are set; the caller loads the extensions
// and closes it.
func (p *project) newVM(host string, stdout, stderr io.Writer) (*jsbridge.VM, error) {
	opts := jsbridge.VMOptions{Host: host, Dir: p.dir, Env: p.env, Stdout: stdout, Stderr: stderr}
	if host == jsbridge.HostScript {
		// Scripts are first-party code, as step files: they hear about a
		// hidden variable; tools and the MCP server's code do not.
		opts.OnHiddenEnv = p.hiddenEnv
	}
	vm, err := jsbridge.NewVM(nil, opts)
	if err != nil {
		return nil, &ExitError{Code: exitUsage, Err: err}
	}
	jsbridge.SetScriptCommands(vm, p.scriptCommands)
	jsbridge.SetScriptFiles(vm, p.scriptFiles)
	return vm, nil
}
