package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// probeVideo is what ffprobe says of a video file.
type probeVideo struct {
	Streams []struct {
		CodecName string `json:"codec_name"`
		Width     int    `json:"width"`
		Height    int    `json:"height"`
	} `json:"streams"`
	Format struct {
		FormatName string `json:"format_name"`
		Duration   string `json:"duration"`
	} `json:"format"`
}

func ffprobe(t *testing.T, path string) (probeVideo, float64) {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-show_entries", "stream=codec_name,width,height:format=format_name,duration",
		"-of", "json", path).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", path, err)
	}
	var p probeVideo
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatalf("ffprobe %s: %v\n%s", path, err, out)
	}
	d, _ := strconv.ParseFloat(p.Format.Duration, 64)
	return p, d
}

// videoFrame is the video's frame at second at, in grey levels.
func videoFrame(t *testing.T, path string, at float64) []byte {
	t.Helper()
	out, err := exec.Command("ffmpeg", "-v", "error", "-ss", fmt.Sprintf("%.2f", at), "-i", path, "-frames:v", "1",
		"-f", "rawvideo", "-pix_fmt", "gray", "pipe:1").Output()
	if err != nil || len(out) == 0 {
		t.Fatalf("frame at %.2f s of %s: %v", at, path, err)
	}
	return out
}

