package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ferridriver/ferridriver/formatters"
	"github.com/ferridriver/ferridriver/formatters/custom"
	"github.com/ferridriver/ferridriver/formatters/merge"
	"github.com/ferridriver/ferridriver/messages"
)

func init() { rootCmd.AddCommand(newReportCmd()) }

func newReportCmd() *cobra.Command {
	var (
		from          []string
		formats       []string
		formatOptions []string
		noColor       bool
		seed          string
	)
	cmd := &cobra.Command{
		Use:   "report --from run.ndjson [--from shard2.ndjson ...] [stream ...] --format name[:path] ...",
		Short: "Render reports from saved message streams",
		Long: `Report re-renders the reports of a run from its saved message stream (the
NDJSON written by --format message:run.ndjson), so a CI can produce JUnit,
JSON, HTML or any other format after the fact.

Several --from streams are the shards of one run (--shard i/n) and are merged
into one report. --from takes a file, a directory (its *.ndjson files, in
subdirectories too) or a glob (quoted or not: 'shards/*.ndjson', '**/run.ndjson');
extra arguments are more streams. Merged, they make one report: one meta, the earliest start, the latest finish, success only
if every shard succeeded; features, pickles and step definitions that every
shard repeats are kept once (see docs/reports.md).

Formats: ` + fmt.Sprint(formatters.Names()) + `, or a cucumber-js custom formatter (a module path such as
./reporter.js, or a formatter package installed in node_modules).`,
		Example: `  ferridriver report --from reports/run.ndjson --format junit:reports/junit.xml --format html:reports/report.html
  ferridriver report --from shard1.ndjson --from shard2.ndjson --format summary
  ferridriver report --from 'shards/*.ndjson' --format junit:reports/junit.xml`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// An unquoted glob after --from reaches us expanded by the
			// shell: its second and later files arrive as arguments.
			paths, err := expandStreams(append(from, args...))
			if err != nil {
				return &ExitError{Code: exitUsage, Err: err}
			}
			from = paths
			if len(from) == 0 {
				return &ExitError{Code: exitUsage, Err: errors.New("report: give at least one --from stream")}
			}
			if len(formats) == 0 {
				return &ExitError{Code: exitUsage, Err: errors.New("report: give at least one --format (e.g. junit:report.xml)")}
			}
			specs := make([]formatters.Spec, 0, len(formats))
			for _, f := range formats {
				sp, err := formatters.ParseSpec(f)
				if err != nil {
					return &ExitError{Code: exitUsage, Err: err}
				}
				specs = append(specs, sp)
			}
			fo, err := formatters.MergeFormatOptions(formatOptions)
			if err != nil {
				return &ExitError{Code: exitUsage, Err: err}
			}
			streams := make([][]*messages.Envelope, 0, len(from))
			for _, path := range from {
				envs, err := readStream(path, cmd.ErrOrStderr())
				if err != nil {
					return &ExitError{Code: exitUsage, Err: err}
				}
				streams = append(streams, envs)
			}
			envs, err := merge.Named(from, streams)
			if err != nil {
				return &ExitError{Code: exitUsage, Err: fmt.Errorf("report: %w", err)}
			}

			cwd, err := os.Getwd()
			if err != nil {
				return err
			}
			stdout := cmd.OutOrStdout()
			tty := false
			if f, ok := stdout.(*os.File); ok {
				tty = term.IsTerminal(int(f.Fd()))
			}
			base := formatters.Options{
				FormatOptions: fo, Seed: seed, Cwd: cwd,
				Color: formatters.ResolveColor(tty, noColor, fo),
				// Custom formatters render saved streams too; with no
				// project loaded, their process.env is empty.
				Custom: custom.Factory(custom.Options{Dir: cwd, Stdout: stdout, Stderr: cmd.ErrOrStderr()}),
			}
			set, err := formatters.NewSet(specs, base, stdout, cmd.ErrOrStderr(), tty)
			if err != nil {
				return &ExitError{Code: exitUsage, Err: err}
			}
			for _, e := range envs {
				set.Handle(e)
			}
			set.Close()
			if set.Failed() {
				return &ExitError{Code: exitFailed}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&from, "from", nil, "saved message stream (NDJSON), directory of streams, or glob; repeat for the shards of one run")
	fl.StringArrayVarP(&formats, "format", "f", nil, "report to write: name[:path] (stdout without a path); repeatable")
	fl.StringArrayVar(&formatOptions, "format-options", nil, `format options as a JSON object, e.g. '{"junit":{"suiteName":"e2e"}}'; repeatable, merged`)
	fl.BoolVar(&noColor, "no-color", false, "no ANSI colours in terminal formats")
	fl.StringVar(&seed, "seed", "", "random order seed to print in the summary")
	return cmd
}

// readStream reads a whole NDJSON message stream. A stream cut in the
// middle of its last line (a killed run's) is read up to that line, with a
// note on warn: its reports show what ran, unfinished test cases as such.
func readStream(path string, warn io.Writer) ([]*messages.Envelope, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	defer f.Close()
	envs, err := messages.ReadAll(f, path)
	var cut *messages.CutError
	if errors.As(err, &cut) {
		fmt.Fprintf(warn, "ferridriver: report: %v; its last line is left out\n", cut)
		err = nil
	}
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	if len(envs) == 0 {
		return nil, fmt.Errorf("report: %s holds no messages", path)
	}
	return envs, nil
}

// expandStreams turns the --from values into stream files: a glob gives
// its matches, a directory its *.ndjson files (recursively), a file
// itself; each file once, in the order given (a glob's or directory's
// matches sorted). A glob or directory with no stream is an error, so a
// CI job whose shards uploaded nothing fails loudly.
func expandStreams(specs []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, spec := range specs {
		var matches []string
		var err error
		switch fi, statErr := os.Stat(spec); {
		case statErr == nil && fi.IsDir():
			matches, err = doublestar.FilepathGlob(filepath.Join(spec, "**", "*.ndjson"))
			if err == nil && len(matches) == 0 {
				return nil, fmt.Errorf("report: --from %s: no *.ndjson stream in that directory", spec)
			}
		case statErr == nil || !strings.ContainsAny(spec, "*?[{"):
			add(spec) // a file (a missing one is reported when read)
			continue
		default:
			matches, err = doublestar.FilepathGlob(spec)
			if err == nil && len(matches) == 0 {
				return nil, fmt.Errorf("report: --from %s: no file matches that pattern", spec)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("report: --from %s: %w", spec, err)
		}
		sort.Strings(matches)
		for _, m := range matches {
			add(m)
		}
	}
	return out, nil
}
