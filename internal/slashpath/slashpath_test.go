package slashpath

import (
	"path/filepath"
	"testing"
)

func TestRel(t *testing.T) {
	dir := filepath.FromSlash("/work/project")
	for _, tc := range []struct{ path, want string }{
		{"/work/project/features/a.feature", "features/a.feature"},
		{"/work/project", "."},
		{"/work/other/b.ts", "/work/other/b.ts"},
		{"/work/project-b/c.ts", "/work/project-b/c.ts"},
	} {
		if got := Rel(dir, filepath.FromSlash(tc.path)); got != tc.want {
			t.Errorf("Rel(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}
