package jsbridge

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
	"golang.org/x/sys/unix"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// node:fs. Go performs every filesystem operation; node/fs.js shapes them
// into Node's API (sync, callback and promise forms, Stats, Dirent,
// streams). Each operation runs either synchronously (the *Sync form) or
// off the loop, settling a promise on it. Every path goes through the one filesystem check (VM.CheckPath): every
// path for first-party code in the bdd host, a tool's allow.fs in its
// handler, the host's grant in the mcp and script hosts (docs/capabilities.md).

// fsCall is one filesystem operation, its arguments already read from JS:
// run touches only Go values, so it may run off the loop.
type fsCall struct {
	syscall    string // Node's name of the failing system call, for errors
	path, dest string
	run        func() (any, error)
}

// fsArgs reads the JS arguments of an operation.
type fsArgs struct {
	vm   *VM
	fn   string // the Node function called, for messages
	args []goja.Value
}

func (a fsArgs) arg(i int) goja.Value {
	if i < len(a.args) {
		return a.args[i]
	}
	return goja.Undefined()
}

func (a fsArgs) given(i int) bool {
	v := a.arg(i)
	return !goja.IsUndefined(v) && !goja.IsNull(v)
}

// path is argument i (a string; node/fs.js converts URLs and Buffers)
// made absolute against the project directory, as Node resolves against
// process.cwd(), after the filesystem check (see VM.CheckPath) allowed the
// access: a denial throws ERR_ACCESS_DENIED.
func (a fsArgs) path(i int, access capability.FSAccess) string {
	p, err := a.checkedPath(i, access)
	if err != nil {
		panic(a.vm.AccessDenied("fs."+a.fn, err))
	}
	return p
}

// pathOrDenied is path for the calls that answer a denial with false
// (exists).
func (a fsArgs) pathOrDenied(i int, access capability.FSAccess) (string, bool) {
	p, err := a.checkedPath(i, access)
	return p, err != nil
}

func (a fsArgs) checkedPath(i int, access capability.FSAccess) (string, error) {
	v := a.arg(i)
	if goja.IsUndefined(v) || goja.IsNull(v) {
		a.vm.ThrowTypeError("The \"path\" argument must be of type string, Buffer or URL. Received %s", v)
	}
	s := v.String()
	if strings.ContainsRune(s, 0) {
		a.vm.ThrowTypeError("The argument 'path' must be a string, Uint8Array, or URL without null bytes. Received %q", s)
	}
	return a.vm.CheckPath(s, access)
}

// flagAccess is the access open flags ask for.
func flagAccess(flags int) capability.FSAccess {
	if flags&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0 {
		return capability.FSWrite
	}
	return capability.FSRead
}

func (a fsArgs) str(i int) string {
	if !a.given(i) {
		return ""
	}
	return a.arg(i).String()
}

func (a fsArgs) int(i int, def int64) int64 {
	if !a.given(i) {
		return def
	}
	return a.arg(i).ToInteger()
}

func (a fsArgs) bool(i int) bool { return a.arg(i).ToBoolean() }

// bytes is argument i as bytes (a copy: the work may run off the loop).
func (a fsArgs) bytes(i int) []byte {
	v := a.arg(i)
	if o, ok := v.(*goja.Object); ok {
		if b, ok := bytesOf(a.vm.rt, o); ok {
			return append([]byte(nil), b...)
		}
	}
	return []byte(v.String())
}

func (a fsArgs) fd(i int) *os.File {
	return a.vm.fdTable().get(a.vm, a.arg(i))
}

// fdTable maps the descriptors JS holds to open files. Descriptors are the
// real OS numbers; the table keeps the *os.File alive and closes what is
// left open when the VM closes.
type fdTable struct {
	mu    sync.Mutex
	files map[int]*os.File
}

type fdTableKey struct{}

func (vm *VM) fdTable() *fdTable {
	return vm.Local(fdTableKey{}, func() any {
		t := &fdTable{files: map[int]*os.File{}}
		vm.OnClose(func() {
			t.mu.Lock()
			defer t.mu.Unlock()
			for fd, f := range t.files {
				f.Close()
				delete(t.files, fd)
			}
		})
		return t
	}).(*fdTable)
}

