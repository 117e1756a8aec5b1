package browsing

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"mime"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/world/pwerror"
)

// What an agent reads to understand a page or a failure: failures worded
// with Playwright's reason, the error page a navigation left, a search in
// the snapshot, one request's headers and bodies, element boxes; and
// Drop, which puts files or data on an element.

// label names the element an action was on for its failure: the selector
// the recording uses, and the ref the agent gave.
func label(tg Target, rt target) string {
	if tg.Ref != "" {
		return rt.sel + " [ref=" + tg.Ref + "]"
	}
	return rt.sel
}

// failed words the failure of o for the agent: Playwright's message with
// the reason its call log gives ("element is not enabled") on the same
// line, the target on the next; a navigation's failure adds the page it
// left (a browser error page: its URL and text).
func (ss *Session) failed(ctx context.Context, err error, o op) error {
	if ss.ws != nil {
		if e := ss.ws.Explain(err); e != err {
			ss.reset()
			return e
		}
	}
	msg := agentMessage(err, o.target)
	if o.showPage && len(ss.tabs) > 0 {
		t := ss.tabs[ss.cur]
		t.navError = strings.SplitN(msg, "\n", 2)[0]
		// The error page commits shortly after the navigation failed.
		for i := 0; i < 10; i++ {
			if page := errorPage(t); page != "" {
				msg += "\n" + page
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return errors.New(msg)
}

// agentMessage is err's message in one or two lines: Playwright's
// message and the reason from its call log, then the target.
func agentMessage(err error, tgt string) string {
	head, log := pwerror.Split(strings.TrimSpace(err.Error()))
	head = strings.ReplaceAll(head, "playwright: ", "")
	head = strings.TrimPrefix(head, "timeout: ")
	// playwright-go's "Frame.Goto URL: " before the browser's net::ERR_...
	if i := strings.Index(head, ": net::"); i >= 0 {
		head = head[i+2:]
	}
	if r := reason(pwerror.Reason(log)); r != "" {
		head = strings.TrimSuffix(head, ".") + ": " + r
	}
	return pwerror.Format(pwerror.Failure{Message: head, Target: tgt})
}

var countPrefix = regexp.MustCompile(`^\d+ × `)

// reason picks, from the lines pwerror.Reason kept, the one that says why
// the call could not go on: the last that is not a retry or a wait
// ("element is not enabled", "element is outside of the viewport"), or
// what was waited for when nothing else was logged ("waiting for
// locator('#nope')": no element matched).
func reason(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		l := countPrefix.ReplaceAllString(strings.TrimSpace(lines[i]), "")
		switch {
		case l == "", strings.HasPrefix(l, "retrying"), strings.HasPrefix(l, "waiting "),
			strings.HasPrefix(l, "attempting"), strings.HasPrefix(l, "navigating to"):
			continue
		case strings.HasPrefix(l, "locator resolved to"):
			if i == len(lines)-1 {
				continue
			}
		}
		return l
	}
	if len(lines) > 0 && strings.HasPrefix(lines[0], "waiting for ") {
		for _, l := range lines {
			if strings.Contains(l, "resolved to") {
				return strings.TrimSpace(lines[0])
			}
		}
		return "no element matched while " + strings.TrimSpace(lines[0])
	}
	return ""
}

// errorPageJS reads what a browser error page shows (the page Chromium
// shows for a refused or failed navigation).
const errorPageJS = `() => [location.href, document.title, document.body ? document.body.innerText : '']`

// errorPage describes tab t's page when it is a browser error page
// ("chrome-error://..."): its URL, title and text as snapshot lines (the
// navigation's error when the page has none, as in headless Chromium);
// "" otherwise.
func errorPage(t *tab) string {
	v, err := t.page.Evaluate(errorPageJS)
	if err != nil {
		return ""
	}
	a, ok := v.([]interface{})
	if !ok || len(a) != 3 {
		return ""
	}
	href, _ := a[0].(string)
	title, _ := a[1].(string)
	text, _ := a[2].(string)
	if !strings.HasPrefix(href, "chrome-error:") {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Page: %s", href)
	if title != "" {
		fmt.Fprintf(&b, " (%s)", title)
	}
	b.WriteString("\nSnapshot:")
	if strings.TrimSpace(text) == "" {
		text = "the browser's error page"
		if t.navError != "" {
			text += ": " + t.navError
		}
	}
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			b.WriteString("\n- text: " + jsonQuote(l))
		}
	}
	return b.String()
}

// Find searches the current tab's snapshot for text (case-insensitive)
// or a regular expression ("/re/flags" or a bare pattern) and returns
// each matching line under the path of its ancestors, with the line
// before and after it.
func (ss *Session) Find(ctx context.Context, text, re string) (*Result, error) {
	if (text == "") == (re == "") {
		return nil, errors.New("give text or regex (one of them)")
	}
	match := func(l string) bool { return strings.Contains(strings.ToLower(l), strings.ToLower(text)) }
	if re != "" {
		pat := re
		if len(re) > 2 && re[0] == '/' {
			if i := strings.LastIndexByte(re, '/'); i > 0 {
				pat = re[1:i]
				if flags := re[i+1:]; flags != "" {
					pat = "(?" + strings.ReplaceAll(flags, "g", "") + ")" + pat
				}
			}
		}
		rx, err := regexp.Compile(pat)
		if err != nil {
			return nil, fmt.Errorf("regex %q: %w", re, err)
		}
		match = rx.MatchString
	}
	res, err := ss.Snapshot(ctx, "", 0)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(res.Snapshot, "\n"), "\n")
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	var b strings.Builder
	n := 0
	for i, l := range lines {
		if !match(l) {
			continue
		}
		n++
		if n > 50 {
			b.WriteString("… more matches left out: narrow the search\n")
			break
		}
		// The ancestors: each earlier line less indented than the last.
		var path []string
		in := indent(l)
		for j := i - 1; j >= 0 && in > 0; j-- {
			if k := indent(lines[j]); k < in {
				path = append([]string{strings.TrimSpace(strings.TrimSuffix(lines[j], ":"))}, path...)
				in = k
			}
		}
		fmt.Fprintf(&b, "Match %d", n)
		if len(path) > 0 {
			fmt.Fprintf(&b, " in %s", strings.Join(path, " > "))
		}
		b.WriteString(":\n")
		for j := max(i-1, 0); j <= min(i+1, len(lines)-1); j++ {
			mark := "  "
			if j == i {
				mark = "> "
			}
			b.WriteString(mark + strings.TrimSpace(lines[j]) + "\n")
		}
	}
	if n == 0 {
		b.WriteString("No match in the snapshot.")
	}
	return &Result{URL: res.URL, Title: res.Title, Output: strings.TrimRight(b.String(), "\n")}, nil
}

