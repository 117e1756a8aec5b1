package browsing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/world/pwerror"
)

// SnapMode says how much of the page snapshot an action's result carries.
type SnapMode int

// Snapshot modes.
const (
	// SnapDiff: what changed since the previous snapshot of the tab (the
	// whole snapshot after a navigation to a new document).
	SnapDiff SnapMode = iota
	// SnapFull: the whole snapshot.
	SnapFull
	// SnapNone: no snapshot.
	SnapNone
)

// Result is what an action or check did.
type Result struct {
	// Code is the Playwright code of the action ("" for none).
	Code string
	// Steps are the recorded Gherkin steps (with their keyword).
	Steps []string
	// NotRecorded says why the action left no step ("" when it did, or
	// when it is not a user action such as a snapshot).
	NotRecorded string
	// URL and Title are set when they changed since last reported; URL
	// is relative to [browser] baseURL when it is under it.
	URL, Title string
	// Snapshot is the aria snapshot with refs: whole, or only the changes
	// when SnapshotIsDiff.
	Snapshot       string
	SnapshotIsDiff bool
	// Modal describes a dialog the action opened (then there is no
	// snapshot: the page waits for browser_handle_dialog).
	Modal string
	// Output is the tool's own output (evaluate's value, a tab list...).
	Output string
	// Image is a screenshot, of type ImageMIME.
	Image     []byte
	ImageMIME string
}

// Target names an element: by Ref from the latest snapshot, by a
// Playwright Selector, or by Role and accessible Name.
type Target struct {
	Ref      string
	Selector string
	Role     string
	Name     string
}

func (t Target) empty() bool { return t.Ref == "" && t.Selector == "" && t.Role == "" }

const (
	// snapshotTimeout bounds taking a snapshot (ms).
	snapshotTimeout = 10000
	// checkTimeout is how long a check retries (ms).
	checkTimeout = 5000
)

var genRe = regexp.MustCompile(`\[ref=s(\d+)e\d+\]`)

// snap takes the tab's snapshot. old is the previous one of the same
// document (nil after a navigation or the first time).
func (ss *Session) snap(t *tab) (old, cur *tree, err error) {
	text, err := t.page.Locator("body").AriaSnapshot(playwright.LocatorAriaSnapshotOptions{
		Ref: playwright.Bool(true), Timeout: playwright.Float(snapshotTimeout),
	})
	if err != nil {
		return nil, nil, fmt.Errorf("snapshot: %w", ss.explain(err))
	}
	gen := 0
	if m := genRe.FindStringSubmatch(text); m != nil {
		gen, _ = strconv.Atoi(m[1])
	}
	// Playwright counts snapshot generations per document: a generation
	// that did not grow means a new document, whose elements are new.
	if t.last == nil || (gen != 0 && gen <= t.gen) {
		t.refs = newRefs()
		old = nil
	} else {
		old = t.last
	}
	cur = parseSnapshot(text, t.refs)
	t.last = cur
	if gen != 0 {
		t.gen = gen
	}
	return old, cur, nil
}

// explain words Playwright's errors as bdd steps do (pwerror: the call
// log trimmed to the lines that say why) and names a browser crash.
func (ss *Session) explain(err error) error {
	if err == nil {
		return nil
	}
	if ss.ws != nil {
		if e := ss.ws.Explain(err); e != err {
			ss.reset()
			return e
		}
	}
	return errors.New(pwerror.Format(pwerror.Failure{Message: strings.TrimSpace(err.Error())}))
}

// finish adds the page's URL and title (when changed) and the snapshot
// to res.
func (ss *Session) finish(ctx context.Context, res *Result, mode SnapMode) error {
	before := len(ss.tabs)
	t, err := ss.ensure(ctx)
	if err != nil {
		return err
	}
	if len(ss.tabs) > before {
		res.Output = strings.TrimSpace(res.Output + "\n" + fmt.Sprintf("A new tab opened (%d tabs; browser_tabs to switch).", len(ss.tabs)))
	}
	url := t.page.URL()
	title, _ := t.page.Title()
	if url != t.url || title != t.title {
		res.URL, res.Title = relativeURL(url, ss.svc.baseURL), title
		t.url, t.title = url, title
	}
	if mode == SnapNone {
		return nil
	}
	old, cur, err := ss.snap(t)
	if err != nil {
		return err
	}
	if mode == SnapFull || old == nil {
		res.Snapshot, _ = cur.full("", 0)
		return nil
	}
	res.Snapshot, res.SnapshotIsDiff = diff(old, cur), true
	return nil
}

// locate finds tg on tab t and names it for the recording.
func (ss *Session) locate(t *tab, tg Target) (loc playwright.Locator, rt target, err error) {
	defer func() {
		if err == nil && ss.aim == nil {
			ss.aim = loc
		}
	}()
	switch {
	case tg.Ref != "":
		if t.last == nil {
			return nil, target{}, errors.New("no snapshot of this tab yet: call browser_snapshot to get refs")
		}
		n := t.last.byRef[tg.Ref]
		if n == nil {
			return nil, target{}, fmt.Errorf("ref %s is not in the latest snapshot of this tab; call browser_snapshot for current refs", tg.Ref)
		}
		loc := t.page.Locator("aria-ref=" + n.pwRef)
		rt, err := nameNode(t.page, n, loc)
		if err != nil {
			return nil, target{}, err
		}
		return loc, rt, nil
	case tg.Role != "":
		rt := roleTarget(tg.Role, tg.Name, tg.Name != "", -1, 0)
		return t.page.Locator(rt.sel), rt, nil
	case tg.Selector != "":
		return t.page.Locator(tg.Selector), selectorTarget(tg.Selector), nil
	}
	return nil, target{}, errors.New("name the element: ref (from browser_snapshot), selector, or role (and name)")
}

