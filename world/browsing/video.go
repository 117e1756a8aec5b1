package browsing

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/world/screencast"
)

// A session's video (world/screencast: the current tab's screencast,
// following the agent from tab to tab) and the decorations drawn on the
// page for it: chapter cards, a callout naming each action, a pointer
// travelling to each action point. The decorations are elements of the
// page, hidden from the accessibility tree (so from snapshots) and from
// the pointer; every action passes through perform, which draws them
// (decorate) before the action runs.

// VideoOptions say what StartVideo records.
type VideoOptions struct {
	// Path is the video file (the caller has checked it may write there).
	Path string
	// Width and Height are the video's size; 0: the viewport's, scaled
	// down to fit 800x800 (as Playwright's recordVideo).
	Width, Height int
	// FPS is the frame rate (0: 25).
	FPS int
	// Cursor draws a pointer travelling to each action point and paces
	// actions by PointerPace so that it arrives first.
	Cursor bool
}

// PointerPace is how long an action waits for the pointer to travel to
// it when the video has a cursor (VideoOptions.Cursor).
const PointerPace = 800 * time.Millisecond

// actionsPointerPace is the pointer's travel when only ShowActions draws
// it.
const actionsPointerPace = 300 * time.Millisecond

// DefaultChapter is how long a chapter card shows when no duration is
// given.
const DefaultChapter = 2 * time.Second

// ActionsOptions say how ShowActions annotates actions.
type ActionsOptions struct {
	// Duration is how long each callout shows (0: 500 ms); the action
	// waits that long with it shown, then runs.
	Duration time.Duration
	// Position of the callout: top-left, top, top-right (default),
	// bottom-left, bottom, bottom-right.
	Position string
	// Pointer animates a pointer to each action point.
	Pointer bool
	// PointStyle, HighlightStyle and TitleStyle are CSS declarations for
	// a marker at the action point and a box over the target element
	// (neither drawn when "") and for the callout.
	PointStyle, HighlightStyle, TitleStyle string
}

// positions are the callout's places.
var positions = map[string]string{
	"top-left":     "top:16px;left:16px;",
	"top":          "top:16px;left:50%;transform:translateX(-50%);",
	"top-right":    "top:16px;right:16px;",
	"bottom-left":  "bottom:16px;left:16px;",
	"bottom":       "bottom:16px;left:50%;transform:translateX(-50%);",
	"bottom-right": "bottom:16px;right:16px;",
}

// decorations are what decorate draws (under turn).
type decorations struct {
	actions *ActionsOptions // nil: no callouts
	cursor  bool            // the video's pointer
	// hasPoint and x, y: the last action point (viewport CSS pixels),
	// where the pointer starts from.
	hasPoint bool
	x, y     float64
}

type video struct {
	rec *screencast.Recorder
}

// StartVideo starts recording the session's current tab (and each tab the
// agent switches to) into o.Path.
func (ss *Session) StartVideo(ctx context.Context, o VideoOptions) error {
	if ss.video != nil {
		return errors.New("a video is already recording: stop it first (browser_stop_video)")
	}
	t, err := ss.current(ctx)
	if err != nil {
		return err
	}
	ffmpeg, err := ss.svc.l.FFmpeg(ctx)
	if err != nil {
		return fmt.Errorf("video: %w", err)
	}
	if (o.Width == 0) != (o.Height == 0) || o.Width < 0 || o.Height < 0 {
		return fmt.Errorf("size %dx%d: give a positive width and height", o.Width, o.Height)
	}
	if o.Width == 0 {
		o.Width, o.Height = viewportSize(t.page)
	}
	rec, err := screencast.Start(screencast.Options{FFmpeg: ffmpeg, Path: o.Path, Width: o.Width, Height: o.Height, FPS: o.FPS})
	if err != nil {
		return fmt.Errorf("video: %w", err)
	}
	if err := rec.Follow(t.page); err != nil {
		_, _ = rec.Stop()
		return ss.explain(err)
	}
	ss.video = &video{rec: rec}
	ss.deco.cursor = o.Cursor
	return nil
}

