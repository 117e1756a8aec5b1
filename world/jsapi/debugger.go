package jsapi

import (
	"fmt"
	"path/filepath"

	"github.com/dop251/goja"
)

// Debugger is implemented by a Host whose code may be paused: an MCP
// client's VM, where `await page.pause()` hands the page to the agent
// until browser_resume. Without it page.pause() returns at once (there
// is no inspector).
type Debugger interface {
	// Pause blocks until the code is resumed; where is the caller's
	// file:line. Called off the loop goroutine.
	Pause(where string) error
	// BeforeCall is called, off the loop goroutine, before each Playwright
	// call api made at where; it may pause (stepping, a location to run
	// to).
	BeforeCall(api, where string) error
}

// debugger is the host's Debugger, nil when it has none.
func (r *Runtime) debugger() Debugger {
	r.hostMu.Lock()
	defer r.hostMu.Unlock()
	d, _ := r.host.(Debugger)
	return d
}

// callerWhere is the file:line of the first frame of stack that is
// script code (not a native function).
func callerWhere(stack []goja.StackFrame) string {
	for _, f := range stack {
		if f.SrcName() == "" || f.SrcName() == "<native>" {
			continue
		}
		p := f.Position()
		return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
	}
	return ""
}