func (t *fdTable) add(f *os.File) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	fd := int(f.Fd())
	t.files[fd] = f
	return fd
}

func (t *fdTable) get(vm *VM, v goja.Value) *os.File {
	n, ok := numberOf(v)
	if !ok {
		vm.ThrowTypeError("The \"fd\" argument must be of type number. Received %s", v)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	f := t.files[int(n)]
	if f == nil {
		// An fd this VM did not open (0-2 or someone else's): EBADF at run time.
		return nil
	}
	return f
}

func (t *fdTable) remove(fd int) *os.File {
	t.mu.Lock()
	defer t.mu.Unlock()
	f := t.files[fd]
	delete(t.files, fd)
	return f
}

var errBadFD = &fs.PathError{Op: "fd", Err: syscall.EBADF}

// fdCall is an operation on an open descriptor: EBADF when this VM has no
// such descriptor.
func fdCall(syscall string, f *os.File, run func(f *os.File) (any, error)) fsCall {
	return fsCall{syscall: syscall, run: func() (any, error) {
		if f == nil {
			return nil, errBadFD
		}
		return run(f)
	}}
}

// openFlags parses Node's flags ("r", "wx+", "as"... or a number).
func openFlags(v goja.Value, def string) (int, error) {
	if n, ok := numberOf(v); ok {
		return int(n), nil
	}
	s := def
	if !goja.IsUndefined(v) && !goja.IsNull(v) {
		s = v.String()
	}
	flags := map[string]int{
		"r": os.O_RDONLY, "rs": os.O_RDONLY | os.O_SYNC, "sr": os.O_RDONLY | os.O_SYNC,
		"r+": os.O_RDWR, "rs+": os.O_RDWR | os.O_SYNC, "sr+": os.O_RDWR | os.O_SYNC,
		"w": os.O_WRONLY | os.O_CREATE | os.O_TRUNC, "wx": os.O_WRONLY | os.O_CREATE | os.O_TRUNC | os.O_EXCL,
		"xw": os.O_WRONLY | os.O_CREATE | os.O_TRUNC | os.O_EXCL,
		"w+": os.O_RDWR | os.O_CREATE | os.O_TRUNC, "wx+": os.O_RDWR | os.O_CREATE | os.O_TRUNC | os.O_EXCL,
		"xw+": os.O_RDWR | os.O_CREATE | os.O_TRUNC | os.O_EXCL,
		"a":   os.O_WRONLY | os.O_CREATE | os.O_APPEND, "ax": os.O_WRONLY | os.O_CREATE | os.O_APPEND | os.O_EXCL,
		"xa": os.O_WRONLY | os.O_CREATE | os.O_APPEND | os.O_EXCL, "as": os.O_WRONLY | os.O_CREATE | os.O_APPEND | os.O_SYNC,
		"sa": os.O_WRONLY | os.O_CREATE | os.O_APPEND | os.O_SYNC,
		"a+": os.O_RDWR | os.O_CREATE | os.O_APPEND, "ax+": os.O_RDWR | os.O_CREATE | os.O_APPEND | os.O_EXCL,
		"xa+": os.O_RDWR | os.O_CREATE | os.O_APPEND | os.O_EXCL, "as+": os.O_RDWR | os.O_CREATE | os.O_APPEND | os.O_SYNC,
		"sa+": os.O_RDWR | os.O_CREATE | os.O_APPEND | os.O_SYNC,
	}
	f, ok := flags[s]
	if !ok {
		return 0, fmt.Errorf("The value %q is invalid for option \"flags\"", s)
	}
	return f, nil
}

// statData is what stat returns to node/fs.js, which makes a Stats of it.
type statData struct {
	dev, ino, mode, nlink, uid, gid, rdev, size, blksize, blocks int64
	atime, mtime, ctime, birthtime                               time.Time
}

func statOf(info os.FileInfo) *statData {
	d := &statData{size: info.Size(), mode: int64(unixMode(info.Mode())), mtime: info.ModTime(), atime: info.ModTime(), ctime: info.ModTime(), birthtime: info.ModTime(), nlink: 1, blksize: 4096}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		d.dev, d.ino, d.mode, d.nlink = int64(st.Dev), int64(st.Ino), int64(st.Mode), int64(st.Nlink)
		d.uid, d.gid, d.rdev, d.blksize, d.blocks = int64(st.Uid), int64(st.Gid), int64(st.Rdev), int64(st.Blksize), int64(st.Blocks)
		d.atime, d.ctime = statTimes(st)
		d.birthtime = d.ctime
	}
	return d
}

