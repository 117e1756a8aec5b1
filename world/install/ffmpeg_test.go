package install

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeDriver is a driver directory whose browsers.json names ffmpeg
// revision rev.
func fakeDriver(t *testing.T, rev string) *Driver {
	t.Helper()
	dir := t.TempDir()
	pkg := filepath.Join(dir, "package")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	doc := `{"browsers":[{"name":"chromium","revision":"1169"},{"name":"ffmpeg","revision":"` + rev + `","installByDefault":true}]}`
	if err := os.WriteFile(filepath.Join(pkg, "browsers.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return &Driver{Dir: dir, Version: DriverVersion}
}

// fakeFFmpeg writes an executable named ffmpeg in a new directory that
// prints version on -version, and returns that directory.
func fakeFFmpeg(t *testing.T, version string) string {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\necho \"ffmpeg version " + version + " Copyright (c) the FFmpeg developers\"\necho \"args: $*\" >&2\n"
	if err := os.WriteFile(filepath.Join(dir, "ffmpeg"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestEnsureFFmpegWritesAWrapperWhereTheDriverLooks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the wrapper is a shell script for Linux")
	}
	registry := t.TempDir()
	t.Setenv("PLAYWRIGHT_BROWSERS_PATH", registry)
	drv := fakeDriver(t, "1011")
	want := filepath.Join(registry, "ffmpeg-1011", "ffmpeg-linux")

	// No ffmpeg anywhere: a MissingFFmpegError with the fix.
	t.Setenv("PATH", t.TempDir())
	_, err := EnsureFFmpeg(drv)
	var missing *MissingFFmpegError
	if !errors.As(err, &missing) || missing.Path != want || !strings.Contains(err.Error(), "apt-get install -y ffmpeg") {
		t.Fatalf("no ffmpeg: %v", err)
	}

	// A system ffmpeg: the wrapper runs it, and says so in the report.
	sys := fakeFFmpeg(t, "5.1.9-test")
	t.Setenv("PATH", sys)
	f, err := EnsureFFmpeg(drv)
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != want || f.Target != filepath.Join(sys, "ffmpeg") || !f.Written {
		t.Fatalf("first call: %+v", f)
	}
	if err := f.LookupVersion(t.Context()); err != nil || f.Version != "ffmpeg version 5.1.9-test" {
		t.Fatalf("version %q, %v", f.Version, err)
	}
	out, err := exec.Command(want, "-i", "pipe:0", "out file.webm").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "args: -i pipe:0 out file.webm") {
		t.Fatalf("the wrapper does not pass its arguments: %v\n%s", err, out)
	}

	// Idempotent: the second call writes nothing.
	f, err = EnsureFFmpeg(drv)
	if err != nil || f.Written || f.Target != filepath.Join(sys, "ffmpeg") {
		t.Fatalf("second call: %+v, %v", f, err)
	}
	var b strings.Builder
	if _, err := (&Report{FFmpeg: f}).WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if line := "ffmpeg   ok       " + want + " (wrapper of " + filepath.Join(sys, "ffmpeg") + ")"; !strings.Contains(b.String(), line) {
		t.Errorf("report %q lacks %q", b.String(), line)
	}

	// The ffmpeg it ran is gone and another is on PATH: rewritten.
	if err := os.Remove(filepath.Join(sys, "ffmpeg")); err != nil {
		t.Fatal(err)
	}
	other := fakeFFmpeg(t, "6.0")
	t.Setenv("PATH", other)
	if f, err = EnsureFFmpeg(drv); err != nil || !f.Written || f.Target != filepath.Join(other, "ffmpeg") {
		t.Fatalf("after the target went away: %+v, %v", f, err)
	}

	// Playwright's own build is left alone.
	own := fakeDriver(t, "2000")
	build := filepath.Join(registry, "ffmpeg-2000", "ffmpeg-linux")
	if err := os.MkdirAll(filepath.Dir(build), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(build, []byte("\x7fELF"), 0o755); err != nil {
		t.Fatal(err)
	}
	if f, err = EnsureFFmpeg(own); err != nil || f.Target != "" || f.Written {
		t.Fatalf("Playwright's build: %+v, %v", f, err)
	}
	if raw, _ := os.ReadFile(build); string(raw) != "\x7fELF" {
		t.Error("Playwright's build was overwritten")
	}
}

// The registry the driver uses: PLAYWRIGHT_BROWSERS_PATH, else
// XDG_CACHE_HOME/ms-playwright, else ~/.cache/ms-playwright (what
// playwright-core 1.52's registry computes on Linux).
func TestFFmpegPathFollowsTheDriversRegistry(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux paths")
	}
	drv := fakeDriver(t, "1011")
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, tt := range []struct{ browsers, xdg, want string }{
		{"/opt/pw", "/x", "/opt/pw/ffmpeg-1011/ffmpeg-linux"},
		{"", "/x", "/x/ms-playwright/ffmpeg-1011/ffmpeg-linux"},
		{"", "", filepath.Join(home, ".cache/ms-playwright/ffmpeg-1011/ffmpeg-linux")},
	} {
		t.Setenv("PLAYWRIGHT_BROWSERS_PATH", tt.browsers)
		t.Setenv("XDG_CACHE_HOME", tt.xdg)
		if got, err := FFmpegPath(drv); err != nil || got != tt.want {
			t.Errorf("PLAYWRIGHT_BROWSERS_PATH=%q XDG_CACHE_HOME=%q: %q, %v; want %q", tt.browsers, tt.xdg, got, err, tt.want)
		}
	}
}
