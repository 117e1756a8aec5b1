package world

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/world/install"
)

// Video recording. Playwright records a context's pages when the context
// is created with recordVideo; the driver runs ffmpeg for it, which must
// be where the driver looks for Playwright's own build
// (install.EnsureFFmpeg puts a wrapper of the system's ffmpeg there).
//
// With [browser] video, each test case's own context records into
// OutputDir/videos; when the test case ends its videos are saved under
// readable names there (or deleted: retain-on-failure and passed), as
// Playwright Test's `video` option does.

// videoState is what a Launcher knows about video recording.
type videoState struct {
	mu    sync.Mutex
	ready bool
}

// PrepareVideo makes sure the driver can record videos: it installs the
// driver if needed and puts the ffmpeg wrapper where the driver looks
// (install.EnsureFFmpeg). A remote browser records on its own machine:
// nothing to do. It is cheap once it has succeeded.
func (l *Launcher) PrepareVideo(ctx context.Context) error {
	if l.cfg.Remote() {
		return nil
	}
	l.video.mu.Lock()
	defer l.video.mu.Unlock()
	if l.video.ready {
		return nil
	}
	drv, err := install.EnsureDriver(ctx, l.opts.Install)
	if err != nil {
		return err
	}
	f, err := install.EnsureFFmpeg(drv)
	if err != nil {
		return fmt.Errorf("video recording: %w", err)
	}
	if f.Written {
		l.debugf("video recording: wrote %s, a wrapper of %s", f.Path, f.Target)
	}
	l.video.ready = true
	return nil
}

// DeviceDescriptors returns the JSON of the device descriptors that ship
// with the driver (Playwright's `devices`), installing the driver if
// needed; it starts nothing.
func (l *Launcher) DeviceDescriptors(ctx context.Context) ([]byte, error) {
	drv, err := install.EnsureDriver(ctx, l.opts.Install)
	if err != nil {
		return nil, err
	}
	return install.DeviceDescriptors(drv)
}

// videoDir is where the test cases' own contexts record.
func (l *Launcher) videoDir() string { return filepath.Join(l.outDir, "videos") }

// recordVideo adds [browser] video's recording to opts (when on).
func (l *Launcher) recordVideo(ctx context.Context, opts *playwright.BrowserNewContextOptions) error {
	if l.cfg.VideoMode() == ModeOff {
		return nil
	}
	if err := l.PrepareVideo(ctx); err != nil {
		return fmt.Errorf("[browser] video: %w", err)
	}
	rv := &playwright.RecordVideo{Dir: l.videoDir()}
	if s := l.cfg.VideoSize; s != nil {
		rv.Size = &playwright.Size{Width: s.Width, Height: s.Height}
	}
	opts.RecordVideo = rv
	return nil
}

// recordedPages follows the pages of a recording context (each has a
// video), in the order they opened.
type recordedPages struct {
	mu    sync.Mutex
	pages []playwright.Page
}

func (r *recordedPages) add(p playwright.Page) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, q := range r.pages {
		if q == p {
			return
		}
	}
	r.pages = append(r.pages, p)
}

func (r *recordedPages) all() []playwright.Page {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]playwright.Page(nil), r.pages...)
}

// keepVideos saves the videos of a closed recording context's pages as
// base.webm, base-1.webm... in the video directory and deletes the
// recordings; with keep false it only deletes them. It returns the saved
// files.
func (l *Launcher) keepVideos(pages []playwright.Page, base string, keep bool) ([]string, error) {
	var saved []string
	var errs []error
	for _, p := range pages {
		v := p.Video()
		if keep {
			name := base
			if n := len(saved); n > 0 {
				name = fmt.Sprintf("%s-%d", base, n)
			}
			path := filepath.Join(l.videoDir(), name+".webm")
			if err := v.SaveAs(path); err != nil {
				// A page that never painted has no video: nothing to keep.
				if err.Error() != "Page did not produce any video frames" {
					errs = append(errs, fmt.Errorf("save video %s: %w", path, err))
				}
				continue
			}
			saved = append(saved, path)
		}
		if err := v.Delete(); err != nil && !errors.Is(err, playwright.ErrTargetClosed) {
			errs = append(errs, fmt.Errorf("delete a recording: %w", err))
		}
	}
	return saved, errors.Join(errs...)
}

// discardVideos deletes the recordings of a context closed unused (a
// prepared one): they show a blank page.
func discardVideos(pages []playwright.Page) {
	for _, p := range pages {
		if path, err := p.Video().Path(); err == nil {
			_ = os.Remove(path)
		}
	}
}
