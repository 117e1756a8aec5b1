package jsbridge

import (
	"github.com/dop251/goja"
)

// StepMatcher finds the step definition that matches a step's text, as the
// runner matches a feature's steps: it returns the definition's index in
// the Registry and its arguments, or an error saying that no definition or
// several match.
type StepMatcher func(text string) (def int, args []StepArg, err error)

// SetStepMatcher lets step code run another step by its text with
// runStep(text) (module "ferridriver"): the runner gives each VM its
// matcher. Without one, runStep throws. Loop goroutine only.
func (vm *VM) SetStepMatcher(m StepMatcher) { vm.stepMatcher = m }

// matchStep is the native half of runStep: it matches text and converts
// the arguments with their parameter types, with world as the
// transformers' this. It returns {fn, length, args}; an argument may be a
// promise (an async transformer), which the prelude awaits.
func (vm *VM) matchStep(call goja.FunctionCall) goja.Value {
	rt := vm.rt
	text := call.Argument(0).String()
	world := call.Argument(1)
	if vm.stepMatcher == nil {
		vm.ThrowTypeError("runStep(%q): steps can only be run by text while ferridriver bdd runs a test case", text)
	}
	idx, args, err := vm.stepMatcher(text)
	if err != nil {
		panic(vm.newError("Error", "runStep: "+err.Error(), ""))
	}
	def := vm.registry.Steps[idx]
	vals := make([]any, len(args))
	for i, a := range args {
		v, err := vm.transformArg(a, world, func(fn goja.Callable, vals []goja.Value) (goja.Value, error) {
			return fn(world, vals...)
		})
		if err != nil {
			panic(ErrorValue(rt, vm.toJSError(err)))
		}
		vals[i] = v
	}
	o := rt.NewObject()
	o.Set("fn", def.fnValue)
	o.Set("length", def.fnLength)
	o.Set("args", rt.NewArray(vals...))
	return o
}
