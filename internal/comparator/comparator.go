// Package comparator compares a snapshot's actual value with its expected
// one as Playwright's comparators do (toHaveScreenshot, toMatchSnapshot):
// images pixel by pixel with pixelmatch, text line by line, anything else
// byte for byte. A difference is reported in Playwright's words ("2304
// pixels (ratio 0.01 of all image pixels) are different."), with a diff
// image for images.
package comparator

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/orisano/pixelmatch"
	"github.com/pmezard/go-difflib/difflib"
)

// DefaultThreshold is pixelmatch's threshold when Options.Threshold is
// nil, as in Playwright.
const DefaultThreshold = 0.2

// Options tune an image comparison (Playwright's option names).
type Options struct {
	// Threshold is the colour distance (0 to 1, in the YIQ space) above
	// which two pixels differ; nil = DefaultThreshold.
	Threshold *float64
	// MaxDiffPixels and MaxDiffPixelRatio are how many different pixels
	// are acceptable (nil = not set; both set: the stricter one; neither:
	// none).
	MaxDiffPixels     *int
	MaxDiffPixelRatio *float64
}

// Validate reports options out of range, in Playwright's words.
func (o Options) Validate() error {
	if o.MaxDiffPixels != nil && *o.MaxDiffPixels < 0 {
		return errors.New("`maxDiffPixels` option value must be non-negative integer")
	}
	if r := o.MaxDiffPixelRatio; r != nil && (*r < 0 || *r > 1) {
		return errors.New("`maxDiffPixelRatio` option value must be between 0 and 1")
	}
	return nil
}

// Result is a difference; nil results mean the values match.
type Result struct {
	// Message says how the values differ.
	Message string
	// Diff is a PNG showing the differing pixels in red over the
	// expected image (images only).
	Diff []byte
	// Pixels is how many pixels differ (images only).
	Pixels int
}

// For returns the comparator of a snapshot's media type: images
// (image/png, image/jpeg), text (text/plain), or bytes (anything else:
// strings are still compared as text).
func For(mediaType string) func(actual, expected []byte, isText bool, o Options) (*Result, error) {
	switch mediaType {
	case "image/png", "image/jpeg":
		return func(actual, expected []byte, _ bool, o Options) (*Result, error) {
			return Images(mediaType, actual, expected, o)
		}
	case "text/plain":
		return func(actual, expected []byte, _ bool, _ Options) (*Result, error) {
			return Text(string(actual), string(expected)), nil
		}
	}
	return func(actual, expected []byte, isText bool, _ Options) (*Result, error) {
		if isText {
			return Text(string(actual), string(expected)), nil
		}
		if !bytes.Equal(actual, expected) {
			return &Result{Message: "Buffers differ"}, nil
		}
		return nil, nil
	}
}

// Images compares two PNG (or JPEG) images. Images of different sizes
// are compared on the larger size, each padded with transparent black,
// and the size difference is reported first. The error is for an
// expected image that cannot be decoded.
func Images(mediaType string, actual, expected []byte, o Options) (*Result, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	exp, err := decode(mediaType, expected)
	if err != nil {
		return nil, err
	}
	act, err := decode(mediaType, actual)
	if err != nil {
		return &Result{Message: "Actual result should be a valid " + strings.TrimPrefix(mediaType, "image/") + " image: " + err.Error()}, nil
	}
	w, h := max(exp.w, act.w), max(exp.h, act.h)
	sizes := ""
	if exp.w != act.w || exp.h != act.h {
		sizes = fmt.Sprintf("Expected an image %dpx by %dpx, received %dpx by %dpx. ", exp.w, exp.h, act.w, act.h)
	}
	threshold := DefaultThreshold
	if o.Threshold != nil {
		threshold = *o.Threshold
	}
	// Playwright passes the expected image first: the diff is drawn
	// over it.
	var out image.Image
	count, err := pixelmatch.MatchPixel(exp.padded(w, h), act.padded(w, h), pixelmatch.Threshold(threshold), pixelmatch.WriteTo(&out))
	if err != nil {
		return nil, err
	}
	// Limits and ratio are of the compared (padded) size, as Playwright's.
	area := float64(w * h)
	allowed := 0.0
	switch {
	case o.MaxDiffPixels != nil && o.MaxDiffPixelRatio != nil:
		allowed = math.Min(float64(*o.MaxDiffPixels), area**o.MaxDiffPixelRatio)
	case o.MaxDiffPixels != nil:
		allowed = float64(*o.MaxDiffPixels)
	case o.MaxDiffPixelRatio != nil:
		allowed = area * *o.MaxDiffPixelRatio
	}
	pixels := ""
	if float64(count) > allowed {
		ratio := math.Ceil(float64(count)/area*100) / 100
		pixels = fmt.Sprintf("%d pixels (ratio %.2f of all image pixels) are different.", count, ratio)
	}
	if sizes == "" && pixels == "" {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, opaque(out)); err != nil {
		return nil, err
	}
	return &Result{Message: sizes + pixels, Diff: buf.Bytes(), Pixels: count}, nil
}

