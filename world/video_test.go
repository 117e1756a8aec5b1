//go:build linux

package world

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// [browser] video = retain-on-failure: a failed test case keeps a video
// of each of its pages (the popup too) in outputDir/videos under the
// test case's name; a passed one keeps none, and leaves no recording
// behind; a prepared context closed unused leaves none either.
func TestVideoRetainOnFailure(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demo(t)
	out := t.TempDir()
	l := newLauncher(t, Config{BaseURL: base, Video: ModeRetainOnFailure, VideoSize: &Viewport{Width: 320, Height: 240}, Screenshot: ModeOff, OutputDir: out}, Options{AutoPrewarm: true})
	ctx := context.Background()
	for _, failed := range []bool{true, false} {
		s := l.NewSession(0, "the scenario: "+map[bool]string{true: "failed", false: "passed"}[failed])
		p, err := s.Page(ctx)
		if err != nil {
			t.Fatal(err)
		}
		mustGoto(t, p, "/popup.html")
		if failed {
			popup, err := p.ExpectPopup(func() error {
				return p.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Open popup"}).Click()
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := popup.WaitForLoadState(); err != nil {
				t.Fatal(err)
			}
			// A page recorded for no time has no frames, hence no video.
			time.Sleep(500 * time.Millisecond)
		}
		art, err := s.Close(failed)
		if err != nil {
			t.Fatal(err)
		}
		if !failed {
			if len(art.Videos) != 0 {
				t.Errorf("passed: videos kept %v", art.Videos)
			}
			continue
		}
		if len(art.Videos) != 2 {
			t.Fatalf("failed: videos %v, want the page's and the popup's", art.Videos)
		}
		first := strings.TrimSuffix(art.Videos[0], ".webm")
		if filepath.Dir(first) != filepath.Join(out, "videos") || !strings.HasPrefix(filepath.Base(first), "the-scenario-failed-w0-") || art.Videos[1] != first+"-1.webm" {
			t.Errorf("videos %v", art.Videos)
		}
		for _, v := range art.Videos {
			b, err := os.ReadFile(v)
			if err != nil || len(b) < 100 || string(b[:4]) != "\x1a\x45\xdf\xa3" {
				t.Errorf("%s is not a WebM video (%d bytes, %v)", v, len(b), err)
			}
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join(out, "videos"))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 2 {
		t.Errorf("outputDir/videos holds %v, want only the failed test case's two videos", names)
	}
}
