package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ferridriver/ferridriver/runner"
	"github.com/ferridriver/ferridriver/scaffold"
	"github.com/ferridriver/ferridriver/steps"
	"github.com/ferridriver/ferridriver/steps/catalogue"
)

func init() {
	var force bool
	cmd := &cobra.Command{
		Use:   "init <dir>",
		Short: "Create a ferridriver project: config, an example feature, typed TypeScript steps",
		Long: `init writes a ready-to-run project into dir ("." for the current directory;
asked for on a terminal when not given, a usage error otherwise):

  ferridriver.toml          [test], [browser] and a [[webServer]] serving the demo app
  features/login.feature    a first feature of built-in steps only
  pages/login.yaml          the login page's elements, by the names features use
  features/todo.feature     a feature with its own steps:
  steps/todo.ts             its step definitions (cucumber-js API, Playwright expect)
  steps/world.ts            the typed World (this.page, this.request, your state)
  tsconfig.json, types/     declarations of @cucumber/cucumber, @playwright/test and
                            ferridriver, so editors complete this.page. and expect(...)
  .vscode/                  settings and the built-in steps (ferridriver steps --glue)
                            for VS Code's Cucumber extension: features complete steps

It never overwrites a file unless --force is given: if any of these files
exists, nothing is written.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var dir string
			if len(args) == 1 {
				dir = args[0]
			} else {
				var err error
				if dir, err = askInitDir(cmd); err != nil {
					return err
				}
			}
			return runInit(cmd, dir, force)
		},
	}
	cmd.Flags().BoolVarP(&force, "force", "f", false, "overwrite existing files")
	rootCmd.AddCommand(cmd)
}

// errInitDir is init's usage error when no folder is named and none can be
// asked for.
var errInitDir = errors.New(`init: name the folder to create the project in, e.g. "ferridriver init e2e" (or "ferridriver init ." for the current folder)`)

// askInitDir asks on a terminal for the folder init writes into (an empty
// answer is the current folder, which the question shows); without a
// terminal it refuses: a project scaffolded silently into whatever folder a
// script ran in is hard to undo.
func askInitDir(cmd *cobra.Command) (string, error) {
	in, ok := cmd.InOrStdin().(*os.File)
	if !ok || !term.IsTerminal(int(in.Fd())) {
		return "", &ExitError{Code: exitUsage, Err: errInitDir}
	}
	wd, _ := os.Getwd()
	fmt.Fprintf(cmd.ErrOrStderr(), "Create the ferridriver project in which folder? [. = %s] ", wd)
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && line == "" {
		return "", &ExitError{Code: exitUsage, Err: errInitDir}
	}
	if dir := strings.TrimSpace(line); dir != "" {
		return dir, nil
	}
	return ".", nil
}

func runInit(cmd *cobra.Command, dir string, force bool) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return &ExitError{Code: exitUsage, Err: err}
	}
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		return &ExitError{Code: exitUsage, Err: fmt.Errorf("init: %s is not a directory", dir)}
	}
	self := selfCommand()
	glue, err := builtinGlue(cmd, abs)
	if err != nil {
		return err
	}
	written, err := scaffold.Write(abs, scaffold.Options{
		Ferridriver: self,
		Force:       force,
		Glue:        glue,
	})
	if err != nil {
		var exists *scaffold.ExistsError
		if errors.As(err, &exists) {
			exists.Dir = dir
			return &ExitError{Code: exitUsage, Err: fmt.Errorf("init: %w", exists)}
		}
		return &ExitError{Code: exitFailed, Err: fmt.Errorf("init: %w", err)}
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "Created a ferridriver project in %s:\n", abs)
	for _, p := range written {
		fmt.Fprintf(out, "  %s\n", p)
	}
	fmt.Fprintln(out, "\nRun the example (it starts the demo app itself, see [[webServer]] in ferridriver.toml):")
	if filepath.Clean(dir) != "." {
		fmt.Fprintf(out, "  cd %s\n", scaffold.QuoteShell(dir))
	}
	fmt.Fprintf(out, "  %s bdd\n", self)
	return nil
}

// builtinGlue is the built-in library as a glue file for editors, as
// `ferridriver steps --glue` writes it.
func builtinGlue(cmd *cobra.Command, dir string) (string, error) {
	defs, err := runner.LoadBuiltinSteps(runner.Options{Dir: dir, Library: steps.Library(), Stdout: cmd.ErrOrStderr(), Stderr: cmd.ErrOrStderr()})
	if err != nil {
		return "", &ExitError{Code: exitFailed, Err: fmt.Errorf("init: the built-in steps: %w", err)}
	}
	defer defs.Close()
	return catalogue.FromRegistry(defs.Registry()).BuiltinOnly().Glue(version), nil
}

// selfCommand is how a shell finds this ferridriver: "ferridriver" when
// that is what PATH resolves to, else the absolute path of this binary.
func selfCommand() string {
	self, err := os.Executable()
	if err != nil {
		return "ferridriver"
	}
	if onPath, err := exec.LookPath("ferridriver"); err == nil && sameFile(onPath, self) {
		return "ferridriver"
	}
	return scaffold.QuoteShell(self)
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false
	}
	return os.SameFile(fa, fb)
}
