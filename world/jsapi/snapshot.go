package jsapi

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	"github.com/dop251/goja"
)

// Visual comparisons, as Playwright Test makes them:
// expect(page|locator).toHaveScreenshot(name?, options) and
// expect(value).toMatchSnapshot(name?, options) compare with a baseline
// file named by Playwright's rules, whose default layout is
// {snapshotDir}/{testFileDir}/{testFileName}-snapshots/{arg}{-projectName}{-snapshotSuffix}{ext}.
// In a bdd run the test file is the feature file, the test's title the
// scenario's name, the test directory (and snapshotDir by default) the
// project directory, and there is no project name: the baseline of
// toHaveScreenshot('home.png') in features/visual.feature is
// features/visual.feature-snapshots/home-linux.png. What a failed
// comparison produces (-actual, -diff, -previous and -expected images)
// goes to the test case's folder in outputDir, as Playwright's test
// output folder, and is attached to the step.
//
// This file holds the settings, the names and paths; screenshot.go the
// matchers.

// SnapshotSettings are a run's settings of visual comparisons (Playwright
// Test's config names).
type SnapshotSettings struct {
	// Update is updateSnapshots: "missing" (the default: write missing
	// baselines, and fail), "all", "changed" or "none".
	Update string
	// Dir is snapshotDir ("" = TestDir); relative to TestDir.
	Dir string
	// PathTemplate is snapshotPathTemplate ("" = Playwright's default).
	PathTemplate string
	// TestDir is {testDir}, which feature paths are relative to ("" = the
	// VM's project directory).
	TestDir string
	// OutputDir receives a failed comparison's images ("" =
	// test-results in TestDir).
	OutputDir string
}

// UpdateModes are the values of SnapshotSettings.Update.
var UpdateModes = []string{"all", "changed", "missing", "none"}

// TestCase is what snapshot names need of the running test case.
type TestCase struct {
	// File is the feature file (absolute, or relative to the TestDir).
	File string
	// Title is the scenario's name.
	Title string
	// Retry is the attempt (0 for the first).
	Retry int
}

// defaultSnapshotTemplate is Playwright's default snapshotPathTemplate.
const defaultSnapshotTemplate = "{snapshotDir}/{testFileDir}/{testFileName}-snapshots/{arg}{-projectName}{-snapshotSuffix}{ext}"

// SetSnapshotSettings sets the run's settings of visual comparisons.
func (r *Runtime) SetSnapshotSettings(s SnapshotSettings) { r.snapSettings = s }

// snapshotNames counts a test case's snapshots, as Playwright names the
// nameless ones (title-1, title-2...) and numbers the outputs of one name
// used twice.
type snapshotNames struct {
	anonymous int
	named     map[string]int
}

func (r *Runtime) settings() SnapshotSettings {
	s := r.snapSettings
	if s.TestDir == "" {
		s.TestDir = r.vm.Dir()
	}
	if s.Dir == "" {
		s.Dir = s.TestDir
	} else if !filepath.IsAbs(s.Dir) {
		s.Dir = filepath.Join(s.TestDir, s.Dir)
	}
	if s.OutputDir == "" {
		s.OutputDir = filepath.Join(s.TestDir, "test-results")
	} else if !filepath.IsAbs(s.OutputDir) {
		s.OutputDir = filepath.Join(s.TestDir, s.OutputDir)
	}
	if s.Update == "" {
		s.Update = "missing"
	}
	if s.PathTemplate == "" {
		s.PathTemplate = defaultSnapshotTemplate
	}
	return s
}

// snapshotPaths are the files of one comparison.
type snapshotPaths struct {
	expected string // the baseline
	// outputs in the test case's output folder
	actual, diff, previous, legacyExpected string
	// attachment is the attachments' base name ("home.png").
	attachment string
	// mediaType of the baseline, from its extension.
	mediaType string
}

// sanitizeForPath replaces what may not appear in a file name (and dots,
// slashes) by "-", as Playwright's sanitizeForFilePath.
var unsafeInPath = regexp.MustCompile(`[\x00-\x2C\x2E-\x2F\x3A-\x40\x5B-\x60\x7B-\x7F]+`)

func sanitizeForPath(s string) string { return unsafeInPath.ReplaceAllString(s, "-") }

// trimLong shortens s to length characters by replacing its middle with a
// hash of the whole, as Playwright's trimLongString.
func trimLong(s string, length int) string {
	if len(s) <= length {
		return s
	}
	sum := sha1.Sum([]byte(s))
	middle := "-" + hex.EncodeToString(sum[:])[:5] + "-"
	start := (length - len(middle)) / 2
	end := length - len(middle) - start
	return s[:start] + middle + s[len(s)-end:]
}

// sanitizeBeforeExt sanitizes a file name's base, keeping its extension.
func sanitizeBeforeExt(name string) string {
	ext := filepath.Ext(name)
	return sanitizeForPath(strings.TrimSuffix(name, ext)) + ext
}

// addSuffix inserts suffix before path's extension.
func addSuffix(path, suffix string) string {
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + suffix + ext
}

// outputFolderLength bounds the test case's output folder name, as
// Playwright's (Windows-friendly) length.
const outputFolderLength = 60

