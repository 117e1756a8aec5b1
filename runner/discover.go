package runner

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// DefaultFeaturePaths is where features are looked for when none are given.
var DefaultFeaturePaths = []string{"features/**/*.{feature,feature.md}"}

// featureFile is a feature file to run, restricted to some lines or not.
type featureFile struct {
	path  string  // absolute
	lines []int64 // nil: every scenario
}

// lineSuffixRE matches "path:12" or "path:12:30".
var lineSuffixRE = regexp.MustCompile(`^(.*?)((?::\d+)+)$`)

// discoverFeatures expands feature paths as cucumber-js does: directories
// (searched recursively for .feature and .feature.md files), globs, "file.feature:LINE[:LINE]"
// and "@rerun.txt" files listing such entries. The result keeps the order of
// the paths, each expanded in sorted order, without duplicates.
func discoverFeatures(dir string, paths []string) ([]featureFile, error) {
	if len(paths) == 0 {
		paths = DefaultFeaturePaths
	}
	var out []featureFile
	index := map[string]int{}
	add := func(path string, lines []int64) {
		if i, ok := index[path]; ok {
			if out[i].lines != nil {
				if lines == nil {
					out[i].lines = nil
				} else {
					out[i].lines = append(out[i].lines, lines...)
				}
			}
			return
		}
		index[path] = len(out)
		out = append(out, featureFile{path: path, lines: lines})
	}
	var expand func(p string, fromRerun string) error
	expand = func(p string, fromRerun string) error {
		if rerun, ok := strings.CutPrefix(p, "@"); ok {
			return expandRerun(dir, rerun, expand)
		}
		var lines []int64
		if m := lineSuffixRE.FindStringSubmatch(p); m != nil {
			if _, err := os.Stat(abs(dir, p)); err != nil { // not a file literally named "x:1"
				p = m[1]
				for _, n := range strings.Split(strings.TrimPrefix(m[2], ":"), ":") {
					v, _ := strconv.ParseInt(n, 10, 64)
					lines = append(lines, v)
				}
			}
		}
		full := abs(dir, p)
		info, err := os.Stat(full)
		switch {
		case err == nil && info.IsDir():
			files, err := doublestar.FilepathGlob(filepath.Join(full, "**", "*.{feature,feature.md}"), doublestar.WithFilesOnly())
			if err != nil {
				return err
			}
			sort.Strings(files)
			for _, f := range files {
				add(f, nil)
			}
		case err == nil:
			add(full, lines)
		case hasGlobMeta(p):
			files, err := doublestar.FilepathGlob(full, doublestar.WithFilesOnly())
			if err != nil {
				return fmt.Errorf("feature path %q: %w", p, err)
			}
			sort.Strings(files)
			for _, f := range files {
				if isFeatureFile(f) {
					add(f, lines)
				}
			}
		default:
			where := ""
			if fromRerun != "" {
				where = " (listed in " + fromRerun + ")"
			}
			return fmt.Errorf("feature path %q%s does not exist", p, where)
		}
		return nil
	}
	for _, p := range paths {
		if err := expand(p, ""); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// expandRerun reads a rerun file: entries separated by newlines, each a
// feature path with optional line numbers (the rerun format's output).
func expandRerun(dir, name string, expand func(string, string) error) error {
	f, err := os.Open(abs(dir, name))
	if err != nil {
		return fmt.Errorf("rerun file @%s: %w", name, err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		for _, entry := range strings.Fields(s.Text()) {
			if err := expand(entry, "@"+name); err != nil {
				return err
			}
		}
	}
	return s.Err()
}

func abs(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

func hasGlobMeta(p string) bool { return strings.ContainsAny(p, "*?[{") }
