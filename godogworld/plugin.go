package godogworld

import (
	"context"
	"reflect"
	"regexp"
	"unsafe"

	"github.com/cucumber/godog"

	"github.com/ferridriver/ferridriver/world"
)

// A Plugin adds step definitions, and work around each scenario, to a
// Suite (Options.Plugins). Package godogworld/jssteps is one: the
// project's JavaScript and TypeScript steps, run in a VM per worker.
//
// The Suite gives each concurrently running scenario a slot with one
// worker of every plugin (NewWorker, made when a slot is first needed and
// reused by later scenarios); a worker serves one scenario at a time.
type Plugin interface {
	// Steps are the plugin's step definitions, registered with godog for
	// every scenario after the suite's own steps; step i runs in the
	// scenario's worker as RunStep(ctx, i, ...).
	Steps() []PluginStep
	// NewWorker makes the worker of slot id (also the slot's worker id at
	// the launcher, l).
	NewWorker(id int, l *world.Launcher) (PluginWorker, error)
	// Close runs when the Suite closes, after every worker was closed.
	Close() error
}

// PluginStep is a step definition of a Plugin.
type PluginStep struct {
	// Expr is the regular expression godog matches steps with.
	Expr *regexp.Regexp
	// File and Line locate the definition; godog's formatters show them
	// (pretty's "# file:line", cucumber JSON's match location) and the
	// "message" formatter reports them as the step definition's source.
	File string
	Line int
}

// PluginWorker is a Plugin's share of one slot.
type PluginWorker interface {
	// Begin starts a scenario on the worker, after its page was created
	// and before the suite's Before hooks run; an error fails the
	// scenario. The attachments go to the scenario's first step.
	Begin(ctx context.Context, sc *PluginScenario) ([]godog.Attachment, error)
	// RunStep runs the plugin's step definition def for step, godog's
	// step being run (its text and argument); the attachments go to the
	// step.
	RunStep(ctx context.Context, def int, sc *PluginScenario, step *godog.Step) ([]godog.Attachment, error)
	// End ends the scenario, after the suite's After hooks and before its
	// browser context is closed; sc.Err is the scenario's error. The
	// attachments go to the scenario's last step.
	End(sc *PluginScenario) ([]godog.Attachment, error)
	// Close releases the worker when the Suite closes.
	Close() error
}

// PluginScenario is what a PluginWorker knows of the running scenario.
type PluginScenario struct {
	Pickle *godog.Scenario
	// Session is the scenario's browser session (its context and page).
	Session *world.Session
	World   *World
	// Err is the scenario's error, set before End.
	Err error
}

// setStepLocation makes godog report the step definition it registered
// last on sc at file:line instead of the Go line that registered it
// (godog takes the location from the caller of ScenarioContext.Step,
// which for a plugin's step is this package). godog has no API for it, so
// the definition's File and Line are set through reflection on godog's
// unexported registry (checked by TestJavaScriptStepLocation): when a
// godog version changes that shape the location stays the Go one.
func setStepLocation(sc *godog.ScenarioContext, file string, line int) {
	if file == "" || sc == nil {
		return
	}
	suite := reflect.ValueOf(sc).Elem().FieldByName("suite")
	if suite.Kind() != reflect.Pointer || suite.IsNil() || suite.Elem().Kind() != reflect.Struct {
		return
	}
	steps := suite.Elem().FieldByName("steps")
	if steps.Kind() != reflect.Slice || steps.Len() == 0 {
		return
	}
	def := steps.Index(steps.Len() - 1)
	if def.Kind() != reflect.Pointer || def.IsNil() || def.Elem().Kind() != reflect.Struct {
		return
	}
	f, l := def.Elem().FieldByName("File"), def.Elem().FieldByName("Line")
	if f.Kind() != reflect.String || l.Kind() != reflect.Int || !f.CanAddr() || !l.CanAddr() {
		return
	}
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().SetString(file)
	reflect.NewAt(l.Type(), unsafe.Pointer(l.UnsafeAddr())).Elem().SetInt(int64(line))
}
