package world

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
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

// PrepareVideo makes sure the driver can record videos: it finds the
// driver (installing it when Options.InstallDriver allows) and puts the
// ffmpeg wrapper where the driver looks (install.EnsureFFmpeg). A remote browser records on its own machine:
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
	drv, err := l.findDriver(ctx)
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
// with the driver (Playwright's `devices`), finding the driver as a
// browser launch does; it starts nothing.
func (l *Launcher) DeviceDescriptors(ctx context.Context) ([]byte, error) {
	drv, err := l.findDriver(ctx)
	if err != nil {
		return nil, err
	}
	return install.DeviceDescriptors(drv)
}

// videoDir is where the test cases' videos are kept.
func (l *Launcher) videoDir() string { return filepath.Join(l.outDir, "videos") }

// recordVideo adds [browser] video's recording to opts (when on) and
// returns the recording's state. A local browser records each context
// into a directory of its own under videoDir, so every file there is one
// of that context's pages' videos (playwright-go hands a page's video
// over only if the driver announced it before the page closed, which a
// popup closed at once misses).
func (l *Launcher) recordVideo(ctx context.Context, opts *playwright.BrowserNewContextOptions) (*recording, error) {
	if l.cfg.VideoMode() == ModeOff {
		return nil, nil
	}
	if err := l.PrepareVideo(ctx); err != nil {
		return nil, fmt.Errorf("[browser] video: %w", err)
	}
	rec := &recording{}
	if l.cfg.Remote() {
		// The browser's machine writes the files: they come back through
		// the pages' videos (SaveAs).
		rec.dir = filepath.Join(l.videoDir(), "remote")
	} else {
		if err := os.MkdirAll(l.videoDir(), 0o755); err != nil {
			return nil, fmt.Errorf("[browser] video: %w", err)
		}
		dir, err := os.MkdirTemp(l.videoDir(), ".recording-")
		if err != nil {
			return nil, fmt.Errorf("[browser] video: %w", err)
		}
		rec.dir, rec.local = dir, true
	}
	rv := &playwright.RecordVideo{Dir: rec.dir}
	if s := l.cfg.VideoSize; s != nil {
		rv.Size = &playwright.Size{Width: s.Width, Height: s.Height}
	}
	opts.RecordVideo = rv
	return rec, nil
}

// recording follows a recording context: its pages (each has a video),
// in the order they opened, and where their videos are written.
type recording struct {
	dir   string
	local bool // dir is on this machine and only this context's

	mu    sync.Mutex
	pages []playwright.Page
}

func (r *recording) add(p playwright.Page) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, q := range r.pages {
		if q == p {
			return
		}
	}
	r.pages = append(r.pages, p)
}

func (r *recording) all() []playwright.Page {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]playwright.Page(nil), r.pages...)
}

// keep saves the videos of the closed context as base.webm,
// base-1.webm... in the video directory, in the order the pages opened;
// with keep false it only deletes them. It returns the saved files.
func (l *Launcher) keepVideos(rec *recording, base string, keep bool) ([]string, error) {
	name := func(n int) string {
		if n == 0 {
			return filepath.Join(l.videoDir(), base+".webm")
		}
		return filepath.Join(l.videoDir(), fmt.Sprintf("%s-%d.webm", base, n))
	}
	if rec.local {
		defer os.RemoveAll(rec.dir)
		if !keep {
			return nil, nil
		}
		// The known pages' files first, in their order, then any other
		// (a page whose video playwright-go did not hand over).
		var files []string
		seen := map[string]bool{}
		for _, p := range rec.all() {
			if path, err := p.Video().Path(); err == nil && filepath.Dir(path) == rec.dir && !seen[path] {
				files, seen[path] = append(files, path), true
			}
		}
		entries, err := os.ReadDir(rec.dir)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if path := filepath.Join(rec.dir, e.Name()); !seen[path] && filepath.Ext(path) == ".webm" {
				files = append(files, path)
			}
		}
		var saved []string
		for _, f := range files {
			to := name(len(saved))
			if err := os.Rename(f, to); err != nil {
				return saved, fmt.Errorf("keep video %s: %w", to, err)
			}
			saved = append(saved, to)
		}
		return saved, nil
	}
	var saved []string
	var errs []error
	for _, p := range rec.all() {
		v := p.Video()
		if keep {
			to := name(len(saved))
			if err := v.SaveAs(to); err != nil {
				// A page that never painted has no video: nothing to keep.
				if err.Error() != "Page did not produce any video frames" {
					errs = append(errs, fmt.Errorf("save video %s: %w", to, err))
				}
			} else {
				saved = append(saved, to)
			}
		}
		if err := v.Delete(); err != nil && !errors.Is(err, playwright.ErrTargetClosed) && err.Error() != "Page did not produce any video frames" {
			errs = append(errs, fmt.Errorf("delete a recording: %w", err))
		}
	}
	return saved, errors.Join(errs...)
}

// discardVideos deletes the recordings of a context closed unused (a
// prepared one): they show a blank page.
func (l *Launcher) discardVideos(rec *recording) {
	if _, err := l.keepVideos(rec, "", false); err != nil {
		l.debugf("discarding the videos of an unused context: %v", err)
	}
}

// FFmpeg returns the ffmpeg that encodes the videos ferridriver records
// itself (world/screencast): the one on PATH, else the one the driver's
// video recording runs (Playwright's own build, see PrepareVideo). The
// error says how to install one.
func (l *Launcher) FFmpeg(ctx context.Context) (string, error) {
	if path, err := exec.LookPath("ffmpeg"); err == nil {
		return path, nil
	}
	drv, err := l.findDriver(ctx)
	if err != nil {
		return "", err
	}
	f, err := install.EnsureFFmpeg(drv)
	if err != nil {
		return "", err
	}
	return f.Path, nil
}
