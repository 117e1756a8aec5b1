package screencast

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

func needFFmpeg(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Skip("no ffmpeg (scripts/setup-browser.sh installs Debian's)")
	}
	if _, err := exec.LookPath("ffprobe"); err != nil {
		t.Skip("no ffprobe")
	}
	return path
}

func solid(t *testing.T, w, h int, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pixel is the video's colour at second at, at (x, y).
func pixel(t *testing.T, path string, at float64, x, y, w int) [3]byte {
	t.Helper()
	out, err := exec.Command("ffmpeg", "-v", "error", "-ss", strconv.FormatFloat(at, 'f', 2, 64), "-i", path, "-frames:v", "1",
		"-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1").Output()
	if err != nil {
		t.Fatalf("frame at %v: %v", at, err)
	}
	i := (y*w + x) * 3
	return [3]byte{out[i], out[i+1], out[i+2]}
}

func near(p [3]byte, r, g, b int) bool {
	d := func(a byte, b int) bool { return int(a)-b < 40 && b-int(a) < 40 }
	return d(p[0], r) && d(p[1], g) && d(p[2], b)
}

// TestTimeline: each picture fills the frames from its time to the next
// picture's, the last to the stop; pictures within one frame are
// dropped; smaller pictures are padded to the video's size.
func TestTimeline(t *testing.T) {
	ffmpeg := needFFmpeg(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "v.webm")
	r, err := Start(Options{FFmpeg: ffmpeg, Path: path, Width: 320, Height: 180, FPS: 25})
	if err != nil {
		t.Fatal(err)
	}
	red, green, blue := solid(t, 320, 180, color.RGBA{220, 20, 20, 255}), solid(t, 320, 180, color.RGBA{20, 200, 20, 255}), solid(t, 160, 90, color.RGBA{20, 20, 220, 255})
	at := func(ms int) time.Time { return r.began.Add(time.Duration(ms) * time.Millisecond) }
	r.addAt(red, at(0))
	r.addAt(green, at(400))
	r.addAt(red, at(410)) // same frame as green: green is dropped
	r.addAt(blue, at(600))
	res, err := r.stopAt(at(1000))
	if err != nil {
		t.Fatal(err)
	}
	if res.Frames != 26 || res.Pictures != 4 || res.Duration != 1040*time.Millisecond {
		t.Errorf("result %+v: want 26 frames (1.04 s) of 4 pictures", res)
	}
	out, err := exec.Command("ffprobe", "-v", "error", "-show_entries", "stream=codec_name,width,height:format=duration", "-of", "json", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Streams []struct {
			CodecName     string `json:"codec_name"`
			Width, Height int
		} `json:"streams"`
		Format struct{ Duration string } `json:"format"`
	}
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatal(err)
	}
	d, _ := strconv.ParseFloat(p.Format.Duration, 64)
	if len(p.Streams) != 1 || p.Streams[0].CodecName != "vp8" || p.Streams[0].Width != 320 || p.Streams[0].Height != 180 || d < 0.95 || d > 1.1 {
		t.Errorf("ffprobe: %s", out)
	}
	for _, c := range []struct {
		at      float64
		x, y    int
		r, g, b int
	}{
		{0.2, 160, 90, 220, 20, 20},
		{0.5, 160, 90, 220, 20, 20}, // green dropped
		{0.8, 160, 90, 20, 20, 220},
		{0.8, 10, 10, 0x20, 0x20, 0x20}, // padding around the smaller picture
	} {
		if got := pixel(t, path, c.at, c.x, c.y, 320); !near(got, c.r, c.g, c.b) {
			t.Errorf("at %.1f s (%d,%d): %v, want about %d,%d,%d", c.at, c.x, c.y, got, c.r, c.g, c.b)
		}
	}
	if parts, _ := filepath.Glob(filepath.Join(dir, ".video-*")); len(parts) > 0 {
		t.Errorf("temporary files left: %v", parts)
	}
}

// TestNoPicture: a video without a single picture is an error, and
// leaves no file.
func TestNoPicture(t *testing.T) {
	ffmpeg := needFFmpeg(t)
	dir := t.TempDir()
	r, err := Start(Options{FFmpeg: ffmpeg, Path: filepath.Join(dir, "v.webm"), Width: 64, Height: 64})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Stop(); err == nil {
		t.Error("want an error for a video without pictures")
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("files left: %v", entries)
	}
	if _, err := r.Stop(); err == nil {
		t.Error("a second Stop: want an error")
	}
}
