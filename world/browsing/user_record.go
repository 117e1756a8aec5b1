package browsing

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/playwright-community/playwright-go"
)

// Recording what the user does by hand in the session's browser
// (browser_start_recording / browser_stop_recording): a script in every
// document of the session's context reports clicks, typing, checkboxes,
// selects and the Enter key to a binding; the session watches its pages
// for navigations and new tabs. Stopping renders what was done as
// Playwright code and as steps of the built-in library (the phrases of
// phrases.go), the elements named by the locator generator of the other
// recordings (nameElement).

// userBinding is the function the recorder script calls with each event.
const userBinding = "__ferridriverRecord"

// userAttr marks the element of an event, so that the session can find it
// (the attributes are removed when the recording stops).
const userAttr = "data-ferridriver-rec"

// causedWithin is how long after a click or key press a navigation or a
// new tab is taken as its effect (not recorded on its own).
const causedWithin = 2 * time.Second

// userRecorderJS reports the user's actions in a top-level document.
var userRecorderJS = `(() => {
  if (window !== window.top || window.__ferridriverRecorder) return
  window.__ferridriverRecorder = true
  const attr = '` + userAttr + `'
  const cssPath = ` + cssPathJS + `
  let seq = 0, lastEnter = 0
  const ids = new WeakMap()
  const now = () => performance.timeOrigin + performance.now()
  const textLike = el => (el.tagName === 'INPUT' && !/^(checkbox|radio|submit|button|reset|file|image|range|color|hidden)$/i.test(el.type)) || el.tagName === 'TEXTAREA' || el.isContentEditable
  const toggle = el => el.tagName === 'INPUT' && /^(checkbox|radio)$/i.test(el.type)
  const clean = s => (s || '').replace(/\s+/g, ' ').trim().slice(0, 100)
  const guess = el => {
    const a = el.closest('a[href]')
    if (a) return ['link', clean(a.getAttribute('aria-label') || a.innerText)]
    if (el.tagName === 'BUTTON' || (el.tagName === 'INPUT' && /^(submit|button|reset)$/i.test(el.type))) return ['button', clean(el.getAttribute('aria-label') || el.innerText || el.value)]
    return ['', '']
  }
  // Where the action may navigate: a link's address, a submit's form's.
  const target = el => {
    const a = el.closest('a[href]')
    if (a) return a.href
    const f = el.form || el.closest('form')
    return f && (el.tagName === 'INPUT' || el.type === 'submit') ? f.action : ''
  }
  const send = (kind, el, value) => {
    const fn = window.` + userBinding + `
    if (typeof fn !== 'function' || !el || el.nodeType !== 1) return
    let id = ids.get(el)
    if (!id) { id = (++seq) + '-' + Math.random().toString(36).slice(2, 8); ids.set(el, id) }
    el.setAttribute(attr, id)
    const [role, name] = guess(el)
    Promise.resolve(fn({ kind, id, ts: now(), value: value == null ? '' : String(value), css: cssPath(el), role, name, href: target(el) })).catch(() => {})
  }
  const interactive = 'button, a[href], input, select, textarea, label, summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], [role=switch], [onclick]'
  addEventListener('click', e => {
    if (!e.isTrusted || e.button !== 0 || !e.target.closest) return
    // The click of a form's implicit submission (Enter in a field).
    if (e.detail === 0 && now() - lastEnter < 100) return
    const el = e.target.closest(interactive) || e.target
    if (toggle(el) || textLike(el) || el.tagName === 'SELECT' || el.tagName === 'OPTION') return
    const c = el.tagName === 'LABEL' && el.control
    if (c && (toggle(c) || textLike(c) || c.tagName === 'SELECT')) return
    send('click', el)
  }, true)
  addEventListener('dblclick', e => {
    if (e.isTrusted && e.button === 0 && e.target.closest) send('dblclick', e.target.closest(interactive) || e.target)
  }, true)
  addEventListener('input', e => {
    const el = e.target
    if (el && textLike(el)) send('fill', el, el.isContentEditable ? el.innerText : el.value)
  }, true)
  addEventListener('change', e => {
    const el = e.target
    if (!el) return
    if (toggle(el)) send(el.checked ? 'check' : 'uncheck', el)
    else if (el.tagName === 'SELECT') {
      const o = el.selectedOptions[0]
      if (o) send('select', el, o.label || o.value)
    }
  }, true)
  addEventListener('keydown', e => {
    const el = e.target
    if (e.key !== 'Enter' || !el || el.tagName !== 'INPUT' || !textLike(el)) return
    lastEnter = now()
    send('enter', el)
  }, true)
})()`

