package browsing

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"
)

// File choosers are modal states, as dialogs are: an action that opens
// one (a click on a file input, or on a button whose script clicks a
// hidden one) says so in its result, the page waits, and Upload answers
// it with files or cancels it. With a listener on the page, Playwright
// takes the chooser instead of the system's file dialog.

// chooserWait is how long an action that may open a file chooser waits
// for it after the action returned (the event can trail the click).
const chooserWait = 150 * time.Millisecond

// watchModal takes p's file choosers.
func (ss *Session) watchModal(p playwright.Page) {
	p.OnFileChooser(func(fc playwright.FileChooser) {
		ss.logMu.Lock()
		ss.chooser = fc
		ss.logMu.Unlock()
	})
}

// openChooser is the file chooser waiting for the agent, or nil.
func (ss *Session) openChooser() playwright.FileChooser {
	ss.logMu.Lock()
	defer ss.logMu.Unlock()
	return ss.chooser
}

// chooserModal words an open file chooser for a result.
func chooserModal(fc playwright.FileChooser) string {
	many := ""
	if fc.IsMultiple() {
		many = " (several files allowed)"
	}
	return "a file chooser opened" + many + "; answer it with browser_file_upload {paths} (no paths cancels it)"
}

// errChooserOpen is the error of an action tried while a file chooser
// waits.
var errChooserOpen = errors.New("a file chooser is open: answer it with browser_file_upload {paths} (no paths cancels it) first")

// awaitChooser waits briefly for a chooser the action that just returned
// may have opened; it reports one in res.
func (ss *Session) awaitChooser(res *Result, wait bool) {
	deadline := time.Now().Add(chooserWait)
	for {
		if fc := ss.openChooser(); fc != nil {
			res.Modal = chooserModal(fc)
			return
		}
		if !wait || time.Now().After(deadline) {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// answerChooser sets paths on the open file chooser (none: cancels it).
// The step names the file input the chooser is for, by a CSS path.
func (ss *Session) answerChooser(ctx context.Context, fc playwright.FileChooser, paths []string, mode SnapMode) (*Result, error) {
	ss.logMu.Lock()
	ss.chooser = nil
	ss.logMu.Unlock()
	res := &Result{}
	if len(paths) == 0 {
		res.Code = "// the file chooser was cancelled"
		res.NotRecorded = "cancelling a file chooser is not a step"
		return res, ss.finish(ctx, res, mode)
	}
	sel := ""
	if h := fc.Element(); h != nil {
		if v, err := h.Evaluate(cssPathJS); err == nil {
			sel, _ = v.(string)
		}
	}
	q := make([]string, len(paths))
	for i, p := range paths {
		q[i] = jsString(p)
	}
	res.Code = fmt.Sprintf("await fileChooser.setFiles([%s]);", strings.Join(q, ", "))
	if err := fc.SetFiles(paths); err != nil {
		return nil, ss.explain(err)
	}
	switch {
	case sel == "":
		res.NotRecorded = "the file input of the chooser could not be named"
	case len(paths) > 1:
		res.NotRecorded = "the built-in step uploads one file"
	default:
		ss.record(res, []Step{{Kind: KindAction, Upload: paths[0], uploadTarget: sel}})
	}
	return res, ss.finish(ctx, res, mode)
}
