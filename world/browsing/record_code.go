package browsing

import (
	"fmt"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// Recording Playwright code that an agent ran (browser_run_code_unsafe):
// code made only of actions that built-in steps do, one statement each
// (`await page.getByRole('button', { name: 'Save' }).click();`), is
// recorded as those steps; any other code is recorded as a comment that
// says what ran, so an exported feature never silently misses an action.

// RecordCode records code, the source of a function `async (page) => {...}`
// that ran on the session's current tab, for session_export: as built-in
// steps when every statement is an action a step does (reads of the page
// are left out), as a comment line otherwise. what names the tool that
// ran it. It returns the result's recording part (Steps, or NotRecorded).
// Under turn.
func (ss *Session) RecordCode(what, code string) *Result {
	return ss.recordCode(what, code, code)
}

// RecordScript is RecordCode for body, the body of an async function in
// which `page` is the session's current tab (run_script's source).
func (ss *Session) RecordScript(what, body string) *Result {
	return ss.recordCode(what, "async (page) => {"+body+"\n}", body)
}

func (ss *Session) recordCode(what, code, shown string) *Result {
	res := &Result{}
	steps, err := codeSteps(code, ss.svc.baseURL, !ss.hasSteps())
	if err != nil {
		res.NotRecorded = err.Error()
		ss.Note(fmt.Sprintf("not recorded: %s ran %s (%s)", what, codeSummary(shown), err))
		return res
	}
	ss.record(res, steps)
	if len(steps) == 0 {
		res.NotRecorded = "the code only reads the page"
	}
	return res
}

// Note adds a comment line to the recording (what ran and was not
// recorded). Under turn.
func (ss *Session) Note(text string) {
	ss.steps = append(ss.steps, Step{Comment: text})
}

// hasSteps reports whether the recording holds a step (not only notes).
func (ss *Session) hasSteps() bool {
	for _, st := range ss.steps {
		if st.Comment == "" {
			return true
		}
	}
	return false
}

// codeSummary is code on one line, cut to a readable length.
func codeSummary(code string) string {
	s := strings.Join(strings.Fields(code), " ")
	const max = 120
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "…"
	}
	return "`" + s + "`"
}

// errNotAStep is why a statement has no built-in step.
type errNotAStep struct{ why string }

func (e *errNotAStep) Error() string { return e.why }

func notAStep(format string, args ...any) error {
	return &errNotAStep{why: fmt.Sprintf(format, args...)}
}

// codeSteps translates the function source code into the steps that do
// the same, or says why it cannot. first: the first step opens the
// scenario (a navigation is then its Given).
func codeSteps(code, baseURL string, first bool) ([]Step, error) {
	prg, err := parser.ParseFile(nil, "code.js", "("+code+"\n)", 0)
	if err != nil {
		return nil, notAStep("it does not parse: %v", firstLine(err.Error()))
	}
	if len(prg.Body) != 1 {
		return nil, notAStep("it is not one function")
	}
	es, ok := prg.Body[0].(*ast.ExpressionStatement)
	if !ok {
		return nil, notAStep("it is not one function")
	}
	var params *ast.ParameterList
	var body []ast.Statement
	switch fn := es.Expression.(type) {
	case *ast.ArrowFunctionLiteral:
		params = fn.ParameterList
		switch b := fn.Body.(type) {
		case *ast.BlockStatement:
			body = b.List
		case *ast.ExpressionBody:
			body = []ast.Statement{&ast.ExpressionStatement{Expression: b.Expression}}
		}
	case *ast.FunctionLiteral:
		params, body = fn.ParameterList, fn.Body.List
	default:
		return nil, notAStep("it is not a function")
	}
	page := ""
	if params != nil && len(params.List) == 1 {
		if id, ok := params.List[0].Target.(*ast.Identifier); ok {
			page = string(id.Name)
		}
	}
	if page == "" {
		return nil, notAStep("its one parameter is not named")
	}
	t := &codeTranslator{page: page, baseURL: baseURL}
	var steps []Step
	for _, st := range body {
		var e ast.Expression
		switch s := st.(type) {
		case *ast.EmptyStatement:
			continue
		case *ast.ExpressionStatement:
			e = s.Expression
		case *ast.ReturnStatement:
			if s.Argument == nil || t.readOnly(s.Argument) {
				continue
			}
			return nil, notAStep("its return value is not a plain read of the page")
		default:
			return nil, notAStep("it holds a statement other than awaited page actions")
		}
		aw, ok := e.(*ast.AwaitExpression)
		if !ok {
			return nil, notAStep("it holds a statement other than awaited page actions")
		}
		if t.readOnly(aw.Argument) {
			continue
		}
		step, err := t.action(aw.Argument)
		if err != nil {
			return nil, err
		}
		if first && len(steps) == 0 && strings.HasPrefix(step.Text, "I open ") {
			step.Kind = KindContext
		}
		steps = append(steps, step)
	}
	return steps, nil
}