// userEvent is one thing the user did.
type userEvent struct {
	ts   float64 // ms since the epoch (the page's clock or the session's)
	kind string  // click, dblclick, fill, check, uncheck, select, enter, nav, tab
	page playwright.Page
	// tab is the page's number (from 1) among the context's pages.
	tab   int
	el    string // the element's id in its document ("" for nav, tab)
	rt    target
	value string // fill's text, select's option, nav's and tab's URL
	// href is where a click or Enter may navigate (a link's address, a
	// form's action), "" when the page does not say.
	href string
}

// userRecording is a session's recording of the user (one at a time).
type userRecording struct {
	mu      sync.Mutex
	on      bool
	start   userEvent // the page it started on (kind "start")
	events  []userEvent
	pending sync.WaitGroup
	// fields caches the targets of the fields typed into, by document
	// and element (typing reports every key).
	fields map[string]target
	// watched are the pages whose navigations are recorded.
	watched map[playwright.Page]bool
}

func nowMs() float64 { return float64(time.Now().UnixMicro()) / 1000 }

// StartRecording starts recording what the user does in the session's
// browser (its current tab, later navigations and new tabs). Under turn.
func (ss *Session) StartRecording(ctx context.Context) (*Result, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	if ss.userRec == nil {
		ss.userRec = &userRecording{}
	}
	r := ss.userRec
	if ss.userRecCtx != ss.bctx {
		bctx := ss.bctx
		if err := bctx.ExposeBinding(userBinding, func(src *playwright.BindingSource, args ...any) any {
			if len(args) == 1 {
				if m, ok := args[0].(map[string]any); ok {
					r.onEvent(src, m)
				}
			}
			return nil
		}); err != nil {
			return nil, fmt.Errorf("start recording: %w", ss.Explain(err))
		}
		if err := bctx.AddInitScript(playwright.Script{Content: playwright.String(userRecorderJS)}); err != nil {
			return nil, fmt.Errorf("start recording: %w", ss.Explain(err))
		}
		bctx.OnPage(func(p playwright.Page) {
			if r.watch(p) {
				r.add(userEvent{ts: nowMs(), kind: "tab", page: p, tab: tabNumber(p), value: p.URL()})
			}
		})
		ss.userRecCtx = bctx
	}
	r.mu.Lock()
	r.on = true
	r.events = nil
	r.fields = map[string]target{}
	r.start = userEvent{ts: nowMs(), kind: "start", page: t.page, tab: tabNumber(t.page), value: relativeURL(t.page.URL(), ss.svc.baseURL)}
	r.mu.Unlock()
	for _, p := range ss.bctx.Pages() {
		r.watch(p)
		// Documents loaded before the recording: the init script only
		// runs in the next ones.
		if _, err := p.Evaluate(userRecorderJS); err != nil && p == t.page {
			return nil, fmt.Errorf("start recording: %w", ss.Explain(err))
		}
	}
	return &Result{Output: "Recording what the user does in the browser; call browser_stop_recording when they are done."}, nil
}

