package jsapi

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/internal/comparator"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/messages"
)

// snapshotResult is what a snapshot matcher tells playwright.js: a
// failure message ("" when it passed), whether the failure lets the step
// go on (a missing baseline that was written, as Playwright Test's
// non-retriable error), a note to print, and the images to attach to the
// step.
type snapshotResult struct {
	message     string
	soft        bool
	note        string
	attachments []snapshotAttachment
}

type snapshotAttachment struct {
	name, mediaType string
	data            []byte
}

// value is r's answer to playwright.js ({ message, soft, note }), after
// attaching its files to the running step. Loop goroutine only.
func (res *snapshotResult) value(r *Runtime) goja.Value {
	for _, a := range res.attachments {
		att := &messages.Attachment{MediaType: a.mediaType, FileName: messages.Ptr(a.name)}
		if strings.HasPrefix(a.mediaType, "text/") {
			att.Body, att.ContentEncoding = string(a.data), messages.AttachmentContentEncodingIdentity
		} else {
			att.Body, att.ContentEncoding = base64.StdEncoding.EncodeToString(a.data), messages.AttachmentContentEncodingBase64
		}
		if err := r.vm.Attach(att); err != nil {
			res.message += "\n\n(" + a.name + " was not attached: " + err.Error() + ")"
		}
	}
	o := r.rt.NewObject()
	_ = o.Set("message", res.message)
	_ = o.Set("soft", res.soft)
	_ = o.Set("note", res.note)
	return o
}

// snapshotJob is one comparison: its files, mode and the comparator.
type snapshotJob struct {
	paths   *snapshotPaths
	update  string
	isNot   bool
	kind    string // "Screenshot" or "Snapshot"
	opts    comparator.Options
	compare func(actual, expected []byte) (*comparator.Result, error)
	out     *snapshotResult
}

func newSnapshotJob(paths *snapshotPaths, update string, isNot bool, opts comparator.Options, isText bool) *snapshotJob {
	j := &snapshotJob{paths: paths, update: update, isNot: isNot, opts: opts, out: &snapshotResult{}, kind: "Snapshot"}
	if strings.HasPrefix(paths.mediaType, "image/") {
		j.kind = "Screenshot"
	}
	cmp := comparator.For(paths.mediaType)
	j.compare = func(actual, expected []byte) (*comparator.Result, error) { return cmp(actual, expected, isText, opts) }
	return j
}

// write writes a file and attaches it as name.
func (j *snapshotJob) write(path, suffix string, data []byte) error {
	if err := writeOutput(path, data); err != nil {
		return err
	}
	j.attach(suffix, data)
	return nil
}

func (j *snapshotJob) attach(suffix string, data []byte) {
	j.out.attachments = append(j.out.attachments, snapshotAttachment{
		name: addSuffix(j.paths.attachment, suffix), mediaType: j.paths.mediaType, data: data,
	})
}

// missing handles a baseline that does not exist, as Playwright Test: it
// is written (unless update is none) with the actual value beside it;
// update all or changed passes with a note, missing fails the test case
// but lets it go on, none fails.
func (j *snapshotJob) missing(actual []byte) (*snapshotResult, error) {
	write := j.update != "none"
	if write {
		if err := writeOutput(j.paths.expected, actual); err != nil {
			return nil, err
		}
		j.attach("-expected", actual)
	}
	if err := j.write(j.paths.actual, "-actual", actual); err != nil {
		return nil, err
	}
	msg := "A snapshot doesn't exist at " + j.paths.expected + "."
	if write {
		msg = "A snapshot doesn't exist at " + j.paths.expected + ", writing actual."
	}
	switch j.update {
	case "all", "changed":
		j.out.note = msg
	case "missing":
		j.out.message, j.out.soft = msg, true
	default:
		j.out.message = msg
	}
	return j.out, nil
}

