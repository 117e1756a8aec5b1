package jsapi

import (
	"context"
	"sync"

	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// Video recording: a context created with recordVideo ({ dir, size })
// records each of its pages, and page.video() is that page's Video, null
// for a page of a context that does not record (as in Playwright).
//
// playwright-go's Video hands its artifact over once: a second Path()
// before the page closes waits for the page to close, and SaveAs refuses
// an open page where Playwright waits for it. videoW keeps Playwright's
// behaviour: path() resolves as soon as the recording has a file,
// saveAs() and delete() wait for the page to close (the video is complete
// then), and the playwright-go calls are serialised.

// MarkRecording tells the bindings that c was created with recordVideo
// (a context the host made itself, such as [browser] video's), so its
// pages' video() is not null.
func (r *Runtime) MarkRecording(c playwright.BrowserContext) {
	if r.recording == nil {
		r.recording = map[playwright.BrowserContext]bool{}
	}
	r.recording[c] = true
}

// recordVideoOption reads browser.newContext's recordVideo option.
func (r *Runtime) recordVideoOption(o opts) *playwright.RecordVideo {
	v, ok := o.val("recordVideo").(*goja.Object)
	if !ok {
		return nil
	}
	ro := opts{r: r, o: v}
	dir := ro.s("dir")
	if dir == nil || *dir == "" {
		panic(r.rt.NewTypeError("%s", "browser.newContext: recordVideo.dir is required (the directory to put videos into)"))
	}
	rv := &playwright.RecordVideo{Dir: *r.path("browser.newContext", dir, capability.FSWrite)}
	if s, ok := ro.val("size").(*goja.Object); ok {
		so := opts{r: r, o: s}
		rv.Size = &playwright.Size{Width: int(derefF(so.f("width"))), Height: int(derefF(so.f("height")))}
	}
	return rv
}

// prepareVideo asks the host to make recording possible (ffmpeg) before a
// context with recordVideo is created. Off the loop.
func prepareVideo(host Host, opt playwright.BrowserNewContextOptions) error {
	if opt.RecordVideo == nil {
		return nil
	}
	return host.PrepareVideo(context.Background())
}

// videoW is a page's Video.
type videoW struct {
	props
	page   *pageW
	v      playwright.Video
	closed chan struct{} // closed once the page is

	mu   sync.Mutex // serialises the playwright-go calls
	once sync.Once
	path string
	err  error
}

// video returns w's Video object, or null when its context does not record.
func (r *Runtime) video(w *pageW) goja.Value {
	if w.video != nil {
		return w.video
	}
	if !r.recording[w.p.Context()] {
		return goja.Null()
	}
	v := &videoW{page: w, v: w.p.Video(), closed: make(chan struct{})}
	var once sync.Once
	done := func() { once.Do(func() { close(v.closed) }) }
	w.p.OnClose(func(playwright.Page) { done() })
	if w.p.IsClosed() {
		done()
	}
	w.video = r.newObject(r.p.get(&r.p.video, "Video", r.videoMethods), v)
	return w.video
}

// artifactPath is the recording's file, known once the driver has started
// recording (or an error: no frames, a remote browser). Off the loop.
func (v *videoW) artifactPath() (string, error) {
	v.once.Do(func() {
		v.mu.Lock()
		defer v.mu.Unlock()
		v.path, v.err = v.v.Path()
	})
	return v.path, v.err
}

// afterClose waits for the page to close, then runs fn with the
// playwright-go video, serialised. Off the loop.
func (v *videoW) afterClose(fn func(playwright.Video) error) error {
	<-v.closed
	_, _ = v.artifactPath() // takes the artifact over, once
	v.mu.Lock()
	defer v.mu.Unlock()
	return fn(v.v)
}

func (r *Runtime) videoMethods() []method {
	self := func(c goja.FunctionCall, api string) *videoW { return recv[*videoW](r, c, api) }
	return []method{
		{"path", func(c goja.FunctionCall) goja.Value {
			v := self(c, "video.path")
			return async(r, "video.path", v.artifactPath, r.strV)
		}},
		{"saveAs", func(c goja.FunctionCall) goja.Value {
			v := self(c, "video.saveAs")
			if isNullish(c.Argument(0)) {
				panic(r.rt.NewTypeError("%s", "video.saveAs: path is required"))
			}
			p := c.Argument(0).String()
			path := *r.path("video.saveAs", &p, capability.FSWrite)
			return asyncErr(r, "video.saveAs", func() error {
				return v.afterClose(func(pv playwright.Video) error { return pv.SaveAs(path) })
			})
		}},
		{"delete", func(c goja.FunctionCall) goja.Value {
			v := self(c, "video.delete")
			return asyncErr(r, "video.delete", func() error {
				return v.afterClose(func(pv playwright.Video) error { return pv.Delete() })
			})
		}},
	}
}