// unixMode converts Go's portable file mode to st_mode bits.
func unixMode(m fs.FileMode) uint32 {
	out := uint32(m.Perm())
	switch {
	case m.IsDir():
		out |= syscall.S_IFDIR
	case m&fs.ModeSymlink != 0:
		out |= syscall.S_IFLNK
	case m&fs.ModeNamedPipe != 0:
		out |= syscall.S_IFIFO
	case m&fs.ModeSocket != 0:
		out |= syscall.S_IFSOCK
	case m&fs.ModeCharDevice != 0:
		out |= syscall.S_IFCHR
	case m&fs.ModeDevice != 0:
		out |= syscall.S_IFBLK
	default:
		out |= syscall.S_IFREG
	}
	return out
}

// dirent is one entry of readdir({withFileTypes}) or opendir.
type dirent struct {
	name, parent string
	mode         uint32 // S_IF* type bits
}

// fsOps are the operations, by the name node/fs.js calls them with.
var fsOps = map[string]func(a fsArgs) fsCall{
	"access": func(a fsArgs) fsCall {
		mode := uint32(a.int(1, 0))
		access := capability.FSRead
		if mode&unix.W_OK != 0 {
			access = capability.FSWrite
		}
		p := a.path(0, access)
		return fsCall{syscall: "access", path: p, run: func() (any, error) { return nil, unix.Access(p, mode) }}
	},
	"exists": func(a fsArgs) fsCall {
		p, denied := a.pathOrDenied(0, capability.FSRead)
		if denied {
			// Node's exists says false for any failure.
			return fsCall{run: func() (any, error) { return false, nil }}
		}
		return fsCall{run: func() (any, error) { _, err := os.Stat(p); return err == nil, nil }}
	},
	"stat": func(a fsArgs) fsCall {
		p := a.path(0, capability.FSRead)
		return fsCall{syscall: "stat", path: p, run: func() (any, error) { return statResult(os.Stat(p)) }}
	},
	"lstat": func(a fsArgs) fsCall {
		p := a.path(0, capability.FSRead|capability.FSNoFollow)
		return fsCall{syscall: "lstat", path: p, run: func() (any, error) { return statResult(os.Lstat(p)) }}
	},
	"fstat": func(a fsArgs) fsCall {
		f := a.fd(0)
		return fdCall("fstat", f, func(f *os.File) (any, error) {
			return statResult(f.Stat())
		})
	},
	"readFile": func(a fsArgs) fsCall {
		utf8 := a.bool(1)
		if _, ok := numberOf(a.arg(0)); ok {
			return fdCall("read", a.fd(0), func(f *os.File) (any, error) {
				b, err := io.ReadAll(f)
				return bytesOrString(b, utf8), err
			})
		}
		flags, err := openFlags(a.arg(2), "r")
		if err != nil {
			a.vm.ThrowTypeError("%v", err)
		}
		p := a.path(0, flagAccess(flags))
		return fsCall{syscall: "open", path: p, run: func() (any, error) {
			f, err := os.OpenFile(p, flags, 0)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			if info, err := f.Stat(); err == nil && info.IsDir() {
				return nil, &syscallError{syscall: "read", err: syscall.EISDIR}
			}
			b, err := io.ReadAll(f)
			return bytesOrString(b, utf8), err
		}}
	},
	"writeFile": func(a fsArgs) fsCall {
		data := a.bytes(1)
		if _, ok := numberOf(a.arg(0)); ok {
			return fdCall("write", a.fd(0), func(f *os.File) (any, error) {
				_, err := f.Write(data)
				return nil, err
			})
		}
		flags, err := openFlags(a.arg(2), "w")
		if err != nil {
			a.vm.ThrowTypeError("%v", err)
		}
		p := a.path(0, flagAccess(flags))
		mode := os.FileMode(a.int(3, 0o666))
		return fsCall{syscall: "open", path: p, run: func() (any, error) {
			f, err := os.OpenFile(p, flags, mode)
			if err != nil {
				return nil, err
			}
			if _, err := f.Write(data); err != nil {
				f.Close()
				return nil, err
			}
			return nil, f.Close()
		}}
	},
	"mkdir": func(a fsArgs) fsCall {
		p, recursive, mode := a.path(0, capability.FSWrite), a.bool(1), os.FileMode(a.int(2, 0o777))
		return fsCall{syscall: "mkdir", path: p, run: func() (any, error) {
			if !recursive {
				return nil, os.Mkdir(p, mode)
			}
			// Node returns the first directory it created, or undefined.
			first := ""
			for d := p; ; d = filepath.Dir(d) {
				if _, err := os.Stat(d); err == nil || d == filepath.Dir(d) {
					break
				}
				first = d
			}
			if err := os.MkdirAll(p, mode); err != nil {
				return nil, err
			}
			if first == "" {
				return nil, nil
			}
			return first, nil
		}}
	},
	"mkdtemp": func(a fsArgs) fsCall {
		prefix := a.path(0, capability.FSWrite)
		return fsCall{syscall: "mkdtemp", path: prefix + "XXXXXX", run: func() (any, error) {
			return os.MkdirTemp(filepath.Dir(prefix), filepath.Base(prefix)+"*")
		}}
	},
	"readdir": func(a fsArgs) fsCall {
		p, types, recursive := a.path(0, capability.FSRead), a.bool(1), a.bool(2)
		return fsCall{syscall: "scandir", path: p, run: func() (any, error) { return readDir(p, types, recursive) }}
	},
	"rm": func(a fsArgs) fsCall {
		p, recursive, force := a.path(0, capability.FSWrite|capability.FSNoFollow), a.bool(1), a.bool(2)
		return fsCall{syscall: "rm", path: p, run: func() (any, error) {
			info, err := os.Lstat(p)
			if err != nil {
				if force && errors.Is(err, fs.ErrNotExist) {
					return nil, nil
				}
				return nil, &fs.PathError{Op: "stat", Path: p, Err: errnoOf(err)}
			}
			if info.IsDir() && !recursive {
				return nil, &nodeSystemError{code: "ERR_FS_EISDIR", msg: fmt.Sprintf("Path is a directory: rm returned EISDIR (is a directory) %s", p), errno: syscall.EISDIR, syscall: "rm", path: p}
			}
			return nil, os.RemoveAll(p)
		}}
	},
	"rmdir": func(a fsArgs) fsCall {
		p, recursive := a.path(0, capability.FSWrite|capability.FSNoFollow), a.bool(1)
		return fsCall{syscall: "rmdir", path: p, run: func() (any, error) {
			if recursive {
				return nil, os.RemoveAll(p)
			}
			return nil, unix.Rmdir(p)
		}}
	},
	"unlink": func(a fsArgs) fsCall {
		p := a.path(0, capability.FSWrite|capability.FSNoFollow)
		return fsCall{syscall: "unlink", path: p, run: func() (any, error) { return nil, unix.Unlink(p) }}
	},
	"rename": func(a fsArgs) fsCall {
		from, to := a.path(0, capability.FSWrite|capability.FSNoFollow), a.path(1, capability.FSWrite|capability.FSNoFollow)
		return fsCall{syscall: "rename", path: from, dest: to, run: func() (any, error) { return nil, os.Rename(from, to) }}
	},
	"copyFile": func(a fsArgs) fsCall {
		from, to, mode := a.path(0, capability.FSRead), a.path(1, capability.FSWrite), a.int(2, 0)
		return fsCall{syscall: "copyfile", path: from, dest: to, run: func() (any, error) { return nil, copyFile(from, to, mode&1 != 0) }}
	},
	"realpath": func(a fsArgs) fsCall {
		p := a.path(0, capability.FSRead)
		return fsCall{syscall: "realpath", path: p, run: func() (any, error) {
			if _, err := os.Stat(p); err != nil {
				return nil, err
			}
			return filepath.EvalSymlinks(p)
		}}
	},
	"readlink": func(a fsArgs) fsCall {
		p := a.path(0, capability.FSRead|capability.FSNoFollow)
		return fsCall{syscall: "readlink", path: p, run: func() (any, error) { return os.Readlink(p) }}
	},
	"symlink": func(a fsArgs) fsCall {
		target, p := a.str(0), a.path(1, capability.FSWrite|capability.FSNoFollow)
		return fsCall{syscall: "symlink", path: target, dest: p, run: func() (any, error) { return nil, os.Symlink(target, p) }}
	},
	"link": func(a fsArgs) fsCall {
		from, to := a.path(0, capability.FSRead), a.path(1, capability.FSWrite|capability.FSNoFollow)
		return fsCall{syscall: "link", path: from, dest: to, run: func() (any, error) { return nil, os.Link(from, to) }}
	},
	"chmod": func(a fsArgs) fsCall {
		p, mode := a.path(0, capability.FSWrite), os.FileMode(a.int(1, 0))
		return fsCall{syscall: "chmod", path: p, run: func() (any, error) { return nil, os.Chmod(p, mode) }}
	},
	"fchmod": func(a fsArgs) fsCall {
		f, mode := a.fd(0), os.FileMode(a.int(1, 0))
		return fdCall("fchmod", f, func(f *os.File) (any, error) {
			return nil, f.Chmod(mode)
		})
	},
	"chown": func(a fsArgs) fsCall {
		p, uid, gid := a.path(0, capability.FSWrite), int(a.int(1, -1)), int(a.int(2, -1))
		return fsCall{syscall: "chown", path: p, run: func() (any, error) { return nil, os.Chown(p, uid, gid) }}
	},
	"lchown": func(a fsArgs) fsCall {
		p, uid, gid := a.path(0, capability.FSWrite|capability.FSNoFollow), int(a.int(1, -1)), int(a.int(2, -1))
		return fsCall{syscall: "lchown", path: p, run: func() (any, error) { return nil, os.Lchown(p, uid, gid) }}
	},
	"fchown": func(a fsArgs) fsCall {
		f, uid, gid := a.fd(0), int(a.int(1, -1)), int(a.int(2, -1))
		return fdCall("fchown", f, func(f *os.File) (any, error) {
			return nil, f.Chown(uid, gid)
		})
	},
	"utimes": func(a fsArgs) fsCall {
		p, at, mt := a.path(0, capability.FSWrite), msTime(a.arg(1)), msTime(a.arg(2))
		return fsCall{syscall: "utime", path: p, run: func() (any, error) { return nil, os.Chtimes(p, at, mt) }}
	},
	"lutimes": func(a fsArgs) fsCall {
		p, at, mt := a.path(0, capability.FSWrite|capability.FSNoFollow), msTime(a.arg(1)), msTime(a.arg(2))
		return fsCall{syscall: "lutime", path: p, run: func() (any, error) {
			ts := []unix.Timespec{unix.NsecToTimespec(at.UnixNano()), unix.NsecToTimespec(mt.UnixNano())}
			return nil, unix.UtimesNanoAt(unix.AT_FDCWD, p, ts, unix.AT_SYMLINK_NOFOLLOW)
		}}
	},
	"futimes": func(a fsArgs) fsCall {
		f, at, mt := a.fd(0), msTime(a.arg(1)), msTime(a.arg(2))
		return fdCall("futime", f, func(f *os.File) (any, error) {
			return nil, os.Chtimes(f.Name(), at, mt)
		})
	},
	"truncate": func(a fsArgs) fsCall {
		p, n := a.path(0, capability.FSWrite), a.int(1, 0)
		return fsCall{syscall: "open", path: p, run: func() (any, error) { return nil, os.Truncate(p, n) }}
	},
	"ftruncate": func(a fsArgs) fsCall {
		f, n := a.fd(0), a.int(1, 0)
		return fdCall("ftruncate", f, func(f *os.File) (any, error) {
			return nil, f.Truncate(n)
		})
	},
	"open": func(a fsArgs) fsCall {
		flags, err := openFlags(a.arg(1), "r")
		if err != nil {
			a.vm.ThrowTypeError("%v", err)
		}
		p := a.path(0, flagAccess(flags))
		mode := os.FileMode(a.int(2, 0o666))
		t := a.vm.fdTable()
		return fsCall{syscall: "open", path: p, run: func() (any, error) {
			f, err := os.OpenFile(p, flags, mode)
			if err != nil {
				return nil, err
			}
			return t.add(f), nil
		}}
	},
	"close": func(a fsArgs) fsCall {
		n, _ := numberOf(a.arg(0))
		t := a.vm.fdTable()
		return fsCall{syscall: "close", run: func() (any, error) {
			f := t.remove(int(n))
			if f == nil {
				return nil, errBadFD
			}
			return nil, f.Close()
		}}
	},
	// read(fd, length, position) returns the bytes read; node/fs.js copies
	// them into the caller's buffer.
	"read": func(a fsArgs) fsCall {
		f, n, pos := a.fd(0), a.int(1, 0), a.int(2, -1)
		return fdCall("read", f, func(f *os.File) (any, error) {
			buf := make([]byte, max(n, 0))
			var k int
			var err error
			if pos >= 0 {
				k, err = f.ReadAt(buf, pos)
			} else {
				k, err = f.Read(buf)
			}
			if err == io.EOF {
				err = nil
			}
			return buf[:k], err
		})
	},
	"write": func(a fsArgs) fsCall {
		f, data, pos := a.fd(0), a.bytes(1), a.int(2, -1)
		return fdCall("write", f, func(f *os.File) (any, error) {
			var k int
			var err error
			if pos >= 0 {
				k, err = f.WriteAt(data, pos)
			} else {
				k, err = f.Write(data)
			}
			return k, err
		})
	},
	"fsync": func(a fsArgs) fsCall {
		f := a.fd(0)
		return fdCall("fsync", f, func(f *os.File) (any, error) {
			return nil, f.Sync()
		})
	},
}