type codeTranslator struct {
	page    string
	baseURL string
}

// call splits a call expression into its receiver and method.
func call(e ast.Expression) (recv ast.Expression, method string, args []ast.Expression, ok bool) {
	c, ok := e.(*ast.CallExpression)
	if !ok {
		return nil, "", nil, false
	}
	d, ok := c.Callee.(*ast.DotExpression)
	if !ok {
		return nil, "", nil, false
	}
	return d.Left, string(d.Identifier.Name), c.ArgumentList, true
}

// str is e's value when it is a string literal (or a template without
// substitutions).
func str(e ast.Expression) (string, bool) {
	switch v := e.(type) {
	case *ast.StringLiteral:
		return string(v.Value), true
	case *ast.TemplateLiteral:
		if v.Tag == nil && len(v.Expressions) == 0 && len(v.Elements) == 1 {
			return string(v.Elements[0].Parsed), true
		}
	}
	return "", false
}

func (t *codeTranslator) isPage(e ast.Expression) bool {
	id, ok := e.(*ast.Identifier)
	return ok && string(id.Name) == t.page
}

// readMethods only read the page or an element.
var readMethods = map[string]bool{
	"url": true, "title": true, "content": true, "textContent": true, "innerText": true, "innerHTML": true,
	"inputValue": true, "getAttribute": true, "isVisible": true, "isHidden": true, "isChecked": true,
	"isEnabled": true, "isDisabled": true, "isEditable": true, "count": true, "allTextContents": true,
	"allInnerTexts": true, "ariaSnapshot": true, "boundingBox": true,
}

// readOnly reports whether e only reads the page: a read method of the
// page or of a locator the translator understands, or an array or object
// of such reads.
func (t *codeTranslator) readOnly(e ast.Expression) bool {
	switch v := e.(type) {
	case *ast.AwaitExpression:
		return t.readOnly(v.Argument)
	case *ast.StringLiteral, *ast.NumberLiteral, *ast.BooleanLiteral, *ast.NullLiteral:
		return true
	case *ast.ArrayLiteral:
		for _, x := range v.Value {
			if !t.readOnly(x) {
				return false
			}
		}
		return true
	case *ast.ObjectLiteral:
		for _, p := range v.Value {
			kp, ok := p.(*ast.PropertyKeyed)
			if !ok || kp.Computed || !t.readOnly(kp.Value) {
				return false
			}
		}
		return true
	}
	recv, m, _, ok := call(e)
	if !ok || !readMethods[m] {
		return false
	}
	if t.isPage(recv) {
		return m == "url" || m == "title" || m == "content"
	}
	_, err := t.locator(recv)
	return err == nil
}

// locator names the element a locator expression finds, as the
// recording names elements (a Playwright selector the built-in steps
// take).
func (t *codeTranslator) locator(e ast.Expression) (target, error) {
	recv, m, args, ok := call(e)
	if !ok {
		return target{}, notAStep("an element is not found by a page.getBy…/locator call")
	}
	if !t.isPage(recv) {
		// A refinement of another locator: .first(), .last(), .nth(i).
		base, err := t.locator(recv)
		if err != nil {
			return target{}, err
		}
		switch {
		case m == "first" && len(args) == 0:
			return target{sel: base.sel + " >> nth=0", code: base.code + ".first()"}, nil
		case m == "last" && len(args) == 0:
			return target{sel: base.sel + " >> nth=-1", code: base.code + ".last()"}, nil
		case m == "nth" && len(args) == 1:
			if n, ok := args[0].(*ast.NumberLiteral); ok {
				return target{sel: base.sel + " >> nth=" + n.Literal, code: base.code + ".nth(" + n.Literal + ")"}, nil
			}
		}
		return target{}, notAStep("%s.%s() is not a locator a step takes", base.code, m)
	}
	if len(args) == 0 {
		return target{}, notAStep("page.%s() without arguments", m)
	}
	s, ok := str(args[0])
	if !ok {
		return target{}, notAStep("page.%s() is given a computed value", m)
	}
	opts, err := options(args[1:])
	if err != nil {
		return target{}, err
	}
	exact := opts["exact"] == "true"
	// getBy… locators are written as the selectors Playwright compiles
	// them to, so that the step finds exactly what the code found.
	textSel := func(engine string) string {
		if exact {
			return engine + jsonQuote(s) + "s"
		}
		return engine + jsonQuote(s) + "i"
	}
	var tg target
	switch m {
	case "locator":
		if len(opts) > 0 {
			return target{}, notAStep("page.locator() with options")
		}
		return selectorTarget(s), nil
	case "getByRole":
		name, hasName := opts["name"]
		delete(opts, "name")
		if len(opts) > 0 {
			return target{}, notAStep("page.getByRole() with options other than name")
		}
		return roleTarget(s, name, hasName, -1, 0), nil
	case "getByText":
		tg.sel = textSel("internal:text=")
	case "getByLabel":
		tg.sel = textSel("internal:label=")
	case "getByPlaceholder":
		tg.sel = "internal:attr=[placeholder=" + textSel("") + "]"
	case "getByAltText":
		tg.sel = "internal:attr=[alt=" + textSel("") + "]"
	case "getByTitle":
		tg.sel = "internal:attr=[title=" + textSel("") + "]"
	case "getByTestId":
		if len(opts) > 0 {
			return target{}, notAStep("page.getByTestId() with options")
		}
		tg.sel = "internal:testid=[data-testid=" + jsonQuote(s) + "s]"
	default:
		return target{}, notAStep("page.%s() is not a locator a step takes", m)
	}
	delete(opts, "exact")
	if len(opts) > 0 {
		return target{}, notAStep("page.%s() with options other than exact", m)
	}
	tg.code = "page." + m + "(" + jsString(s)
	if exact {
		tg.code += ", { exact: true }"
	}
	tg.code += ")"
	return tg, nil
}

// options reads an optional object literal of string and boolean values.
func options(args []ast.Expression) (map[string]string, error) {
	out := map[string]string{}
	if len(args) == 0 {
		return out, nil
	}
	if len(args) > 1 {
		return nil, notAStep("a call with more arguments than a step takes")
	}
	obj, ok := args[0].(*ast.ObjectLiteral)
	if !ok {
		return nil, notAStep("options that are not an object literal")
	}
	for _, p := range obj.Value {
		kp, ok := p.(*ast.PropertyKeyed)
		if !ok || kp.Computed {
			return nil, notAStep("options that are not plain keys")
		}
		var key string
		switch k := kp.Key.(type) {
		case *ast.StringLiteral:
			key = string(k.Value)
		case *ast.Identifier:
			key = string(k.Name)
		default:
			return nil, notAStep("options that are not plain keys")
		}
		switch v := kp.Value.(type) {
		case *ast.BooleanLiteral:
			out[key] = fmt.Sprint(v.Value)
		default:
			s, ok := str(v)
			if !ok {
				return nil, notAStep("option %s is computed", key)
			}
			out[key] = s
		}
	}
	return out, nil
}

// action is the step of one awaited call.
func (t *codeTranslator) action(e ast.Expression) (Step, error) {
	recv, m, args, ok := call(e)
	if !ok {
		return Step{}, notAStep("it awaits something other than a page action")
	}
	act := func(p phrase, a ...any) (Step, error) {
		if !canRender(a...) {
			return Step{}, notAStep("a value spans lines, which a step line cannot hold")
		}
		return actionStep(p, a...), nil
	}
	oneString := func() (string, error) {
		if len(args) != 1 {
			return "", notAStep("%s() with other than one argument", m)
		}
		s, ok := str(args[0])
		if !ok {
			return "", notAStep("%s() is given a computed value", m)
		}
		return s, nil
	}
	if t.isPage(recv) {
		switch {
		case m == "goto":
			if len(args) != 1 {
				return Step{}, notAStep("page.goto() with options")
			}
			u, err := oneString()
			if err != nil {
				return Step{}, err
			}
			return act(phOpen, relativeURL(u, t.baseURL))
		case m == "goBack" && len(args) == 0:
			return actionStep(phGoBack), nil
		case m == "goForward" && len(args) == 0:
			return actionStep(phGoForward), nil
		case m == "reload" && len(args) == 0:
			return actionStep(phReload), nil
		}
		return Step{}, notAStep("page.%s() has no built-in step", m)
	}
	// page.keyboard.press(key)
	if d, ok := recv.(*ast.DotExpression); ok && t.isPage(d.Left) && string(d.Identifier.Name) == "keyboard" && m == "press" {
		k, err := oneString()
		if err != nil {
			return Step{}, err
		}
		return act(phPress, k)
	}
	tg, err := t.locator(recv)
	if err != nil {
		return Step{}, err
	}
	switch m {
	case "click":
		if len(args) == 0 {
			return act(phClick, tg.sel)
		}
	case "dblclick":
		if len(args) == 0 {
			return act(phDoubleClick, tg.sel)
		}
	case "hover":
		if len(args) == 0 {
			return act(phHover, tg.sel)
		}
	case "check":
		if len(args) == 0 {
			return act(phCheck, tg.sel)
		}
	case "uncheck":
		if len(args) == 0 {
			return act(phUncheck, tg.sel)
		}
	case "fill":
		v, err := oneString()
		if err != nil {
			return Step{}, err
		}
		return act(phFill, tg.sel, v)
	case "press":
		k, err := oneString()
		if err != nil {
			return Step{}, err
		}
		return act(phPressOn, k, tg.sel)
	case "selectOption":
		v, err := oneString()
		if err != nil {
			return Step{}, err
		}
		return act(phSelect, v, tg.sel)
	}
	return Step{}, notAStep("%s.%s() with these arguments has no built-in step", tg.code, m)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
