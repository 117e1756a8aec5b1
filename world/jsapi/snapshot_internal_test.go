package jsapi

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/jsbridge"
)

func testRuntime(t *testing.T, s SnapshotSettings) (*Runtime, string) {
	t.Helper()
	dir := t.TempDir()
	vm, err := jsbridge.NewVM(nil, jsbridge.VMOptions{Host: jsbridge.HostBDD, Dir: dir, Stdout: os.Stdout, Stderr: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(vm.Close)
	r := Of(vm)
	r.SetSnapshotSettings(s)
	return r, dir
}

// Baselines and outputs are named as Playwright Test names them, the
// feature file standing for the test file and the scenario for the test.
func TestSnapshotNames(t *testing.T) {
	os := runtime.GOOS
	long := strings.Repeat("a very long scenario name ", 6)
	type call struct {
		name []string
		ext  string
		// want: the baseline and the -actual output, relative to the
		// project directory
		baseline, actual string
	}
	for _, tt := range []struct {
		what     string
		settings SnapshotSettings
		tc       TestCase
		calls    []call
	}{
		{"default layout", SnapshotSettings{}, TestCase{File: "features/visual.feature", Title: "home page"}, []call{
			{nil, "png", "features/visual.feature-snapshots/home-page-1-" + os + ".png", "test-results/features-visual.feature-home-page/home-page-1-actual.png"},
			{[]string{"home.png"}, "png", "features/visual.feature-snapshots/home-" + os + ".png", "test-results/features-visual.feature-home-page/home-actual.png"},
			{nil, "txt", "features/visual.feature-snapshots/home-page-2-" + os + ".txt", "test-results/features-visual.feature-home-page/home-page-2-actual.txt"},
			// the same name again: the same baseline, numbered outputs
			{[]string{"home.png"}, "png", "features/visual.feature-snapshots/home-" + os + ".png", "test-results/features-visual.feature-home-page/home-1-actual.png"},
			{[]string{"Home Page!.v2.png"}, "png", "features/visual.feature-snapshots/Home-Page-v2-" + os + ".png", "test-results/features-visual.feature-home-page/Home-Page-v2-actual.png"},
			{[]string{"menu", "open.png"}, "png", "features/visual.feature-snapshots/menu/open-" + os + ".png", "test-results/features-visual.feature-home-page/menu/open-actual.png"},
		}},
		{"a retry, a feature at the root", SnapshotSettings{}, TestCase{File: "root.feature", Title: "a/b: c", Retry: 2}, []call{
			{[]string{"x.png"}, "png", "root.feature-snapshots/x-" + os + ".png", "test-results/root.feature-a-b-c-retry2/x-actual.png"},
		}},
		{"snapshotDir and outputDir", SnapshotSettings{Dir: "shots", OutputDir: "out"}, TestCase{File: "features/visual.feature", Title: "t"}, []call{
			{[]string{"x.png"}, "png", "shots/features/visual.feature-snapshots/x-" + os + ".png", "out/features-visual.feature-t/x-actual.png"},
		}},
		{"a template", SnapshotSettings{PathTemplate: "{testDir}/__screenshots__/{testFilePath}/{testName}/{arg}{-projectName}{-platform}{ext}"}, TestCase{File: "features/visual.feature", Title: "home page"}, []call{
			{[]string{"x.png"}, "png", "__screenshots__/features/visual.feature/home-page/x-" + os + ".png", "test-results/features-visual.feature-home-page/x-actual.png"},
		}},
		{"long titles are cut with a hash", SnapshotSettings{}, TestCase{File: "f.feature", Title: long}, []call{
			{nil, "png", "f.feature-snapshots/" + sanitizeForPath(trimLong(long+" 1", 100)) + "-" + os + ".png",
				"test-results/" + trimLong("f.feature-"+sanitizeForPath(long), 60) + "/" + sanitizeForPath(trimLong(long+" 1", 60)) + "-actual.png"},
		}},
	} {
		t.Run(tt.what, func(t *testing.T) {
			r, dir := testRuntime(t, tt.settings)
			r.BeginTestCase(tt.tc)
			for _, c := range tt.calls {
				p, err := r.snapshotPaths("toHaveScreenshot", c.name, c.ext)
				if err != nil {
					t.Fatal(err)
				}
				rel := func(s string) string { x, _ := filepath.Rel(dir, s); return filepath.ToSlash(x) }
				if rel(p.expected) != c.baseline || rel(p.actual) != c.actual {
					t.Errorf("%v: baseline %s, actual %s\nwant     %s, %s", c.name, rel(p.expected), rel(p.actual), c.baseline, c.actual)
				}
			}
		})
	}
	if len(trimLong(long, 100)) != 100 || trimLong("short", 100) != "short" {
		t.Error("trimLong")
	}
	r, _ := testRuntime(t, SnapshotSettings{})
	if _, err := r.snapshotPaths("toHaveScreenshot", nil, "png"); err == nil || !strings.Contains(err.Error(), "toHaveScreenshot() must be called during a test case") {
		t.Errorf("outside a test case: %v", err)
	}
	r.BeginTestCase(TestCase{File: "f.feature", Title: "t"})
	if _, err := r.snapshotPaths("toMatchSnapshot", []string{"..", "..", "x.txt"}, "txt"); err == nil || !strings.Contains(err.Error(), "outside of the parent directory") {
		t.Errorf("a name leaving the output folder: %v", err)
	}
}

// toMatchSnapshot per update mode, as Playwright Test: missing baselines
// are written (and fail softly), "none" writes nothing and fails,
// "changed" rewrites a baseline that does not match, "all" rewrites
// one whose bytes differ; .not passes when the value differs.
func TestToMatchSnapshotModes(t *testing.T) {
	run := func(r *Runtime, src string) (string, error) {
		v, err := r.rt.RunString(src)
		if err != nil {
			return "", err
		}
		return v.String(), nil
	}
	for _, tt := range []struct {
		mode, baseline, value string
		// want: "" passes, "soft:..." a soft failure, else a thrown error
		want, after string
	}{
		{"missing", "", "hello", "soft:A snapshot doesn't exist at ", "hello"},
		{"none", "", "hello", "A snapshot doesn't exist at ", ""},
		{"missing", "hello", "hello", "", "hello"},
		{"missing", "hello", "bye", "expect(string).toMatchSnapshot(expected)\n\n  @@ -1,1 +1,1 @@\n  -hello\n  +bye\n", "hello"},
		{"changed", "hello", "bye", "", "bye"},
		{"all", "hello", "bye", "", "bye"},
		{"all", "hello", "hello", "", "hello"},
	} {
		t.Run(tt.mode+" "+tt.baseline+" "+tt.value, func(t *testing.T) {
			r, dir := testRuntime(t, SnapshotSettings{Update: tt.mode})
			r.BeginTestCase(TestCase{File: "features/a.feature", Title: "t"})
			baseline := filepath.Join(dir, "features", "a.feature-snapshots", "g-"+runtime.GOOS+".txt")
			if tt.baseline != "" {
				if err := writeOutput(baseline, []byte(tt.baseline)); err != nil {
					t.Fatal(err)
				}
			}
			_, err := run(r, `expect(`+jsQuote(tt.value)+`).toMatchSnapshot('g.txt')`)
			got := ""
			if err != nil {
				got = err.Error()
			} else if len(r.soft) > 0 {
				got = "soft:" + r.vm.ErrorOf(r.soft[0]).Message
			}
			if tt.want == "" && got != "" || tt.want != "" && !strings.HasPrefix(strings.TrimPrefix(got, "Error: "), tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			b, _ := os.ReadFile(baseline)
			if string(b) != tt.after {
				t.Errorf("baseline %q, want %q", b, tt.after)
			}
		})
	}

	r, _ := testRuntime(t, SnapshotSettings{})
	r.BeginTestCase(TestCase{File: "a.feature", Title: "t"})
	for src, want := range map[string]string{
		`expect(Promise.resolve('x')).toMatchSnapshot()`:     "An unresolved Promise was passed to toMatchSnapshot()",
		`expect(42).toMatchSnapshot()`:                       "received value must be a Buffer or a string",
		`expect('x').toMatchSnapshot({ maxDiffPixels: -1 })`: "`maxDiffPixels` option value must be non-negative integer",
		`expect('x').not.toMatchSnapshot('n.txt')`:           "",
	} {
		if _, err := run(r, src); (err == nil) != (want == "") || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
	// Buffers: a nameless PNG is a .png compared as an image, other bytes
	// a .dat compared byte for byte.
	if _, err := run(r, `expect(Buffer.from([1, 2, 3])).toMatchSnapshot(); expect(Buffer.from([1, 2, 3])).toMatchSnapshot('t-1.dat')`); err != nil {
		t.Fatal(err)
	}
	if _, err := run(r, `expect(Buffer.from([1, 2, 4])).toMatchSnapshot('t-1.dat')`); err == nil || !strings.Contains(err.Error(), "expect(Buffer).toMatchSnapshot(expected)\n\n  Buffers differ") {
		t.Errorf("different bytes: %v", err)
	}
}

func jsQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }
