package jsapi

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"
)

// Web-first assertions: expect(locator|page|response).toX(...). Each is
// one call of playwright-go's assertion API, which has the driver retry
// until the condition holds or the timeout passes (one round trip when it
// passes). On failure the message is rebuilt in Playwright's words from
// what the driver received; only a failing array comparison costs one more
// call, to read the received values exactly.

// expectation is one web-first assertion being evaluated.
type expectation struct {
	r       *Runtime
	name    string // "toHaveText"
	subject string // "locator", "page", "response"
	isNot   bool
	timeout float64
	desc    string // the locator's description ("" for a page)

	// run performs the assertion (off the loop); nil error = passed.
	run func() error
	// expected is the "Expected ..." line without the label's "not ".
	expectedLabel, expected string
	// receivedLabel is "Received string" for text matchers, "Received"
	// otherwise.
	receivedLabel string
	// reread, when set, reads the received values again after a failure
	// (arrays, which the driver's answer does not render exactly).
	reread func() (string, error)
	// hasArg tells the matcher hint "(expected)" from "()".
	hasArg bool
	// message is a failure message run built itself (with errDone).
	message string
}

// errDone is returned by a run that wrote the whole failure message.
var errDone = errors.New("assertion failed")

// optionsIndex is the position of the options argument of each matcher
// (toHaveAttribute decides at run time).
var optionsIndex = map[string]int{
	"toBeVisible": 0, "toBeHidden": 0, "toBeEnabled": 0, "toBeDisabled": 0, "toBeChecked": 0, "toBeEditable": 0,
	"toBeFocused": 0, "toBeAttached": 0, "toBeEmpty": 0, "toBeInViewport": 0, "toBeOK": 0,
	"toHaveCount": 1, "toHaveText": 1, "toContainText": 1, "toHaveValue": 1, "toHaveValues": 1, "toHaveClass": 1,
	"toContainClass": 1, "toHaveId": 1, "toHaveRole": 1, "toHaveAccessibleName": 1, "toHaveAccessibleDescription": 1,
	"toHaveTitle": 1, "toHaveURL": 1, "toHaveCSS": 2, "toHaveJSProperty": 2, "toHaveAttribute": 2,
}