// StopRecording stops the recording and returns it: Playwright code, and
// steps of the built-in library, which are added to the session's
// recording (session_export) too. Under turn.
func (ss *Session) StopRecording(ctx context.Context) (*Result, error) {
	r := ss.userRec
	if r == nil {
		return nil, errors.New("no recording: call browser_start_recording first")
	}
	r.mu.Lock()
	if !r.on {
		r.mu.Unlock()
		return nil, errors.New("no recording: call browser_start_recording first")
	}
	r.on = false
	r.mu.Unlock()
	// The events still being named.
	done := make(chan struct{})
	go func() { r.pending.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(8 * time.Second):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	r.mu.Lock()
	events := append([]userEvent(nil), r.events...)
	start := r.start
	r.mu.Unlock()
	if ss.bctx != nil {
		for _, p := range ss.bctx.Pages() {
			_, _ = p.Evaluate(`a => document.querySelectorAll('[' + a + ']').forEach(e => e.removeAttribute(a))`, userAttr)
		}
	}
	code, steps := renderUserEvents(start, events, ss.svc.baseURL)
	res := &Result{}
	var b strings.Builder
	n := 0
	for _, st := range steps {
		if st.Comment == "" && st.Kind != KindContext {
			n++
		}
	}
	fmt.Fprintf(&b, "Recorded %d user action(s).\n### Playwright code\n```js\n%s\n```\n### Steps (built-in library)\n```gherkin\n", n, strings.Join(code, "\n"))
	prev := Kind(-1)
	for _, st := range steps {
		if st.Comment != "" {
			fmt.Fprintf(&b, "# %s\n", st.Comment)
			continue
		}
		kw := keywords[st.Kind]
		if st.Kind == prev {
			kw = "And"
		}
		prev = st.Kind
		fmt.Fprintf(&b, "%s %s\n", kw, st.Text)
	}
	b.WriteString("```\nAdded to the session's recording (session_export).")
	res.Output = b.String()
	// The session's recording goes on from where it was: the opening
	// step is left out when the session is already on that page.
	if len(ss.steps) > 0 && len(steps) > 0 && steps[0].Kind == KindContext {
		steps = steps[1:]
	}
	ss.steps = append(ss.steps, steps...)
	return res, nil
}

// watch records p's navigations; it reports whether p is new to the
// recording.
func (r *userRecording) watch(p playwright.Page) bool {
	r.mu.Lock()
	if r.watched == nil {
		r.watched = map[playwright.Page]bool{}
	}
	seen := r.watched[p]
	r.watched[p] = true
	r.mu.Unlock()
	if seen {
		return false
	}
	p.OnFrameNavigated(func(f playwright.Frame) {
		if f == p.MainFrame() {
			r.add(userEvent{ts: nowMs(), kind: "nav", page: p, tab: tabNumber(p), value: f.URL()})
		}
	})
	return true
}

// add appends ev while the recording is on.
func (r *userRecording) add(ev userEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.on {
		r.events = append(r.events, ev)
	}
}

// onEvent names the element of an event of the page script and adds it.
// Playwright calls bindings on goroutines of their own: the events are
// put in order by their time when the recording stops.
func (r *userRecording) onEvent(src *playwright.BindingSource, m map[string]any) {
	r.mu.Lock()
	if !r.on {
		r.mu.Unlock()
		return
	}
	r.pending.Add(1)
	r.mu.Unlock()
	defer r.pending.Done()
	s := func(k string) string { v, _ := m[k].(string); return v }
	ev := userEvent{ts: num(m["ts"]), kind: s("kind"), page: src.Page, tab: tabNumber(src.Page), el: s("id"), value: s("value"), href: s("href")}
	key := fmt.Sprintf("%p/%s", src.Frame, ev.el)
	r.mu.Lock()
	rt, cached := r.fields[key]
	r.mu.Unlock()
	if !cached {
		rt = nameRecorded(src.Frame, ev.el, s("role"), s("name"), s("css"))
		if ev.kind == "fill" {
			r.mu.Lock()
			r.fields[key] = rt
			r.mu.Unlock()
		}
	}
	ev.rt = rt
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
}

// nameRecorded names the element the page script marked with id: by its
// role and accessible name as Playwright's ARIA snapshot gives them and
// nameElement (the locator generator of browser_generate_locator), else,
// when the element is gone (the click navigated), by what the script saw
// (a link's or button's text, a CSS path).
func nameRecorded(f playwright.Frame, id, role, name, css string) target {
	loc := f.Locator("[" + userAttr + "=" + jsonQuote(id) + "]")
	short := playwright.Float(3000)
	if snap, err := loc.AriaSnapshot(playwright.LocatorAriaSnapshotOptions{Timeout: short}); err == nil {
		line, _, _ := strings.Cut(snap, "\n")
		r, n, has, _ := parseLine(strings.TrimPrefix(strings.TrimSpace(line), "- "))
		r = strings.TrimSuffix(r, ":")
		if has && r != "" && r != "generic" && r != "text" {
			if h, err := loc.ElementHandle(playwright.LocatorElementHandleOptions{Timeout: short}); err == nil {
				rt, err := nameElement(func(sel string) playwright.Locator { return f.Locator(sel) }, r, n, has, h)
				h.Dispose()
				if err == nil {
					return rt
				}
			}
		}
	}
	if role != "" && name != "" {
		return roleTarget(role, name, true, -1, 0)
	}
	return selectorTarget(css)
}

// tabNumber is p's number (from 1) among its context's pages, 0 when it
// is closed.
func tabNumber(p playwright.Page) int {
	for i, o := range p.Context().Pages() {
		if o == p {
			return i + 1
		}
	}
	return 0
}

// acts reports whether the event is an action on an element.
func (e userEvent) acts() bool { return e.kind != "nav" && e.kind != "tab" && e.kind != "start" }

// renderUserEvents writes the recording as Playwright code and steps:
// events in order of time, typing into a field as one fill, a double
// click as itself, navigations and tabs that a click or Enter caused left
// to that action (a tab a click opened is switched to when the user acts
// in it).
func renderUserEvents(start userEvent, events []userEvent, baseURL string) (code []string, steps []Step) {
	sort.SliceStable(events, func(i, j int) bool { return events[i].ts < events[j].ts })
	// Coalesce.
	var evs []userEvent
	for _, e := range events {
		if n := len(evs); n > 0 && e.kind == "fill" && evs[n-1].kind == "fill" && evs[n-1].page == e.page && evs[n-1].el == e.el {
			evs[n-1].value = e.value
			continue
		}
		if e.kind == "dblclick" {
			for k := 0; k < 2; k++ {
				if n := len(evs); n > 0 && evs[n-1].kind == "click" && evs[n-1].page == e.page && evs[n-1].el == e.el {
					evs = evs[:n-1]
				}
			}
		}
		evs = append(evs, e)
	}
	vars := map[playwright.Page]string{start.page: "page"}
	varOf := func(p playwright.Page) string {
		if v, ok := vars[p]; ok {
			return v
		}
		v := fmt.Sprintf("page%d", len(vars))
		vars[p] = v
		return v
	}
	onPage := func(rt target, p playwright.Page) string {
		return varOf(p) + strings.TrimPrefix(rt.code, "page")
	}
	lastURL := map[playwright.Page]string{start.page: start.value}
	if start.value != "" && start.value != "about:blank" {
		steps = append(steps, Step{Kind: KindContext, Text: phOpen.render(start.value)})
		code = append(code, fmt.Sprintf("await page.goto(%s);", jsString(start.value)))
	}
	cur := start.page
	var last *userEvent                   // the last action
	lastCode := -1                        // its line in code
	popups := map[playwright.Page]bool{}  // opened by a click, not switched to yet
	blankTab := map[playwright.Page]int{} // step index of "I open a new tab" still blank
	opening := map[playwright.Page]bool{} // tabs whose first page is their opening's
	for i := range evs {
		e := evs[i]
		caused := last != nil && e.ts-last.ts < float64(causedWithin.Milliseconds()) && (last.kind == "click" || last.kind == "enter" || last.kind == "dblclick")
		switch e.kind {
		case "nav":
			u := relativeURL(e.value, baseURL)
			if e.value == "about:blank" || lastURL[e.page] == u {
				continue
			}
			lastURL[e.page] = u
			if opening[e.page] {
				delete(opening, e.page)
				continue
			}
			// A navigation the last action caused: to where it leads
			// when the page says, else soon after it.
			if caused && last.href != "" {
				h, _, _ := strings.Cut(last.href, "#")
				caused = strings.HasPrefix(e.value, h)
			} else if caused {
				caused = e.ts-last.ts < 1000
			}
			if k, ok := blankTab[e.page]; ok {
				delete(blankTab, e.page)
				steps[k] = actionStep(phOpenInNewTab, u)
				code = append(code, fmt.Sprintf("await %s.goto(%s);", varOf(e.page), jsString(u)))
				continue
			}
			if caused && last.page == e.page {
				continue
			}
			if e.page != cur {
				steps, code = switchTab(steps, code, e, popups)
				cur = e.page
			}
			steps = append(steps, actionStep(phOpen, u))
			code = append(code, fmt.Sprintf("await %s.goto(%s);", varOf(e.page), jsString(u)))
			last = nil
		case "tab":
			u := relativeURL(e.value, baseURL)
			lastURL[e.page] = u
			if caused && last.page != e.page && lastCode >= 0 {
				v := varOf(e.page)
				code[lastCode] = fmt.Sprintf("const %sPromise = %s.waitForEvent('popup');\n%s\nconst %s = await %sPromise;", v, varOf(last.page), code[lastCode], v, v)
				popups[e.page] = true
				if e.value == "" || e.value == "about:blank" {
					opening[e.page] = true
				}
				continue
			}
			v := varOf(e.page)
			code = append(code, fmt.Sprintf("const %s = await page.context().newPage();", v))
			if e.value == "" || e.value == "about:blank" {
				blankTab[e.page] = len(steps)
				steps = append(steps, actionStep(phNewTab))
			} else {
				steps = append(steps, actionStep(phOpenInNewTab, u))
				code = append(code, fmt.Sprintf("await %s.goto(%s);", v, jsString(u)))
			}
			cur = e.page
		default:
			if e.page != cur {
				if _, known := vars[e.page]; !known && !popups[e.page] && e.tab > 0 {
					code = append(code, fmt.Sprintf("const %s = page.context().pages()[%d];", varOf(e.page), e.tab-1))
				}
				steps, code = switchTab(steps, code, e, popups)
				cur = e.page
			}
			delete(blankTab, e.page)
			loc := onPage(e.rt, e.page)
			var st Step
			var line string
			switch e.kind {
			case "click":
				st, line = actionStep(phClick, e.rt.sel), fmt.Sprintf("await %s.click();", loc)
			case "dblclick":
				st, line = actionStep(phDoubleClick, e.rt.sel), fmt.Sprintf("await %s.dblclick();", loc)
			case "fill":
				line = fmt.Sprintf("await %s.fill(%s);", loc, jsString(e.value))
				if canRender(e.value) {
					st = actionStep(phFill, e.rt.sel, e.value)
				} else {
					st = Step{Comment: "Not recorded: " + firstLine(line) + " (the text spans lines, which a step line cannot hold)"}
				}
			case "check":
				st, line = actionStep(phCheck, e.rt.sel), fmt.Sprintf("await %s.check();", loc)
			case "uncheck":
				st, line = actionStep(phUncheck, e.rt.sel), fmt.Sprintf("await %s.uncheck();", loc)
			case "select":
				st, line = actionStep(phSelect, e.value, e.rt.sel), fmt.Sprintf("await %s.selectOption(%s);", loc, jsString(e.value))
			case "enter":
				line = fmt.Sprintf("await %s.press('Enter');", loc)
				if last != nil && last.kind == "fill" && last.page == e.page && last.el == e.el {
					st = actionStep(phPress, "Enter")
				} else {
					st = actionStep(phPressOn, "Enter", e.rt.sel)
				}
			default:
				continue
			}
			steps = append(steps, st)
			code = append(code, line)
			last, lastCode = &evs[i], len(code)-1
		}
	}
	return code, steps
}

// switchTab writes the switch to e's page: to the new tab when a click
// opened it, else by its number.
func switchTab(steps []Step, code []string, e userEvent, popups map[playwright.Page]bool) ([]Step, []string) {
	if popups[e.page] {
		delete(popups, e.page)
		return append(steps, actionStep(phSwitchToNewTab)), code
	}
	if e.tab > 0 {
		steps = append(steps, actionStep(phSwitchTab, e.tab))
	}
	return steps, code
}
