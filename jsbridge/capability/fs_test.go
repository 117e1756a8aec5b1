package capability

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fsTree builds a project with a granted folder, a folder outside and
// the symlinks the escape attempts use. It returns the project directory
// and the outside one.
func fsTree(t *testing.T) (proj, outside string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj, outside = filepath.Join(root, "proj"), filepath.Join(root, "outside")
	for _, d := range []string{"proj/data/sub", "proj/out", "proj/private", "outside"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"proj/data/a.txt", "proj/private/secret", "outside/secret"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"proj/data/out-link":      "../../outside/secret",   // a file outside
		"proj/data/out-dir":       outside,                  // a folder outside
		"proj/data/in-link":       "sub",                    // stays inside
		"proj/data/dangling":      "../../outside/new-file", // a write through it creates outside
		"proj/data/loop":          "loop",
		"proj/data/sub/up":        "..",            // data itself
		"proj/data/private-alias": "../private",    // inside the project, outside the grant
		"proj/out/to-data":        "../data/a.txt", // readable through a write folder's link
		"proj/data/proc":          "/proc/self",
	}
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(root, l)); err != nil {
			t.Fatal(err)
		}
	}
	return proj, outside
}

func TestFSPolicyCheck(t *testing.T) {
	proj, outside := fsTree(t)
	p, err := NewFSPolicy([]string{"data"}, []string{"out"}, ManifestGrant)
	if err != nil {
		t.Fatal(err)
	}
	pid := strconv.Itoa(os.Getpid())
	cases := []struct {
		name   string
		path   string
		access FSAccess
		want   string // the resolved path, relative to proj when not absolute
		err    string // part of the denial
	}{
		{name: "relative file", path: "data/a.txt", access: FSRead, want: "data/a.txt"},
		{name: "absolute file", path: filepath.Join(proj, "data/a.txt"), access: FSRead, want: "data/a.txt"},
		{name: "the folder itself", path: "data", access: FSRead, want: "data"},
		{name: "new file in a read folder is not writable", path: "data/new.txt", access: FSWrite, err: `writing "data/new.txt" is not allowed: it is outside the folders allow.fs.write grants (out); add its folder to allow.fs.write`},
		{name: "new file in a write folder", path: "out/new/deep.png", access: FSWrite, want: "out/new/deep.png"},
		{name: "a write folder is readable", path: "out/new.txt", access: FSRead, want: "out/new.txt"},
		{name: "dot-dot out of the grant", path: "data/../private/secret", access: FSRead, err: `reading "data/../private/secret" is not allowed: it is outside the folders allow.fs.read grants (data, out)`},
		{name: "dot-dot out of the project", path: "../outside/secret", access: FSRead, err: "is outside the folders allow.fs.read grants"},
		{name: "dot-dot that stays inside", path: "data/sub/../a.txt", access: FSRead, want: "data/a.txt"},
		{name: "symlink to a file outside", path: "data/out-link", access: FSRead, err: `reading "data/out-link" (which resolves to "` + filepath.Join(outside, "secret") + `") is not allowed`},
		{name: "path through a symlinked folder outside", path: "data/out-dir/secret", access: FSRead, err: "which resolves to \"" + filepath.Join(outside, "secret") + "\""},
		{name: "symlink that stays inside", path: "data/in-link", access: FSRead, want: "data/sub"},
		{name: "dot-dot after a symlink is the target's parent", path: "data/in-link/../a.txt", access: FSRead, want: "data/a.txt"},
		{name: "dangling symlink out: a write would create outside", path: "data/dangling", access: FSWrite, err: "which resolves to \"" + filepath.Join(outside, "new-file") + "\""},
		{name: "symlink to a sibling outside the grant", path: "data/private-alias/secret", access: FSRead, err: "which resolves to \"" + filepath.Join(proj, "private/secret") + "\""},
		{name: "symlink loop", path: "data/loop", access: FSRead, err: "too many levels of symbolic links"},
		{name: "symlink up to the granted folder", path: "data/sub/up/a.txt", access: FSRead, want: "data/a.txt"},
		{name: "link in a write folder to a read file, read", path: "out/to-data", access: FSRead, want: "data/a.txt"},
		{name: "link in a write folder to a read file, write", path: "out/to-data", access: FSWrite, err: "which resolves to \"" + filepath.Join(proj, "data/a.txt") + "\""},
		{name: "no-follow acts on the link itself", path: "data/out-link", access: FSRead | FSNoFollow, want: "data/out-link"},
		{name: "no-follow still resolves the folders above", path: "data/out-dir/secret", access: FSRead | FSNoFollow, err: "is not allowed"},
		{name: "proc environ", path: "/proc/self/environ", access: FSRead, err: `reading "/proc/self/environ" (which resolves to "/proc/` + pid + `/environ") is not allowed`},
		{name: "proc root escape", path: "/proc/self/root/etc/passwd", access: FSRead, err: `(which resolves to "/etc/passwd")`},
		{name: "proc through a link in the grant", path: "data/proc/environ", access: FSRead, err: `(which resolves to "/proc/` + pid + `/environ")`},
		{name: "absolute outside", path: "/etc/passwd", access: FSRead, err: `reading "/etc/passwd" is not allowed`},
		{name: "root", path: "/", access: FSRead, err: "is not allowed"},
		{name: "prefix that is not a folder boundary", path: "data-other/x", access: FSRead, err: "is not allowed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := p.Check(proj, c.path, c.access)
			if c.err != "" {
				if err == nil {
					t.Fatalf("allowed as %s; want a denial containing %q", got, c.err)
				}
				if !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %q; want it to contain %q", err, c.err)
				}
				if !errors.Is(err, ErrFSDenied) {
					t.Fatalf("error %v is not ErrFSDenied", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("denied: %v", err)
			}
			want := c.want
			if !filepath.IsAbs(want) {
				want = filepath.Join(proj, want)
			}
			if got != want {
				t.Fatalf("resolved to %s; want %s", got, want)
			}
		})
	}
}