// different reports a mismatch: header and the comparison's error, then
// the files written (the baseline's copy, previous, actual and diff),
// then the call log, as Playwright Test.
func (j *snapshotJob) different(header, diffError string, actual, expected, previous, diff []byte, log []string) (*snapshotResult, error) {
	var b strings.Builder
	b.WriteString(header)
	b.WriteString(indent(diffError, "  "))
	if expected != nil {
		if err := writeOutput(j.paths.legacyExpected, expected); err != nil {
			return nil, err
		}
		j.attach("-expected", expected)
		b.WriteString("\n\nExpected: " + j.paths.expected)
	}
	for _, f := range []struct {
		data         []byte
		path, suffix string
		label        string
	}{{previous, j.paths.previous, "-previous", "Previous"}, {actual, j.paths.actual, "-actual", "Received"}, {diff, j.paths.diff, "-diff", "    Diff"}} {
		if f.data == nil {
			continue
		}
		if err := j.write(f.path, f.suffix, f.data); err != nil {
			return nil, err
		}
		b.WriteString("\n" + f.label + ": " + f.path)
	}
	if len(log) > 0 {
		b.WriteString("\n\nCall log:\n" + strings.Join(log, "\n"))
	}
	j.out.message = b.String()
	return j.out, nil
}

// regenerated writes actual as the new baseline (update all/changed),
// and for a screenshot beside the outputs too, as Playwright Test does.
func (j *snapshotJob) regenerated(actual []byte, note string) (*snapshotResult, error) {
	if err := writeOutput(j.paths.expected, actual); err != nil {
		return nil, err
	}
	if j.kind == "Screenshot" {
		if err := writeOutput(j.paths.actual, actual); err != nil {
			return nil, err
		}
	}
	j.out.note = j.paths.expected + note
	return j.out, nil
}

// negated is the result of .not: passes when the value differs from the
// baseline (or there is none).
func (j *snapshotJob) negated(differs bool) *snapshotResult {
	if !differs {
		j.out.message = j.kind + " comparison failed:\n\n  Expected result should be different from the actual one."
	}
	return j.out
}

func indent(s, tab string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = tab + l
		}
	}
	return strings.Join(lines, "\n")
}

// comparatorOptions reads threshold, maxDiffPixels and maxDiffPixelRatio.
func comparatorOptions(o opts) comparator.Options {
	return comparator.Options{Threshold: o.f("threshold"), MaxDiffPixels: o.i("maxDiffPixels"), MaxDiffPixelRatio: o.f("maxDiffPixelRatio")}
}

// matcherHint is the first line of a snapshot failure.
func matcherHint(receiver, matcher string, isNot bool) string {
	not := ""
	if isNot {
		not = ".not"
	}
	return "expect(" + receiver + ")" + not + "." + matcher + "(expected)\n\n"
}

// ---- toMatchSnapshot ----

// toMatchSnapshot is the native of expect(value).toMatchSnapshot(name?,
// options): value is a string or bytes (a Buffer); synchronous, as in
// Playwright. Loop goroutine.
func (r *Runtime) toMatchSnapshot(c goja.FunctionCall) goja.Value {
	received, isNot := c.Argument(0), c.Argument(1).ToBoolean()
	if o, ok := received.(*goja.Object); ok && isPromise(o) {
		panic(r.newError("Error", "An unresolved Promise was passed to toMatchSnapshot(), make sure to resolve it by adding await to it.", r.rt.CaptureCallStack(0, nil)))
	}
	_, isText := received.Export().(string)
	data, ok := r.bytesOf(received)
	if !ok || isNullish(received) {
		panic(r.rt.NewTypeError("expect(received).toMatchSnapshot(): received value must be a Buffer or a string, got %s", describeValue(received)))
	}
	name, optObj := r.snapshotName(c.Argument(2), c.Argument(3))
	o := opts{r: r, o: optObj}
	paths, err := r.snapshotPaths("toMatchSnapshot", name, snapshotExtension(data, isText))
	if err != nil {
		panic(r.newError("Error", err.Error(), r.rt.CaptureCallStack(0, nil)))
	}
	cmpOpts := comparatorOptions(o)
	if err := cmpOpts.Validate(); err != nil {
		panic(r.newError("Error", err.Error(), r.rt.CaptureCallStack(0, nil)))
	}
	r.checkSnapshotPaths("toMatchSnapshot", paths)
	j := newSnapshotJob(paths, r.settings().Update, isNot, cmpOpts, isText)
	res, err := j.matchValue(data, isText)
	if err != nil {
		panic(r.newError("Error", "toMatchSnapshot: "+err.Error(), r.rt.CaptureCallStack(0, nil)))
	}
	return res.value(r)
}

