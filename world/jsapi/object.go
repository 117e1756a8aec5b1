package jsapi

import (
	"sort"

	"github.com/dop251/goja"
)

// JS objects of the API are goja dynamic objects over a Go wrapper (so a
// method finds its Go value with one type assertion, no reflection) whose
// prototype holds the methods, built once per VM and class. Users may still
// add their own properties to them, as in Node.

// props holds the properties user code sets on an API object. Wrappers
// embed it to implement goja.DynamicObject; unknown keys fall through to
// the prototype.
type props struct{ m map[string]goja.Value }

func (p *props) Get(k string) goja.Value {
	if p.m == nil {
		return nil
	}
	return p.m[k]
}

func (p *props) Set(k string, v goja.Value) bool {
	if p.m == nil {
		p.m = map[string]goja.Value{}
	}
	p.m[k] = v
	return true
}

func (p *props) Has(k string) bool {
	_, ok := p.m[k]
	return ok
}

func (p *props) Delete(k string) bool {
	delete(p.m, k)
	return true
}

func (p *props) Keys() []string {
	keys := make([]string, 0, len(p.m))
	for k := range p.m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// method is one native method of a class.
type method struct {
	name string
	fn   func(call goja.FunctionCall) goja.Value
}

// class builds a prototype named name (its constructor's name shows in
// console.log) with the given methods.
func (r *Runtime) class(name string, methods []method) *goja.Object {
	proto := r.rt.NewObject()
	for _, m := range methods {
		fn := r.rt.ToValue(m.fn).(*goja.Object)
		_ = fn.DefineDataProperty("name", r.rt.ToValue(m.name), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		_ = proto.DefineDataProperty(m.name, fn, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
	ctor := r.rt.ToValue(func(goja.ConstructorCall) *goja.Object {
		panic(r.rt.NewTypeError("%s", name+" objects are created by ferridriver, not with new"))
	}).(*goja.Object)
	_ = ctor.DefineDataProperty("name", r.rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	_ = ctor.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	_ = proto.DefineDataProperty("constructor", ctor, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	return proto
}

// newObject makes the JS object of wrapper w with prototype proto.
func (r *Runtime) newObject(proto *goja.Object, w goja.DynamicObject) *goja.Object {
	o := r.rt.NewDynamicObject(w)
	_ = o.SetPrototype(proto)
	return o
}

// recv returns the wrapper of `this`, or throws a TypeError naming the
// method (a method called detached from its object).
func recv[T any](r *Runtime, call goja.FunctionCall, api string) T {
	if o, ok := call.This.(*goja.Object); ok {
		if w, ok := o.Export().(T); ok {
			return w
		}
	}
	panic(r.rt.NewTypeError("%s", api+": called on an object of the wrong type (was the method detached from its object?)"))
}

// protos are the per-VM prototypes, built on first use.
type protos struct {
	r *Runtime

	page, frame, locator, frameLocator, context, browser, browserType *goja.Object
	keyboard, mouse, touchscreen, tracing                             *goja.Object
	request, response, route, dialog, download, console               *goja.Object
	apiRequest, apiResponse, elementHandle, jsHandle, fileChooser     *goja.Object
	video                                                             *goja.Object
}

func (p *protos) init(r *Runtime) { p.r = r }

func (p *protos) get(slot **goja.Object, name string, methods func() []method) *goja.Object {
	if *slot == nil {
		*slot = p.r.class(name, methods())
	}
	return *slot
}