// viewportSize is the page's viewport scaled down to fit 800x800, in even
// pixels (as video encoders want).
func viewportSize(p playwright.Page) (int, int) {
	w, h := 1280.0, 720.0
	if vs := p.ViewportSize(); vs != nil && vs.Width > 0 && vs.Height > 0 {
		w, h = float64(vs.Width), float64(vs.Height)
	} else if v, err := p.Evaluate("() => [innerWidth, innerHeight]"); err == nil {
		if a, ok := v.([]interface{}); ok && len(a) == 2 && toInt(a[0]) > 0 && toInt(a[1]) > 0 {
			w, h = float64(toInt(a[0])), float64(toInt(a[1]))
		}
	}
	s := math.Min(1, math.Min(800/w, 800/h))
	return int(w*s) &^ 1, int(h*s) &^ 1
}

// StopVideo stops the recording and finishes its file.
func (ss *Session) StopVideo() (screencast.Result, error) {
	if ss.video == nil {
		return screencast.Result{}, errors.New("no video is recording (browser_start_video starts one)")
	}
	v := ss.video
	ss.video, ss.deco.cursor = nil, false
	return v.rec.Stop()
}

// VideoSize is the size of the video recording (0, 0 when none).
func (ss *Session) VideoSize() (int, int) {
	if ss.video == nil {
		return 0, 0
	}
	return ss.video.rec.Size()
}

// followVideo moves the recording to the current tab. Under turn, after
// each call (Do).
func (ss *Session) followVideo() {
	if ss.video == nil {
		return
	}
	var page playwright.Page
	if ss.bctx != nil && ss.cur < len(ss.tabs) {
		page = ss.tabs[ss.cur].page
	}
	_ = ss.video.rec.Follow(page)
}

// stopVideo finishes a recording left running when the session closes.
func (ss *Session) stopVideo() {
	if ss.video != nil {
		_, _ = ss.StopVideo()
	}
}

// chapterJS shows a full-screen chapter card over a blurred page for ms.
const chapterJS = `([title, text, ms]) => {
  for (const e of document.querySelectorAll('[data-ferridriver-chapter]')) e.remove();
  const card = document.createElement('div');
  card.setAttribute('data-ferridriver-chapter', '');
  card.setAttribute('aria-hidden', 'true');
  card.style.cssText = 'position:fixed;inset:0;z-index:2147483647;display:flex;flex-direction:column;align-items:center;' +
    'justify-content:center;gap:16px;padding:8%;box-sizing:border-box;background:rgba(16,20,32,.6);backdrop-filter:blur(12px);' +
    '-webkit-backdrop-filter:blur(12px);color:#fff;text-align:center;pointer-events:none;font-family:system-ui,sans-serif';
  const h = document.createElement('div');
  h.textContent = title;
  h.style.cssText = 'font-size:44px;font-weight:700;line-height:1.2';
  card.append(h);
  if (text) {
    const p = document.createElement('div');
    p.textContent = text;
    p.style.cssText = 'font-size:22px;line-height:1.4;opacity:.85;max-width:40em';
    card.append(p);
  }
  document.documentElement.append(card);
  setTimeout(() => card.remove(), ms);
}`

// VideoChapter shows a chapter card (title, text) on the current tab for
// d (0: DefaultChapter), then removes it; the call lasts as long.
func (ss *Session) VideoChapter(ctx context.Context, title, text string, d time.Duration) error {
	if strings.TrimSpace(title) == "" {
		return errors.New("title is empty")
	}
	if d <= 0 {
		d = DefaultChapter
	}
	t, err := ss.current(ctx)
	if err != nil {
		return err
	}
	if _, err := t.page.Evaluate(chapterJS, []interface{}{title, text, int(d.Milliseconds())}); err != nil {
		return ss.explain(err)
	}
	select {
	case <-time.After(d):
	case <-ctx.Done():
	}
	_, _ = t.page.Evaluate(`() => { for (const e of document.querySelectorAll('[data-ferridriver-chapter]')) e.remove() }`)
	return ctx.Err()
}