// cssPathJS builds a CSS path to an element (the recording's last resort
// when role and name do not find it).
const cssPathJS = `el => { const parts = []; while (el && el.nodeType === 1 && el !== document.documentElement) {
  if (el.id) { parts.unshift('#' + CSS.escape(el.id)); break; }
  let i = 1, s = el; while ((s = s.previousElementSibling)) if (s.tagName === el.tagName) i++;
  parts.unshift(el.tagName.toLowerCase() + ':nth-of-type(' + i + ')'); el = el.parentElement; }
  return parts.join(' > '); }`

// nameNode names the snapshot node n (found by loc) with a role selector
// that finds it on the page: role and name, and its index among the
// matches when there are several.
func nameNode(page playwright.Page, n *node, loc playwright.Locator) (target, error) {
	h, err := loc.ElementHandle(playwright.LocatorElementHandleOptions{Timeout: playwright.Float(checkTimeout)})
	if err != nil {
		return target{}, fmt.Errorf("element %s: %w", n.ref, trimCallLog(err))
	}
	defer h.Dispose()
	rt, err := nameElement(func(sel string) playwright.Locator { return page.Locator(sel) }, n.role, n.name, n.hasNam, h)
	if err != nil {
		return target{}, fmt.Errorf("element %s: %w", n.ref, err)
	}
	return rt, nil
}

// nameElement names the element h, of role and accessible name, with a
// role selector (locate finds selectors where h is): its index among the
// matches when there are several, a CSS path when the role selector does
// not find it. The one locator generator of the recordings.
func nameElement(locate func(string) playwright.Locator, role, name string, hasName bool, h playwright.ElementHandle) (target, error) {
	rt := roleTarget(role, name, hasName, 0, 1)
	v, err := locate(rt.sel).EvaluateAll("(els, t) => [els.length, els.indexOf(t)]", h)
	if err == nil {
		if a, ok := v.([]interface{}); ok && len(a) == 2 {
			count, idx := toInt(a[0]), toInt(a[1])
			if idx >= 0 {
				return roleTarget(role, name, hasName, idx, count), nil
			}
		}
	}
	css, err := h.Evaluate(cssPathJS)
	if err != nil {
		return target{}, trimCallLog(err)
	}
	s, _ := css.(string)
	return selectorTarget(s), nil
}

func toInt(v interface{}) int {
	switch x := v.(type) {
	case int:
		return x
	case float64:
		return int(x)
	case int64:
		return int(x)
	}
	return -1
}

func trimCallLog(err error) error {
	msg := err.Error()
	if i := strings.Index(msg, "\nCall log:"); i > 0 {
		return errors.New(strings.TrimSpace(msg[:i]))
	}
	return err
}

// op is one action: its code and steps, and the work.
type op struct {
	code  string
	steps []Step
	note  string // why there is no step
	do    func() error
	mode  SnapMode
	// mayOpenTab: wait a moment for a tab the action may open.
	mayOpenTab bool
	// opensTab, when do sets it, says the action is known to open a tab
	// (a target=_blank link, a modifier click): the wait for it is longer.
	opensTab *atomic.Bool
	// typed is the text typed into each element addressed by ref: the
	// changes leave out a line that only shows it (withoutEcho).
	typed map[string]string
	// navigates: the action loads a page, after which the recording
	// suggests a check of what the page shows (suggestCheck).
	navigates bool
	// action and target word a failure ("click", `button "Save" [ref=e3]`).
	action, target string
	// showPage: a failure shows the page it left (a navigation's error
	// page).
	showPage bool
}

// perform runs o with the session's turn held by the caller: the work
// races a dialog it may open (then the result says so and the work
// finishes after browser_handle_dialog).
func (ss *Session) perform(ctx context.Context, o op) (*Result, error) {
	if d := ss.openDialog(); d != nil {
		return nil, fmt.Errorf("%s dialog is open (%q): handle it first with browser_handle_dialog", article(d.Type()), d.Message())
	}
	if ss.openChooser() != nil {
		return nil, errChooserOpen
	}
	ch := ss.dialogCh
	for len(ch) > 0 {
		<-ch
	}
	pageCh := ss.pageCh
	if pageCh != nil {
		for len(pageCh) > 0 {
			<-pageCh
		}
	}
	ss.decorate(ctx, o)
	done := make(chan error, 1)
	go func() {
		// A panic of the driver's client on some input is this action's
		// error, not the end of the server (the goroutine is out of reach
		// of the request's recover).
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("the browser action failed: %v", p)
			}
		}()
		done <- o.do()
	}()
	res := &Result{Code: o.code, NotRecorded: o.note}
	stepAt := len(ss.steps)
	select {
	case err := <-done:
		if err != nil {
			return nil, ss.failed(ctx, err, o)
		}
		if o.mayOpenTab && pageCh != nil {
			wait := popupWait
			if o.opensTab != nil && o.opensTab.Load() {
				wait = knownTabWait
			}
			select {
			case <-pageCh:
			case <-time.After(wait):
			}
		}
		ss.awaitChooser(res, o.mayOpenTab)
	case <-ch:
		d := ss.openDialog()
		ss.pending = &pendingAction{done: done, step: stepAt}
		ss.record(res, o.steps)
		if d != nil {
			res.Modal = fmt.Sprintf("%s dialog opened: %q", article(d.Type()), d.Message())
		}
		return res, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	ss.record(res, o.steps)
	if err := ss.finish(ctx, res, o.mode); err != nil {
		return res, err
	}
	if o.navigates && len(o.steps) > 0 {
		ss.suggestCheck(o.mode != SnapNone)
	}
	for ref, text := range o.typed {
		if !res.SnapshotIsDiff {
			break
		}
		if rest, ok := withoutEcho(res.Snapshot, ref, text); ok {
			res.Snapshot, res.SnapshotIsDiff = rest, rest != ""
		}
	}
	return res, nil
}

var keywords = [...]string{"Given", "When", "Then"}

