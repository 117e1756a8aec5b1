// Package screencast records browser pages into a WebM (VP8) video while
// they are in use, for a page that was not created with Playwright's
// recordVideo (a session already open). Chromium's screencast (CDP
// Page.startScreencast) sends a JPEG of the page each time its picture
// changes; the recorder lays the pictures on a real-time timeline at a
// fixed frame rate, the last picture repeated until the next one comes
// (or dropped when several come within one frame), and pipes them to
// ffmpeg, which encodes the video. Follow moves the capture to another
// page (the agent switched tabs) without breaking the timeline.
package screencast

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/playwright-community/playwright-go"
)

// Options say what to record and where.
type Options struct {
	// FFmpeg is the ffmpeg to encode with.
	FFmpeg string
	// Path is the video file; it appears there, complete, when the
	// recording stops (it is written beside it under a temporary name
	// until then).
	Path string
	// Width and Height are the video's size (rounded down to even
	// numbers): each picture is fitted into it (scaled down, never up)
	// and the rest is padded.
	Width, Height int
	// FPS is the frame rate (default 25).
	FPS int
}

// DefaultFPS is the frame rate when Options.FPS is 0.
const DefaultFPS = 25

// Result describes a finished video.
type Result struct {
	Path     string
	Duration time.Duration
	// Frames is the number of frames encoded; Pictures the number of
	// pictures the browser sent.
	Frames, Pictures int
}

type picture struct {
	jpeg []byte
	at   time.Time
}

// Recorder is one video being recorded. Follow and Stop are called by one
// goroutine at a time; the browser's frames arrive on another.
type Recorder struct {
	opts  Options
	tmp   string
	cmd   *exec.Cmd
	stdin io.WriteCloser
	log   *tailBuffer
	began time.Time

	// Frame intake, from Playwright's event goroutine.
	inMu     sync.Mutex
	in       chan picture
	stopped  bool
	end      time.Time
	pictures int

	written chan struct{} // closed when the writer is done
	frames  int
	werr    error

	// The capture (Follow, Stop).
	page playwright.Page
	cdp  playwright.CDPSession
	gen  atomic.Int64
}

// Start starts ffmpeg and returns the recorder, capturing nothing until
// Follow gives it a page.
func Start(o Options) (*Recorder, error) {
	if o.FPS <= 0 {
		o.FPS = DefaultFPS
	}
	// VP8 in 4:2:0 takes even sizes.
	o.Width, o.Height = o.Width&^1, o.Height&^1
	if o.Width <= 0 || o.Height <= 0 {
		return nil, fmt.Errorf("video size %dx%d: want a positive width and height", o.Width, o.Height)
	}
	if o.FPS > 60 {
		return nil, fmt.Errorf("fps %d: at most 60", o.FPS)
	}
	f, err := os.CreateTemp(filepath.Dir(o.Path), ".video-*.webm.part")
	if err != nil {
		return nil, err
	}
	tmp := f.Name()
	f.Close()
	w, h := o.Width, o.Height
	// Pictures larger than the video (none: the screencast is asked for
	// pictures that fit) are cropped, smaller ones padded, centred.
	vf := fmt.Sprintf("crop=w='min(iw,%d)':h='min(ih,%d)':x=0:y=0,pad=%d:%d:(ow-iw)/2:(oh-ih)/2:color=0x202020", w, h, w, h)
	cmd := exec.Command(o.FFmpeg, "-hide_banner", "-loglevel", "error",
		"-f", "image2pipe", "-framerate", fmt.Sprint(o.FPS), "-c:v", "mjpeg", "-i", "pipe:0",
		"-an", "-vf", vf, "-pix_fmt", "yuv420p",
		"-c:v", "vp8", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "1M", "-crf", "10", "-threads", "1",
		"-f", "webm", "-y", tmp)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		os.Remove(tmp)
		return nil, err
	}
	log := &tailBuffer{max: 4096}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		os.Remove(tmp)
		return nil, fmt.Errorf("starting ffmpeg: %w", err)
	}
	r := &Recorder{opts: o, tmp: tmp, cmd: cmd, stdin: stdin, log: log, began: time.Now(),
		in: make(chan picture, 16), written: make(chan struct{})}
	go r.write()
	return r, nil
}

// Size is the video's size.
func (r *Recorder) Size() (int, int) { return r.opts.Width, r.opts.Height }

// frameAt is the index of the frame slot that time t falls in.
func (r *Recorder) frameAt(t time.Time) int {
	return int(t.Sub(r.began) * time.Duration(r.opts.FPS) / time.Second)
}

