package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ferridriver/ferridriver/scaffold"
)

func init() {
	var force bool
	cmd := &cobra.Command{
		Use:   "init [dir]",
		Short: "Create a ferridriver project: config, an example feature, typed TypeScript steps",
		Long: `init writes a ready-to-run project into dir (default: the current directory):

  ferridriver.toml          [test], [browser] and a [[webServer]] serving the demo app
  features/example.feature  a first feature
  steps/world.ts            the typed World (this.page, this.request, your state)
  steps/example.ts          its step definitions (cucumber-js API, Playwright expect)
  tsconfig.json, types/     declarations of @cucumber/cucumber, @playwright/test and
                            ferridriver, so editors complete this.page. and expect(...)

It never overwrites a file unless --force is given: if any of these files
exists, nothing is written.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			return runInit(cmd, dir, force)
		},
	}
	cmd.Flags().BoolVarP(&force, "force", "f", false, "overwrite existing files")
	rootCmd.AddCommand(cmd)
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
	written, err := scaffold.Write(abs, scaffold.Options{
		Ferridriver: self,
		Force:       force,
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
