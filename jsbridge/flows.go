package jsbridge

import (
	"errors"
	"sync"

	"github.com/dop251/goja"
)

// Reusable flows (Karate's `call` and `callonce`): a step runs the steps of
// another scenario, a flow, by its name or its feature file. The runner
// finds flows (FlowSource); module "ferridriver" gives step code flow(name),
// the flow's steps, which runStep runs in the caller's World, and
// runOnce(key, fn), which runs fn once per run, however many workers ask.

// Flow is a scenario a step can call: its steps, as a pickle has them.
type Flow struct {
	// Name is the scenario's name.
	Name string
	// URI is its feature file, relative to the project, slash-separated.
	URI string
	// Line is the scenario's line (an example row's for an outline).
	Line  int
	Steps []FlowStep
}

// FlowStep is one step of a flow.
type FlowStep struct {
	Keyword string
	Text    string
	Line    int
	// DocString is the step's doc string, if it has one.
	DocString *string
	// DataTable is the step's data table, if it has one.
	DataTable [][]string
}

// FlowSource returns the flows name stands for: a feature file (relative
// to the calling feature's directory, fromURI) gives its scenarios, a name
// the scenario tagged @flow that has it. The error says what was looked
// for and what there is.
type FlowSource func(name, fromURI string) ([]Flow, error)

// SetFlowSource lets step code find flows with flow(name) (module
// "ferridriver"). Loop goroutine only.
func (vm *VM) SetFlowSource(s FlowSource) { vm.flowSource = s }

// OnceStore keeps what runOnce computed, for every VM of a run: the first
// caller of a key runs its function; the others, in any worker, wait for
// its result (a JSON value) or its error.
type OnceStore struct {
	mu      sync.Mutex
	entries map[string]*onceEntry
}

type onceEntry struct {
	done  chan struct{}
	value string // JSON
	err   string
}

// NewOnceStore returns an empty store; share it between the VMs of one run.
func NewOnceStore() *OnceStore { return &OnceStore{entries: map[string]*onceEntry{}} }

// claim returns key's entry and whether the caller is the first (and must
// run the function and finish the entry).
func (s *OnceStore) claim(key string) (*onceEntry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.entries[key]; ok {
		return e, false
	}
	e := &onceEntry{done: make(chan struct{})}
	s.entries[key] = e
	return e, true
}

// SetOnceStore gives the VM the run's store for runOnce. Loop goroutine only.
func (vm *VM) SetOnceStore(s *OnceStore) { vm.onceStore = s }

func init() {
	RegisterModule("ferridriver", func(vm *VM) (goja.Value, error) {
		o := vm.rt.NewObject()
		o.Set("flow", vm.flowJS)
		o.Set("runOnce", vm.runOnceJS)
		return o, nil
	})
}

// flowJS is flow(name, fromURI?) of module "ferridriver": the flows name stands for,
// [{name, uri, line, steps: [{keyword, text, line, argument?}]}], where an
// argument is a doc string (a string) or a data table (rows).
func (vm *VM) flowJS(call goja.FunctionCall) goja.Value {
	rt := vm.rt
	name := call.Argument(0).String()
	if vm.flowSource == nil {
		vm.ThrowTypeError("flow(%q): flows can only be called while ferridriver bdd runs a test case", name)
	}
	// Paths are relative to the calling feature: the one given (a flow's
	// own file, when a flow calls another), else the running step's.
	from := ""
	if v := call.Argument(1); !goja.IsUndefined(v) && !goja.IsNull(v) {
		from = v.String()
	} else if s := vm.currentStep().step; s != nil {
		from = s.URI
	}
	flows, err := vm.flowSource(name, from)
	if err != nil {
		panic(vm.newError("Error", err.Error(), "ERR_NO_FLOW"))
	}
	out := make([]any, len(flows))
	for i, f := range flows {
		steps := make([]any, len(f.Steps))
		for j, st := range f.Steps {
			so := rt.NewObject()
			so.Set("keyword", st.Keyword)
			so.Set("text", st.Text)
			so.Set("line", st.Line)
			switch {
			case st.DocString != nil:
				so.Set("argument", *st.DocString)
			case st.DataTable != nil:
				rows := make([]any, len(st.DataTable))
				for k, r := range st.DataTable {
					cells := make([]any, len(r))
					for c, v := range r {
						cells[c] = v
					}
					rows[k] = rt.NewArray(cells...)
				}
				so.Set("argument", rt.NewArray(rows...))
			}
			steps[j] = so
		}
		fo := rt.NewObject()
		fo.Set("name", f.Name)
		fo.Set("uri", f.URI)
		fo.Set("line", f.Line)
		fo.Set("steps", rt.NewArray(steps...))
		out[i] = fo
	}
	return rt.NewArray(out...)
}

// onceGlue settles a first caller's entry when its function's promise does.
const onceGlue = `(function (p, ok, bad) {
  return Promise.resolve(p).then(function (v) {
    ok(JSON.stringify(v === undefined ? null : v))
    return v
  }, function (e) {
    bad(e && e.message !== undefined ? String(e.message) : String(e))
    throw e
  })
})`

type onceGlueKey struct{}

// runOnceJS is runOnce(key, fn) of module "ferridriver": the first call of
// key in the run calls fn and gives its result; every other call, in any
// worker, waits for that result (copied through JSON) or fails with its
// error.
func (vm *VM) runOnceJS(call goja.FunctionCall) goja.Value {
	rt := vm.rt
	key := call.Argument(0).String()
	fn, ok := goja.AssertFunction(call.Argument(1))
	if !ok {
		panic(rt.NewTypeError("runOnce(key, fn): fn must be a function"))
	}
	if vm.onceStore == nil {
		vm.ThrowTypeError("runOnce(%q): runOnce only works while ferridriver bdd runs", key)
	}
	e, first := vm.onceStore.claim(key)
	if !first {
		return vm.loop.Promise(func() (any, error) {
			<-e.done
			if e.err != "" {
				return nil, errors.New(e.err)
			}
			return e.value, nil
		}, func(rt *goja.Runtime, v any) (goja.Value, error) {
			// JSON.parse of the VM, not a Go map: the copy keeps the
			// object's key order, as a JSON copy does in Node.
			parse, _ := goja.AssertFunction(rt.GlobalObject().Get("JSON").ToObject(rt).Get("parse"))
			return parse(goja.Undefined(), rt.ToValue(v.(string)))
		})
	}
	var once sync.Once
	finish := func(value, msg string) {
		once.Do(func() {
			e.value, e.err = value, msg
			close(e.done)
		})
	}
	glue, _ := vm.Local(onceGlueKey{}, func() any {
		v, err := rt.RunString(onceGlue)
		if err != nil {
			panic(err)
		}
		f, _ := goja.AssertFunction(v)
		return f
	}).(goja.Callable)
	res, err := fn(goja.Undefined())
	if err != nil {
		finish("", vm.toJSError(err).Error())
		panic(err)
	}
	okFn := func(c goja.FunctionCall) goja.Value {
		finish(c.Argument(0).String(), "")
		return goja.Undefined()
	}
	badFn := func(c goja.FunctionCall) goja.Value {
		msg := c.Argument(0).String()
		if msg == "" {
			msg = "the function of runOnce(" + key + ") failed"
		}
		finish("", msg)
		return goja.Undefined()
	}
	p, err := glue(goja.Undefined(), res, rt.ToValue(okFn), rt.ToValue(badFn))
	if err != nil {
		finish("", err.Error())
		panic(err)
	}
	return p
}