// pixels is a decoded image's straight (not premultiplied) RGBA bytes,
// as Playwright's PNG reader gives them.
type pixels struct {
	w, h int
	rgba []byte
}

func decode(mediaType string, data []byte) (*pixels, error) {
	var img image.Image
	var err error
	if mediaType == "image/jpeg" {
		if len(data) < 2 || data[0] != 0xff || data[1] != 0xd8 {
			return nil, errors.New("could not decode image as JPEG.")
		}
		img, err = jpeg.Decode(bytes.NewReader(data))
	} else {
		if len(data) < 8 || !bytes.Equal(data[:8], []byte("\x89PNG\r\n\x1a\n")) {
			return nil, errors.New("could not decode image as PNG.")
		}
		img, err = png.Decode(bytes.NewReader(data))
	}
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	p := &pixels{w: b.Dx(), h: b.Dy(), rgba: make([]byte, 4*b.Dx()*b.Dy())}
	for y := 0; y < p.h; y++ {
		for x := 0; x < p.w; x++ {
			c := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
			i := 4 * (y*p.w + x)
			p.rgba[i], p.rgba[i+1], p.rgba[i+2], p.rgba[i+3] = c.R, c.G, c.B, c.A
		}
	}
	return p, nil
}

// padded is p on a w x h canvas (padding transparent black), in the form
// the pixelmatch port reads as JavaScript's pixelmatch reads its bytes:
// it takes 16-bit channels as they are and divides them by 256, so each
// straight 8-bit channel v is given as v<<8 (an RGBA64 image, whose
// channels the port does not convert).
func (p *pixels) padded(w, h int) *image.RGBA64 {
	img := image.NewRGBA64(image.Rect(0, 0, w, h))
	for y := 0; y < p.h; y++ {
		for x := 0; x < p.w; x++ {
			src := p.rgba[4*(y*p.w+x):]
			dst := img.Pix[img.PixOffset(x, y):]
			for c := 0; c < 4; c++ {
				dst[2*c], dst[2*c+1] = src[c], 0
			}
		}
	}
	return img
}

// opaque is the diff image as Playwright writes it: every pixel opaque.
func opaque(img image.Image) image.Image {
	rgba, ok := img.(*image.RGBA)
	if !ok {
		return img
	}
	for i := 3; i < len(rgba.Pix); i += 4 {
		rgba.Pix[i] = 0xff
	}
	return rgba
}

// Text compares two strings; the message is a unified diff of their lines
// (five lines of context), as Playwright prints it: "-" lines are
// expected, "+" lines actual.
func Text(actual, expected string) *Result {
	if actual == expected {
		return nil
	}
	if !strings.HasSuffix(actual, "\n") {
		actual += "\n"
	}
	if !strings.HasSuffix(expected, "\n") {
		expected += "\n"
	}
	diff, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: lines(expected), B: lines(actual), Context: 5,
	})
	// Playwright drops the patch's file header lines, and its hunk
	// headers always give both start and length.
	lines := strings.Split(diff, "\n")
	for len(lines) > 0 && (strings.HasPrefix(lines[0], "---") || strings.HasPrefix(lines[0], "+++")) {
		lines = lines[1:]
	}
	for i, l := range lines {
		if m := hunkHeader.FindStringSubmatch(l); m != nil {
			lines[i] = "@@ -" + hunkRange(m[1], m[2]) + " +" + hunkRange(m[3], m[4]) + " @@"
		}
	}
	return &Result{Message: strings.Join(lines, "\n")}
}

// lines splits s (which ends with a newline) into lines that keep theirs.
func lines(s string) []string {
	l := strings.SplitAfter(s, "\n")
	return l[:len(l)-1]
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$`)

// hunkRange is a hunk header's range as jsdiff writes it: "start,length"
// (difflib leaves out a length of 1, and starts an empty range one line
// earlier).
func hunkRange(start, length string) string {
	if length == "" {
		return start + ",1"
	}
	if length == "0" {
		n, _ := strconv.Atoi(start)
		return strconv.Itoa(n+1) + ",0"
	}
	return start + "," + length
}