func TestFSPolicyGrants(t *testing.T) {
	proj, outside := fsTree(t)
	secret := filepath.Join(outside, "secret")
	var nilPolicy *FSPolicy
	empty, _ := ParseFS(nil)
	abs, _ := NewFSPolicy([]string{outside}, nil, ManifestGrant)
	linked, _ := NewFSPolicy([]string{"data/out-dir"}, nil, ManifestGrant) // a granted folder that is a symlink
	mcp := empty.WithGrant(FSGrant{Read: "--allow-read (or [mcp] allowRead)", Write: "--allow-write"})
	cases := []struct {
		name string
		p    *FSPolicy
		path string
		ok   bool
		err  string
	}{
		{"nil denies", nilPolicy, "data/a.txt", false, "outside the folders a filesystem capability grants (none)"},
		{"empty denies and names allow.fs", empty, "data/a.txt", false, "allow.fs.read grants (none); add its folder to allow.fs.read"},
		{"unrestricted allows anything", UnrestrictedFS(), "/proc/self/environ", true, ""},
		{"an absolute folder", abs, secret, true, ""},
		{"a granted symlinked folder grants its target", linked, secret, true, ""},
		{"the denial names the host's setting", mcp, "/etc/passwd", false, "--allow-read (or [mcp] allowRead) grants (none); add its folder to --allow-read (or [mcp] allowRead)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.p.Check(proj, c.path, FSRead)
			if c.ok != (err == nil) {
				t.Fatalf("ok=%v, err=%v", c.ok, err)
			}
			if err != nil && !strings.Contains(err.Error(), c.err) {
				t.Fatalf("error %q; want %q", err, c.err)
			}
		})
	}
	if got, _ := UnrestrictedFS().Check(proj, "data/out-link", FSRead); got != filepath.Join(proj, "data/out-link") {
		t.Errorf("unrestricted returns %s; want the absolute path, unresolved", got)
	}
}

func TestParseFS(t *testing.T) {
	cases := []struct {
		name        string
		v           any
		read, write []string
		err         string
	}{
		{name: "absent", v: nil},
		{name: "both lists", v: map[string]any{"read": []any{"fixtures", "/srv/data/"}, "write": []any{"./out"}}, read: []string{"fixtures", "/srv/data"}, write: []string{"out"}},
		{name: "not an object", v: []any{"/tmp"}, err: "allow.fs: must be an object with read and write folder lists, got array"},
		{name: "unknown key", v: map[string]any{"reads": []any{"x"}}, err: `allow.fs: unknown key "reads" (known: read, write)`},
		{name: "list of numbers", v: map[string]any{"write": []any{1}}, err: "allow.fs.write: must be an array of folder paths, got array"},
		{name: "string instead of list", v: map[string]any{"read": "x"}, err: "allow.fs.read: must be an array of folder paths, got string"},
		{name: "empty entry", v: map[string]any{"read": []any{" "}}, err: `allow.fs.read entry " ": empty folder path`},
		{name: "url", v: map[string]any{"read": []any{"file:///etc"}}, err: "must be a folder path, not a URL"},
		{name: "glob", v: map[string]any{"write": []any{"out/*.png"}}, err: `allow.fs.write entry "out/*.png": globs are not supported`},
		{name: "tilde", v: map[string]any{"read": []any{"~/x"}}, err: "~ is not expanded"},
		{name: "nul", v: map[string]any{"read": []any{"a\x00b"}}, err: "contains a NUL byte"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParseFS(c.v)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v; want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(p.Read(), ",") != strings.Join(c.read, ",") || strings.Join(p.Write(), ",") != strings.Join(c.write, ",") {
				t.Fatalf("read %v write %v; want %v %v", p.Read(), p.Write(), c.read, c.write)
			}
		})
	}
	a, err := ParseAllow(map[string]any{"fs": map[string]any{"read": []any{"data"}}, "net": []any{"api.example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := a.FS.Read(); len(got) != 1 || got[0] != "data" {
		t.Fatalf("ParseAllow fs.read = %v", got)
	}
	if a, _ := ParseAllow(nil); a.FS == nil || a.FS.Unrestricted() {
		t.Fatal("an absent allow.fs must be a policy that denies")
	}
}