// NetworkSince returns the requests since the current document's
// navigation (all: since the session began), each with its number for
// RequestDetails.
func (ss *Session) NetworkSince(all bool) (first int, reqs []NetworkRequest) {
	ss.logMu.Lock()
	defer ss.logMu.Unlock()
	if !all {
		first = min(ss.networkMark, len(ss.network))
	}
	for _, n := range ss.network[first:] {
		reqs = append(reqs, *n)
	}
	return first + 1, reqs
}

// ConsoleSince returns the console messages since the current document's
// navigation (all: since the session began).
func (ss *Session) ConsoleSince(all bool) []ConsoleMessage {
	ss.logMu.Lock()
	defer ss.logMu.Unlock()
	first := 0
	if !all {
		first = min(ss.consoleMark, len(ss.console))
	}
	return append([]ConsoleMessage(nil), ss.console[first:]...)
}

// maxBodyShown bounds a body in RequestDetails.
const maxBodyShown = 64 << 10

// RequestDetails returns request number n (1-based, as NetworkSince
// numbers them): its method, URL, status, headers and bodies, or only
// part ("request-headers", "request-body", "response-headers",
// "response-body").
func (ss *Session) RequestDetails(ctx context.Context, n int, part string) (string, error) {
	ss.logMu.Lock()
	if n < 1 || n > len(ss.network) {
		total := len(ss.network)
		ss.logMu.Unlock()
		return "", fmt.Errorf("no request %d: the session has %d (browser_network_requests lists them)", n, total)
	}
	nr := *ss.network[n-1]
	ss.logMu.Unlock()
	if nr.req == nil {
		return "", fmt.Errorf("request %d is gone", n)
	}
	var b strings.Builder
	section := func(name string, fill func()) {
		if part == "" || part == name {
			if part == "" {
				b.WriteString("\n" + name + ":\n")
			}
			fill()
		}
	}
	headers := func(h map[string]string, err error) {
		if err != nil {
			fmt.Fprintf(&b, "  (unavailable: %v)\n", err)
			return
		}
		keys := make([]string, 0, len(h))
		for k := range h {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "  %s: %s\n", k, h[k])
		}
	}
	body := func(data []byte, err error) {
		switch {
		case err != nil:
			fmt.Fprintf(&b, "  (unavailable: %v)\n", err)
		case len(data) == 0:
			b.WriteString("  (empty)\n")
		case !utf8.Valid(data):
			fmt.Fprintf(&b, "  (%d bytes of binary data)\n", len(data))
		case len(data) > maxBodyShown:
			b.WriteString(string(data[:maxBodyShown]))
			fmt.Fprintf(&b, "\n  … (%d bytes in all)\n", len(data))
		default:
			b.WriteString(string(data) + "\n")
		}
	}
	switch part {
	case "", "request-headers", "request-body", "response-headers", "response-body":
	default:
		return "", fmt.Errorf("part %q: want request-headers, request-body, response-headers or response-body", part)
	}
	if part == "" {
		status := fmt.Sprint(nr.Status)
		if nr.Failure != "" {
			status = "failed: " + nr.Failure
		} else if nr.Status == 0 {
			status = "pending"
		}
		fmt.Fprintf(&b, "#%d [%s] %s => %s (%s)\n", n, nr.Method, nr.URL, status, nr.ResourceType)
	}
	req := nr.req
	section("request-headers", func() { headers(req.AllHeaders()) })
	section("request-body", func() {
		data, err := req.PostDataBuffer()
		body(data, err)
	})
	var resp playwright.Response
	if nr.Failure == "" && nr.Status != 0 {
		resp, _ = req.Response()
	}
	section("response-headers", func() {
		if resp == nil {
			b.WriteString("  (no response)\n")
			return
		}
		headers(resp.AllHeaders())
	})
	section("response-body", func() {
		if resp == nil {
			b.WriteString("  (no response)\n")
			return
		}
		body(resp.Body())
	})
	return strings.TrimRight(b.String(), "\n"), nil
}

