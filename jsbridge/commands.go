package jsbridge

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// commandsObject builds a `commands` object: for a handler (owner set),
// the tool's own allow.commands, usable only in its frame; for first-party
// code (owner nil, the global), [scripting.allow.commands], usable only
// outside every tool frame, so that no handler inherits it. Each verb
// returns a promise; the process work runs off the loop.
func (vm *VM) commandsObject(owner *ToolFrame) *goja.Object {
	rt := vm.rt
	o := rt.NewObject()
	// bind resolves, at call time, the commands view the caller may use.
	bind := func(verb string) (*capability.Commands, context.Context, func()) {
		st := vm.toolsOf()
		cur := CurrentFrame(vm)
		if owner == nil {
			if cur != nil {
				vm.Throw(fmt.Errorf("commands.%s: the global commands object is first-party ([scripting.allow.commands]); tool %q must use its handler's ctx.commands (its own allow.commands)", verb, cur.tool.Name))
			}
			ctx, cancel := context.WithCancel(st.baseCtx)
			return st.commandSession().For("", st.scriptCommands), ctx, cancel
		}
		if cur != owner {
			vm.Throw(fmt.Errorf("commands.%s: the commands of tool %q can only be used by that tool's handler", verb, owner.tool.Name))
		}
		if err := owner.revoked(); err != nil {
			vm.Throw(err)
		}
		ctx, cancel := context.WithCancelCause(st.baseCtx)
		stop := context.AfterFunc(owner.ctx, func() { cancel(owner.revoked()) })
		return st.commandSession().For(owner.tool.Name, owner.tool.Allow.Commands), ctx, func() { stop(); cancel(nil) }
	}
	name := func(verb string, call goja.FunctionCall) string {
		n, ok := call.Argument(0).Export().(string)
		if !ok || n == "" {
			panic(rt.NewTypeError(fmt.Sprintf("commands.%s: the first argument must be a command name", verb)))
		}
		return n
	}
	vars := func(verb string, v goja.Value) map[string]any {
		if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
			return nil
		}
		o, ok := v.(*goja.Object)
		if !ok || o.ClassName() == "Array" {
			panic(rt.NewTypeError(fmt.Sprintf("commands.%s: vars must be an object mapping placeholder names to strings, numbers or booleans", verb)))
		}
		m := map[string]any{}
		for _, k := range o.Keys() {
			// {v: undefined} is a missing value, as JSON would have it.
			if v := o.Get(k); !goja.IsUndefined(v) {
				m[k] = v.Export()
			}
		}
		return m
	}
	toJS := func(rt *goja.Runtime, v any) (goja.Value, error) {
		if v == nil {
			return goja.Null(), nil
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		return vm.FromJSON(string(b)), nil
	}
	o.Set("run", func(call goja.FunctionCall) goja.Value {
		n, vs := name("run", call), vars("run", call.Argument(1))
		cmds, ctx, done := bind("run")
		return vm.loop.Promise(func() (any, error) {
			defer done()
			return cmds.Run(ctx, n, vs)
		}, toJS)
	})
	o.Set("start", func(call goja.FunctionCall) goja.Value {
		n, vs := name("start", call), vars("start", call.Argument(1))
		cmds, _, done := bind("start")
		return vm.loop.Promise(func() (any, error) {
			defer done()
			return cmds.Start(n, vs)
		}, toJS)
	})
	o.Set("status", func(call goja.FunctionCall) goja.Value {
		n := name("status", call)
		cmds, _, done := bind("status")
		return vm.loop.Promise(func() (any, error) {
			defer done()
			return cmds.Status(n)
		}, toJS)
	})
	o.Set("stop", func(call goja.FunctionCall) goja.Value {
		n := name("stop", call)
		cmds, _, done := bind("stop")
		return vm.loop.Promise(func() (any, error) {
			defer done()
			return cmds.Stop(n)
		}, toJS)
	})
	return o
}
