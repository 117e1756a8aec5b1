package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ferridriver/ferridriver/runner"
	"github.com/ferridriver/ferridriver/steps/catalogue"
)

// stepsFlags are the flags of `ferridriver steps`.
type stepsFlags struct {
	configFile string
	profiles   []string
	asJSON     bool
	asMarkdown bool
	asGlue     bool
	filter     string
	builtin    bool
	output     string
}

func init() {
	var f stepsFlags
	cmd := &cobra.Command{
		Use:   "steps",
		Short: "List every step a feature can use: the built-in library and the project's own",
		Long: `steps loads the step files, extensions and built-in step library as bdd does
(ferridriver.toml [test] steps and builtinSteps, extensions, the cucumber-js
configuration; no feature and no browser) and lists every step definition:
its keyword and expression, a one-line description, examples, its category
(the library file for a built-in step, the file for the project's) and its
source (file:line); then the parameter types.

  ferridriver steps                    grouped, for a terminal
  ferridriver steps --filter "url"     only steps whose expression, description
                                       or category has every word (any case)
  ferridriver steps --json             for tools: {steps: [...], parameterTypes: [...]}
  ferridriver steps --md               Markdown (docs/steps.md is made so)
  ferridriver steps --glue -o .vscode/ferridriver-steps.ts
                                       the built-in steps as a glue file for the
                                       Cucumber language server (VS Code's Cucumber
                                       extension): see docs/steps.md

With -o, the output goes to a file; with --md into a file that has the
markers <!-- generated:begin --> and <!-- generated:end -->, only the text
between them is replaced.

Exit codes: 0 steps were listed; 1 --filter matched no step; 2 bad usage,
configuration or step file.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSteps(cmd, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.configFile, "config", "c", "", "config file (default: ferridriver.toml/.yaml/.json in the current directory)")
	fl.StringArrayVarP(&f.profiles, "profile", "p", nil, "cucumber-js configuration profile (repeatable)")
	fl.BoolVar(&f.asJSON, "json", false, "print JSON")
	fl.BoolVar(&f.asMarkdown, "md", false, "print Markdown")
	fl.BoolVar(&f.asGlue, "glue", false, "print the built-in steps as a glue file for the Cucumber language server")
	fl.StringVar(&f.filter, "filter", "", "only steps whose expression, description or category contains every word of this text (any case)")
	fl.BoolVar(&f.builtin, "builtin", false, "only the built-in library's steps (implied by --glue)")
	fl.StringVarP(&f.output, "output", "o", "", "write to this file instead of stdout")
	rootCmd.AddCommand(cmd)
}

func runSteps(cmd *cobra.Command, f *stepsFlags) error {
	formats := 0
	for _, on := range []bool{f.asJSON, f.asMarkdown, f.asGlue} {
		if on {
			formats++
		}
	}
	if formats > 1 {
		return &ExitError{Code: exitUsage, Err: errors.New("steps: --json, --md and --glue are exclusive")}
	}
	p, err := loadBDDProject(f.configFile, f.profiles)
	if err != nil {
		return err
	}
	builtinOnly := f.builtin || f.asGlue
	cat, err := loadCatalogue(p, cmd, builtinOnly)
	if err != nil {
		return err
	}
	if builtinOnly {
		cat = cat.BuiltinOnly()
	}
	cat = cat.Filter(f.filter)

	var out []byte
	switch {
	case f.asJSON:
		if out, err = cat.JSON(); err != nil {
			return &ExitError{Code: exitFailed, Err: err}
		}
	case f.asMarkdown:
		out = []byte(cat.Markdown())
	case f.asGlue:
		out = []byte(cat.Glue(version))
	default:
		out = []byte(cat.Text())
	}
	if f.output == "" {
		cmd.OutOrStdout().Write(out)
	} else if err := writeStepsOutput(f.output, out, f.asMarkdown); err != nil {
		return &ExitError{Code: exitUsage, Err: fmt.Errorf("steps: %w", err)}
	}
	if f.filter != "" && len(cat.Steps) == 0 {
		return &ExitError{Code: exitFailed, Err: fmt.Errorf("no step matches %q", f.filter)}
	}
	return nil
}

// loadCatalogue loads the project's steps as `bdd` does; builtinOnly
// loads the library alone (the project's step files are not read).
func loadCatalogue(p *project, cmd *cobra.Command, builtinOnly bool) (*catalogue.Catalogue, error) {
	cfg := p.cfg
	load := runner.LoadLibrary
	if builtinOnly {
		load = runner.LoadBuiltinSteps
	}
	lib, err := builtinSteps(cfg)
	if err != nil {
		return nil, &ExitError{Code: exitUsage, Err: err}
	}
	defs, err := load(runner.Options{
		Dir:             p.dir,
		Steps:           cfg.Test.Steps,
		Library:         lib,
		Extensions:      cfg.Extensions,
		Alias:           cfg.Bundler.Alias,
		WorldParameters: cfg.Test.WorldParameters,
		Env:             p.env,
		ScriptCommands:  p.scriptCommands,
		// Step files may log while they load; stdout is the catalogue's.
		Stdout: cmd.ErrOrStderr(),
		Stderr: cmd.ErrOrStderr(),
	})
	if err != nil {
		return nil, &ExitError{Code: exitUsage, Err: err}
	}
	defer defs.Close()
	return catalogue.FromRegistry(defs.Registry()), nil
}

// writeStepsOutput writes out to file; Markdown goes between the
// generated markers of an existing file.
func writeStepsOutput(file string, out []byte, markdown bool) error {
	if markdown {
		old, err := os.ReadFile(file)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		doc, err := catalogue.Splice(string(old), string(out))
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		out = []byte(doc)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, out, 0o644)
}