// withBoxes adds each element's bounding box, [box=x,y,width,height] in
// CSS pixels relative to the viewport, after its ref in the snapshot
// text of tab t.
func withBoxes(t *tab, text string) string {
	if t.last == nil {
		return text
	}
	return refAttrOut.ReplaceAllStringFunc(text, func(m string) string {
		ref := refAttrOut.FindStringSubmatch(m)[1]
		n := t.last.byRef[ref]
		if n == nil {
			return m
		}
		bb, err := t.page.Locator("aria-ref=" + n.pwRef).BoundingBox(playwright.LocatorBoundingBoxOptions{Timeout: playwright.Float(1000)})
		if err != nil || bb == nil {
			return m
		}
		return fmt.Sprintf("%s [box=%.0f,%.0f,%.0f,%.0f]", m, bb.X, bb.Y, bb.Width, bb.Height)
	})
}

var refAttrOut = regexp.MustCompile(`\[ref=(e\d+)\]`)

// dropJS dispatches the events of a drop from outside the page on an
// element: dragenter, dragover and drop with a DataTransfer holding the
// files ({name, type, b64}) and the data (MIME type to string).
const dropJS = `(el, arg) => {
  const dt = new DataTransfer();
  for (const f of arg.files) {
    const bytes = Uint8Array.from(atob(f.b64), c => c.charCodeAt(0));
    dt.items.add(new File([bytes], f.name, { type: f.type }));
  }
  for (const [type, value] of Object.entries(arg.data)) dt.setData(type, value);
  const r = el.getBoundingClientRect();
  const at = { bubbles: true, cancelable: true, composed: true, dataTransfer: dt, clientX: r.x + r.width / 2, clientY: r.y + r.height / 2 };
  el.dispatchEvent(new DragEvent('dragenter', at));
  el.dispatchEvent(new DragEvent('dragover', at));
  el.dispatchEvent(new DragEvent('drop', at));
}`

// maxDropBytes bounds the files of one drop.
const maxDropBytes = 32 << 20