// record appends steps to the recording and to res.
func (ss *Session) record(res *Result, steps []Step) {
	for _, st := range steps {
		ss.steps = append(ss.steps, st)
		text := st.Text
		if st.Upload != "" {
			text = phUpload.render(st.Upload, st.uploadTarget)
		}
		res.Steps = append(res.Steps, keywords[st.Kind]+" "+text)
	}
}

// suggestCheck records, after a navigation, a check of what the agent
// saw: the page's main heading (the first of level 1, else the first
// heading) when the result's snapshot was just taken, else its URL. It is
// marked Suggested: the export leaves it out when the agent's own check
// follows it. It is not repeated in the action's result: the agent does
// not act on it, and every result's bytes go to its model.
func (ss *Session) suggestCheck(fresh bool) {
	if ss.cur >= len(ss.tabs) {
		return
	}
	t := ss.tabs[ss.cur]
	var st Step
	if h := mainHeading(t.last); fresh && h != nil {
		if rt, err := nameNode(t.page, h, t.page.Locator("aria-ref="+h.pwRef)); err == nil && canRender(rt.sel) {
			st = checkStep(phExpectVisible, rt.sel, wordTo)
		}
	}
	if st.Text == "" {
		u := t.page.URL()
		if u == "" || u == "about:blank" || !canRender(u) {
			return
		}
		st = checkStep(phExpectURL, wordToEqual, relativeURL(u, ss.svc.baseURL))
	}
	st.Suggested = true
	ss.steps = append(ss.steps, st)
}

// mainHeading is the first named heading of level 1 in tr, else its
// first named heading; nil if none.
func mainHeading(tr *tree) *node {
	if tr == nil {
		return nil
	}
	var first, main *node
	var walk func(ns []*node)
	walk = func(ns []*node) {
		for _, n := range ns {
			if main != nil {
				return
			}
			if n.role == "heading" && n.hasNam && strings.TrimSpace(n.name) != "" && n.pwRef != "" {
				if first == nil {
					first = n
				}
				if strings.Contains(n.line, "[level=1]") {
					main = n
					return
				}
			}
			walk(n.kids)
		}
	}
	walk(tr.roots)
	if main != nil {
		return main
	}
	return first
}

// current returns the current tab, creating the context if needed. While
// a dialog is open the page's scripts are paused, so every call on the
// page would wait: the agent is told to handle the dialog first.
func (ss *Session) current(ctx context.Context) (*tab, error) {
	if d := ss.openDialog(); d != nil {
		return nil, fmt.Errorf("%s dialog is open (%q): handle it first with browser_handle_dialog", article(d.Type()), d.Message())
	}
	return ss.ensure(ctx)
}

// Navigate opens url (relative URLs resolve against [browser] baseURL).
func (ss *Session) Navigate(ctx context.Context, url string, mode SnapMode) (*Result, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	target, limit, err := ss.checkNavigation(url)
	if err != nil {
		return nil, err
	}
	kind := KindAction
	if !ss.hasSteps() {
		kind = KindContext
	}
	return ss.perform(ctx, op{
		code:  fmt.Sprintf("await page.goto(%s);", jsString(relativeURL(url, ss.svc.baseURL))),
		steps: []Step{{Kind: kind, Text: phOpen.render(relativeURL(url, ss.svc.baseURL))}},
		do: func() error {
			if limit != nil {
				if err := limit(t.page.Context()); err != nil {
					return err
				}
			}
			_, err := t.page.Goto(target)
			if err == nil {
				t.navError = ""
			}
			return err
		},
		mode:      mode,
		navigates: true,
		showPage:  true,
	})
}

// History goes back, forward or reloads ("back", "forward", "reload").
func (ss *Session) History(ctx context.Context, which string, mode SnapMode) (*Result, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	o := op{mode: mode, navigates: which != "reload"}
	switch which {
	case "back":
		o.code, o.steps = "await page.goBack();", []Step{actionStep(phGoBack)}
		o.do = func() error { _, err := t.page.GoBack(); return err }
	case "forward":
		o.code, o.steps = "await page.goForward();", []Step{actionStep(phGoForward)}
		o.do = func() error { _, err := t.page.GoForward(); return err }
	default:
		o.code, o.steps = "await page.reload();", []Step{actionStep(phReload)}
		o.do = func() error { _, err := t.page.Reload(); return err }
	}
	return ss.perform(ctx, o)
}

// Snapshot returns the whole snapshot of the current tab, or of the
// element ref, down to depth levels (0: all).
func (ss *Session) Snapshot(ctx context.Context, ref string, depth int) (*Result, error) {
	return ss.SnapshotBoxes(ctx, ref, depth, false)
}

// SnapshotBoxes is Snapshot with each element's bounding box when boxes
// is set ([box=x,y,width,height], CSS pixels, viewport-relative). On a
// browser error page (a failed navigation) it shows that page's URL and
// text.
func (ss *Session) SnapshotBoxes(ctx context.Context, ref string, depth int, boxes bool) (*Result, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	url := t.page.URL()
	title, _ := t.page.Title()
	res.URL, res.Title = relativeURL(url, ss.svc.baseURL), title
	t.url, t.title = url, title
	_, cur, err := ss.snap(t)
	if err != nil {
		return nil, err
	}
	res.Snapshot, err = cur.full(ref, depth)
	if err == nil && ref == "" && (strings.TrimSpace(res.Snapshot) == "" || strings.HasPrefix(url, "chrome-error:")) {
		if page := errorPage(t); page != "" {
			res.URL, res.Title, res.Snapshot = "", "", ""
			res.Output = page
		}
	}
	if err == nil && boxes {
		res.Snapshot = withBoxes(t, res.Snapshot)
	}
	return res, err
}

// ClickOptions vary a click.
type ClickOptions struct {
	Double    bool
	Button    string // left (default), right, middle
	Modifiers []string
}

