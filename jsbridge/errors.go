package jsbridge

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/internal/slashpath"
)

// JSError is a value thrown (or a promise rejected) by JS code, with its
// stack mapped through the bundle's source map to the user's files.
type JSError struct {
	// Type is the error's name: "Error", "AssertionError", "PendingException"...
	Type string
	// Message is the error's message.
	Message string
	// Stack is "Type: message" followed by "    at fn (file.ts:line:col)"
	// frames, Node style, with frames of ferridriver's own code removed.
	Stack string
	// Value is the thrown JS value. Use it on the VM's loop goroutine only.
	Value goja.Value
}

func (e *JSError) Error() string {
	if e.Message == "" {
		return e.Type
	}
	return e.Type + ": " + e.Message
}

// TimeoutError reports user code that did not finish in time.
type TimeoutError struct {
	What string // "step", "hook", "tool handler"...
	Ms   int64
	// Setting says where the timeout was set, for a step or hook (see
	// Registry.TimeoutSource); "" otherwise.
	Setting string
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("%s timed out after %d ms", e.What, e.Ms)
}

// MemoryError stops a step or hook that grew the process's heap past the
// VM's memory limit (VMOptions.MemoryLimit). goja has no memory limit of
// its own: the heap is watched while the function runs (internal/memwatch).
type MemoryError struct {
	// Limit is the growth allowed; Grown how much the heap grew while the
	// function ran, to Heap (bytes).
	Limit, Grown, Heap uint64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("stopped: ferridriver's heap grew by %d MiB while it ran (to %d MiB), over the memory limit of %d MiB "+
		"a step or hook may use ([test] memoryLimit in ferridriver.toml, FERRIDRIVER_TEST_MEMORYLIMIT or --memory-limit)",
		e.Grown>>20, e.Heap>>20, e.Limit>>20)
}

// AttachmentError is an attachment larger than the VM's attachment limit
// (VMOptions.AttachmentLimit).
type AttachmentError struct {
	Size, Limit int64
}

func (e *AttachmentError) Error() string {
	size, limit := byteSize(e.Size), byteSize(e.Limit)
	if size == limit {
		size, limit = fmt.Sprintf("%d bytes", e.Size), fmt.Sprintf("%d bytes", e.Limit)
	}
	return fmt.Sprintf("attach: the attachment is %s, over the attachment limit of %s "+
		"([test] attachmentLimit in ferridriver.toml, FERRIDRIVER_TEST_ATTACHMENTLIMIT or --attachment-limit)", size, limit)
}

// byteSize writes n bytes for people: "1.5 MiB", "640 KiB", "12 bytes".
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<20)), ".0") + " MiB"
	case n >= 1<<10:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<10)), ".0") + " KiB"
	}
	return fmt.Sprintf("%d bytes", n)
}

// ErrorValue makes a JS Error carrying err's message, so Go failures reach
// JS code as ordinary exceptions (catchable, with .message).
func ErrorValue(rt *goja.Runtime, err error) goja.Value {
	var je *JSError
	if errors.As(err, &je) && je.Value != nil {
		return je.Value
	}
	ctor, _ := goja.AssertConstructor(rt.Get("Error"))
	obj, cerr := ctor(nil, rt.ToValue(err.Error()))
	if cerr != nil {
		return rt.ToValue(err.Error())
	}
	if te, ok := err.(*TimeoutError); ok {
		obj.Set("name", "TimeoutError")
		obj.Set("timeoutMs", te.Ms)
	}
	return obj
}

// toJSError converts an error returned by goja (an exception or an
// interrupt) or a rejection reason into a *JSError.
func (vm *VM) toJSError(err error) error {
	var exc *goja.Exception
	if errors.As(err, &exc) {
		return vm.errorFromValue(exc.Value(), exc)
	}
	var intr *goja.InterruptedError
	if errors.As(err, &intr) {
		switch v := intr.Value().(type) {
		case *TimeoutError:
			return v
		case *MemoryError:
			return v
		}
		return err
	}
	return err
}

// ErrorOf describes a thrown or rejected JS value as a *JSError, its stack
// mapped to the user's sources.
func (vm *VM) ErrorOf(v goja.Value) *JSError { return vm.errorFromValue(v, nil) }

