// Package slashpath names files as reports and messages show them.
package slashpath

import (
	"path/filepath"
	"strings"
)

// Rel is path relative to dir with forward slashes ("features/a.feature"
// on every OS); a path outside dir stays absolute (with forward slashes).
func Rel(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}