// write feeds ffmpeg: each picture fills the frames from the previous
// picture's time to its own with the previous picture (the first one
// also fills the frames before it), and at the end the last one fills
// the frames up to the stop.
func (r *Recorder) write() {
	defer close(r.written)
	var last []byte
	fill := func(upto int) {
		for r.werr == nil && r.frames < upto {
			if _, err := r.stdin.Write(last); err != nil {
				r.werr = err
			}
			r.frames++
		}
	}
	for p := range r.in {
		if last == nil {
			last = p.jpeg
		}
		fill(r.frameAt(p.at))
		last = p.jpeg
	}
	if last != nil {
		fill(r.frameAt(r.end) + 1)
	}
}

// add takes one picture of the page, shown from now on.
func (r *Recorder) add(jpeg []byte) { r.addAt(jpeg, time.Now()) }

// addAt takes a picture shown from at.
func (r *Recorder) addAt(jpeg []byte, at time.Time) {
	r.inMu.Lock()
	defer r.inMu.Unlock()
	if r.stopped {
		return
	}
	select {
	case r.in <- picture{jpeg: jpeg, at: at}:
		r.pictures++
	default:
		// ffmpeg is behind: this picture is dropped, the timeline kept.
	}
}

// Follow moves the capture to page (nil: none, the last picture stays).
// Recording a page that is already followed does nothing.
func (r *Recorder) Follow(page playwright.Page) error {
	if page != nil && page == r.page && r.cdp != nil {
		return nil
	}
	r.detach()
	if page == nil || page.IsClosed() {
		return nil
	}
	cdp, err := page.Context().NewCDPSession(page)
	if err != nil {
		return fmt.Errorf("screencast: %w", err)
	}
	gen := r.gen.Add(1)
	cdp.On("Page.screencastFrame", func(ev map[string]interface{}) {
		// On Playwright's event goroutine: the acknowledgement, which
		// waits for an answer that goroutine delivers, is sent from
		// another.
		id := ev["sessionId"]
		go func() { _, _ = cdp.Send("Page.screencastFrameAck", map[string]interface{}{"sessionId": id}) }()
		if r.gen.Load() != gen {
			return
		}
		data, _ := ev["data"].(string)
		if jpeg, err := base64.StdEncoding.DecodeString(data); err == nil && len(jpeg) > 0 {
			r.add(jpeg)
		}
	})
	if _, err := cdp.Send("Page.startScreencast", map[string]interface{}{
		"format": "jpeg", "quality": 90, "maxWidth": r.opts.Width, "maxHeight": r.opts.Height,
	}); err != nil {
		_ = cdp.Detach()
		return fmt.Errorf("screencast: %w", err)
	}
	r.page, r.cdp = page, cdp
	return nil
}

// Page is the page captured (nil: none).
func (r *Recorder) Page() playwright.Page { return r.page }

func (r *Recorder) detach() {
	r.gen.Add(1)
	if r.cdp != nil && r.page != nil && !r.page.IsClosed() {
		_, _ = r.cdp.Send("Page.stopScreencast", nil)
		_ = r.cdp.Detach()
	}
	r.page, r.cdp = nil, nil
}

// Stop ends the capture, finishes the video and moves it to its path.
// A video without a single picture is an error (and no file).
func (r *Recorder) Stop() (Result, error) { return r.stopAt(time.Now()) }

// stopAt stops the video at end.
func (r *Recorder) stopAt(end time.Time) (Result, error) {
	r.detach()
	r.inMu.Lock()
	if r.stopped {
		r.inMu.Unlock()
		return Result{}, errors.New("the video is already stopped")
	}
	r.stopped, r.end = true, end
	pictures := r.pictures
	close(r.in)
	r.inMu.Unlock()
	<-r.written
	cerr := r.stdin.Close()
	werr := r.cmd.Wait()
	res := Result{Path: r.opts.Path, Frames: r.frames, Pictures: pictures,
		Duration: time.Duration(r.frames) * time.Second / time.Duration(r.opts.FPS)}
	fail := func(err error) (Result, error) {
		os.Remove(r.tmp)
		if msg := strings.TrimSpace(r.log.String()); msg != "" {
			err = fmt.Errorf("%w: %s", err, msg)
		}
		return res, err
	}
	switch {
	case r.frames == 0:
		return fail(errors.New("the browser sent no picture of the page: no video"))
	case werr != nil:
		return fail(fmt.Errorf("ffmpeg: %w", werr))
	case r.werr != nil:
		return fail(fmt.Errorf("writing to ffmpeg: %w", r.werr))
	case cerr != nil:
		return fail(fmt.Errorf("writing to ffmpeg: %w", cerr))
	}
	// rename replaces a link at Path rather than writing through it.
	if err := os.Rename(r.tmp, r.opts.Path); err != nil {
		return fail(err)
	}
	return res, nil
}

// tailBuffer keeps the last max bytes written to it (ffmpeg's messages).
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.b))
}