// snapshotExtension is a nameless snapshot's extension, from its content
// (as Playwright: txt for a string, png and jpg by their magic bytes,
// dat for other bytes).
func snapshotExtension(data []byte, isText bool) string {
	switch {
	case isText:
		return "txt"
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(data, []byte{0xff, 0xd8, 0xff}):
		return "jpg"
	}
	return "dat"
}

// matchValue compares data with the baseline per the update mode.
func (j *snapshotJob) matchValue(data []byte, isText bool) (*snapshotResult, error) {
	expected, exists, err := readBaseline(j.paths.expected)
	if err != nil {
		return nil, err
	}
	if j.isNot {
		if !exists {
			return j.out, nil
		}
		res, err := j.compare(data, expected)
		if err != nil {
			return nil, err
		}
		return j.negated(res != nil), nil
	}
	if !exists {
		return j.missing(data)
	}
	switch j.update {
	case "all":
		if bytes.Equal(data, expected) {
			return j.out, nil
		}
		return j.regenerated(data, " is not the same, writing actual.")
	case "changed":
		res, err := j.compare(data, expected)
		if err != nil || res == nil {
			return j.out, err
		}
		return j.regenerated(data, " does not match, writing actual.")
	}
	res, err := j.compare(data, expected)
	if err != nil || res == nil {
		return j.out, err
	}
	receiver := "Buffer"
	if isText {
		receiver = "string"
	}
	return j.different(matcherHint(receiver, "toMatchSnapshot", false), res.Message, data, expected, nil, res.Diff, nil)
}

// checkSnapshotPaths applies the filesystem check (VM.CheckPath) to the
// files a comparison reads and writes: the outputs are writes; the
// baseline is a read, and a write too when the update mode may write it
// (all and changed; missing and the default when there is none yet).
// Loop goroutine only.
func (r *Runtime) checkSnapshotPaths(api string, p *snapshotPaths) {
	p.expected = *r.path(api, &p.expected, capability.FSRead)
	if update := r.settings().Update; update == "all" || update == "changed" || update != "none" && !fileExists(p.expected) {
		p.expected = *r.path(api, &p.expected, capability.FSWrite)
	}
	for _, f := range []*string{&p.actual, &p.diff, &p.previous, &p.legacyExpected} {
		*f = *r.path(api, f, capability.FSWrite)
	}
}

// fileExists reports whether path names something (a read error other
// than not existing counts as existing: the read reports it).
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}

// ---- toHaveScreenshot ----

// shooter takes the screenshots of one toHaveScreenshot.
type shooter struct {
	page    playwright.Page
	locator playwright.Locator // nil: the page
	page0   playwright.PageScreenshotOptions
	loc0    playwright.LocatorScreenshotOptions
}

// shot waits wait, lets the page render two frames, and takes a
// screenshot within timeout ms.
func (s *shooter) shot(wait time.Duration, timeout float64) ([]byte, error) {
	if wait > 0 {
		time.Sleep(wait)
	}
	if _, err := s.page.Evaluate(`() => new Promise(f => requestAnimationFrame(() => requestAnimationFrame(f)))`); err != nil {
		return nil, err
	}
	if s.locator != nil {
		o := s.loc0
		o.Timeout = &timeout
		return s.locator.Screenshot(o)
	}
	o := s.page0
	o.Timeout = &timeout
	return s.page.Screenshot(o)
}

