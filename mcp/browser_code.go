package mcp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dop251/goja"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/world/browsing"
)

// browser_run_code_unsafe: @playwright/mcp 0.0.83's tool that runs a
// function of Playwright code with the agent's page. Here it runs in the
// client's script VM (host "mcp", run_script's authority) on the current
// tab of the client's browser session: the page the browser tools drive,
// and `page` in run_script and extension tools.

// ToolRunCode is the name of the built-in that runs Playwright code on
// the agent's page.
const ToolRunCode = "browser_run_code_unsafe"

// maxCodeFile bounds a code file read by browser_run_code_unsafe.
const maxCodeFile = 1 << 20

type runCodeArgs struct {
	common
	Code     string `json:"code"`
	Filename string `json:"filename"`
}

func (s *Server) addRunCodeTool() {
	s.server.AddTool(&sdk.Tool{
		Name:        ToolRunCode,
		Description: "Runs Playwright code on the current page: `async (page) => { ... }`; returns its value as JSON. Unsafe: run_script's authority.",
		InputSchema: schema(nil, map[string]any{"code": str, "filename": desc("string", "read the code from this file (in the project)")}),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	}, s.runCodeTool)
}

func (s *Server) runCodeTool(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var in runCodeArgs
	if err := decodeArgs(req.Params.Arguments, &in); err != nil {
		return errorResult("invalid arguments for " + ToolRunCode + ": " + err.Error()), nil
	}
	code := in.Code
	if in.Filename != "" {
		var err error
		if code, err = s.readCodeFile(in.Filename); err != nil {
			return errorResult(ToolRunCode + ": " + err.Error()), nil
		}
	}
	if strings.TrimSpace(code) == "" {
		return errorResult("invalid arguments for " + ToolRunCode + ": give code (a function such as async (page) => { ... }) or filename"), nil
	}
	// The file's name is the code's: page.pause() and browser_resume's
	// location name its lines.
	source := ToolRunCode + ".js"
	if in.Filename != "" {
		source = filepath.Base(in.Filename)
	}
	sess, err := s.clientOf(req.Session)
	if err != nil {
		return nil, err
	}
	return s.runPausable(ctx, sess, func(ctx context.Context) (*sdk.CallToolResult, error) {
		progress, flush := progressSender(ctx, req)
		var out *sdk.CallToolResult
		err := sess.do(ctx, func(vm *jsbridge.VM) error {
			bs, err := sess.lease(in.session())
			if err != nil {
				out = errorResult(ToolRunCode + ": " + err.Error())
				return nil
			}
			page, err := bs.CurrentPage(ctx)
			if err != nil {
				out = errorResult(ToolRunCode + ": " + err.Error())
				return nil
			}
			stop := sess.console.startCapture()
			fn, serr := compileFunction(vm, source, "("+code+"\n)")
			var v goja.Value
			if serr == nil {
				v, serr = s.callJS(ctx, sess, vm, ToolRunCode, "the code", fn, []goja.Value{sess.browser.PageValue(vm, page)}, s.opts.Timeout, progress)
			}
			console := stop()
			var value string
			if serr == nil && v != nil && !goja.IsUndefined(v) {
				// The value as @playwright/mcp gives it: JSON.stringify's.
				if value, err = vm.ResultJSON(v); err != nil {
					serr = &ScriptError{Name: "TypeError", Message: "the code's value is " + err.Error()}
				}
			}
			if serr != nil {
				bs.Note(fmt.Sprintf("not recorded: %s ran %s and failed (%s: %s)", ToolRunCode, codeSummary(code), serr.Name, firstLine(serr.Message)))
				out = codeError(serr, console)
				return nil
			}
			if len(value) > MaxResultBytes {
				out = errorResult(fmt.Sprintf("%s: the code's value is %d bytes of JSON; the limit for one result is %d bytes (%d MiB)", ToolRunCode, len(value), MaxResultBytes, MaxResultBytes>>20))
				return nil
			}
			res := bs.RecordCode(ToolRunCode, code)
			res.Code = "await (" + strings.TrimSpace(code) + ")(page);"
			if value != "" {
				res.Output = "Result: " + value
			}
			if console != "" {
				res.Output = strings.TrimSpace(res.Output + "\nConsole:\n" + strings.TrimRight(console, "\n"))
			}
			if st, err := bs.PageState(ctx, browsing.SnapDiff); err == nil {
				res.URL, res.Title, res.Modal = st.URL, st.Title, st.Modal
				res.Snapshot, res.SnapshotIsDiff = st.Snapshot, st.SnapshotIsDiff
			} else {
				res.Output = strings.TrimSpace(res.Output + "\nthe page's state after the code: " + err.Error())
			}
			out, _ = textResult(res, nil)
			return nil
		})
		flush()
		if err != nil {
			return nil, err
		}
		return out, nil
	})
}

// codeError is the tool error of code that threw or was stopped: the
// message first, then the stack and console output.
func codeError(e *ScriptError, console string) *sdk.CallToolResult {
	res := errorResult(e.Name + ": " + e.Message)
	detail := e.Stack
	if console != "" {
		detail = strings.TrimSpace(detail + "\nConsole:\n" + console)
	}
	if detail != "" {
		res.Content = append(res.Content, &sdk.TextContent{Text: detail})
	}
	return res
}

// readCodeFile reads a code file inside the project directory (symbolic
// links resolved before the check).
func (s *Server) readCodeFile(name string) (string, error) {
	if filepath.IsAbs(name) || !filepath.IsLocal(name) {
		return "", fmt.Errorf("filename %q must be relative and inside the project directory", name)
	}
	root, err := filepath.EvalSymlinks(s.opts.Dir)
	if err != nil {
		return "", err
	}
	path, err := filepath.EvalSymlinks(filepath.Join(root, name))
	if err != nil {
		return "", fmt.Errorf("filename %q: %w", name, err)
	}
	if rel, err := filepath.Rel(root, path); err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("filename %q leads out of the project directory", name)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if fi.Size() > maxCodeFile {
		return "", fmt.Errorf("filename %q is %d bytes; the limit is %d", name, fi.Size(), maxCodeFile)
	}
	b, err := os.ReadFile(path)
	return string(b), err
}
