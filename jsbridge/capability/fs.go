package capability

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// FSAccess is what an operation does with a path.
type FSAccess int

const (
	// FSRead reads a file or lists a folder (a file:// page, an upload,
	// route.fulfill's path, fs.readFile...).
	FSRead FSAccess = 1 << iota
	// FSWrite creates, changes or removes a file or folder (a screenshot's
	// path, a storage state, fs.writeFile, fs.rm...).
	FSWrite
	// FSNoFollow, added to FSRead or FSWrite, checks the path's last
	// component itself rather than what it links to: the operations that
	// act on a link (lstat, readlink, unlink, rename...) use it.
	FSNoFollow
)

func (a FSAccess) verb() string {
	if a&FSWrite != 0 {
		return "writing"
	}
	return "reading"
}

// FSGrant names, in denial messages, the settings that grant read and
// write access, so that a denial says what to grant.
type FSGrant struct {
	// Read is the setting that lists readable folders ("allow.fs.read").
	Read string
	// Write is the setting that lists writable folders ("allow.fs.write").
	Write string
}

// ManifestGrant is the grant of an extension tool: its allow.fs.
var ManifestGrant = FSGrant{Read: "allow.fs.read", Write: "allow.fs.write"}

// FSPolicy is a filesystem grant: the folders whose files may be read and
// the folders whose files may be written (a writable folder is readable
// too). Every API that reads or writes a file for code holding the grant
// (node:fs, and the browser API's paths: route.fulfill, setInputFiles,
// screenshots, storage state, traces, downloads, file:// navigation)
// asks [FSPolicy.Check].
//
// An empty policy denies everything; [UnrestrictedFS] allows everything.
// Relative folders are relative to the base directory given to Check (the
// project directory). A nil *FSPolicy denies everything.
//
// A FSPolicy is immutable and safe for concurrent use.
type FSPolicy struct {
	unrestricted bool
	read, write  []string // as declared, cleaned
	grant        FSGrant
}

// FSError is a denial by a FSPolicy. errors.Is(err, ErrFSDenied) holds.
type FSError struct {
	// Path is the refused path as given; Resolved is the path after the
	// project directory and symlinks were applied.
	Path, Resolved string
	Access         FSAccess
	msg            string
}

func (e *FSError) Error() string { return e.msg }

// Unwrap makes errors.Is(err, ErrFSDenied) true.
func (e *FSError) Unwrap() error { return ErrFSDenied }

// UnrestrictedFS is the policy of first-party code in the bdd host: every
// path, as node:fs under Node.
func UnrestrictedFS() *FSPolicy { return &FSPolicy{unrestricted: true} }

// ParseFS parses the value of allow.fs: nil (no access), or an object with
// the optional keys read and write, each an array of folder paths
// (absolute, or relative to the project directory). Any other key, and a
// bad entry, is an error naming it.
func ParseFS(v any) (*FSPolicy, error) {
	if v == nil {
		return &FSPolicy{grant: ManifestGrant}, nil
	}
	m, ok := asMap(v)
	if !ok {
		return nil, fmt.Errorf("allow.fs: must be an object with read and write folder lists, got %s", typeName(v))
	}
	var read, write []string
	for _, k := range sortedKeys(m) {
		var list []string
		switch k {
		case "read", "write":
			l, ok := stringList(m[k])
			if !ok {
				return nil, fmt.Errorf("allow.fs.%s: must be an array of folder paths, got %s", k, typeName(m[k]))
			}
			list = l
		default:
			return nil, fmt.Errorf("allow.fs: unknown key %q (known: read, write)", k)
		}
		if k == "read" {
			read = list
		} else {
			write = list
		}
	}
	return NewFSPolicy(read, write, ManifestGrant)
}

// NewFSPolicy validates folder lists into a policy whose denials name
// grant. An entry must be a non-empty path: not a URL, a glob or a ~ path.
func NewFSPolicy(read, write []string, grant FSGrant) (*FSPolicy, error) {
	p := &FSPolicy{grant: grant}
	for _, l := range []struct {
		name    string
		entries []string
		dst     *[]string
	}{{grant.Read, read, &p.read}, {grant.Write, write, &p.write}} {
		for _, e := range l.entries {
			clean, err := fsEntry(e)
			if err != nil {
				return nil, fmt.Errorf("%s entry %q: %w", l.name, e, err)
			}
			*l.dst = append(*l.dst, clean)
		}
	}
	return p, nil
}