func statResult(info os.FileInfo, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return statOf(info), nil
}

// bytesOrString is the content of a file: a Go string when the caller
// wants UTF-8 text (decoded here, not byte by byte in JS), else bytes.
func bytesOrString(b []byte, utf8 bool) any {
	if utf8 {
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	return b
}

func msTime(v goja.Value) time.Time {
	if o, ok := v.(*goja.Object); ok {
		if t, ok := o.Export().(time.Time); ok {
			return t
		}
	}
	f, ok := numberOf(v)
	if !ok {
		f = v.ToFloat()
	}
	// Node takes seconds (numbers) or Dates.
	return time.Unix(0, int64(f*1e9))
}

func readDir(p string, types, recursive bool) (any, error) {
	var out []dirent
	var walk func(dir, rel string) error
	walk = func(dir, rel string) error {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			name := e.Name()
			if rel != "" {
				name = rel + "/" + name
			}
			out = append(out, dirent{name: name, parent: dir, mode: unixMode(e.Type())})
			if recursive && e.IsDir() {
				if err := walk(filepath.Join(dir, e.Name()), name); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(p, ""); err != nil {
		return nil, err
	}
	if !types {
		names := make([]string, len(out))
		for i, d := range out {
			names[i] = d.name
		}
		sort.Strings(names)
		return names, nil
	}
	for i := range out {
		out[i].name = filepath.Base(out[i].name)
	}
	return out, nil
}

func copyFile(from, to string, excl bool) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	info, err := src.Stat()
	if err != nil {
		return err
	}
	if info.IsDir() {
		return &fs.PathError{Op: "copyfile", Path: from, Err: syscall.EISDIR}
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if excl {
		flags |= os.O_EXCL
	}
	dst, err := os.OpenFile(to, flags, info.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// syscallError is a failure of another system call than the operation's
// usual one (readFile failing in read, not open).
type syscallError struct {
	syscall string
	err     error
}

func (e *syscallError) Error() string { return e.syscall + ": " + e.err.Error() }
func (e *syscallError) Unwrap() error { return e.err }

// nodeSystemError is an error Node reports with its own code (ERR_FS_*).
type nodeSystemError struct {
	code, msg, syscall, path string
	errno                    syscall.Errno
}

func (e *nodeSystemError) Error() string { return e.msg }

func errnoOf(err error) error {
	var en syscall.Errno
	if errors.As(err, &en) {
		return en
	}
	return err
}

// errnoMessages are libuv's texts where they differ from the C library's.
var errnoMessages = map[syscall.Errno]string{
	syscall.EEXIST: "file already exists",
	syscall.EISDIR: "illegal operation on a directory",
	syscall.EXDEV:  "cross-device link not permitted",
	syscall.ELOOP:  "too many symbolic links encountered",
	syscall.EBADF:  "bad file descriptor",
}

// fsError makes the JS error Node throws for a failed system call:
// "ENOENT: no such file or directory, open '/x'" with errno, code,
// syscall, path (and dest).
func (vm *VM) fsError(err error, c fsCall) goja.Value {
	if se, ok := err.(*nodeSystemError); ok {
		e := vm.newError("SystemError", se.msg, se.code).ToObject(vm.rt)
		e.Set("errno", -int(se.errno))
		e.Set("syscall", se.syscall)
		e.Set("path", se.path)
		return e
	}
	var se *syscallError
	if errors.As(err, &se) {
		c.syscall = se.syscall
	}
	var en syscall.Errno
	if !errors.As(err, &en) {
		e := vm.newError("Error", err.Error(), "EIO").ToObject(vm.rt)
		if c.path != "" {
			e.Set("path", c.path)
		}
		return e
	}
	code := unix.ErrnoName(en)
	text, ok := errnoMessages[en]
	if !ok {
		text = en.Error()
	}
	msg := code + ": " + text + ", " + c.syscall
	if c.path != "" {
		msg += " '" + c.path + "'"
	}
	if c.dest != "" {
		msg += " -> '" + c.dest + "'"
	}
	e := vm.newError("Error", msg, code).ToObject(vm.rt)
	e.Set("errno", -int(en))
	e.Set("syscall", c.syscall)
	if c.path != "" {
		e.Set("path", c.path)
	}
	if c.dest != "" {
		e.Set("dest", c.dest)
	}
	return e
}

// fsValue converts an operation's result to JS, on the loop.
func (vm *VM) fsValue(v any) goja.Value {
	rt := vm.rt
	switch x := v.(type) {
	case nil:
		return goja.Undefined()
	case []byte:
		return buffer.WrapBytes(rt, x)
	case *statData:
		o := rt.NewObject()
		for _, kv := range []struct {
			k string
			v int64
		}{{"dev", x.dev}, {"ino", x.ino}, {"mode", x.mode}, {"nlink", x.nlink}, {"uid", x.uid}, {"gid", x.gid}, {"rdev", x.rdev}, {"size", x.size}, {"blksize", x.blksize}, {"blocks", x.blocks}} {
			o.Set(kv.k, kv.v)
		}
		ms := func(t time.Time) float64 { return float64(t.UnixNano()) / 1e6 }
		o.Set("atimeMs", ms(x.atime))
		o.Set("mtimeMs", ms(x.mtime))
		o.Set("ctimeMs", ms(x.ctime))
		o.Set("birthtimeMs", ms(x.birthtime))
		return o
	case []dirent:
		items := make([]any, len(x))
		for i, d := range x {
			items[i] = rt.NewArray(d.name, d.parent, d.mode)
		}
		return rt.NewArray(items...)
	case []string:
		items := make([]any, len(x))
		for i, s := range x {
			items[i] = s
		}
		return rt.NewArray(items...)
	}
	return rt.ToValue(v)
}

// fsBinding is the Go half of node:fs given to node/fs.js: call(fn, op,
// ...args) runs an operation synchronously, promise(fn, op, ...args) off
// the loop; fn is the Node function the user called, for messages.
func (vm *VM) fsBinding() *goja.Object {
	rt := vm.rt
	prepare := func(call goja.FunctionCall) fsCall {
		op := call.Argument(1).String()
		f, ok := fsOps[op]
		if !ok {
			panic(rt.NewTypeError("fs: unknown operation %s", op))
		}
		return f(fsArgs{vm: vm, fn: call.Argument(0).String(), args: call.Arguments[2:]})
	}
	b := rt.NewObject()
	b.Set("call", func(call goja.FunctionCall) goja.Value {
		c := prepare(call)
		v, err := c.run()
		if err != nil {
			panic(vm.fsError(err, c))
		}
		return vm.fsValue(v)
	})
	b.Set("promise", func(call goja.FunctionCall) goja.Value {
		c := prepare(call)
		return vm.loop.Promise(func() (any, error) {
			v, err := c.run()
			return fsOutcome{v, err}, nil
		}, func(rt *goja.Runtime, v any) (goja.Value, error) {
			o := v.(fsOutcome)
			if o.err != nil {
				return nil, &JSError{Value: vm.fsError(o.err, c)}
			}
			return vm.fsValue(o.v), nil
		})
	})
	b.Set("constants", vm.fsConstants())
	b.Set("resolve", func(p string) string { return vm.resolve(p) })
	// check(fn, path, flags) applies the filesystem check when a stream is
	// created, so that a denial throws there, as the other calls do.
	b.Set("check", func(call goja.FunctionCall) goja.Value {
		fn, p := call.Argument(0).String(), call.Argument(1)
		if goja.IsUndefined(p) || goja.IsNull(p) {
			return goja.Undefined()
		}
		flags, err := openFlags(call.Argument(2), "r")
		if err != nil {
			vm.ThrowTypeError("%v", err)
		}
		if _, err := vm.CheckPath(p.String(), flagAccess(flags)); err != nil {
			panic(vm.AccessDenied("fs."+fn, err))
		}
		return goja.Undefined()
	})
	return b
}

type fsOutcome struct {
	v   any
	err error
}

func (vm *VM) fsConstants() *goja.Object {
	c := vm.rt.NewObject()
	for k, v := range map[string]int{
		"F_OK": unix.F_OK, "R_OK": unix.R_OK, "W_OK": unix.W_OK, "X_OK": unix.X_OK,
		"O_RDONLY": os.O_RDONLY, "O_WRONLY": os.O_WRONLY, "O_RDWR": os.O_RDWR, "O_CREAT": os.O_CREATE,
		"O_EXCL": os.O_EXCL, "O_TRUNC": os.O_TRUNC, "O_APPEND": os.O_APPEND, "O_SYNC": os.O_SYNC,
		"O_NOCTTY": unix.O_NOCTTY, "O_DIRECTORY": unix.O_DIRECTORY, "O_NOFOLLOW": unix.O_NOFOLLOW,
		"O_NONBLOCK": unix.O_NONBLOCK, "O_DSYNC": unix.O_DSYNC,
		"S_IFMT": unix.S_IFMT, "S_IFREG": unix.S_IFREG, "S_IFDIR": unix.S_IFDIR, "S_IFCHR": unix.S_IFCHR,
		"S_IFBLK": unix.S_IFBLK, "S_IFIFO": unix.S_IFIFO, "S_IFLNK": unix.S_IFLNK, "S_IFSOCK": unix.S_IFSOCK,
		"S_IRWXU": unix.S_IRWXU, "S_IRUSR": unix.S_IRUSR, "S_IWUSR": unix.S_IWUSR, "S_IXUSR": unix.S_IXUSR,
		"S_IRWXG": unix.S_IRWXG, "S_IRGRP": unix.S_IRGRP, "S_IWGRP": unix.S_IWGRP, "S_IXGRP": unix.S_IXGRP,
		"S_IRWXO": unix.S_IRWXO, "S_IROTH": unix.S_IROTH, "S_IWOTH": unix.S_IWOTH, "S_IXOTH": unix.S_IXOTH,
		"COPYFILE_EXCL": 1, "COPYFILE_FICLONE": 2, "COPYFILE_FICLONE_FORCE": 4,
		"UV_FS_COPYFILE_EXCL": 1, "UV_FS_COPYFILE_FICLONE": 2, "UV_FS_COPYFILE_FICLONE_FORCE": 4,
		"UV_DIRENT_UNKNOWN": 0, "UV_DIRENT_FILE": 1, "UV_DIRENT_DIR": 2, "UV_DIRENT_LINK": 3,
		"UV_DIRENT_FIFO": 4, "UV_DIRENT_SOCKET": 5, "UV_DIRENT_CHAR": 6, "UV_DIRENT_BLOCK": 7,
	} {
		c.Set(k, v)
	}
	return c
}
