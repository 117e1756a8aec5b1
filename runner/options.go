// Package runner is ferridriver's BDD engine: it discovers and parses
// feature files, loads step definitions into JS VMs (via jsbridge), plans
// test cases (filtering, ordering, sharding, matching), runs them on
// parallel workers with cucumber-js semantics, and reports everything as
// one stream of Cucumber Messages envelopes.
//
// The stream is the only output: formatters consume it and never reach
// back into the runner.
package runner

import (
	"io"
	"time"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/messages"
)

// DefaultStepPaths are the step-file globs used when none are configured:
// ferridriver's own layout and cucumber-js's default (support code next to
// the features), so an existing cucumber-js suite runs unchanged.
var DefaultStepPaths = []string{
	"steps/**/*.{js,ts}",
	"step_definitions/**/*.{js,ts}",
	"features/**/*.{js,cjs,mjs,ts,cts,mts}",
}

// The defaults of Options.AttachmentLimit and Options.MemoryLimit.
const (
	DefaultAttachmentLimit = 64 << 20
	DefaultMemoryLimit     = 1 << 30
)

// limitOrDefault resolves a limit of Options: 0 is def, a negative value
// none (0 for the VM).
func limitOrDefault(v, def int64) int64 {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// Options configure a run. The CLI fills them from ferridriver.toml,
// FERRIDRIVER_* variables and flags.
type Options struct {
	// Dir is the project directory; relative paths are resolved against it
	// and URIs in messages are relative to it.
	Dir string
	// Paths select features: directories, globs, "file.feature:LINE" and
	// "@rerun.txt" (default: DefaultFeaturePaths).
	Paths []string
	// FlowPaths are where flows a step calls by name are looked for when
	// the run's features have none of that name: the project's features
	// ([test] features), so that a run of one file finds the project's
	// flows (default: Paths).
	FlowPaths []string
	// Steps are step-file globs (default: DefaultStepPaths).
	Steps []string
	// Extensions are extension files or directories, bundled with the steps.
	Extensions []string
	// Alias maps import specifiers to others when bundling.
	Alias map[string]string
	// Library is the built-in step library (steps.Library()), bundled
	// before the step files; nil for none. A project step definition that
	// matches a step's text wins over the library's.
	Library *jsbridge.Library
	// Tags are tag expressions a pickle must all match.
	Tags []string
	// Names are regular expressions; a pickle's name must match one.
	Names []string
	// Parallel is the number of workers (0 or 1: one).
	Parallel int
	// Retry is how many times a failed test case is retried.
	Retry int
	// RetryTagFilter limits retries to pickles matching this tag expression.
	RetryTagFilter string
	// StepTimeout is the default timeout of steps and hooks ([test]
	// timeout) until code calls setDefaultTimeout; zero means cucumber-js's
	// 5 s, negative none. StepTimeoutSource names the setting in timeout
	// messages ("[test] timeout in ferridriver.toml", "--timeout").
	StepTimeout       time.Duration
	StepTimeoutSource string
	// Strict makes pending steps fail the run (undefined and ambiguous
	// steps always do).
	Strict bool
	// DryRun reports steps without running any step or hook.
	DryRun bool
	// FailFast stops starting test cases after the first failure.
	FailFast bool
	// Order is "defined", "reverse" or "random[:seed]".
	Order string
	// Language is the default Gherkin dialect.
	Language string
	// WorldParameters is this.parameters of every World.
	WorldParameters map[string]any
	// Shard is "i/n": run the i-th of n round-robin shards.
	Shard string
	// Env is process.env in the VMs.
	Env map[string]string
	// OnHiddenEnv is called when step code reads a variable Env does not
	// hold (jsbridge.VMOptions.OnHiddenEnv); nil for none.
	OnHiddenEnv func(name string)
	// ScriptCommands are the commands step code may run ([scripting.allow]
	// commands), through the global `commands`.
	ScriptCommands *capability.CommandSet
	// SnippetInterface shapes snippets of undefined steps (see Snippet*).
	SnippetInterface string
	// Stdout and Stderr receive console output of user code.
	Stdout, Stderr io.Writer
	// Environment plugs a test environment (the browser) into the workers.
	Environment Environment
	// AttachmentLimit is the largest attachment step code may make
	// (bytes): 0 means DefaultAttachmentLimit, a negative value no limit.
	AttachmentLimit int64
	// MemoryLimit is how much a step or hook may grow the process's heap
	// while it runs (bytes), past which it is stopped and fails: 0 means
	// DefaultMemoryLimit, a negative value no limit.
	MemoryLimit int64
	// Cache keeps bundles between runs and what the built-in library
	// registers, so that a run whose features use none of the library's
	// steps does not load it (see builtins.go); nil for none: the library
	// is then always loaded.
	Cache *jsbridge.Cache
}

// Environment gives each worker what its test cases need beyond the JS
// VM (the browser world implements it). It must be safe for concurrent use
// by the workers.
type Environment interface {
	// Worker prepares worker id's VM (world hooks, modules state) and
	// returns the hooks that follow its test cases.
	Worker(id int, vm *jsbridge.VM) (WorkerEnvironment, error)
	// Close releases what the environment started (browsers...).
	Close() error
}

// WorkerEnvironment follows one worker's test cases. All methods are called
// on the worker's goroutine.
type WorkerEnvironment interface {
	// BeginTestCase is called before the World of an attempt is built.
	BeginTestCase(pickle *messages.Pickle, attempt int)
	// StepFailed is called while a failing step is still open; what it
	// returns (a screenshot) is attached to that step.
	StepFailed() []*messages.Attachment
	// EndTestCase is called after the After hooks; what it returns (a
	// trace) is attached to the test case's last step.
	EndTestCase(failed bool) []*messages.Attachment
	// Close is called when the worker stops.
	Close()
}
