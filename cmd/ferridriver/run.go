package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/ferridriver/ferridriver/jsbridge"
)

func init() {
	var (
		configFile string
		timeout    time.Duration
	)
	cmd := &cobra.Command{
		Use:   "run <script> [--] [args...]",
		Short: "Run a JS/TS script with the extensions loaded",
		Long: `Run a JavaScript or TypeScript script (bundled with esbuild: imports and
node_modules work) in a VM of host "script" (ferridriver.host === "script"),
after loading the configured extensions. The script can call any loaded tool
with await plugins["name"](args), use fetch, the [scripting.allow.commands]
commands, page and context (when a browser is available), and top-level
await. args holds the arguments after the script (process.argv is
["ferridriver", <script>, ...args]).

Exit codes: 0 the script completed; 1 it threw (the error is printed with
its stack mapped to your source) or timed out; 2 bad usage, configuration,
or a script or extension that does not bundle or load; 130 interrupted.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rest := args[1:]
			if len(rest) > 0 && rest[0] == "--" {
				rest = rest[1:]
			}
			return runScript(cmd.OutOrStdout(), cmd.ErrOrStderr(), configFile, args[0], rest, timeout)
		},
	}
	fl := cmd.Flags()
	// Everything after the script belongs to the script.
	fl.SetInterspersed(false)
	fl.StringVarP(&configFile, "config", "c", "", "config file (default: ferridriver.toml/.yaml/.json in the current directory)")
	fl.DurationVar(&timeout, "timeout", 0, "limit for the whole script, e.g. 30s (0: none)")
	addRemoteFlags(fl)
	rootCmd.AddCommand(cmd)
}

var errInterrupted = errors.New("interrupted")

func runScript(stdout, stderr io.Writer, configFile, script string, args []string, timeout time.Duration) error {
	p, err := loadProject("", configFile)
	if err != nil {
		return err
	}
	path := script
	if !filepath.IsAbs(path) {
		path = filepath.Join(p.dir, path)
	}
	if fi, err := os.Stat(path); err != nil || fi.IsDir() {
		return &ExitError{Code: exitUsage, Err: fmt.Errorf("script %s: not a file", script)}
	}
	if !jsbridge.IsSource(path) {
		return &ExitError{Code: exitUsage, Err: fmt.Errorf("script %s: not a JS/TS file (%s)", script, strings.Join(jsbridge.SourceExtensions, " "))}
	}
	set, err := jsbridge.BuildExtensions(p.dir, p.cfg.Extensions, p.cfg.Bundler.Alias)
	if err != nil {
		return &ExitError{Code: exitUsage, Err: err}
	}
	set = set.Without(path)
	bundle, err := jsbridge.Build(jsbridge.BundleOptions{Entries: []string{path}, Dir: p.dir, Alias: p.cfg.Bundler.Alias})
	if err != nil {
		return &ExitError{Code: exitUsage, Err: err}
	}
	vm, err := p.newVM(jsbridge.HostScript, stdout, stderr)
	if err != nil {
		return err
	}
	// Closing the VM kills the persistent processes the script started.
	defer vm.Close()
	// page and context: one browser page for the script, launched on first use.
	browser, err := newScriptBrowser(p.cfg)
	if err != nil {
		return &ExitError{Code: exitUsage, Err: err}
	}
	defer browser.Close()
	jsbridge.SetBrowserProvider(vm, browser)
	if errs := set.Load(vm); len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintln(stderr, "ferridriver: extension "+describeError(e))
		}
		return &ExitError{Code: exitUsage, Err: fmt.Errorf("%d extension file(s) failed to load", len(errs))}
	}
	rt := vm.Runtime()
	argv := []any{"ferridriver", path}
	jsArgs := make([]any, len(args))
	for i, a := range args {
		jsArgs[i] = a
		argv = append(argv, a)
	}
	rt.Set("args", rt.NewArray(jsArgs...))
	rt.Get("process").ToObject(rt).Set("argv", rt.NewArray(argv...))

	sigCtx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	// Deferred after stopSignals, so it runs first: stopping the signals
	// at the end does not interrupt the VM.
	defer context.AfterFunc(sigCtx, func() { vm.Interrupt(errInterrupted) })()

	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	rel := script
	if r, err := filepath.Rel(p.dir, path); err == nil && !strings.HasPrefix(r, "..") {
		rel = filepath.ToSlash(r)
	}
	err = vm.Evaluate(bundle, rel, timeout)
	if err == nil && !vm.Loop().Drain(deadline) {
		// Timers and operations still pending at the deadline.
		err = &jsbridge.TimeoutError{What: "script " + rel, Ms: timeout.Milliseconds()}
	}
	if err != nil {
		if errors.Is(err, errInterrupted) {
			return &ExitError{Code: exitInterrupted}
		}
		fmt.Fprintln(stderr, "ferridriver: "+describeError(err))
		return &ExitError{Code: exitFailed}
	}
	// As in Node, a promise rejected with nobody to handle it fails the
	// script, even though its top level completed.
	if unhandled := vm.UnhandledRejections(); len(unhandled) > 0 {
		for _, e := range unhandled {
			fmt.Fprintln(stderr, "ferridriver: unhandled promise rejection: "+describeError(e))
		}
		return &ExitError{Code: exitFailed}
	}
	return nil
}

// describeError renders a load or script error: "file:line: Type: message"
// and then the stack, mapped to the user's source.
func describeError(err error) string {
	msg := err.Error()
	var je *jsbridge.JSError
	if errors.As(err, &je) {
		if i := strings.Index(je.Stack, "\n"); i >= 0 {
			msg += je.Stack[i:]
		}
	}
	return msg
}