// ShowActions annotates the actions from now on (see ActionsOptions).
func (ss *Session) ShowActions(o ActionsOptions) error {
	if o.Duration <= 0 {
		o.Duration = 500 * time.Millisecond
	}
	if o.Position == "" {
		o.Position = "top-right"
	}
	if positions[o.Position] == "" {
		return fmt.Errorf("position %q: want top-left, top, top-right, bottom-left, bottom or bottom-right", o.Position)
	}
	ss.deco.actions = &o
	return nil
}

// HideActions stops annotating actions.
func (ss *Session) HideActions() { ss.deco.actions = nil }

// decorateJS draws an action's decorations: the callout (title, when
// given) and, at the action point (box, when known), the marker, the box
// over the element and the pointer, which travels there from its last
// point (from) in travel ms. The callout, marker and box go after hold ms.
const decorateJS = `([title, place, hold, box, point, highlight, titleStyle, pointer, from, travel]) => {
  for (const e of document.querySelectorAll('[data-ferridriver-action]')) e.remove();
  const add = (css) => {
    const e = document.createElement('div');
    e.setAttribute('data-ferridriver-action', '');
    e.setAttribute('aria-hidden', 'true');
    e.style.cssText = 'position:fixed;z-index:2147483647;pointer-events:none;box-sizing:border-box;' + css;
    document.documentElement.append(e);
    setTimeout(() => e.remove(), hold);
    return e;
  };
  if (title) {
    add(place + 'max-width:60%;padding:8px 14px;border-radius:8px;background:rgba(20,20,20,.85);color:#fff;' +
      'font:600 16px/1.3 system-ui,sans-serif;box-shadow:0 2px 8px rgba(0,0,0,.3);' + titleStyle).textContent = title;
  }
  if (!box) return;
  const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  if (highlight) add('left:' + box.x + 'px;top:' + box.y + 'px;width:' + box.width + 'px;height:' + box.height + 'px;' + highlight);
  if (point) {
    const m = add('left:' + cx + 'px;top:' + cy + 'px;width:0;height:0;overflow:visible');
    const dot = document.createElement('div');
    dot.style.cssText = 'position:absolute;transform:translate(-50%,-50%);' + point;
    m.append(dot);
  }
  if (!pointer) return;
  let p = document.querySelector('[data-ferridriver-pointer]');
  if (!p) {
    p = document.createElement('div');
    p.setAttribute('data-ferridriver-pointer', '');
    p.setAttribute('aria-hidden', 'true');
    p.innerHTML = '<svg width="22" height="30" viewBox="0 0 22 30"><path d="M1 1 L1 24 L7 18.5 L11 28 L15 26.3 L11 17 L19 17 Z" ' +
      'fill="#111" stroke="#fff" stroke-width="1.6" stroke-linejoin="round"/></svg>';
    document.documentElement.append(p);
    const [fx, fy] = from || [cx, cy];
    p.style.cssText = 'position:fixed;z-index:2147483647;pointer-events:none;margin:-1px 0 0 -1px;left:' + fx + 'px;top:' + fy + 'px';
    p.getBoundingClientRect();
  }
  p.style.transition = 'left ' + travel + 'ms ease-in-out, top ' + travel + 'ms ease-in-out';
  p.style.left = cx + 'px';
  p.style.top = cy + 'px';
}`