// snapshotPaths names the files of the next comparison of the running
// test case: name is the name given (nil: none; a string, or path
// segments), anonExt the extension of a nameless one ("png", "txt"...).
func (r *Runtime) snapshotPaths(matcher string, name []string, anonExt string) (*snapshotPaths, error) {
	tc := r.testCase
	if tc == nil {
		return nil, fmt.Errorf("%s() must be called during a test case (in a step or a hook of a scenario)", matcher)
	}
	s := r.settings()
	if r.snapNames.named == nil {
		r.snapNames.named = map[string]int{}
	}
	file := tc.File
	if !filepath.IsAbs(file) {
		file = filepath.Join(s.TestDir, file)
	}
	rel, err := filepath.Rel(s.TestDir, file)
	if err != nil {
		rel = filepath.Base(file)
	}
	outDir := trimLong(strings.ReplaceAll(rel, string(filepath.Separator), "-")+"-"+sanitizeForPath(tc.Title), outputFolderLength)
	if tc.Retry > 0 {
		outDir += fmt.Sprintf("-retry%d", tc.Retry)
	}
	outDir = filepath.Join(s.OutputDir, outDir)

	var segments []string
	var outName string
	if len(name) == 0 {
		r.snapNames.anonymous++
		full := fmt.Sprintf("%s %d", tc.Title, r.snapNames.anonymous)
		segments = []string{sanitizeForPath(trimLong(full, 100)) + "." + anonExt}
		outName = sanitizeForPath(trimLong(full, outputFolderLength)) + "." + anonExt
	} else {
		joined := filepath.Join(name...)
		if len(name) == 1 {
			segments = []string{sanitizeBeforeExt(name[0])}
			joined = sanitizeBeforeExt(trimLong(name[0], outputFolderLength))
		} else {
			segments = name
		}
		r.snapNames.named[joined]++
		outName = joined
		if n := r.snapNames.named[joined]; n > 1 {
			outName = addSuffix(joined, fmt.Sprintf("-%d", n-1))
		}
	}
	outBase := filepath.Join(outDir, outName)
	if rel, err := filepath.Rel(outDir, outBase); err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("the outputPath is not allowed outside of the parent directory: %s", filepath.Join(name...))
	}
	p := &snapshotPaths{
		expected:       expandTemplate(s, file, tc.Title, filepath.Join(segments...)),
		actual:         addSuffix(outBase, "-actual"),
		diff:           addSuffix(outBase, "-diff"),
		previous:       addSuffix(outBase, "-previous"),
		legacyExpected: addSuffix(outBase, "-expected"),
		attachment:     outName,
	}
	p.mediaType = mediaTypeOf(p.expected)
	return p, nil
}

// templateToken is a {token} of snapshotPathTemplate, with the optional
// character before its name that is kept only when the value is not
// empty ({-projectName}).
var templateToken = regexp.MustCompile(`\{(.)?(testDir|snapshotDir|snapshotSuffix|testFileDir|platform|projectName|testName|testFileName|testFilePath|arg|ext)\}`)

// expandTemplate is the baseline's path: s.PathTemplate with its tokens
// replaced, resolved against the test directory.
func expandTemplate(s SnapshotSettings, file, title, sub string) string {
	rel, err := filepath.Rel(s.TestDir, file)
	if err != nil {
		rel = filepath.Base(file)
	}
	ext := filepath.Ext(sub)
	values := map[string]string{
		"testDir":        s.TestDir,
		"snapshotDir":    s.Dir,
		"snapshotSuffix": runtime.GOOS,
		"testFileDir":    filepath.Dir(rel),
		"platform":       runtime.GOOS,
		"projectName":    "",
		"testName":       sanitizeForPath(trimLong(title, 100)),
		"testFileName":   filepath.Base(rel),
		"testFilePath":   rel,
		"arg":            strings.TrimSuffix(sub, ext),
		"ext":            ext,
	}
	if values["testFileDir"] == "." {
		values["testFileDir"] = ""
	}
	out := templateToken.ReplaceAllStringFunc(s.PathTemplate, func(tok string) string {
		m := templateToken.FindStringSubmatch(tok)
		v := values[m[2]]
		if v == "" {
			return ""
		}
		return m[1] + v
	})
	if !filepath.IsAbs(out) {
		out = filepath.Join(s.TestDir, out)
	}
	return filepath.Clean(out)
}

// mediaTypeOf is a snapshot's media type, from its extension.
func mediaTypeOf(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".txt":
		return "text/plain"
	}
	if t, _, err := mime.ParseMediaType(mime.TypeByExtension(filepath.Ext(path))); err == nil {
		return t
	}
	return "application/octet-stream"
}

// snapshotName reads the name argument of a snapshot matcher: a string,
// an array of path segments, or an options object's name; and returns
// the options object (nil when none).
func (r *Runtime) snapshotName(nameOrOptions, options goja.Value) ([]string, *goja.Object) {
	var name goja.Value
	var o *goja.Object
	if obj, ok := nameOrOptions.(*goja.Object); ok && obj.ClassName() != "Array" && !isNullish(nameOrOptions) {
		o = obj
		name = obj.Get("name")
	} else {
		name = nameOrOptions
		if obj, ok := options.(*goja.Object); ok && !isNullish(options) {
			o = obj
		}
	}
	if name == nil || isNullish(name) {
		return nil, o
	}
	if obj, ok := name.(*goja.Object); ok && obj.ClassName() == "Array" {
		return r.strings(name), o
	}
	if s := name.String(); s != "" {
		return []string{s}, o
	}
	return nil, o
}

// writeOutput writes data at path, making its folder.
func writeOutput(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// readBaseline reads the baseline at path (nil, false when it does not
// exist).
func readBaseline(path string) ([]byte, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	return b, err == nil, err
}