// screenshotOutcome is what the screenshot loop found.
type screenshotOutcome struct {
	actual, previous, diff []byte
	message                string // "" = matched (or, without a baseline, stable)
	timedOut               bool
	log                    []string
}

// pollIntervals are the waits before each screenshot: at once, then
// longer and longer, then every second (Playwright's).
var pollIntervals = []time.Duration{0, 100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond}

// stableScreenshot takes screenshots until one matches expected (the
// first) or, failing that, until two in a row match each other (then
// compared with expected), within timeout ms (0: no limit). Without
// expected it returns the first stable screenshot. Off the loop.
func (j *snapshotJob) stableScreenshot(s *shooter, expected []byte, timeout float64, title string) screenshotOutcome {
	out := screenshotOutcome{}
	start := time.Now()
	logf := func(format string, args ...any) { out.log = append(out.log, "  - "+fmt.Sprintf(format, args...)) }
	if timeout > 0 {
		logf("%s with timeout %sms", title, strconv.FormatFloat(timeout, 'f', -1, 64))
	} else {
		logf("%s", title)
	}
	if expected != nil {
		logf("  verifying given screenshot expectation")
	} else {
		logf("  generating new stable screenshot expectation")
	}
	left := func() float64 {
		if timeout <= 0 {
			return 0
		}
		return timeout - float64(time.Since(start).Milliseconds())
	}
	// failed is the last comparison that failed, with its screenshots.
	var failed struct {
		res              *comparator.Result
		actual, previous []byte
	}
	first := true
	for i := 0; ; i++ {
		if s.page.IsClosed() {
			out.message = "The page has closed"
			return out
		}
		wait := time.Second
		if i < len(pollIntervals) {
			wait = pollIntervals[i]
		}
		if timeout > 0 && left() <= float64(wait.Milliseconds()) {
			out = screenshotOutcome{timedOut: true, log: out.log, actual: failed.actual, previous: failed.previous,
				message: fmt.Sprintf("Timeout %sms exceeded.", strconv.FormatFloat(timeout, 'f', -1, 64))}
			if failed.res != nil {
				out.diff = failed.res.Diff
			}
			if failed.previous != nil {
				out.message = "Failed to take two consecutive stable screenshots."
			}
			logf("%s", out.message)
			return out
		}
		if wait > 0 {
			logf("waiting %dms before taking screenshot", wait.Milliseconds())
		}
		shotTimeout := left()
		if timeout > 0 {
			shotTimeout -= float64(wait.Milliseconds())
		}
		actual, err := s.shot(wait, shotTimeout)
		if err != nil {
			logf("failed to take screenshot - %s", pwMessage(err))
			out.actual = nil
			continue
		}
		out.previous, out.actual = out.actual, actual
		against := out.previous
		if first && expected != nil {
			against = expected
		}
		if against == nil {
			first = false
			continue
		}
		res, err := j.compare(actual, against)
		if err != nil {
			out.message = err.Error()
			return out
		}
		if res == nil {
			break
		}
		failed.res, failed.actual, failed.previous = res, actual, nil
		if against != nil && !(first && expected != nil) {
			failed.previous = against
		}
		logf("%s", res.Message)
		first = false
	}
	if !first {
		logf("captured a stable screenshot")
	}
	if expected == nil {
		out.previous, out.log = nil, nil
		return out
	}
	if first {
		logf("screenshot matched expectation")
		return screenshotOutcome{}
	}
	res, err := j.compare(out.actual, expected)
	switch {
	case err != nil:
		out.message = err.Error()
	case res == nil:
		logf("screenshot matched expectation")
		return screenshotOutcome{}
	default:
		out.message, out.diff, out.previous = res.Message, res.Diff, nil
		logf("%s", res.Message)
	}
	return out
}