// decorate draws o's decorations on the current tab before it runs, and
// waits for them: the callout's duration, the pointer's travel.
// Decorations never fail an action: a page that refuses them is left
// undecorated.
func (ss *Session) decorate(ctx context.Context, o op) {
	d := &ss.deco
	pointer := d.cursor || (d.actions != nil && d.actions.Pointer)
	if d.actions == nil && !pointer || ss.cur >= len(ss.tabs) {
		return
	}
	page := ss.tabs[ss.cur].page
	var box *playwright.Rect
	if ss.aim != nil {
		_ = ss.aim.ScrollIntoViewIfNeeded(playwright.LocatorScrollIntoViewIfNeededOptions{Timeout: playwright.Float(1000)})
		box, _ = ss.aim.BoundingBox(playwright.LocatorBoundingBoxOptions{Timeout: playwright.Float(1000)})
	}
	var wait time.Duration
	title, place, hold := "", "", 0
	a := ActionsOptions{}
	if d.actions != nil {
		a = *d.actions
		title, place = actionTitle(o), positions[a.Position]
		wait = a.Duration
		// Kept a moment into the action, so that it shows as it happens.
		hold = int((a.Duration + 300*time.Millisecond).Milliseconds())
	}
	var boxArg interface{}
	var from interface{}
	travel := time.Duration(0)
	if box != nil {
		boxArg = map[string]interface{}{"x": box.X, "y": box.Y, "width": box.Width, "height": box.Height}
		if pointer {
			travel = actionsPointerPace
			if d.cursor {
				travel = PointerPace
			}
			if d.hasPoint {
				from = []float64{d.x, d.y}
			}
			d.hasPoint, d.x, d.y = true, box.X+box.Width/2, box.Y+box.Height/2
			wait = max(wait, travel)
		}
	}
	if title == "" && boxArg == nil {
		return
	}
	if _, err := page.Evaluate(decorateJS, []interface{}{title, place, hold, boxArg, a.PointStyle, a.HighlightStyle, a.TitleStyle,
		pointer && box != nil, from, int(travel.Milliseconds())}); err != nil {
		return
	}
	select {
	case <-time.After(wait):
	case <-ctx.Done():
	}
}

var (
	codeCallRe = regexp.MustCompile(`\.(\w+)\(\s*('(?:[^'\\]|\\.)*')?`)
	selNameRe  = regexp.MustCompile(`^(?:role=\w+\[name=|text=)("(?:[^"\\]|\\.)*")`)
)

// jsUnescape reads the text of a jsString literal's body.
var jsUnescape = strings.NewReplacer(`\\`, `\`, `\'`, `'`, `\n`, "\n")

// verbs name an action by the Playwright method its code calls.
var verbs = map[string]string{
	"click": "Click", "dblclick": "Double-click", "fill": "Fill", "pressSequentially": "Type", "press": "Press",
	"hover": "Hover", "selectOption": "Select", "dragTo": "Drag", "setInputFiles": "Upload", "check": "Check",
	"uncheck": "Uncheck", "goto": "Navigate to", "goBack": "Go back", "goForward": "Go forward", "reload": "Reload",
	"waitFor": "Wait for", "waitForTimeout": "Wait", "setViewportSize": "Resize", "emulateMedia": "Emulate media",
}

// actionTitle names o for its callout: the verb of the method its code
// calls and what it acts on (the element's name, else the method's
// argument), e.g. `Click "Log in"`, `Press "Enter"`, `Navigate to /login`.
func actionTitle(o op) string {
	first, _, _ := strings.Cut(o.code, "\n")
	calls := codeCallRe.FindAllStringSubmatch(first, -1)
	if len(calls) == 0 {
		return ""
	}
	call := calls[len(calls)-1]
	verb := verbs[call[1]]
	if verb == "" {
		return ""
	}
	if o.target != "" {
		target, _, _ := strings.Cut(o.target, " [ref=")
		if m := selNameRe.FindStringSubmatch(target); m != nil {
			return verb + " " + m[1]
		}
		return verb + " " + target
	}
	if arg := call[2]; arg != "" && call[1] != "fill" && call[1] != "selectOption" {
		arg = jsUnescape.Replace(arg[1 : len(arg)-1])
		if call[1] == "goto" {
			return verb + " " + arg
		}
		return verb + " " + jsonQuote(arg)
	}
	return verb
}