func fsEntry(e string) (string, error) {
	switch {
	case strings.TrimSpace(e) == "":
		return "", errors.New("empty folder path")
	case strings.ContainsRune(e, 0):
		return "", errors.New("contains a NUL byte")
	case strings.Contains(e, "://"):
		return "", errors.New("must be a folder path, not a URL")
	case strings.ContainsAny(e, "*?["):
		return "", errors.New("globs are not supported: name a folder (every file under it is granted)")
	case e == "~" || strings.HasPrefix(e, "~/"):
		return "", errors.New("~ is not expanded: write the folder's path")
	}
	return filepath.Clean(e), nil
}

// WithGrant returns a copy of p whose denials name grant.
func (p *FSPolicy) WithGrant(grant FSGrant) *FSPolicy {
	if p == nil {
		return &FSPolicy{grant: grant}
	}
	c := *p
	c.grant = grant
	return &c
}

// Unrestricted reports whether p allows every path.
func (p *FSPolicy) Unrestricted() bool { return p != nil && p.unrestricted }

// Read returns the readable folders as declared (besides the writable ones).
func (p *FSPolicy) Read() []string {
	if p == nil {
		return nil
	}
	return append([]string(nil), p.read...)
}

// Write returns the writable folders as declared.
func (p *FSPolicy) Write() []string {
	if p == nil {
		return nil
	}
	return append([]string(nil), p.write...)
}

// Check decides whether path may be accessed, and returns the path to use:
// path made absolute against base, its symlinks resolved (the file a
// symlink inside a granted folder points to must itself be inside one). A
// path that does not exist yet (a file to write) is resolved as far as it
// exists. The path returned is the one checked: open that one, so that
// the check and the use agree. An unrestricted policy returns the absolute
// path unresolved. A denial is a *FSError naming the setting to grant.
func (p *FSPolicy) Check(base, path string, access FSAccess) (string, error) {
	abs := absPath(base, path)
	if p.Unrestricted() {
		return abs, nil
	}
	if p == nil {
		p = &FSPolicy{}
	}
	resolved, err := resolvePath(abs, access&FSNoFollow != 0)
	if err != nil {
		return "", &FSError{Path: path, Resolved: abs, Access: access, msg: fmt.Sprintf("%s %q is not allowed: %v", access.verb(), path, err)}
	}
	folders := p.write
	setting := p.grant.Write
	if access&FSWrite == 0 {
		folders = append(append([]string(nil), p.read...), p.write...)
		setting = p.grant.Read
	}
	for _, f := range folders {
		root, err := resolvePath(absPath(base, f), false)
		if err == nil && within(resolved, root) {
			return resolved, nil
		}
	}
	if setting == "" {
		setting = "a filesystem capability"
	}
	what := fmt.Sprintf("%q", path)
	if resolved != abs {
		what = fmt.Sprintf("%q (which resolves to %q)", path, resolved)
	}
	granted := "none"
	if len(folders) > 0 {
		granted = strings.Join(folders, ", ")
	}
	return "", &FSError{Path: path, Resolved: resolved, Access: access, msg: fmt.Sprintf(
		"%s %s is not allowed: it is outside the folders %s grants (%s); add its folder to %s", access.verb(), what, setting, granted, setting)}
}

func absPath(base, path string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(base, path)
	}
	return filepath.Clean(path)
}

// within reports whether path is root or inside it (both absolute, clean).
func within(path, root string) bool {
	if root == "/" {
		return true
	}
	return path == root || strings.HasPrefix(path, root+"/")
}

// maxLinks bounds the symlinks one resolution follows (the kernel's ELOOP
// limit is 40).
const maxLinks = 40

// resolvePath resolves the symlinks of an absolute, clean path the way the
// kernel would when opening it, component by component: ".." after a
// symlink goes to the parent of its target. A component that does not
// exist ends the walk; the rest is appended as written (what a write would
// create). A dangling symlink is followed to where it points, since a
// write through it creates its target. With noFollow the last component
// is kept as is (the operation acts on the link itself).
func resolvePath(abs string, noFollow bool) (string, error) {
	if noFollow {
		dir, base := filepath.Split(abs)
		if base == "" {
			return resolvePath(abs, false)
		}
		d, err := resolvePath(filepath.Clean(dir), false)
		if err != nil {
			return "", err
		}
		return filepath.Join(d, base), nil
	}
	resolved := "/"
	rest := strings.Split(strings.TrimPrefix(abs, "/"), "/")
	links := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, c)
		fi, err := os.Lstat(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				return filepath.Join(append([]string{next}, rest...)...), nil
			}
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			resolved = next
			continue
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("too many levels of symbolic links at %s", next)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			resolved = "/"
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return resolved, nil
}