// webFirstNames are the web-first matchers (the keys of optionsIndex,
// sorted), for playwright.js.
var webFirstNames = func() []string {
	names := make([]string, 0, len(optionsIndex))
	for n := range optionsIndex {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}()

// anyValue matches any attribute value (toHaveAttribute(name): presence).
var anyValue = regexp.MustCompile("(?s).*")

// webFirst is the native behind the web-first matchers of expect:
// webFirst(name, actual, isNot, args, defaultTimeout) returns a Promise of
// undefined (passed) or the failure message.
func (r *Runtime) webFirst(c goja.FunctionCall) goja.Value {
	name := c.Argument(0).String()
	actual := c.Argument(1)
	e := &expectation{r: r, name: name, isNot: c.Argument(2).ToBoolean(), timeout: c.Argument(4).ToFloat(), receivedLabel: "Received"}
	args := r.array(c.Argument(3))
	arg := func(i int) goja.Value {
		if i < len(args) && args[i] != nil {
			return args[i]
		}
		return goja.Undefined()
	}
	oi, known := optionsIndex[name]
	if !known {
		panic(r.rt.NewTypeError("%s", "expect: unknown web-first matcher "+name))
	}
	if name == "toHaveAttribute" && isOptionsObject(arg(1)) {
		oi = 1 // toHaveAttribute(name, options): presence only
	}
	o := r.opts(arg(oi))
	// fail with this message before the step times out
	e.timeout, _ = r.timeoutMs(o.f("timeout"), e.timeout)
	var target any
	if obj, ok := actual.(*goja.Object); ok {
		target = obj.Export()
	}
	switch t := target.(type) {
	case *locatorW:
		e.subject, e.desc = "locator", t.desc
		r.locatorExpectation(e, t, arg, o, oi)
	case *pageW:
		e.subject = "page"
		r.pageExpectation(e, t, arg, o)
	case *apiResponseW:
		e.subject = "response"
		r.okExpectation(e, t.s.Ok, t.s.Status, t.s.StatusText, t.s.Headers, t.s.Text)
	case *responseW:
		e.subject = "response"
		r.okExpectation(e, t.s.Ok, t.s.Status, t.s.StatusText, t.s.Headers, t.s.Text)
	}
	if e.run == nil {
		want := map[string]string{"toHaveTitle": "a Page", "toHaveURL": "a Page", "toBeOK": "an APIResponse or a Response"}[name]
		if want == "" {
			want = "a Locator"
		}
		panic(r.rt.NewTypeError("expect(received).%s(): received value must be %s, got %s", name, want, describeValue(actual)))
	}
	return async(r, "expect."+name, func() (string, error) { return e.evaluate(), nil }, func(msg string) goja.Value {
		if msg == "" {
			return goja.Undefined()
		}
		return r.rt.ToValue(msg)
	})
}

// isOptionsObject tells an options object from an expected value.
func isOptionsObject(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	return ok && !isNullish(v) && o.ClassName() == "Object"
}

func describeValue(v goja.Value) string {
	if isNullish(v) {
		return v.String()
	}
	if o, ok := v.(*goja.Object); ok {
		if c := o.Get("constructor"); c != nil {
			if co, ok := c.(*goja.Object); ok {
				if n := co.Get("name"); n != nil && n.String() != "" {
					return "an instance of " + n.String()
				}
			}
		}
		return "an object"
	}
	return fmt.Sprintf("%s %s", v.ExportType(), v.String())
}

// evaluate runs the assertion and returns "" or the failure message.
func (e *expectation) evaluate() string {
	err := e.run()
	if err == nil {
		return ""
	}
	if errors.Is(err, errDone) {
		return e.message
	}
	err = e.r.explain(err)
	var pe *playwright.Error
	if errors.As(err, &pe) || !strings.Contains(err.Error(), "\nActual value: ") {
		// The driver failed the call itself (strict mode violation, closed
		// page, crash): report it under the matcher's header.
		return e.header() + e.locatorLine() + "Error: " + strings.TrimPrefix(pwMessage(err), "Error: ")
	}
	received, log := parseMismatch(err.Error())
	if e.reread != nil && received != "<element(s) not found>" {
		if v, rerr := e.reread(); rerr == nil {
			received = v
		}
	}
	var b strings.Builder
	b.WriteString(e.header())
	b.WriteString(e.locatorLine())
	not := ""
	if e.isNot {
		not = "not "
	}
	fmt.Fprintf(&b, "%s: %s%s\n", e.expectedLabel, not, e.expected)
	switch {
	case received == "<element(s) not found>":
		b.WriteString("Received: <element(s) not found>\n")
	case e.receivedLabel == "Received string":
		fmt.Fprintf(&b, "Received string: %s\n", quoteJSON(received))
	default:
		fmt.Fprintf(&b, "Received: %s\n", received)
	}
	fmt.Fprintf(&b, "Timeout: %sms", strconv.FormatFloat(e.timeout, 'f', -1, 64))
	if len(log) > 0 {
		b.WriteString("\n\nCall log:\n")
		for i, l := range log {
			if i == 0 && strings.Contains(l, "with timeout") {
				l = fmt.Sprintf("  - Expect %q with timeout %sms", e.name, strconv.FormatFloat(e.timeout, 'f', -1, 64))
			}
			b.WriteString(l)
			if i < len(log)-1 {
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

func (e *expectation) header() string {
	not := ""
	if e.isNot {
		not = ".not"
	}
	arg := "()"
	if e.hasArg {
		arg = "(expected)"
	}
	return fmt.Sprintf("expect(%s)%s.%s%s failed\n\n", e.subject, not, e.name, arg)
}

func (e *expectation) locatorLine() string {
	if e.desc == "" {
		return ""
	}
	return "Locator: " + e.desc + "\n"
}

// parseMismatch splits playwright-go's assertion failure ("<message>
// '<expected>'\nActual value: <received> \nCall log:\n<lines>") into the
// received value and the call log lines.
func parseMismatch(s string) (received string, log []string) {
	if i := strings.Index(s, " \nCall log:\n"); i >= 0 {
		log = strings.Split(s[i+len(" \nCall log:\n"):], "\n")
		s = s[:i]
	} else {
		s = strings.TrimSuffix(s, " ")
	}
	if j := strings.LastIndex(s, "\nActual value: "); j >= 0 {
		received = s[j+len("\nActual value: "):]
	}
	if received == "<nil>" {
		received = "<element(s) not found>"
	}
	return received, log
}

// expectedText converts a string or RegExp expectation for playwright-go
// and describes it for the message.
func (r *Runtime) expectedText(v goja.Value, e *expectation, substring bool) any {
	e.receivedLabel = "Received string"
	if src, flags, ok := regexpOf(v); ok {
		e.expectedLabel, e.expected = "Expected pattern", "/"+src+"/"+flags
		return r.goRegexp(src, flags, e.name)
	}
	e.expectedLabel = "Expected string"
	if substring {
		e.expectedLabel = "Expected substring"
	}
	e.expected = quoteJSON(v.String())
	return v.String()
}

// goRegexp compiles a JS RegExp for playwright-go, which sends its source
// and flags to the page (where it runs as a JS RegExp). It must also be
// valid RE2, which excludes lookaround and backreferences.
func (r *Runtime) goRegexp(src, flags, api string) *regexp.Regexp {
	re, err := regexp.Compile(goFlags(flags) + src)
	if err != nil {
		panic(r.rt.NewTypeError("expect(...).%s(/%s/%s): this regular expression uses syntax ferridriver cannot hand to Playwright (lookaround, backreferences, \\u escapes: only what Go's RE2 also accepts): %v; use a simpler pattern, or expect.poll(() => ...).toMatch(...)", api, src, flags, err))
	}
	return re
}

// expectedTexts converts an array of strings/RegExps.
func (r *Runtime) expectedTexts(items []goja.Value, e *expectation) any {
	var strs []string
	var res []*regexp.Regexp
	var descs []string
	for _, it := range items {
		if src, flags, ok := regexpOf(it); ok {
			res = append(res, r.goRegexp(src, flags, e.name))
			descs = append(descs, "/"+src+"/"+flags)
			continue
		}
		strs = append(strs, it.String())
		descs = append(descs, quoteJSON(it.String()))
	}
	e.expectedLabel, e.expected = "Expected", "["+strings.Join(descs, ", ")+"]"
	if res != nil && strs != nil {
		panic(r.rt.NewTypeError("%s", "expect(...)."+e.name+"(): mix of strings and regular expressions is not supported; use one kind"))
	}
	if res != nil {
		return res
	}
	if strs == nil {
		strs = []string{}
	}
	return strs
}

// rereadJSON returns a reread function evaluating fn over all matched
// elements and rendering the result as JSON.
func rereadJSON(l *locatorW, fn string) func() (string, error) {
	return func() (string, error) {
		v, err := l.pw.EvaluateAll(fn)
		if err != nil {
			return "", err
		}
		return renderJSON(v), nil
	}
}

func renderJSON(v any) string {
	switch x := v.(type) {
	case []any:
		parts := make([]string, len(x))
		for i, it := range x {
			parts[i] = renderJSON(it)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case string:
		return quoteJSON(x)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

func (r *Runtime) locatorExpectation(e *expectation, l *locatorW, arg func(int) goja.Value, o opts, oi int) {
	la := playwright.NewPlaywrightAssertions(e.timeout).Locator(l.pw)
	if e.isNot {
		la = la.Not()
	}
	t := &e.timeout
	state := func(expected string, run func() error) {
		e.expectedLabel, e.expected, e.run = "Expected", expected, run
	}
	switch e.name {
	case "toBeVisible":
		if v := o.b("visible"); v != nil && !*v {
			state("hidden", func() error { return la.ToBeHidden(playwright.LocatorAssertionsToBeHiddenOptions{Timeout: t}) })
			break
		}
		state("visible", func() error { return la.ToBeVisible(playwright.LocatorAssertionsToBeVisibleOptions{Timeout: t}) })
	case "toBeHidden":
		state("hidden", func() error { return la.ToBeHidden(playwright.LocatorAssertionsToBeHiddenOptions{Timeout: t}) })
	case "toBeEnabled":
		if v := o.b("enabled"); v != nil && !*v {
			state("disabled", func() error { return la.ToBeDisabled(playwright.LocatorAssertionsToBeDisabledOptions{Timeout: t}) })
			break
		}
		state("enabled", func() error { return la.ToBeEnabled(playwright.LocatorAssertionsToBeEnabledOptions{Timeout: t}) })
	case "toBeDisabled":
		state("disabled", func() error { return la.ToBeDisabled(playwright.LocatorAssertionsToBeDisabledOptions{Timeout: t}) })
	case "toBeChecked":
		opt := playwright.LocatorAssertionsToBeCheckedOptions{Timeout: t, Checked: o.b("checked"), Indeterminate: o.b("indeterminate")}
		want := "checked"
		if opt.Checked != nil && !*opt.Checked {
			want = "unchecked"
		}
		if opt.Indeterminate != nil && *opt.Indeterminate {
			want = "indeterminate"
		}
		state(want, func() error { return la.ToBeChecked(opt) })
	case "toBeEditable":
		if v := o.b("editable"); v != nil && !*v {
			e.isNot = !e.isNot
			la = la.Not()
		}
		state("editable", func() error { return la.ToBeEditable(playwright.LocatorAssertionsToBeEditableOptions{Timeout: t}) })
	case "toBeFocused":
		state("focused", func() error { return la.ToBeFocused(playwright.LocatorAssertionsToBeFocusedOptions{Timeout: t}) })
	case "toBeAttached":
		opt := playwright.LocatorAssertionsToBeAttachedOptions{Timeout: t, Attached: o.b("attached")}
		want := "attached"
		if opt.Attached != nil && !*opt.Attached {
			want = "detached"
		}
		state(want, func() error { return la.ToBeAttached(opt) })
	case "toBeEmpty":
		state("empty", func() error { return la.ToBeEmpty(playwright.LocatorAssertionsToBeEmptyOptions{Timeout: t}) })
	case "toBeInViewport":
		opt := playwright.LocatorAssertionsToBeInViewportOptions{Timeout: t, Ratio: o.f("ratio")}
		state("in viewport", func() error { return la.ToBeInViewport(opt) })
	case "toHaveCount":
		n := int(arg(0).ToInteger())
		e.hasArg, e.expectedLabel, e.expected = true, "Expected", strconv.Itoa(n)
		e.run = func() error { return la.ToHaveCount(n, playwright.LocatorAssertionsToHaveCountOptions{Timeout: t}) }
	case "toHaveText", "toContainText":
		e.hasArg = true
		contain := e.name == "toContainText"
		var expected any
		if items := r.array(arg(0)); items != nil {
			expected = r.expectedTexts(items, e)
			prop := "textContent"
			if b := o.b("useInnerText"); b != nil && *b {
				prop = "innerText"
			}
			e.reread = rereadJSON(l, "els => els.map(e => e."+prop+" || '')")
		} else {
			expected = r.expectedText(arg(0), e, contain)
		}
		if contain {
			opt := playwright.LocatorAssertionsToContainTextOptions{Timeout: t, IgnoreCase: o.b("ignoreCase"), UseInnerText: o.b("useInnerText")}
			e.run = func() error { return la.ToContainText(expected, opt) }
		} else {
			opt := playwright.LocatorAssertionsToHaveTextOptions{Timeout: t, IgnoreCase: o.b("ignoreCase"), UseInnerText: o.b("useInnerText")}
			e.run = func() error { return la.ToHaveText(expected, opt) }
		}
	case "toHaveValue":
		e.hasArg = true
		expected := r.expectedText(arg(0), e, false)
		e.run = func() error {
			return la.ToHaveValue(expected, playwright.LocatorAssertionsToHaveValueOptions{Timeout: t})
		}
	case "toHaveValues":
		e.hasArg = true
		var values []any
		switch x := r.expectedTexts(r.array(arg(0)), e).(type) {
		case []string:
			for _, s := range x {
				values = append(values, s)
			}
		case []*regexp.Regexp:
			for _, re := range x {
				values = append(values, re)
			}
		}
		e.reread = rereadJSON(l, "els => els.length === 1 && els[0].selectedOptions ? Array.from(els[0].selectedOptions).map(o => o.value) : []")
		e.run = func() error {
			return la.ToHaveValues(values, playwright.LocatorAssertionsToHaveValuesOptions{Timeout: t})
		}
	case "toHaveAttribute":
		e.hasArg = true
		name := arg(0).String()
		if oi == 1 || isNullish(arg(1)) {
			// toHaveAttribute(name[, options]): present, with any value.
			e.expectedLabel, e.expected = "Expected", "attribute "+quoteJSON(name)
			e.run = func() error {
				return la.ToHaveAttribute(name, anyValue, playwright.LocatorAssertionsToHaveAttributeOptions{Timeout: t})
			}
			break
		}
		expected := r.expectedText(arg(1), e, false)
		opt := playwright.LocatorAssertionsToHaveAttributeOptions{Timeout: t, IgnoreCase: o.b("ignoreCase")}
		e.run = func() error { return la.ToHaveAttribute(name, expected, opt) }
	case "toHaveClass", "toContainClass":
		e.hasArg = true
		var expected any
		if items := r.array(arg(0)); items != nil {
			expected = r.expectedTexts(items, e)
			e.reread = rereadJSON(l, "els => els.map(e => e.getAttribute('class') || '')")
		} else {
			expected = r.expectedText(arg(0), e, false)
		}
		if e.name == "toContainClass" {
			e.run = func() error {
				return la.ToContainClass(expected, playwright.LocatorAssertionsToContainClassOptions{Timeout: t})
			}
		} else {
			e.run = func() error {
				return la.ToHaveClass(expected, playwright.LocatorAssertionsToHaveClassOptions{Timeout: t})
			}
		}
	case "toHaveCSS":
		e.hasArg = true
		name := arg(0).String()
		expected := r.expectedText(arg(1), e, false)
		e.run = func() error {
			return la.ToHaveCSS(name, expected, playwright.LocatorAssertionsToHaveCSSOptions{Timeout: t})
		}
	case "toHaveId":
		e.hasArg = true
		expected := r.expectedText(arg(0), e, false)
		e.run = func() error { return la.ToHaveId(expected, playwright.LocatorAssertionsToHaveIdOptions{Timeout: t}) }
	case "toHaveRole":
		e.hasArg = true
		role := playwright.AriaRole(arg(0).String())
		e.expectedLabel, e.expected, e.receivedLabel = "Expected string", quoteJSON(string(role)), "Received string"
		e.run = func() error { return la.ToHaveRole(role, playwright.LocatorAssertionsToHaveRoleOptions{Timeout: t}) }
	case "toHaveAccessibleName":
		e.hasArg = true
		expected := r.expectedText(arg(0), e, false)
		opt := playwright.LocatorAssertionsToHaveAccessibleNameOptions{Timeout: t, IgnoreCase: o.b("ignoreCase")}
		e.run = func() error { return la.ToHaveAccessibleName(expected, opt) }
	case "toHaveAccessibleDescription":
		e.hasArg = true
		expected := r.expectedText(arg(0), e, false)
		opt := playwright.LocatorAssertionsToHaveAccessibleDescriptionOptions{Timeout: t, IgnoreCase: o.b("ignoreCase")}
		e.run = func() error { return la.ToHaveAccessibleDescription(expected, opt) }
	case "toHaveJSProperty":
		e.hasArg = true
		name := arg(0).String()
		value := r.argOf(arg(1))
		e.expectedLabel, e.expected = "Expected", renderJSON(value)
		e.run = func() error {
			return la.ToHaveJSProperty(name, value, playwright.LocatorAssertionsToHaveJSPropertyOptions{Timeout: t})
		}
	}
}

func (r *Runtime) pageExpectation(e *expectation, p *pageW, arg func(int) goja.Value, o opts) {
	pa := playwright.NewPlaywrightAssertions(e.timeout).Page(p.p)
	if e.isNot {
		pa = pa.Not()
	}
	t := &e.timeout
	switch e.name {
	case "toHaveTitle":
		e.hasArg = true
		expected := r.expectedText(arg(0), e, false)
		e.run = func() error { return pa.ToHaveTitle(expected, playwright.PageAssertionsToHaveTitleOptions{Timeout: t}) }
	case "toHaveURL":
		e.hasArg = true
		expected := r.expectedText(arg(0), e, false)
		if s, ok := expected.(string); ok {
			// Resolve against baseURL as Playwright does, and hand
			// playwright-go an exact pattern (it would path-join a string
			// to baseURL, mangling absolute URLs).
			if b := p.baseURL(); b != "" {
				if bu, err := url.Parse(b); err == nil {
					if u, err := bu.Parse(s); err == nil {
						s = u.String()
						e.expected = quoteJSON(s)
					}
				}
			}
			flags := ""
			if ic := o.b("ignoreCase"); ic != nil && *ic {
				flags = "(?i)"
			}
			expected = regexp.MustCompile(flags + "^" + regexp.QuoteMeta(s) + "$")
		}
		opt := playwright.PageAssertionsToHaveURLOptions{Timeout: t, IgnoreCase: o.b("ignoreCase")}
		e.run = func() error { return pa.ToHaveURL(expected, opt) }
	}
}

// okExpectation implements toBeOK for API and page responses: the status
// is known, so there is nothing to retry.
func (r *Runtime) okExpectation(e *expectation, ok func() bool, status func() int, statusText func() string, headers func() map[string]string, text func() (string, error)) {
	if e.name != "toBeOK" {
		return
	}
	e.run = func() error {
		if ok() != e.isNot {
			return nil
		}
		var b strings.Builder
		b.WriteString(e.header())
		want := "status within [200..299]"
		if e.isNot {
			want = "not " + want
		}
		fmt.Fprintf(&b, "Expected: %s\nReceived: %d %s", want, status(), statusText())
		if isTextual(headers()["content-type"]) {
			if body, err := text(); err == nil {
				if len(body) > 1000 {
					body = body[:1000] + "…"
				}
				b.WriteString("\n\nResponse text:\n" + body)
			}
		}
		e.message = b.String()
		return errDone
	}
}

func isTextual(ct string) bool {
	ct = strings.ToLower(ct)
	return strings.HasPrefix(ct, "text/") || strings.Contains(ct, "json") || strings.Contains(ct, "xml") ||
		strings.Contains(ct, "javascript") || strings.Contains(ct, "x-www-form-urlencoded")
}