// differentScreenshot polls screenshots until one differs from expected
// (.not: passes) or the time is out. Off the loop.
func (j *snapshotJob) differentScreenshot(s *shooter, expected []byte, timeout float64) (bool, error) {
	start := time.Now()
	for i := 0; ; i++ {
		wait := time.Second
		if i < len(pollIntervals) {
			wait = pollIntervals[i]
		}
		left := timeout - float64(time.Since(start).Milliseconds())
		if timeout > 0 && left <= float64(wait.Milliseconds()) {
			return false, nil
		}
		actual, err := s.shot(wait, left-float64(wait.Milliseconds()))
		if err != nil {
			if s.page.IsClosed() {
				return false, err
			}
			continue
		}
		res, err := j.compare(actual, expected)
		if err != nil || res != nil {
			return res != nil, err
		}
	}
}

// toHaveScreenshot is the native of expect(page|locator).toHaveScreenshot
// (name?, options): toHaveScreenshot(actual, isNot, nameOrOptions,
// options, expectTimeout) returns a Promise of { message, soft, note }.
// Loop goroutine.
func (r *Runtime) toHaveScreenshot(c goja.FunctionCall) goja.Value {
	const api = "toHaveScreenshot"
	actual, isNot := c.Argument(0), c.Argument(1).ToBoolean()
	var target any
	if o, ok := actual.(*goja.Object); ok {
		target = o.Export()
	}
	s := &shooter{}
	receiver, locDesc := "page", ""
	switch t := target.(type) {
	case *pageW:
		s.page = t.p
	case *locatorW:
		s.page, s.locator, receiver, locDesc = t.frame.Page(), t.pw, "locator", t.desc
	default:
		panic(r.rt.NewTypeError("%s", "toHaveScreenshot can be only used with Page or Locator objects"))
	}
	name, optObj := r.snapshotName(c.Argument(2), c.Argument(3))
	o := opts{r: r, o: optObj}
	paths, err := r.snapshotPaths(api, name, "png")
	if err != nil {
		panic(r.newError("Error", err.Error(), r.rt.CaptureCallStack(0, nil)))
	}
	if !strings.HasSuffix(strings.ToLower(paths.expected), ".png") {
		panic(r.newError("Error", fmt.Sprintf("Screenshot name %q must have '.png' extension", filepath.Base(paths.expected)), r.rt.CaptureCallStack(0, nil)))
	}
	cmpOpts := comparatorOptions(o)
	if err := cmpOpts.Validate(); err != nil {
		panic(r.newError("Error", err.Error(), r.rt.CaptureCallStack(0, nil)))
	}
	r.checkSnapshotPaths(api, paths)
	r.screenshotOptions(o, s, true)
	var given *float64
	if t := o.f("timeout"); t != nil {
		given = t
	}
	timeout, _ := r.timeoutMs(given, c.Argument(4).ToFloat())
	update := r.settings().Update
	j := newSnapshotJob(paths, update, isNot, cmpOpts, false)
	title := "expect.toHaveScreenshot"
	if len(name) > 0 {
		title += "(" + filepath.Join(name...) + ")"
	}
	return async(r, "expect."+api, func() (*snapshotResult, error) {
		return j.matchScreenshot(s, timeout, title, receiver, locDesc)
	}, func(res *snapshotResult) goja.Value { return res.value(r) })
}