// Drop drops files (absolute paths) and data (MIME type to value) on the
// element, as if dragged from outside the page.
func (ss *Session) Drop(ctx context.Context, tg Target, paths []string, data map[string]string, mode SnapMode) (*Result, error) {
	if len(paths) == 0 && len(data) == 0 {
		return nil, errors.New("give paths or data (at least one)")
	}
	_, loc, rt, err := ss.element(ctx, tg)
	if err != nil {
		return nil, err
	}
	// playwright-go serializes interface maps and slices only.
	files := []interface{}{}
	total := 0
	for i, p := range paths {
		// A read under the service's filesystem grant, as an upload's.
		p, err := ss.svc.checkRead(p)
		if err != nil {
			return nil, err
		}
		paths[i] = p
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("drop: %w", err)
		}
		if total += len(b); total > maxDropBytes {
			return nil, fmt.Errorf("drop: the files are over %d MiB", maxDropBytes>>20)
		}
		typ := mime.TypeByExtension(filepath.Ext(p))
		files = append(files, map[string]interface{}{"name": filepath.Base(p), "type": typ, "b64": base64.StdEncoding.EncodeToString(b)})
	}
	items := map[string]interface{}{}
	for k, v := range data {
		items[k] = v
	}
	var what []string
	for _, p := range paths {
		what = append(what, jsString(filepath.Base(p)))
	}
	for k := range data {
		what = append(what, k)
	}
	sort.Strings(what[len(paths):])
	return ss.perform(ctx, op{mode: mode, target: label(tg, rt),
		code: fmt.Sprintf("// drop %s on %s", strings.Join(what, ", "), rt.code),
		note: "no built-in step drops files or data",
		do: func() error {
			_, err := loc.Evaluate(dropJS, map[string]interface{}{"files": files, "data": items})
			return err
		}})
}

// pageGeometryJS is the viewport's place in the page, its size, the
// page's size and the device pixel ratio.
const pageGeometryJS = `() => [scrollX, scrollY, innerWidth, innerHeight,
  document.documentElement.scrollWidth, document.documentElement.scrollHeight, devicePixelRatio]`

// webpShot captures a WebP through Chromium's DevTools protocol
// (Playwright offers PNG and JPEG only): the viewport, the full page, or
// the element loc; in device pixels or CSS pixels.
func webpShot(bctx playwright.BrowserContext, page playwright.Page, loc playwright.Locator, fullPage, device bool) ([]byte, error) {
	v, err := page.Evaluate(pageGeometryJS)
	if err != nil {
		return nil, err
	}
	g, ok := v.([]interface{})
	if !ok || len(g) != 7 {
		return nil, errors.New("webp: could not measure the page")
	}
	num := func(i int) float64 {
		switch x := g[i].(type) {
		case float64:
			return x
		case int:
			return float64(x)
		}
		return 0
	}
	clip := map[string]any{"x": num(0), "y": num(1), "width": num(2), "height": num(3), "scale": 1.0}
	if !device && num(6) > 0 {
		clip["scale"] = 1 / num(6)
	}
	beyond := false
	switch {
	case loc != nil:
		bb, err := loc.BoundingBox()
		if err != nil {
			return nil, err
		}
		if bb == nil {
			return nil, errors.New("the element is not visible")
		}
		clip["x"], clip["y"], clip["width"], clip["height"] = num(0)+bb.X, num(1)+bb.Y, bb.Width, bb.Height
		beyond = true
	case fullPage:
		clip["x"], clip["y"], clip["width"], clip["height"] = 0.0, 0.0, num(4), num(5)
		beyond = true
	}
	cdp, err := bctx.NewCDPSession(page)
	if err != nil {
		return nil, fmt.Errorf("webp needs Chromium: %w", err)
	}
	defer func() { _ = cdp.Detach() }()
	out, err := cdp.Send("Page.captureScreenshot", map[string]any{"format": "webp", "clip": clip, "captureBeyondViewport": beyond})
	if err != nil {
		return nil, err
	}
	m, _ := out.(map[string]interface{})
	data, _ := m["data"].(string)
	if data == "" {
		return nil, errors.New("webp: Chromium returned no image")
	}
	return base64.StdEncoding.DecodeString(data)
}

// MouseAction is an action of the mouse at coordinates (CSS pixels in
// the viewport): Kind is move, click, drag, down, up or wheel.
type MouseAction struct {
	Kind           string
	X, Y           float64
	EndX, EndY     float64 // drag
	Button         string  // left (default), right, middle
	ClickCount     int
	Delay          float64 // ms between down and up
	DeltaX, DeltaY float64 // wheel
}

