package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ferridriver/ferridriver/config"
	"github.com/ferridriver/ferridriver/formatters"
	"github.com/ferridriver/ferridriver/formatters/custom"
	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/runner"
	"github.com/ferridriver/ferridriver/steps"
	"github.com/ferridriver/ferridriver/world/install"
	"github.com/ferridriver/ferridriver/world/webserver"
)

// bddFlags are the flags of `ferridriver bdd`, named as cucumber-js names them.
type bddFlags struct {
	configFile      string
	tags            []string
	names           []string
	parallel        int
	retry           int
	retryTagFilter  string
	order           string
	dryRun          bool
	failFast        bool
	updateSnapshots string
	strict          bool
	noStrict        bool
	worldParameters string
	language        string
	formats         []string
	formatOptions   []string
	imports         []string
	shard           string
	noColor         bool
	profiles        []string
	printConfig     bool
	attachmentLimit int
	memoryLimit     int
	timeout         string
	cucumber        cucumberCLIFlags
}

func init() {
	var f bddFlags
	cmd := &cobra.Command{
		Use:   "bdd [paths...]",
		Short: "Run Gherkin features with JS/TS step definitions",
		Long: `Run Gherkin features with JavaScript/TypeScript step definitions, as cucumber-js
does, and report them as Cucumber Messages and every format CI reads.

Options come from the project's cucumber-js configuration (cucumber.js,
.cjs, .mjs, .json, .yaml, .yml; --profile), ferridriver.toml, FERRIDRIVER_*
variables and these flags, each winning over the previous one
(--print-config shows the result).

Paths are feature files, directories, globs, file.feature:LINE[:LINE] or
@rerun.txt files (default: features/**/*.feature and *.feature.md).

Exit codes: 0 all passed; 1 a scenario failed (or was undefined, ambiguous,
or pending under --strict); 2 bad usage, configuration, feature file, step
file or tag expression; 130 interrupted.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBDD(cmd, args, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.configFile, "config", "c", "", "config file (default: ferridriver.toml/.yaml/.json in the current directory)")
	fl.StringArrayVarP(&f.tags, "tags", "t", nil, "only run pickles matching this tag expression (repeatable: all must match)")
	fl.StringArrayVar(&f.names, "name", nil, "only run scenarios whose name matches this regular expression (repeatable: any may match)")
	fl.IntVar(&f.parallel, "parallel", 0, "number of parallel workers")
	fl.IntVar(&f.retry, "retry", 0, "retry failing test cases up to N times")
	fl.StringVar(&f.retryTagFilter, "retry-tag-filter", "", "only retry test cases matching this tag expression")
	fl.StringVar(&f.order, "order", "", "run order: defined, reverse, random or random:SEED")
	fl.BoolVarP(&f.dryRun, "dry-run", "d", false, "report steps without running them")
	fl.BoolVar(&f.failFast, "fail-fast", false, "stop after the first failing test case")
	fl.StringVarP(&f.updateSnapshots, "update-snapshots", "u", "", `write the baselines of toHaveScreenshot and toMatchSnapshot: "all", "changed" (the flag alone), "missing" (without the flag) or "none"`)
	fl.Lookup("update-snapshots").NoOptDefVal = "changed"
	fl.BoolVar(&f.strict, "strict", false, "fail if there are pending steps (default)")
	fl.BoolVar(&f.noStrict, "no-strict", false, "succeed even if there are pending steps")
	fl.StringVar(&f.worldParameters, "world-parameters", "", "JSON object given to the World as this.parameters (merged over the config's)")
	fl.StringVar(&f.language, "language", "", "default language of feature files (e.g. fr)")
	fl.StringArrayVarP(&f.formats, "format", "f", nil, "output format NAME[:PATH] (repeatable), e.g. junit:reports/junit.xml; NAME may be a custom formatter (./reporter.js, a formatter package)")
	fl.StringArrayVar(&f.formatOptions, "format-options", nil, "JSON object of format options (repeatable, merged)")
	fl.StringArrayVarP(&f.imports, "import", "i", nil, "step definition / support file or glob (repeatable)")
	fl.StringArrayVarP(&f.imports, "require", "r", nil, "alias of --import")
	fl.StringVar(&f.shard, "shard", "", "run shard INDEX/TOTAL of the test cases, e.g. 1/3")
	fl.StringVar(&f.timeout, "timeout", "", "default timeout of steps and hooks: milliseconds or a duration such as 30s, 0 for none ([test] timeout; setDefaultTimeout and a step's { timeout } win)")
	addRemoteFlags(fl)
	fl.BoolVar(&f.noColor, "no-color", false, "disable colours")
	fl.StringArrayVarP(&f.profiles, "profile", "p", nil, "cucumber-js configuration profile to use (repeatable, merged in order)")
	fl.BoolVar(&f.printConfig, "print-config", false, "print the resolved configuration and where each value came from, then exit")
	fl.IntVar(&f.attachmentLimit, "attachment-limit", runner.DefaultAttachmentLimit>>20, "largest attachment a step may make, MiB (0: no limit)")
	fl.IntVar(&f.memoryLimit, "memory-limit", runner.DefaultMemoryLimit>>20, "MiB a step or hook may grow ferridriver's heap by while it runs; past it the step fails (0: no limit)")
	addCucumberCLIFlags(fl, &f.cucumber)
	rootCmd.AddCommand(cmd)
}

func runBDD(cmd *cobra.Command, args []string, f *bddFlags) error {
	// Signals are caught before any report file exists: an interrupt at
	// any moment (loading, starting the app, running) ends with complete
	// reports of what ran, never a half-written file.
	ctx, stop := interruptContext()
	defer stop()
	if done, err := f.cucumber.printed(cmd.OutOrStdout()); done {
		return err
	}
	startupDone := startupGC()
	p, err := loadBDDProject(f.configFile, f.profiles)
	if err != nil {
		return err
	}
	dir, cfg := p.dir, p.cfg
	if cmd.Flags().Changed("update-snapshots") {
		if err := config.ValidUpdateSnapshots(f.updateSnapshots); err != nil {
			return &ExitError{Code: exitUsage, Err: fmt.Errorf("--update-snapshots: %w", err)}
		}
		cfg.Test.UpdateSnapshots = f.updateSnapshots
	}
	opts, formatSpecs, formatOptions, err := bddOptions(cmd, args, f, cfg)
	if err != nil {
		return &ExitError{Code: exitUsage, Err: err}
	}
	if f.printConfig {
		return printConfig(cmd.OutOrStdout(), cmd, cfg, opts, formatSpecs, formatOptions)
	}
	// After --print-config, which shows the configuration even when a
	// page-object file is broken.
	if opts.Library, err = builtinSteps(cfg); err != nil {
		return &ExitError{Code: exitUsage, Err: err}
	}
	if cc := cfg.Cucumber; cc != nil {
		for _, note := range cc.Notes {
			fmt.Fprintf(cmd.ErrOrStderr(), "ferridriver: %s: %s\n", cc.File, note)
		}
	}
	for _, note := range f.cucumber.notes(cmd) {
		fmt.Fprintf(cmd.ErrOrStderr(), "ferridriver: %s\n", note)
	}
	opts.Env, opts.ScriptCommands, opts.OnHiddenEnv = p.env, p.scriptCommands, p.hiddenEnv
	opts.Cache = bundleCache(cmd.ErrOrStderr())
	stderr := cmd.ErrOrStderr()
	stdout := cmd.OutOrStdout()
	opts.Stdout, opts.Stderr = stdout, stderr

	env, err := newEnvironment(cfg, opts.Parallel)
	if err != nil {
		return &ExitError{Code: exitUsage, Err: err}
	}
	defer env.Close()
	opts.Environment = env
	run, err := runner.Prepare(opts)
	startupDone()
	if err != nil {
		return &ExitError{Code: exitUsage, Err: err}
	}
	if seed := run.Seed(); seed != "" {
		fmt.Fprintf(stderr, "ferridriver: random order with seed %s (reproduce with --order random:%s)\n", seed, seed)
	}

	isTTY := false
	if file, ok := stdout.(*os.File); ok {
		isTTY = term.IsTerminal(int(file.Fd()))
	}
	set, err := formatters.NewSet(formatSpecs, formatters.Options{
		Color:         colorEnabled(isTTY, f.noColor, formatOptions),
		FormatOptions: formatOptions,
		Seed:          run.Seed(),
		Cwd:           dir,
		Custom: custom.Factory(custom.Options{
			Dir: dir, Env: p.env, Stdout: stdout, Stderr: stderr, Alias: cfg.Bundler.Alias, Cache: opts.Cache,
		}),
	}, stdout, stderr, isTTY)
	if err != nil {
		return &ExitError{Code: exitUsage, Err: err}
	}

	// The app under test, as Playwright's webServer: started before the
	// first test case, stopped after the last. A dry run runs no step, so
	// it starts none (as cucumber-js --dry-run and playwright --list); nor
	// does a run interrupted already (it reports that nothing ran).
	servers := &webserver.Group{}
	if !opts.DryRun && ctx.Err() == nil {
		// The servers run in process groups of their own, out of reach of
		// a terminal's Ctrl-C: a forced exit must take them down, also
		// one that comes while they are starting.
		onForcedExit(servers.Kill)
		if err = servers.Start(ctx, cfg.WebServer, webserver.Options{Output: stderr, BaseDir: dir}); err != nil && ctx.Err() == nil {
			set.Close()
			return &ExitError{Code: exitUsage, Err: fmt.Errorf("webServer: %w", err)}
		}
	}
	res := run.Execute(ctx, set)
	set.Close()
	servers.Stop()
	switch {
	// ctx is cancelled only by an interrupt, which may have come before
	// the run began (while a webServer started): the run did not see it.
	case res.Interrupted || ctx.Err() != nil:
		return &ExitError{Code: exitInterrupted}
	case !res.Success:
		return &ExitError{Code: exitFailed}
	case set.Failed():
		return &ExitError{Code: exitUsage, Err: errors.New("some reports could not be written (see above)")}
	}
	return nil
}

// forcedExit holds what must be killed when a second interrupt exits at
// once, skipping the deferred clean-up.
var forcedExit struct {
	sync.Mutex
	hooks []func()
}

// onForcedExit registers f to run before a forced exit.
func onForcedExit(f func()) {
	forcedExit.Lock()
	defer forcedExit.Unlock()
	forcedExit.hooks = append(forcedExit.hooks, f)
}

// signalBurst is how long after the first signal more signals are taken
// as part of the same interrupt: `timeout` sends SIGINT to its child and
// then to the whole process group, and a terminal's Ctrl-C reaches every
// process of the job, so one interrupt may arrive twice within
// microseconds. Only a signal after this counts as "exit now".
const signalBurst = time.Second

// interruptContext is cancelled by the first SIGINT/SIGTERM, so the run
// stops and still completes its reports; a second signal, a moment
// later, exits at once.
func interruptContext() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-sigs:
		case <-ctx.Done():
			return
		}
		first := time.Now()
		fmt.Fprintln(os.Stderr, "\nferridriver: interrupted, finishing reports (press Ctrl-C again to exit now)")
		cancel()
		for range sigs {
			if time.Since(first) >= signalBurst {
				forcedExit.Lock()
				for _, f := range forcedExit.hooks {
					f()
				}
				os.Exit(exitInterrupted)
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		cancel()
	}
}

// builtinSteps is the built-in step library with the project's [steps]
// data (values, page objects), unless [test] builtinSteps turns it off.
func builtinSteps(cfg *config.Config) (*jsbridge.Library, error) {
	if !cfg.Test.BuiltinStepsOrDefault() {
		return nil, nil
	}
	return steps.ForProject(cfg.Dir, cfg.Steps.Pages, cfg.Steps.Values)
}

// bddOptions merges the configuration and the flags (flags win).
func bddOptions(cmd *cobra.Command, args []string, f *bddFlags, cfg *config.Config) (runner.Options, []formatters.Spec, map[string]any, error) {
	t := cfg.Test
	changed := cmd.Flags().Changed
	opts := runner.Options{
		Dir:             cfg.Dir,
		Paths:           t.Features,
		FlowPaths:       t.Features,
		Steps:           t.Steps,
		Extensions:      cfg.Extensions,
		Alias:           cfg.Bundler.Alias,
		Tags:            t.Tags,
		Names:           t.Name,
		Parallel:        t.Parallel,
		Retry:           t.Retry,
		RetryTagFilter:  t.RetryTagFilter,
		Strict:          t.StrictOrDefault(),
		DryRun:          t.DryRun,
		FailFast:        t.FailFast,
		Order:           t.Order,
		Language:        t.Language,
		WorldParameters: t.WorldParameters,
		Shard:           t.Shard,
	}
	if len(args) > 0 {
		opts.Paths = args
	}
	if changed("tags") {
		// Tags from the config and the command line must all match, as
		// cucumber-js merges them.
		opts.Tags = append(append([]string{}, t.Tags...), f.tags...)
	}
	if changed("name") {
		opts.Names = f.names
	}
	if changed("parallel") {
		opts.Parallel = f.parallel
	}
	if changed("retry") {
		opts.Retry = f.retry
	}
	if changed("retry-tag-filter") {
		opts.RetryTagFilter = f.retryTagFilter
	}
	if changed("order") {
		opts.Order = f.order
	}
	if changed("dry-run") {
		opts.DryRun = f.dryRun
	}
	if changed("fail-fast") {
		opts.FailFast = f.failFast
	}
	if changed("strict") {
		opts.Strict = f.strict
	}
	if changed("no-strict") && f.noStrict {
		opts.Strict = false
	}
	if changed("language") {
		opts.Language = f.language
	}
	if changed("shard") {
		opts.Shard = f.shard
	}
	if changed("import") || changed("require") {
		opts.Steps = f.imports
	}
	opts.AttachmentLimit = limitOption(t.AttachmentLimit, changed("attachment-limit"), f.attachmentLimit)
	opts.MemoryLimit = limitOption(t.MemoryLimit, changed("memory-limit"), f.memoryLimit)
	if f.attachmentLimit < 0 || f.memoryLimit < 0 {
		return opts, nil, nil, errors.New("--attachment-limit and --memory-limit must be >= 0 (MiB; 0: no limit)")
	}
	if t.Timeout != nil {
		opts.StepTimeout = stepTimeout(*t.Timeout)
		switch cfg.SourceOf("test.timeout") {
		case config.SourceEnv:
			opts.StepTimeoutSource = "FERRIDRIVER_TEST_TIMEOUT=" + os.Getenv("FERRIDRIVER_TEST_TIMEOUT")
		default:
			opts.StepTimeoutSource = fmt.Sprintf("[test] timeout = %v in %s", *t.Timeout, relTo(cfg.Dir, cfg.File))
		}
	}
	if changed("timeout") {
		ms, err := parseTimeoutFlag(f.timeout)
		if err != nil {
			return opts, nil, nil, err
		}
		opts.StepTimeout, opts.StepTimeoutSource = stepTimeout(ms), "--timeout "+f.timeout
	}
	if opts.Parallel < 0 || opts.Retry < 0 {
		return opts, nil, nil, errors.New("--parallel and --retry must be >= 0")
	}
	if f.worldParameters != "" {
		var wp map[string]any
		if err := json.Unmarshal([]byte(f.worldParameters), &wp); err != nil {
			return opts, nil, nil, fmt.Errorf("--world-parameters: not a JSON object: %v", err)
		}
		merged := map[string]any{}
		for k, v := range opts.WorldParameters {
			merged[k] = v
		}
		for k, v := range wp {
			merged[k] = v
		}
		opts.WorldParameters = merged
	}

	formatOptions := map[string]any{}
	for k, v := range t.FormatOptions {
		formatOptions[k] = v
	}
	cliOptions, err := formatters.MergeFormatOptions(f.formatOptions)
	if err != nil {
		return opts, nil, nil, err
	}
	for k, v := range cliOptions {
		formatOptions[k] = v
	}
	if si, ok := formatOptions["snippetInterface"].(string); ok {
		opts.SnippetInterface = si
	}
	var specs []formatters.Spec
	raw := append(append([]string{}, t.Format...), f.formats...)
	if changed("format") {
		raw = f.formats
	}
	toStdout := false
	for _, s := range raw {
		sp, err := formatters.ParseSpec(s)
		if err != nil {
			return opts, nil, nil, err
		}
		sp = formatName(cfg.Dir, sp)
		toStdout = toStdout || sp.Path == ""
		specs = append(specs, sp)
	}
	if !toStdout {
		// Users always see progress on the terminal unless they chose
		// another format for it.
		specs = append([]formatters.Spec{{Name: "progress"}}, specs...)
	}
	return opts, specs, formatOptions, nil
}

// limitOption is a runner limit (bytes; 0 the default, negative none)
// from a [test] key and a flag in MiB, the flag winning; 0 MiB is none.
func limitOption(key *int, flagSet bool, flag int) int64 {
	mib := -1
	switch {
	case flagSet:
		mib = flag
	case key != nil:
		mib = *key
	}
	switch {
	case mib < 0:
		return 0 // the runner's default
	case mib == 0:
		return -1
	}
	return int64(mib) << 20
}

// formatName maps the name of a format (the command line's or the
// cucumber-js configuration's) to the one ferridriver runs: the built-in
// formats under their names, and any other name is a custom formatter (a
// module path or a package, formatters/custom). One exception:
// `@cucumber/pretty-formatter` is a formatter package only in its 1.x
// releases (cucumber-js 7-9); later releases are the library behind
// cucumber-js's own `pretty`, which is what a project naming it without
// such a release installed gets.
func formatName(dir string, sp formatters.Spec) formatters.Spec {
	if sp.Name == "@cucumber/pretty-formatter" && !prettyFormatterPackage(dir) {
		sp.Name = "pretty"
	}
	return sp
}

// prettyFormatterPackage says whether the @cucumber/pretty-formatter that
// dir's code would import is a 1.x release (a formatter class).
func prettyFormatterPackage(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "node_modules", "@cucumber", "pretty-formatter", "package.json"))
		if err == nil {
			var pkg struct{ Version string }
			return json.Unmarshal(data, &pkg) == nil && strings.HasPrefix(pkg.Version, "1.")
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// stepTimeout converts a [test] timeout in ms into runner.Options's
// StepTimeout (0 ms: none, which the runner takes as negative).
func stepTimeout(ms float64) time.Duration {
	if ms == 0 {
		return -1
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// parseTimeoutFlag reads --timeout: milliseconds ("15000") or a duration
// ("15s", "1m30s"), as `run --timeout` and `mcp --timeout` take.
func parseTimeoutFlag(s string) (float64, error) {
	if ms, err := strconv.ParseFloat(s, 64); err == nil && ms >= 0 {
		return ms, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("--timeout %q: want milliseconds (15000) or a duration (15s), 0 for none", s)
	}
	return float64(d) / float64(time.Millisecond), nil
}

// colorEnabled decides ANSI colours: on a terminal, unless NO_COLOR, the
// --no-color flag or the colorsEnabled format option says otherwise.
func colorEnabled(isTTY, noColor bool, formatOptions map[string]any) bool {
	if v, ok := formatOptions["colorsEnabled"].(bool); ok {
		return v && !noColor
	}
	if noColor || os.Getenv("NO_COLOR") != "" {
		return false
	}
	return isTTY
}

// startupGC turns the garbage collector off while a run starts (loading
// the configuration, bundling, compiling and evaluating the step files),
// under a memory limit, unless GOGC or GOMEMLIMIT is set; the returned
// function restores the collector's settings. Start-up allocates a few
// tens of MB, most of it garbage at once (the compilers' trees), and the
// collections it triggered took a fifth of a small suite's start-up.
func startupGC() (done func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	gogc := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(startupMemoryLimit)
	return func() {
		debug.SetGCPercent(gogc)
		debug.SetMemoryLimit(limit)
	}
}

// startupMemoryLimit bounds the heap while the collector is off at
// start-up: reaching it collects as usual.
const startupMemoryLimit = 256 << 20

// envBundleCache is the directory of the cache of bundles (default: the
// bundles directory of ferridriver's cache directory), or "off".
const envBundleCache = "FERRIDRIVER_BUNDLE_CACHE"

// bundleCache is the cache of bundles and of the built-in library's index
// (docs/cli.md); nil when turned off. A cache that cannot be created is
// said once, and the run goes on without it.
func bundleCache(stderr io.Writer) *jsbridge.Cache {
	dir := os.Getenv(envBundleCache)
	switch dir {
	case "off", "0", "false":
		return nil
	case "":
		root, err := install.CacheDir("")
		if err != nil {
			fmt.Fprintf(stderr, "ferridriver: running without the bundle cache: %v\n", err)
			return nil
		}
		dir = filepath.Join(root, "bundles")
	}
	c, err := jsbridge.OpenCache(dir)
	if err != nil {
		fmt.Fprintf(stderr, "ferridriver: running without the bundle cache: %v\n", err)
		return nil
	}
	return c
}