// Click clicks the element.
func (ss *Session) Click(ctx context.Context, tg Target, o ClickOptions, mode SnapMode) (*Result, error) {
	t, loc, rt, err := ss.element(ctx, tg)
	if err != nil {
		return nil, err
	}
	_ = t
	opts := playwright.LocatorClickOptions{}
	method, phr := "click", phClick
	if o.Button == "right" {
		opts.Button = playwright.MouseButtonRight
		phr = phRightClick
	} else if o.Button == "middle" {
		opts.Button = playwright.MouseButtonMiddle
	}
	for _, m := range o.Modifiers {
		opts.Modifiers = append(opts.Modifiers, playwright.KeyboardModifier(m))
	}
	var args []string
	if o.Button != "" && o.Button != "left" {
		args = append(args, "button: "+jsString(o.Button))
	}
	if len(o.Modifiers) > 0 {
		q := make([]string, len(o.Modifiers))
		for i, m := range o.Modifiers {
			q[i] = jsString(m)
		}
		args = append(args, "modifiers: ["+strings.Join(q, ", ")+"]")
	}
	if o.Double {
		method, phr = "dblclick", phDoubleClick
	}
	code := fmt.Sprintf("await %s.%s(", rt.code, method)
	if len(args) > 0 {
		code += "{ " + strings.Join(args, ", ") + " }"
	}
	code += ");"
	p := op{code: code, mode: mode, mayOpenTab: true, action: method, target: label(tg, rt)}
	switch {
	case o.Button == "middle":
		p.note = "no built-in step clicks with the middle button"
	case len(o.Modifiers) > 0 && (o.Double || o.Button == "right"):
		p.note = "no built-in step double or right clicks with modifier keys"
	case len(o.Modifiers) > 0:
		p.steps = []Step{actionStep(phClickHolding, rt.sel, strings.Join(o.Modifiers, "+"))}
	default:
		p.steps = []Step{actionStep(phr, rt.sel)}
	}
	p.opensTab = new(atomic.Bool)
	p.do = func() error {
		if o.Button == "middle" || slices.ContainsFunc(o.Modifiers, func(m string) bool { return m == "Control" || m == "ControlOrMeta" || m == "Meta" || m == "Shift" }) {
			p.opensTab.Store(true)
		} else if v, err := loc.Evaluate(opensTabJS, nil, playwright.LocatorEvaluateOptions{Timeout: playwright.Float(1000)}); err == nil && v == true {
			p.opensTab.Store(true)
		}
		if o.Double {
			return loc.Dblclick(playwright.LocatorDblclickOptions{Button: opts.Button, Modifiers: opts.Modifiers})
		}
		return loc.Click(opts)
	}
	return ss.perform(ctx, p)
}

// opensTabJS says whether a click on the element opens a new tab: a link
// or a form's submit with a target other than the current browsing context.
const opensTabJS = `el => {
  const t = el.closest('a[target], area[target]')?.target ?? el.form?.target ?? ''
  return t !== '' && !['_self', '_parent', '_top'].includes(t.toLowerCase())
}`

// element resolves tg on the current tab.
func (ss *Session) element(ctx context.Context, tg Target) (*tab, playwright.Locator, target, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, nil, target{}, err
	}
	loc, rt, err := ss.locate(t, tg)
	if err != nil {
		return nil, nil, target{}, err
	}
	return t, loc, rt, nil
}

// Type enters text into an editable element: filled at once, or typed
// key by key (slowly); submit presses Enter after.
func (ss *Session) Type(ctx context.Context, tg Target, text string, slowly, submit bool, mode SnapMode) (*Result, error) {
	_, loc, rt, err := ss.element(ctx, tg)
	if err != nil {
		return nil, err
	}
	p := op{mode: mode, target: label(tg, rt)}
	if tg.Ref != "" {
		p.typed = map[string]string{tg.Ref: text}
	}
	if slowly {
		p.code = fmt.Sprintf("await %s.pressSequentially(%s);", rt.code, jsString(text))
		p.steps = []Step{{Kind: KindAction, Text: phTypeInto.render(text, rt.sel)}}
	} else {
		p.code = fmt.Sprintf("await %s.fill(%s);", rt.code, jsString(text))
		p.steps = []Step{{Kind: KindAction, Text: phFill.render(rt.sel, text)}}
	}
	if submit {
		p.code += fmt.Sprintf("\nawait %s.press('Enter');", rt.code)
		// Filling or typing leaves the focus on the element: the step
		// presses the key there without naming it again.
		p.steps = append(p.steps, actionStep(phPress, "Enter"))
	}
	if !canRender(text) {
		p.steps, p.note = nil, "the text spans lines, which a step line cannot hold"
	}
	p.do = func() error {
		var err error
		if slowly {
			err = loc.PressSequentially(text)
		} else {
			err = loc.Fill(text)
		}
		if err == nil && submit {
			err = loc.Press("Enter")
		}
		return err
	}
	return ss.perform(ctx, p)
}

// withoutEcho removes from the changes d the line of the element ref when
// all it shows is the value the call typed into it: the agent knows it
// (a field that transforms what is typed still shows). ok is false when
// there is no such line.
func withoutEcho(d, ref, text string) (rest string, ok bool) {
	lines := strings.Split(strings.TrimRight(d, "\n"), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "- ") || !strings.Contains(l, "[ref="+ref+"]") {
			continue
		}
		if !strings.HasSuffix(l, "]: "+text) && !strings.HasSuffix(l, "]: "+jsonQuote(text)) {
			return "", false
		}
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], " ") {
			return "", false // it has children that changed
		}
		lines = append(lines[:i], lines[i+1:]...)
		if len(lines) == 0 {
			return "", true
		}
		return strings.Join(lines, "\n") + "\n", true
	}
	return "", false
}

// Field is one field of FillForm.
type Field struct {
	Target Target
	// Type is textbox (default), checkbox, radio, combobox or slider.
	Type  string
	Value string
}

