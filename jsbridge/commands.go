package jsbridge

import (
	"context"
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
	bind := func(verb string) (*capability.Commands, context.Context, context.CancelCauseFunc) {
		st := vm.toolsOf()
		cur := CurrentFrame(vm)
		if owner == nil {
			if cur != nil {
				vm.Throw(fmt.Errorf("commands.%s: the global commands object is first-party ([scripting.allow.commands]); tool %q must use its handler's ctx.commands (its own allow.commands)", verb, cur.tool.Name))
			}
			ctx, cancel := st.opContext(nil)
			return st.commandSession().For("", st.scriptCommands), ctx, cancel
		}
		if cur != owner {
			vm.Throw(fmt.Errorf("commands.%s: the commands of tool %q can only be used by that tool's handler", verb, owner.tool.Name))
		}
		if err := owner.revoked(); err != nil {
			vm.Throw(err)
		}
		ctx, cancel := st.opContext(owner)
		return st.commandSession().For(owner.tool.Name, owner.tool.Allow.Commands), ctx, cancel
	}
	name := func(verb string, call goja.FunctionCall) string {
		n, ok := call.Argument(0).Export().(string)
		if !ok || n == "" {
			vm.ThrowTypeError("commands.%s: the first argument must be a command name", verb)
		}
		return n
	}
	vars := func(verb string, v goja.Value) map[string]any {
		if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
			return nil
		}
		o, ok := v.(*goja.Object)
		if !ok || o.ClassName() == "Array" {
			vm.ThrowTypeError("commands.%s: vars must be an object mapping placeholder names to strings, numbers or booleans", verb)
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
	// A verb's result is JSON data (a command's null output is null).
	toJS := func(_ *goja.Runtime, v any) (goja.Value, error) { return vm.marshalJS(v) }
	// verb installs one method: it checks the name (and vars, for the
	// verbs that take them) and binds the caller's view on the loop, then
	// runs work off the loop and returns a promise of its result.
	verb := func(v string, takesVars bool, work func(cmds *capability.Commands, ctx context.Context, name string, vars map[string]any) (any, error)) {
		o.Set(v, func(call goja.FunctionCall) goja.Value {
			n := name(v, call)
			var vs map[string]any
			if takesVars {
				vs = vars(v, call.Argument(1))
			}
			cmds, ctx, done := bind(v)
			return vm.loop.Promise(func() (any, error) {
				defer done(nil)
				return work(cmds, ctx, n, vs)
			}, toJS)
		})
	}
	verb("run", true, func(c *capability.Commands, ctx context.Context, n string, vs map[string]any) (any, error) {
		return c.Run(ctx, n, vs)
	})
	verb("start", true, func(c *capability.Commands, _ context.Context, n string, vs map[string]any) (any, error) {
		return c.Start(n, vs)
	})
	verb("status", false, func(c *capability.Commands, _ context.Context, n string, _ map[string]any) (any, error) {
		return c.Status(n)
	})
	verb("stop", false, func(c *capability.Commands, _ context.Context, n string, _ map[string]any) (any, error) {
		return c.Stop(n)
	})
	return o
}
