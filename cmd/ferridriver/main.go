// Command ferridriver is a Cucumber-compatible BDD runner for the browser,
// an MCP server for AI agents, and a script runner, all sharing one JS/TS
// extension model.
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// rootCmd is the top-level command. Subcommands register themselves from
// their own files with rootCmd.AddCommand in an init function, so each
// command lives in one file.
var rootCmd = &cobra.Command{
	Use:           "ferridriver",
	Short:         "BDD runner for the browser, MCP server and script host",
	SilenceUsage:  true,
	SilenceErrors: true,
}

// ExitError carries a process exit code out of a command's RunE.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// Exit codes shared by every command (documented in docs/cli.md).
const (
	exitOK          = 0
	exitFailed      = 1   // a scenario / script / check failed
	exitUsage       = 2   // bad usage, config, feature file, bundle, tag expression
	exitInterrupted = 130 // SIGINT / SIGTERM
)

func main() {
	stop := startProfiles()
	code := run(os.Args[1:])
	stop()
	os.Exit(code)
}

// startProfiles writes a CPU profile to $FERRIDRIVER_CPUPROFILE and a heap
// profile to $FERRIDRIVER_MEMPROFILE (for `go tool pprof`) when they are
// set; the returned function finishes them.
func startProfiles() func() {
	var stops []func()
	if path := os.Getenv("FERRIDRIVER_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "ferridriver: FERRIDRIVER_CPUPROFILE: %v\n", err)
		} else {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if path := os.Getenv("FERRIDRIVER_MEMPROFILE"); path != "" {
		stops = append(stops, func() {
			f, err := os.Create(path)
			if err == nil {
				runtime.GC()
				err = errors.Join(pprof.WriteHeapProfile(f), f.Close())
			}
			if err != nil {
				fmt.Fprintf(os.Stderr, "ferridriver: FERRIDRIVER_MEMPROFILE: %v\n", err)
			}
		})
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}

func run(args []string) int {
	rootCmd.SetArgs(args)
	err := rootCmd.Execute()
	if err == nil {
		return exitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if ee.Err != nil {
			fmt.Fprintln(os.Stderr, "ferridriver: "+ee.Err.Error())
		}
		return ee.Code
	}
	// Anything else is a usage problem reported by cobra or a command.
	fmt.Fprintln(os.Stderr, "ferridriver: "+err.Error())
	return exitUsage
}