// FillForm fills several fields in one call.
func (ss *Session) FillForm(ctx context.Context, fields []Field, mode SnapMode) (*Result, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	type item struct {
		loc playwright.Locator
		f   Field
	}
	var items []item
	p := op{mode: mode, typed: map[string]string{}}
	var codes []string
	for _, f := range fields {
		loc, rt, err := ss.locate(t, f.Target)
		if err != nil {
			return nil, err
		}
		items = append(items, item{loc, f})
		switch f.Type {
		case "checkbox", "radio":
			on := f.Value == "true" || f.Value == "checked"
			if on {
				codes = append(codes, fmt.Sprintf("await %s.check();", rt.code))
				p.steps = append(p.steps, actionStep(phCheck, rt.sel))
			} else {
				codes = append(codes, fmt.Sprintf("await %s.uncheck();", rt.code))
				p.steps = append(p.steps, actionStep(phUncheck, rt.sel))
			}
		case "combobox":
			codes = append(codes, fmt.Sprintf("await %s.selectOption(%s);", rt.code, jsString(f.Value)))
			p.steps = append(p.steps, actionStep(phSelect, f.Value, rt.sel))
		default:
			codes = append(codes, fmt.Sprintf("await %s.fill(%s);", rt.code, jsString(f.Value)))
			p.steps = append(p.steps, actionStep(phFill, rt.sel, f.Value))
			if f.Target.Ref != "" {
				p.typed[f.Target.Ref] = f.Value
			}
		}
		if !canRender(f.Value) {
			p.steps, p.note = nil, "a value spans lines, which a step line cannot hold"
		}
	}
	p.code = strings.Join(codes, "\n")
	p.do = func() error {
		for _, it := range items {
			var err error
			switch it.f.Type {
			case "checkbox", "radio":
				err = it.loc.SetChecked(it.f.Value == "true" || it.f.Value == "checked")
			case "combobox":
				v := []string{it.f.Value}
				_, err = it.loc.SelectOption(playwright.SelectOptionValues{ValuesOrLabels: &v})
			default:
				err = it.loc.Fill(it.f.Value)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	return ss.perform(ctx, p)
}

// SelectOption selects options (by value or label) in a <select>.
func (ss *Session) SelectOption(ctx context.Context, tg Target, values []string, mode SnapMode) (*Result, error) {
	_, loc, rt, err := ss.element(ctx, tg)
	if err != nil {
		return nil, err
	}
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = jsString(v)
	}
	arg := strings.Join(q, ", ")
	if len(values) != 1 {
		arg = "[" + arg + "]"
	}
	p := op{mode: mode, code: fmt.Sprintf("await %s.selectOption(%s);", rt.code, arg), target: label(tg, rt)}
	if len(values) == 1 {
		p.steps = []Step{actionStep(phSelect, values[0], rt.sel)}
	} else {
		p.note = "the built-in step selects one option"
	}
	p.do = func() error {
		_, err := loc.SelectOption(playwright.SelectOptionValues{ValuesOrLabels: &values})
		return err
	}
	return ss.perform(ctx, p)
}

// Hover moves the mouse over the element.
func (ss *Session) Hover(ctx context.Context, tg Target, mode SnapMode) (*Result, error) {
	_, loc, rt, err := ss.element(ctx, tg)
	if err != nil {
		return nil, err
	}
	return ss.perform(ctx, op{mode: mode, code: fmt.Sprintf("await %s.hover();", rt.code), target: label(tg, rt),
		steps: []Step{actionStep(phHover, rt.sel)},
		do:    func() error { return loc.Hover() }})
}

// Drag drags one element onto another.
func (ss *Session) Drag(ctx context.Context, from, to Target, mode SnapMode) (*Result, error) {
	t, src, srt, err := ss.element(ctx, from)
	if err != nil {
		return nil, err
	}
	dst, drt, err := ss.locate(t, to)
	if err != nil {
		return nil, err
	}
	return ss.perform(ctx, op{mode: mode, code: fmt.Sprintf("await %s.dragTo(%s);", srt.code, drt.code), target: label(from, srt) + " to " + label(to, drt),
		steps: []Step{actionStep(phDrag, srt.sel, drt.sel)},
		do:    func() error { return src.DragTo(dst) }})
}

// PressKey presses a key on the focused element, or on tg when given.
func (ss *Session) PressKey(ctx context.Context, key string, tg Target, mode SnapMode) (*Result, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	if tg.empty() {
		return ss.perform(ctx, op{mode: mode, code: fmt.Sprintf("await page.keyboard.press(%s);", jsString(key)),
			steps: []Step{actionStep(phPress, key)},
			do:    func() error { return t.page.Keyboard().Press(key) }})
	}
	loc, rt, err := ss.locate(t, tg)
	if err != nil {
		return nil, err
	}
	return ss.perform(ctx, op{mode: mode, code: fmt.Sprintf("await %s.press(%s);", rt.code, jsString(key)), target: label(tg, rt),
		steps: []Step{actionStep(phPressOn, key, rt.sel)},
		do:    func() error { return loc.Press(key) }})
}

// Upload sets the files of a file input. Each path is a read under the
// service's filesystem grant (SetFileAccess).
func (ss *Session) Upload(ctx context.Context, tg Target, paths []string, mode SnapMode) (*Result, error) {
	files := make([]string, len(paths))
	for i, p := range paths {
		f, err := ss.svc.checkRead(p)
		if err != nil {
			return nil, err
		}
		files[i] = f
	}
	if fc := ss.openChooser(); fc != nil && tg.empty() {
		return ss.answerChooser(ctx, fc, files, mode)
	}
	if tg.empty() {
		return nil, errors.New("no file chooser is open: click the element that opens it first (the result says when one opened), or name the file input (target)")
	}
	if len(paths) == 0 {
		return nil, errors.New("paths is empty")
	}
	_, loc, rt, err := ss.element(ctx, tg)
	if err != nil {
		return nil, err
	}
	q := make([]string, len(paths))
	for i, p := range paths {
		q[i] = jsString(p)
	}
	p := op{mode: mode, code: fmt.Sprintf("await %s.setInputFiles([%s]);", rt.code, strings.Join(q, ", ")), target: label(tg, rt)}
	if len(paths) == 1 {
		p.steps = []Step{{Kind: KindAction, Upload: paths[0], uploadTarget: rt.sel}}
	} else {
		p.note = "the built-in step uploads one file"
	}
	p.do = func() error { return loc.SetInputFiles(files) }
	return ss.perform(ctx, p)
}

// HandleDialog accepts or dismisses the open dialog (promptText answers
// a prompt). Its step goes before the action that opened the dialog (the
// step library arms the answer before the action).
func (ss *Session) HandleDialog(ctx context.Context, accept bool, promptText *string, mode SnapMode) (*Result, error) {
	d := ss.openDialog()
	if d == nil {
		return nil, errors.New("no dialog is open")
	}
	var err error
	res := &Result{}
	var st Step
	switch {
	case accept && promptText != nil:
		err = d.Accept(*promptText)
		res.Code = fmt.Sprintf("page.once('dialog', dialog => dialog.accept(%s));", jsString(*promptText))
		st = actionStep(phAcceptPrompt, *promptText)
	case accept:
		err = d.Accept()
		res.Code = "page.once('dialog', dialog => dialog.accept());"
		st = actionStep(phAcceptDialog)
	default:
		err = d.Dismiss()
		res.Code = "page.once('dialog', dialog => dialog.dismiss());"
		st = actionStep(phDismissDialog)
	}
	ss.logMu.Lock()
	ss.dialog = nil
	ss.logMu.Unlock()
	if err != nil {
		return nil, ss.explain(err)
	}
	at := len(ss.steps)
	if ss.pending != nil && ss.pending.step <= at {
		at = ss.pending.step
	}
	ss.steps = append(ss.steps[:at], append([]Step{st}, ss.steps[at:]...)...)
	// Recorded before the action that opened the dialog, where a replay
	// must arm it.
	res.Steps = []string{keywords[st.Kind] + " " + st.Text}
	if p := ss.pending; p != nil {
		ss.pending = nil
		select {
		case err := <-p.done:
			if err != nil {
				res.Output = "the action that opened the dialog then failed: " + ss.explain(err).Error()
			}
		case <-time.After(30 * time.Second):
			res.Output = "the action that opened the dialog has not finished yet"
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return res, ss.finish(ctx, res, mode)
}

// WaitFor waits for text to appear, text to disappear, or a time.
func (ss *Session) WaitFor(ctx context.Context, text, textGone string, seconds float64, mode SnapMode) (*Result, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case text != "":
		loc := t.page.GetByText(text).First()
		return ss.perform(ctx, op{mode: mode,
			code:  fmt.Sprintf("await page.getByText(%s).first().waitFor();", jsString(text)),
			steps: []Step{actionStep(phWaitText, text)},
			do:    func() error { return loc.WaitFor() }})
	case textGone != "":
		rt := textTarget(textGone)
		loc := t.page.Locator(rt.sel)
		return ss.perform(ctx, op{mode: mode,
			code:  fmt.Sprintf("await %s.first().waitFor({ state: 'hidden' });", rt.code),
			steps: []Step{actionStep(phWaitHidden, rt.sel)},
			do: func() error {
				return loc.First().WaitFor(playwright.LocatorWaitForOptions{State: playwright.WaitForSelectorStateHidden})
			}})
	case seconds > 0:
		ms := int(seconds * 1000)
		return ss.perform(ctx, op{mode: mode,
			code:  fmt.Sprintf("await page.waitForTimeout(%d);", ms),
			steps: []Step{actionStep(phWaitMillis, ms)},
			do: func() error {
				select {
				case <-time.After(time.Duration(ms) * time.Millisecond):
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			}})
	}
	return nil, errors.New("give text, textGone or time")
}

// Resize sets the viewport size.
func (ss *Session) Resize(ctx context.Context, w, h int, mode SnapMode) (*Result, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	return ss.perform(ctx, op{mode: mode,
		code:  fmt.Sprintf("await page.setViewportSize({ width: %d, height: %d });", w, h),
		steps: []Step{actionStep(phViewport, w, h)},
		do:    func() error { return t.page.SetViewportSize(w, h) }})
}

// Media is what EmulateMedia changes: each value "" (left as is), a value
// of its media feature, or "no-override" (the override cleared).
type Media struct {
	Media, ColorScheme, ReducedMotion, ForcedColors, Contrast string
}

// EmulateMedia sets the CSS media type and media features.
func (ss *Session) EmulateMedia(ctx context.Context, m Media) (*Result, error) {
	media, colorScheme, reducedMotion := m.Media, m.ColorScheme, m.ReducedMotion
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	o := playwright.PageEmulateMediaOptions{}
	var parts []string
	var steps []Step
	var notes []string
	// A step is recorded only for the values the built-in steps take
	// (steps/emulation.ts): "no-override" has none.
	if media != "" {
		o.Media = (*playwright.Media)(playwright.String(media))
		parts = append(parts, "media: "+jsString(media))
		if media == "screen" || media == "print" {
			steps = append(steps, actionStep(phMediaType, media))
		} else {
			notes = append(notes, "no built-in step emulates the media type "+media)
		}
	}
	if colorScheme != "" {
		o.ColorScheme = (*playwright.ColorScheme)(playwright.String(colorScheme))
		parts = append(parts, "colorScheme: "+jsString(colorScheme))
		if slices.Contains([]string{"light", "dark", "no-preference"}, colorScheme) {
			steps = append(steps, actionStep(phColorScheme, colorScheme))
		} else {
			notes = append(notes, "no built-in step emulates the color scheme "+colorScheme)
		}
	}
	if reducedMotion != "" {
		o.ReducedMotion = (*playwright.ReducedMotion)(playwright.String(reducedMotion))
		parts = append(parts, "reducedMotion: "+jsString(reducedMotion))
		notes = append(notes, "no built-in step emulates reduced motion")
	}
	if m.ForcedColors != "" {
		o.ForcedColors = (*playwright.ForcedColors)(playwright.String(m.ForcedColors))
		parts = append(parts, "forcedColors: "+jsString(m.ForcedColors))
		notes = append(notes, "no built-in step emulates forced colors")
	}
	if m.Contrast != "" {
		o.Contrast = (*playwright.Contrast)(playwright.String(m.Contrast))
		parts = append(parts, "contrast: "+jsString(m.Contrast))
		notes = append(notes, "no built-in step emulates a contrast preference")
	}
	note := strings.Join(notes, "; ")
	return ss.perform(ctx, op{mode: SnapNone, steps: steps, note: note,
		code: "await page.emulateMedia({ " + strings.Join(parts, ", ") + " });",
		do:   func() error { return t.page.EmulateMedia(o) }})
}

// Evaluate runs a JavaScript function in the page (given the element
// when tg names one) and returns its JSON value.
func (ss *Session) Evaluate(ctx context.Context, fn string, tg Target) (*Result, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	var v interface{}
	res := &Result{}
	if tg.empty() {
		res.Code = fmt.Sprintf("await page.evaluate(%s);", fn)
		v, err = t.page.Evaluate(fn)
	} else {
		loc, rt, lerr := ss.locate(t, tg)
		if lerr != nil {
			return nil, lerr
		}
		res.Code = fmt.Sprintf("await %s.evaluate(%s);", rt.code, fn)
		v, err = loc.Evaluate(fn, nil)
	}
	if err != nil {
		return nil, ss.explain(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(fmt.Sprint(v))
	}
	res.Output = string(b)
	return res, nil
}

// ScreenshotOptions vary a screenshot.
type ScreenshotOptions struct {
	// Type is png (default), jpeg or webp.
	Type string
	// FullPage takes the whole scrollable page.
	FullPage bool
	// Scale is "css" (default: one pixel per CSS pixel) or "device".
	Scale string
}

// Screenshot takes a PNG, JPEG or WebP of the viewport, the full page or
// an element.
func (ss *Session) Screenshot(ctx context.Context, tg Target, o ScreenshotOptions) (*Result, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	scale := playwright.ScreenshotScaleCss
	if o.Scale == "device" {
		scale = playwright.ScreenshotScaleDevice
	} else if o.Scale != "" && o.Scale != "css" {
		return nil, fmt.Errorf("scale %q: want css or device", o.Scale)
	}
	typ := playwright.ScreenshotTypePng
	switch o.Type {
	case "", "png":
	case "jpeg":
		typ = playwright.ScreenshotTypeJpeg
	case "webp":
		// Playwright has no WebP: Chromium's own capture does it.
	default:
		return nil, fmt.Errorf("type %q: want png, jpeg or webp", o.Type)
	}
	res := &Result{ImageMIME: "image/png"}
	if o.Type != "" {
		res.ImageMIME = "image/" + o.Type
	}
	var loc playwright.Locator
	var rt target
	if !tg.empty() {
		if o.FullPage {
			return nil, errors.New("fullPage applies to the page, not to an element")
		}
		if loc, rt, err = ss.locate(t, tg); err != nil {
			return nil, err
		}
		res.Code = fmt.Sprintf("await %s.screenshot();", rt.code)
	} else {
		res.Code = "await page.screenshot();"
		if o.FullPage {
			res.Code = "await page.screenshot({ fullPage: true });"
		}
	}
	switch {
	case o.Type == "webp":
		res.Image, err = webpShot(ss.bctx, t.page, loc, o.FullPage, o.Scale == "device")
	case loc != nil:
		res.Image, err = loc.Screenshot(playwright.LocatorScreenshotOptions{Type: typ, Scale: scale})
	default:
		res.Image, err = t.page.Screenshot(playwright.PageScreenshotOptions{Type: typ, FullPage: playwright.Bool(o.FullPage), Scale: scale})
	}
	if err != nil {
		return nil, ss.explain(err)
	}
	return res, nil
}

// TabInfo describes a tab.
type TabInfo struct {
	Index   int    `json:"index"`
	URL     string `json:"url"`
	Title   string `json:"title"`
	Current bool   `json:"current"`
}

// Tabs lists, opens ("new", with url), selects or closes tabs (index
// 0-based; close without index closes the current one).
func (ss *Session) Tabs(ctx context.Context, action string, index *int, url string, mode SnapMode) (*Result, []TabInfo, error) {
	if _, err := ss.current(ctx); err != nil {
		return nil, nil, err
	}
	res := &Result{}
	switch action {
	case "list", "":
	case "new":
		target, limit, err := "", (func(playwright.BrowserContext) error)(nil), error(nil)
		if url != "" {
			if target, limit, err = ss.checkNavigation(url); err != nil {
				return nil, nil, err
			}
		}
		if limit != nil {
			if err := limit(ss.bctx); err != nil {
				return nil, nil, ss.explain(err)
			}
		}
		p, err := ss.bctx.NewPage()
		if err != nil {
			return nil, nil, ss.explain(err)
		}
		ss.syncTabs()
		for i, t := range ss.tabs {
			if t.page == p {
				ss.cur = i
			}
		}
		res.Code = "const page = await context.newPage();"
		st := []Step{actionStep(phNewTab)}
		if url != "" {
			if _, err := p.Goto(target); err != nil {
				return nil, nil, ss.explain(err)
			}
			res.Code += fmt.Sprintf("\nawait page.goto(%s);", jsString(url))
			st[0] = actionStep(phOpenInNewTab, relativeURL(url, ss.svc.baseURL))
		}
		ss.record(res, st)
		if err := ss.finish(ctx, res, mode); err != nil {
			return nil, nil, err
		}
		if url != "" {
			ss.suggestCheck(mode != SnapNone)
		}
	case "select":
		if index == nil || *index < 0 || *index >= len(ss.tabs) {
			return nil, nil, fmt.Errorf("select needs index in 0..%d", len(ss.tabs)-1)
		}
		ss.cur = *index
		res.Code = fmt.Sprintf("await context.pages()[%d].bringToFront();", *index)
		st := []Step{actionStep(phSwitchTab, *index+1)}
		ss.record(res, st)
		_ = ss.tabs[ss.cur].page.BringToFront()
		if err := ss.finish(ctx, res, mode); err != nil {
			return nil, nil, err
		}
	case "close":
		i := ss.cur
		if index != nil {
			i = *index
		}
		if i < 0 || i >= len(ss.tabs) {
			return nil, nil, fmt.Errorf("close needs index in 0..%d", len(ss.tabs)-1)
		}
		if i == ss.cur {
			res.Code = "await page.close();"
			ss.record(res, []Step{actionStep(phCloseCurrentTab)})
		} else {
			res.Code = fmt.Sprintf("await context.pages()[%d].close();", i)
			ss.record(res, []Step{actionStep(phCloseTab, i+1)})
		}
		if err := ss.tabs[i].page.Close(); err != nil {
			return nil, nil, ss.explain(err)
		}
		ss.syncTabs()
		if len(ss.tabs) > 0 {
			if err := ss.finish(ctx, res, mode); err != nil {
				return nil, nil, err
			}
		}
	default:
		return nil, nil, fmt.Errorf("unknown action %q (list, new, select or close)", action)
	}
	var out []TabInfo
	for i, t := range ss.tabs {
		title, _ := t.page.Title()
		out = append(out, TabInfo{Index: i, URL: t.page.URL(), Title: title, Current: i == ss.cur})
	}
	return res, out, nil
}

// Close closes the session's browser context and its tabs; the next call
// starts a fresh one. The recording is kept.
func (ss *Session) Close() *Result {
	ss.reset()
	return &Result{Code: "await context.close();", NotRecorded: "closing is not a step"}
}

// VerifyVisible checks that the element is visible (retrying).
func (ss *Session) VerifyVisible(ctx context.Context, tg Target) (*Result, error) {
	_, loc, rt, err := ss.element(ctx, tg)
	if err != nil {
		return nil, err
	}
	if err := loc.WaitFor(playwright.LocatorWaitForOptions{Timeout: playwright.Float(checkTimeout)}); err != nil {
		return nil, fmt.Errorf("check failed: %s is not visible: %w", rt.sel, trimCallLog(err))
	}
	res := &Result{Code: fmt.Sprintf("await expect(%s).toBeVisible();", rt.code)}
	ss.record(res, []Step{checkStep(phExpectVisible, rt.sel, wordTo)})
	return res, nil
}

// VerifyText checks that text is visible on the page (retrying).
func (ss *Session) VerifyText(ctx context.Context, text string) (*Result, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	if !canRender(text) {
		return nil, errors.New("check one line of text at a time")
	}
	loc := t.page.GetByText(text).First()
	if err := loc.WaitFor(playwright.LocatorWaitForOptions{Timeout: playwright.Float(checkTimeout)}); err != nil {
		return nil, fmt.Errorf("check failed: the text %q is not visible: %w", text, trimCallLog(err))
	}
	res := &Result{Code: fmt.Sprintf("await expect(page.getByText(%s).first()).toBeVisible();", jsString(text))}
	ss.record(res, []Step{checkStep(phExpectPageText, wordTo, text)})
	return res, nil
}

const elementKindJS = `el => (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) ? 'check'
  : (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) ? 'value' : 'text'`

// VerifyValue checks an element's value: a checkbox's or radio's checked
// state ("true"/"false"), a field's value, or another element's text
// (trimmed), retrying until it matches.
func (ss *Session) VerifyValue(ctx context.Context, tg Target, want string) (*Result, error) {
	_, loc, rt, err := ss.element(ctx, tg)
	if err != nil {
		return nil, err
	}
	kv, err := loc.Evaluate(elementKindJS, nil, playwright.LocatorEvaluateOptions{Timeout: playwright.Float(checkTimeout)})
	if err != nil {
		return nil, ss.explain(err)
	}
	kind, _ := kv.(string)
	var got string
	deadline := time.Now().Add(checkTimeout * time.Millisecond)
	for {
		switch kind {
		case "check":
			on, err := loc.IsChecked()
			if err != nil {
				return nil, ss.explain(err)
			}
			got = strconv.FormatBool(on)
		case "value":
			if got, err = loc.InputValue(); err != nil {
				return nil, ss.explain(err)
			}
		default:
			s, err := loc.InnerText()
			if err != nil {
				return nil, ss.explain(err)
			}
			got = strings.TrimSpace(s)
		}
		if got == want || time.Now().After(deadline) {
			break
		}
		select {
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if got != want {
		return nil, fmt.Errorf("check failed: %s has %q, want %q", rt.sel, got, want)
	}
	res := &Result{}
	var st Step
	switch kind {
	case "check":
		words, not := wordTo, ""
		if want != "true" {
			words, not = wordNotTo, "not."
		}
		res.Code = fmt.Sprintf("await expect(%s).%stoBeChecked();", rt.code, not)
		st = checkStep(phExpectChecked, rt.sel, words)
	case "value":
		res.Code = fmt.Sprintf("await expect(%s).toHaveValue(%s);", rt.code, jsString(want))
		st = checkStep(phExpectValue, rt.sel, wordToEqual, want)
	default:
		res.Code = fmt.Sprintf("await expect(%s).toHaveText(%s);", rt.code, jsString(want))
		st = checkStep(phExpectText, rt.sel, wordToEqual, want)
	}
	if !canRender(want) {
		res.NotRecorded = "the value spans lines, which a step line cannot hold"
		return res, nil
	}
	ss.record(res, []Step{st})
	return res, nil
}

// Export writes the recording as a feature file (see Feature).
func (ss *Session) Export(feature, scenario, dir string) string {
	return Feature(feature, scenario, ss.steps, dir)
}
