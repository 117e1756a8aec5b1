package install

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Video recording (recordVideo, [browser] video) runs an ffmpeg that the
// Playwright driver looks for at one place only: the ffmpeg build of its
// own browser registry, <ms-playwright>/ffmpeg-<revision>/ffmpeg-linux
// (revision from the driver's browsers.json). Playwright downloads that
// build from a CDN that closed networks cannot reach; Debian's ffmpeg
// package encodes the same VP8 WebM, so ferridriver puts a small wrapper
// script at that path that runs the system's ffmpeg.

// FFmpeg is the ffmpeg the driver records videos with.
type FFmpeg struct {
	// Path is where the driver looks for it.
	Path string
	// Target is the system ffmpeg that the wrapper at Path runs; "" when
	// Path is Playwright's own build.
	Target string
	// Written says this call wrote the wrapper.
	Written bool
	// Version is the first line of `ffmpeg -version` (empty until
	// LookupVersion).
	Version string
}

// MissingFFmpegError says video recording cannot work and how to fix it.
type MissingFFmpegError struct {
	Path string // where the driver looks
	Fix  string
}

func (e *MissingFFmpegError) Error() string {
	return fmt.Sprintf("no ffmpeg at %s and none on PATH: video recording (recordVideo, [browser] video) needs it. Fix: %s", e.Path, e.Fix)
}

// wrapperMark identifies the wrapper scripts ferridriver writes.
const wrapperMark = "# ferridriver: Playwright's video recorder runs this ffmpeg"

// FFmpegPath returns where driver's Playwright looks for ffmpeg: the
// ffmpeg revision of its browsers.json, in Playwright's browser registry
// ($PLAYWRIGHT_BROWSERS_PATH, else the platform cache directory +
// ms-playwright, as the driver computes it).
func FFmpegPath(driver *Driver) (string, error) {
	raw, err := os.ReadFile(filepath.Join(driver.Dir, "package", "browsers.json"))
	if err != nil {
		return "", fmt.Errorf("the driver's browsers.json: %w", err)
	}
	var doc struct {
		Browsers []struct {
			Name     string `json:"name"`
			Revision string `json:"revision"`
		} `json:"browsers"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return "", fmt.Errorf("the driver's browsers.json: %w", err)
	}
	rev := ""
	for _, b := range doc.Browsers {
		if b.Name == "ffmpeg" {
			rev = b.Revision
		}
	}
	if rev == "" {
		return "", errors.New("the driver's browsers.json names no ffmpeg revision")
	}
	var exe string
	switch runtime.GOOS {
	case "linux":
		exe = "ffmpeg-linux"
	case "darwin":
		exe = "ffmpeg-mac"
	default:
		return "", fmt.Errorf("video recording with a system ffmpeg is not supported on %s: run `npx playwright@%s install ffmpeg`", runtime.GOOS, DriverVersion)
	}
	dirs := playwrightBrowserDirs()
	if len(dirs) == 0 {
		return "", errors.New("no home directory to find Playwright's browser registry in: set PLAYWRIGHT_BROWSERS_PATH")
	}
	root, err := filepath.Abs(dirs[0])
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "ffmpeg-"+rev, exe), nil
}

// EnsureFFmpeg makes sure the driver finds an ffmpeg: Playwright's own
// build, or a wrapper of the ffmpeg on PATH, which it writes (atomically)
// if it is missing or runs an ffmpeg that is gone. The error is a
// *MissingFFmpegError when there is no ffmpeg at all. It runs nothing.
func EnsureFFmpeg(driver *Driver) (*FFmpeg, error) {
	path, err := FFmpegPath(driver)
	if err != nil {
		return nil, err
	}
	f := &FFmpeg{Path: path}
	target, ours := wrapperTarget(path)
	if !ours && checkExecutable(path) == nil {
		return f, nil // Playwright's own build
	}
	if ours && checkExecutable(target) == nil {
		f.Target = target
		return f, nil
	}
	sys, err := exec.LookPath("ffmpeg")
	if err == nil {
		sys, err = filepath.Abs(sys)
	}
	if err != nil {
		fix := "install ffmpeg (Debian/Ubuntu, as root: apt-get install -y ffmpeg), then run `ferridriver install`"
		if runtime.GOOS == "darwin" {
			fix = "brew install ffmpeg, then run `ferridriver install`"
		}
		return nil, &MissingFFmpegError{Path: path, Fix: fix}
	}
	if err := writeWrapper(path, sys); err != nil {
		return nil, fmt.Errorf("write the ffmpeg wrapper %s: %w", path, err)
	}
	f.Target, f.Written = sys, true
	return f, nil
}

// wrapperTarget reads the ffmpeg that a wrapper written by ferridriver at
// path runs; ours is false when path is not such a wrapper.
func wrapperTarget(path string) (target string, ours bool) {
	raw, err := os.ReadFile(path)
	if err != nil || len(raw) > 4096 || !strings.Contains(string(raw), wrapperMark) {
		return "", false
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "exec "); ok {
			if fields := strings.Fields(rest); len(fields) > 0 {
				return strings.Trim(fields[0], `'`), true
			}
		}
	}
	return "", true
}

// writeWrapper writes, through a temporary file renamed into place, a
// shell script at path that runs target with its arguments.
func writeWrapper(path, target string) error {
	if strings.ContainsAny(target, "'\n") {
		return fmt.Errorf("cannot quote %q in a shell script", target)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	script := "#!/bin/sh\n" + wrapperMark + " (written by ferridriver;\n" +
		"# Playwright looks for its own ffmpeg build here).\n" +
		"exec '" + target + "' \"$@\"\n"
	tmp, err := os.CreateTemp(filepath.Dir(path), ".ffmpeg-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(script); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o755); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// LookupVersion runs `ffmpeg -version` through Path and keeps its first
// line's version.
func (f *FFmpeg) LookupVersion(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, f.Path, "-version").Output()
	if err != nil {
		return fmt.Errorf("run %s -version: %w", f.Path, err)
	}
	first, _, _ := strings.Cut(string(out), "\n")
	first, _, _ = strings.Cut(first, " Copyright")
	f.Version = strings.TrimSpace(first)
	return nil
}

// describe is the report's account of f.
func (f *FFmpeg) describe() string {
	s := f.Path
	switch {
	case f.Target == "":
		s += " (Playwright's build)"
	case f.Written:
		s += " (wrapper of " + f.Target + ", written now)"
	default:
		s += " (wrapper of " + f.Target + ")"
	}
	if f.Version != "" {
		s += ": " + f.Version
	}
	return s
}