// matchScreenshot runs toHaveScreenshot per the update mode, as
// Playwright Test. Off the loop.
func (j *snapshotJob) matchScreenshot(s *shooter, timeout float64, title, receiver, locDesc string) (*snapshotResult, error) {
	expected, exists, err := readBaseline(j.paths.expected)
	if err != nil {
		return nil, err
	}
	header := func(timedOut bool, withLocator bool) string {
		h := matcherHint(receiver, "toHaveScreenshot", false)
		if timedOut {
			h = fmt.Sprintf("Timed out %sms waiting for ", strconv.FormatFloat(timeout, 'f', -1, 64)) + h
		}
		if withLocator && locDesc != "" {
			h += "Locator: " + locDesc + "\n"
		}
		return h
	}
	if j.isNot {
		if !exists {
			return j.out, nil
		}
		differs, err := j.differentScreenshot(s, expected, timeout)
		if err != nil {
			return nil, err
		}
		return j.negated(differs), nil
	}
	if j.update == "none" && !exists {
		j.out.message = "A snapshot doesn't exist at " + j.paths.expected + "."
		return j.out, nil
	}
	if !exists {
		got := j.stableScreenshot(s, nil, timeout, title)
		if got.message != "" {
			return j.different(header(got.timedOut, true), got.message, got.actual, nil, got.previous, got.diff, got.log)
		}
		return j.missing(got.actual)
	}
	against := expected
	if j.update == "all" {
		against = nil
	}
	got := j.stableScreenshot(s, against, timeout, title)
	if got.message == "" {
		if j.update == "all" && got.actual != nil && !bytes.Equal(got.actual, expected) {
			return j.regenerated(got.actual, " is re-generated, writing actual.")
		}
		return j.out, nil
	}
	if (j.update == "changed" || j.update == "all") && got.actual != nil {
		return j.regenerated(got.actual, " is re-generated, writing actual.")
	}
	return j.different(header(got.timedOut, false), got.message, got.actual, against, got.previous, got.diff, got.log)
}

// screenshotOptions reads the options of a screenshot (page.screenshot,
// locator.screenshot, toHaveScreenshot) into s: animations, caret,
// scale, mask, maskColor, style, omitBackground, and for a page
// fullPage and clip. For toHaveScreenshot (visual) animations default to
// "disabled", the caret to "hide" and the scale to "css", as in
// Playwright.
func (r *Runtime) screenshotOptions(o opts, s *shooter, visual bool) {
	str := func(name, def string) *string {
		if v := o.s(name); v != nil {
			return v
		}
		if visual {
			return &def
		}
		return nil
	}
	anim := (*playwright.ScreenshotAnimations)(str("animations", "disabled"))
	caret := (*playwright.ScreenshotCaret)(str("caret", "hide"))
	scale := (*playwright.ScreenshotScale)(str("scale", "css"))
	var mask []playwright.Locator
	for _, m := range r.array(o.val("mask")) {
		lo, ok := m.(*goja.Object)
		lw, ok2 := lo.Export().(*locatorW)
		if !ok || !ok2 {
			panic(r.rt.NewTypeError("%s", "screenshot: mask must be an array of Locators"))
		}
		mask = append(mask, lw.pw)
	}
	style := o.s("style")
	if sp := o.val("stylePath"); sp != nil && !isNullish(sp) {
		var css []string
		for _, p := range r.strings(sp) {
			path := *r.path("screenshot", &p, capability.FSRead)
			b, err := os.ReadFile(path)
			if err != nil {
				panic(r.newError("Error", "screenshot: stylePath: "+err.Error(), r.rt.CaptureCallStack(0, nil)))
			}
			css = append(css, strings.TrimSpace(string(b)))
		}
		if joined := strings.TrimSpace(strings.Join(css, "\n")); joined != "" {
			style = &joined
		}
	}
	png := playwright.ScreenshotTypePng
	s.page0 = playwright.PageScreenshotOptions{Animations: anim, Caret: caret, Scale: scale, Mask: mask, MaskColor: o.s("maskColor"),
		Style: style, OmitBackground: o.b("omitBackground"), FullPage: o.b("fullPage"), Type: png}
	if clip, ok := o.val("clip").(*goja.Object); ok {
		s.page0.Clip = &playwright.Rect{X: clip.Get("x").ToFloat(), Y: clip.Get("y").ToFloat(), Width: clip.Get("width").ToFloat(), Height: clip.Get("height").ToFloat()}
	}
	s.loc0 = playwright.LocatorScreenshotOptions{Animations: anim, Caret: caret, Scale: scale, Mask: mask, MaskColor: o.s("maskColor"),
		Style: style, OmitBackground: o.b("omitBackground"), Type: png}
}

func isPromise(o *goja.Object) bool {
	_, ok := o.Export().(*goja.Promise)
	return ok
}