// changed is the share of the pixels that differ between two grey
// frames by more than a little (encoding noise).
func changed(a, b []byte) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 1
	}
	n := 0
	for i := range a {
		if d := int(a[i]) - int(b[i]); d > 24 || d < -24 {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// TestMCPVideo records a session with @playwright/mcp's devtools video
// tools through the binary: the WebM has the size asked for and lasts
// the wall time, the chapter card and the tab the agent switched to are
// in its frames, the action callouts are on the page during the actions,
// a filename out of the project is refused, and a video left running is
// finished when the client goes.
func TestMCPVideo(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"ffmpeg", "ffprobe"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s (scripts/setup-browser.sh installs Debian's ffmpeg)", tool)
		}
	}
	dir := browserProject(t)
	outside := t.TempDir()
	for link, to := range map[string]string{"away": outside, "link.webm": filepath.Join(outside, "x.webm")} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	cs, stderr := mcpClient(t, dir, nil, "--caps", "devtools")

	login := callOK(t, cs, "browser_navigate", map[string]any{"url": "/login"})
	for _, c := range []struct{ filename, want string }{
		{"../escape.webm", "must be relative and inside the project directory"},
		{"away/v.webm", "leads out of the project directory"},
		{"link.webm", "is a symbolic link: not written through"},
	} {
		res := mcpCall(t, cs, "browser_start_video", map[string]any{"filename": c.filename})
		if !res.IsError || !strings.Contains(resultText(res, 0), c.want) {
			t.Errorf("start_video %s: want refused with %q, got %s", c.filename, c.want, resultText(res, 0))
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		t.Errorf("a refused video wrote %v outside the project", entries)
	}

	startAt := time.Now()
	started := callOK(t, cs, "browser_start_video", map[string]any{"filename": "videos/demo.webm", "size": map[string]any{"width": 640, "height": 360}, "fps": 25})
	began := time.Now()
	if !strings.Contains(started, "videos/demo.webm (640x360)") {
		t.Errorf("start_video: %s", started)
	}
	at := func() float64 { return time.Since(began).Seconds() }
	callOK(t, cs, "browser_type", map[string]any{"ref": refOf(t, login, "textbox", "Username"), "text": "demo"})
	callOK(t, cs, "browser_type", map[string]any{"ref": refOf(t, login, "textbox", "Password"), "text": "secret"})
	callOK(t, cs, "browser_click", map[string]any{"ref": refOf(t, login, "button", "Log in")})
	time.Sleep(300 * time.Millisecond)
	beforeChapter := at()
	callOK(t, cs, "browser_video_chapter", map[string]any{"title": "Chapter one", "description": "Logged in", "duration": 1200})
	afterChapter := at()

	todo := callOK(t, cs, "browser_navigate", map[string]any{"url": "/todo.html"})
	callOK(t, cs, "browser_video_show_actions", map[string]any{"duration": 400, "position": "bottom-left",
		"style": map[string]any{"highlight": "outline: 3px solid rgb(255, 0, 0)", "point": "width: 16px; height: 16px; background: red", "title": "font-size: 18px"}})
	// The page keeps what the decorations put in it, to be read after.
	callOK(t, cs, "browser_evaluate", map[string]any{"function": `() => { window.__seen = [];
	  const added = new Map();
	  new MutationObserver(ms => { for (const m of ms) {
	    for (const n of m.addedNodes)
	      if (n.nodeType === 1 && (n.hasAttribute('data-ferridriver-action') || n.hasAttribute('data-ferridriver-pointer')))
	        window.__seen.push(n.outerHTML), added.set(n, performance.now());
	    for (const n of m.removedNodes)
	      if (added.has(n) && n.textContent) window.__seen.push('shown ' + Math.round(performance.now() - added.get(n)) + ' ms') } })
	    .observe(document.documentElement, { childList: true }) }`})
	typed := callOK(t, cs, "browser_type", map[string]any{"ref": refOf(t, todo, "textbox", "New todo"), "text": "Film it", "submit": true})
	if strings.Contains(typed, "Film it") && strings.Contains(typed, "data-ferridriver") {
		t.Errorf("the decorations show in the snapshot:\n%s", typed)
	}
	time.Sleep(500 * time.Millisecond) // the callout has gone
	seen := callOK(t, cs, "browser_evaluate", map[string]any{"function": "() => JSON.stringify(window.__seen)"})
	if m := regexp.MustCompile(`shown (\d+) ms`).FindStringSubmatch(seen); m == nil {
		t.Errorf("the callout was not removed: %s", seen)
	} else if ms, _ := strconv.Atoi(m[1]); ms < 400 {
		t.Errorf("the callout showed %d ms, want its duration, 400 ms", ms)
	}
	for _, want := range []string{`Fill \\\"New todo\\\"`, "font: 600 18px", "outline: rgb(255, 0, 0) solid 3px", "bottom: 16px", "background: red", "data-ferridriver-pointer"} {
		if !strings.Contains(seen, want) {
			t.Errorf("during the action the page did not get %s: %s", want, seen)
		}
	}
	callOK(t, cs, "browser_video_hide_actions", nil)
	callOK(t, cs, "browser_evaluate", map[string]any{"function": "() => { window.__seen = [] }"})
	callOK(t, cs, "browser_press_key", map[string]any{"key": "Tab"})
	if s := callOK(t, cs, "browser_evaluate", map[string]any{"function": "() => JSON.stringify(window.__seen)"}); strings.Contains(s, "Press") {
		t.Errorf("after hide_actions an action was still annotated: %s", s)
	}
	beforeTab := at()
	callOK(t, cs, "browser_tabs", map[string]any{"action": "new", "url": "/catalogue.html"})
	afterTab := at()
	time.Sleep(time.Second)
	stopAt := time.Now()
	stopped := callOK(t, cs, "browser_stop_video", nil)
	stopEnd := time.Now()
	if !strings.Contains(stopped, "Saved to videos/demo.webm (") {
		t.Errorf("stop_video: %s", stopped)
	}

	path := filepath.Join(dir, "videos", "demo.webm")
	p, dur := ffprobe(t, path)
	if len(p.Streams) != 1 || p.Streams[0].CodecName != "vp8" || p.Streams[0].Width != 640 || p.Streams[0].Height != 360 || !strings.Contains(p.Format.FormatName, "webm") {
		t.Errorf("want one VP8 640x360 stream in WebM: %+v", p)
	}
	lo, hi := stopAt.Sub(began).Seconds()-0.5, stopEnd.Sub(startAt).Seconds()+0.5
	if dur < lo || dur > hi {
		t.Errorf("video lasts %.2f s, want the wall time, %.2f-%.2f s", dur, lo, hi)
	}
	t.Logf("video: %.2f s (wall %.2f-%.2f s), %s", dur, lo+0.5, hi-0.5, stopped)

	before, during := videoFrame(t, path, beforeChapter-0.2), videoFrame(t, path, (beforeChapter+afterChapter)/2)
	chapter := changed(before, during)
	if chapter < 0.5 {
		t.Errorf("the chapter card is not in the video: %.1f%% of the frame changed", chapter*100)
	}
	oldTab, newTab := videoFrame(t, path, beforeTab-0.2), videoFrame(t, path, afterTab+0.6)
	tab := changed(oldTab, newTab)
	if tab < 0.02 {
		t.Errorf("the video did not follow the new tab: %.1f%% of the frame changed", tab*100)
	}
	t.Logf("pixels changed: by the chapter card %.1f%%, by the switch to the new tab %.1f%%", chapter*100, tab*100)

	// With cursor, an action waits for the pointer to travel to it; the
	// default size is the viewport fitted to 800x800. A video left
	// running is finished when the client goes.
	left := callOK(t, cs, "browser_start_video", map[string]any{"filename": "left.webm", "cursor": true})
	size := regexp.MustCompile(`\((\d+)x(\d+)\)`).FindStringSubmatch(left)
	if size == nil {
		t.Fatalf("start_video: %s", left)
	}
	hoverAt := time.Now()
	callOK(t, cs, "browser_hover", map[string]any{"target": "h1"})
	if took := time.Since(hoverAt); took < 800*time.Millisecond {
		t.Errorf("with cursor, a hover took %v: want it paced by 800 ms", took)
	}
	if s := callOK(t, cs, "browser_evaluate", map[string]any{"function": "() => !!document.querySelector('[data-ferridriver-pointer]')"}); !strings.Contains(s, "true") {
		t.Errorf("with cursor, no pointer on the page: %s", s)
	}
	// Close ends stdio, then waits for the server to exit.
	_ = cs.Close()
	p, d := ffprobe(t, filepath.Join(dir, "left.webm"))
	if d <= 0 || len(p.Streams) != 1 || fmt.Sprint(p.Streams[0].Width) != size[1] || fmt.Sprint(p.Streams[0].Height) != size[2] || p.Streams[0].Width > 800 {
		t.Errorf("the video left running: %+v, %v s; want %sx%s, within 800x800\n%s", p, d, size[1], size[2], stderr.String())
	}
	if parts, _ := filepath.Glob(filepath.Join(dir, ".video-*")); len(parts) > 0 {
		t.Errorf("temporary files left: %v", parts)
	}
}
