package browsing

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"
)

// Annotating the page (browser_annotate): an overlay on the page itself
// where the user drags boxes and types a note for each, then presses
// Done. The result is a screenshot with the boxes and notes, the ARIA
// snapshot, and each box with its note and the elements it covers.

// Annotation is one box the user drew (CSS pixels, viewport-relative).
type Annotation struct {
	X, Y, Width, Height float64
	Note                string
	// Elements are the snapshot lines (with refs) of the elements mostly
	// inside the box.
	Elements []string
}

// Annotated is what browser_annotate returns.
type Annotated struct {
	Image       []byte // PNG of the viewport with the boxes
	Snapshot    string
	URL, Title  string
	Annotations []Annotation
}

const annotateID = "ferridriver-annotate"

// annotateJS draws the overlay; its state is window.__ferridriverAnnotate
// (result set when the user presses Done or Cancel).
const annotateJS = `() => {
  document.getElementById('` + annotateID + `')?.remove()
  const root = document.createElement('div')
  root.id = '` + annotateID + `'
  root.style.cssText = 'position:fixed;inset:0;z-index:2147483647;cursor:crosshair;background:rgba(0,0,0,.06)'
  const bar = document.createElement('div')
  bar.style.cssText = 'position:fixed;top:8px;right:8px;background:#222;color:#fff;font:13px sans-serif;padding:6px 8px;border-radius:6px;display:flex;gap:8px;align-items:center;cursor:default'
  const say = document.createElement('span')
  say.textContent = 'Drag a box over what matters and type a note for it.'
  const done = document.createElement('button')
  done.id = '` + annotateID + `-done'
  done.textContent = 'Done'
  const cancel = document.createElement('button')
  cancel.textContent = 'Cancel'
  bar.append(say, done, cancel)
  root.append(bar)
  document.documentElement.append(root)
  const state = { boxes: [], result: null }
  window.__ferridriverAnnotate = state
  let start = null, box = null
  const rect = e => ({ x: Math.min(start.x, e.clientX), y: Math.min(start.y, e.clientY), width: Math.abs(e.clientX - start.x), height: Math.abs(e.clientY - start.y) })
  const place = (el, r) => Object.assign(el.style, { left: r.x + 'px', top: r.y + 'px', width: r.width + 'px', height: r.height + 'px' })
  root.addEventListener('mousedown', e => {
    if (e.target !== root && !e.target.classList.contains('` + annotateID + `-box')) return
    e.preventDefault()
    start = { x: e.clientX, y: e.clientY }
    box = document.createElement('div')
    box.className = '` + annotateID + `-box'
    box.style.cssText = 'position:fixed;border:2px solid #e53935;background:rgba(229,57,53,.12);box-sizing:border-box'
    place(box, rect(e))
    root.append(box)
  })
  root.addEventListener('mousemove', e => { if (start) place(box, rect(e)) })
  root.addEventListener('mouseup', e => {
    if (!start) return
    const r = rect(e)
    start = null
    if (r.width < 4 || r.height < 4) { box.remove(); return }
    const a = { ...r, note: '' }
    state.boxes.push(a)
    const note = document.createElement('input')
    note.placeholder = 'Note'
    note.className = '` + annotateID + `-note'
    note.style.cssText = 'position:fixed;font:12px sans-serif;left:' + r.x + 'px;top:' + (r.y + r.height + 2) + 'px'
    note.addEventListener('input', () => { a.note = note.value })
    note.addEventListener('keydown', e => { if (e.key === 'Enter') note.blur() })
    root.append(note)
    note.focus()
  })
  const finish = ok => {
    bar.remove()
    root.style.background = 'transparent'
    for (const n of root.querySelectorAll('input')) {
      const label = document.createElement('span')
      label.textContent = n.value
      label.style.cssText = n.style.cssText + ';background:#e53935;color:#fff;padding:1px 4px'
      n.replaceWith(label)
    }
    state.result = { done: ok, boxes: state.boxes }
  }
  done.addEventListener('click', () => finish(true))
  cancel.addEventListener('click', () => finish(false))
}`