// errorFromValue describes a thrown/rejected value. exc, when known, gives
// the throw site's stack for values that are not Error objects.
func (vm *VM) errorFromValue(v goja.Value, exc *goja.Exception) *JSError {
	je := &JSError{Type: "Error", Value: v}
	obj, isObj := v.(*goja.Object)
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) || !isObj {
		je.Message = fmt.Sprint(v)
		if v != nil {
			je.Message = v.String()
		}
		je.Stack = je.Type + ": " + je.Message
		if exc != nil {
			je.Stack += vm.frames(exc.String())
		}
		return je
	}
	if name := obj.Get("name"); name != nil && !goja.IsUndefined(name) && name.String() != "" {
		je.Type = name.String()
	} else if c := obj.Get("constructor"); c != nil {
		if co, ok := c.(*goja.Object); ok {
			if n := co.Get("name"); n != nil && n.String() != "" {
				je.Type = n.String()
			}
		}
	}
	if m := obj.Get("message"); m != nil && !goja.IsUndefined(m) {
		je.Message = m.String()
	} else if js, err := vm.JSONString(v); err == nil && js != "" && (je.Type == "Object" || je.Type == "Array") {
		// A thrown plain object or array: its data says more than
		// "[object Object]" would.
		je.Type, je.Message = "Error", "thrown value "+js
	} else {
		je.Message = v.String()
	}
	stack := ""
	if s := obj.Get("stack"); s != nil && !goja.IsUndefined(s) {
		stack = s.String()
	} else if exc != nil {
		stack = exc.String()
	}
	je.Stack = je.Type + ": " + je.Message + vm.frames(stack)
	return je
}

// frames rewrites goja's stack lines ("\tat fn (file:line:col(pc))") into
// Node's format, with paths relative to the project directory, and drops
// frames of ferridriver's own JS (the prelude and the bundle's wrapper).
func (vm *VM) frames(stack string) string {
	var b strings.Builder
	for _, line := range strings.Split(stack, "\n") {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "at ") {
			continue
		}
		t = strings.TrimPrefix(t, "at ")
		fn, loc := "", t
		if i := strings.LastIndex(t, " ("); i >= 0 && strings.HasSuffix(t, ")") {
			fn, loc = t[:i], t[i+2:len(t)-1]
		}
		// goja appends "(pc)" to the position.
		if i := strings.LastIndex(loc, "("); i > 0 && strings.HasSuffix(loc, ")") {
			loc = loc[:i]
		}
		if loc == "native" || strings.HasPrefix(loc, preludeName) || strings.HasPrefix(loc, formatterName) || strings.HasPrefix(loc, bundleName) || strings.HasPrefix(loc, "<ferridriver") {
			continue
		}
		loc = vm.relPath(loc)
		if fn == "" {
			fmt.Fprintf(&b, "\n    at %s", loc)
		} else {
			fmt.Fprintf(&b, "\n    at %s (%s)", fn, loc)
		}
	}
	return b.String()
}

// relPath makes "…/abs/file.ts:3:4" relative to the project directory.
func (vm *VM) relPath(loc string) string {
	loc = strings.TrimPrefix(loc, "file://")
	if !filepath.IsAbs(loc) {
		return loc
	}
	return slashpath.Rel(vm.dir, loc)
}

// FirstUserFrame returns "file:line" of the first stack frame in the user's
// code, or "".
func (e *JSError) FirstUserFrame() string {
	for _, t := range e.frameLocations() {
		if strings.Contains(t, "node_modules/") {
			continue
		}
		return t
	}
	return ""
}

// ThrowSite returns "file:line:col" of the stack's first frame, where the
// error was thrown (a package's file, maybe), or "".
func (e *JSError) ThrowSite() string {
	if l := e.frameLocations(); len(l) > 0 {
		return l[0]
	}
	return ""
}

// frameLocations are the locations of the stack's frames, in order (the
// message before them may span several lines).
func (e *JSError) frameLocations() []string {
	var out []string
	for _, line := range strings.Split(e.Stack, "\n") {
		t, ok := strings.CutPrefix(strings.TrimSpace(line), "at ")
		if !ok {
			continue
		}
		if i := strings.LastIndex(t, " ("); i >= 0 && strings.HasSuffix(t, ")") {
			t = t[i+2 : len(t)-1]
		}
		out = append(out, t)
	}
	return out
}