// Mouse performs a by-coordinates mouse action (not recorded: steps name
// elements, not points).
func (ss *Session) Mouse(ctx context.Context, m MouseAction, mode SnapMode) (*Result, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	mouse := t.page.Mouse()
	var button *playwright.MouseButton
	bArg := ""
	switch m.Button {
	case "", "left":
	case "right", "middle":
		button = (*playwright.MouseButton)(playwright.String(m.Button))
		bArg = fmt.Sprintf("{ button: %s }", jsString(m.Button))
	default:
		return nil, fmt.Errorf("button %q: want left, right or middle", m.Button)
	}
	o := op{mode: mode, note: "no built-in step acts at coordinates", mayOpenTab: m.Kind == "click"}
	switch m.Kind {
	case "move":
		o.code = fmt.Sprintf("await page.mouse.move(%g, %g);", m.X, m.Y)
		o.do = func() error { return mouse.Move(m.X, m.Y) }
	case "click":
		opts := playwright.MouseClickOptions{Button: button}
		if m.ClickCount > 0 {
			opts.ClickCount = playwright.Int(m.ClickCount)
		}
		if m.Delay > 0 {
			opts.Delay = playwright.Float(m.Delay)
		}
		o.code = fmt.Sprintf("await page.mouse.click(%g, %g%s);", m.X, m.Y, map[bool]string{true: ", " + bArg}[bArg != ""])
		o.do = func() error { return mouse.Click(m.X, m.Y, opts) }
	case "drag":
		o.code = fmt.Sprintf("await page.mouse.move(%g, %g);\nawait page.mouse.down();\nawait page.mouse.move(%g, %g);\nawait page.mouse.up();", m.X, m.Y, m.EndX, m.EndY)
		o.do = func() error {
			if err := mouse.Move(m.X, m.Y); err != nil {
				return err
			}
			if err := mouse.Down(); err != nil {
				return err
			}
			if err := mouse.Move(m.EndX, m.EndY, playwright.MouseMoveOptions{Steps: playwright.Int(5)}); err != nil {
				return err
			}
			return mouse.Up()
		}
	case "down":
		o.code = fmt.Sprintf("await page.mouse.down(%s);", bArg)
		o.do = func() error { return mouse.Down(playwright.MouseDownOptions{Button: button}) }
	case "up":
		o.code = fmt.Sprintf("await page.mouse.up(%s);", bArg)
		o.do = func() error { return mouse.Up(playwright.MouseUpOptions{Button: button}) }
	case "wheel":
		o.code = fmt.Sprintf("await page.mouse.wheel(%g, %g);", m.DeltaX, m.DeltaY)
		o.do = func() error { return mouse.Wheel(m.DeltaX, m.DeltaY) }
	default:
		return nil, fmt.Errorf("mouse action %q", m.Kind)
	}
	return ss.perform(ctx, o)
}

// PDF prints the current page to PDF (headless Chromium).
func (ss *Session) PDF(ctx context.Context) ([]byte, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	b, err := t.page.PDF()
	if err != nil {
		return nil, ss.explain(err)
	}
	return b, nil
}

// VerifyList checks that the element holds the items, in order, each
// visible (retrying); recorded as one check per item.
func (ss *Session) VerifyList(ctx context.Context, tg Target, items []string) (*Result, error) {
	_, loc, rt, err := ss.element(ctx, tg)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	var steps []Step
	var codes []string
	for _, it := range items {
		if !canRender(it) {
			return nil, errors.New("check one line of text per item")
		}
		l := loc.GetByText(it).First()
		if err := l.WaitFor(playwright.LocatorWaitForOptions{Timeout: playwright.Float(checkTimeout)}); err != nil {
			return nil, fmt.Errorf("check failed: %s does not show %q: %s", rt.sel, it, agentMessage(err, ""))
		}
		codes = append(codes, fmt.Sprintf("await expect(%s.getByText(%s).first()).toBeVisible();", rt.code, jsString(it)))
		steps = append(steps, checkStep(phExpectText, rt.sel, "to contain", it))
	}
	res.Code = strings.Join(codes, "\n")
	ss.record(res, steps)
	return res, nil
}

// Locator returns the Playwright locator code and selector that name the
// element in recordings.
func (ss *Session) Locator(ctx context.Context, tg Target) (code, selector string, err error) {
	_, _, rt, err := ss.element(ctx, tg)
	if err != nil {
		return "", "", err
	}
	return rt.code, rt.sel, nil
}