// Annotate shows the overlay on the current tab and waits, up to wait,
// for the user to press Done. Under turn.
func (ss *Session) Annotate(ctx context.Context, wait time.Duration) (*Annotated, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return nil, err
	}
	page := t.page
	if _, err := page.Evaluate(annotateJS); err != nil {
		return nil, fmt.Errorf("showing the annotation overlay: %w", ss.Explain(err))
	}
	removeOverlay := func() {
		_, _ = page.Evaluate(`id => { document.getElementById(id)?.remove(); delete window.__ferridriverAnnotate }`, annotateID)
	}
	defer removeOverlay()
	deadline := time.After(wait)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	var result map[string]any
	for result == nil {
		v, err := page.Evaluate(`() => window.__ferridriverAnnotate ? (window.__ferridriverAnnotate.result || false) : null`)
		switch {
		case err != nil:
			return nil, fmt.Errorf("the page changed while the user annotated it: %w", ss.Explain(err))
		case v == nil:
			return nil, errors.New("the page navigated away before the user pressed Done")
		}
		if m, ok := v.(map[string]any); ok {
			result = m
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-deadline:
			return nil, fmt.Errorf("the user did not press Done within %s", wait)
		case <-tick.C:
		}
	}
	if done, _ := result["done"].(bool); !done {
		return nil, errors.New("the user cancelled the annotation")
	}
	out := &Annotated{}
	boxes, _ := result["boxes"].([]any)
	for _, b := range boxes {
		m, _ := b.(map[string]any)
		note, _ := m["note"].(string)
		out.Annotations = append(out.Annotations, Annotation{X: num(m["x"]), Y: num(m["y"]), Width: num(m["width"]), Height: num(m["height"]), Note: note})
	}
	if out.Image, err = page.Screenshot(playwright.PageScreenshotOptions{Type: playwright.ScreenshotTypePng}); err != nil {
		return nil, fmt.Errorf("the annotated screenshot: %w", ss.Explain(err))
	}
	removeOverlay()
	snap, err := ss.SnapshotBoxes(ctx, "", 0, false)
	if err != nil {
		return nil, err
	}
	out.Snapshot, out.URL, out.Title = snap.Snapshot, snap.URL, snap.Title
	out.Annotations = coveredElements(t, snap.Snapshot, out.Annotations)
	return out, nil
}

// maxAnnotatedRefs bounds the elements whose boxes are measured.
const maxAnnotatedRefs = 400

// coveredElements fills each annotation's elements: the snapshot lines
// whose element lies mostly (half its area or more) inside the box.
func coveredElements(t *tab, snapshot string, anns []Annotation) []Annotation {
	if len(anns) == 0 || t.last == nil {
		return anns
	}
	n := 0
	for _, line := range strings.Split(snapshot, "\n") {
		m := refAttrOut.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if n++; n > maxAnnotatedRefs {
			break
		}
		node := t.last.byRef[m[1]]
		if node == nil {
			continue
		}
		bb, err := t.page.Locator("aria-ref=" + node.pwRef).BoundingBox(playwright.LocatorBoundingBoxOptions{Timeout: playwright.Float(500)})
		if err != nil || bb == nil || bb.Width*bb.Height == 0 {
			continue
		}
		for i := range anns {
			a := &anns[i]
			w := math.Min(bb.X+bb.Width, a.X+a.Width) - math.Max(bb.X, a.X)
			h := math.Min(bb.Y+bb.Height, a.Y+a.Height) - math.Max(bb.Y, a.Y)
			if w > 0 && h > 0 && w*h >= bb.Width*bb.Height/2 {
				a.Elements = append(a.Elements, strings.TrimSuffix(strings.TrimSpace(line), ":"))
			}
		}
	}
	return anns
}

// num is a number Playwright hands over from the page: a float64, or an
// int when it is integral (0 for anything else).
func num(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int:
		return float64(x)
	case int64:
		return float64(x)
	}
	return 0
}
